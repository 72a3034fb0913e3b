#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/delayWhen-spec.ts (packages/rxjs/test/ported/cold/operators/delay-when.spec.ts), ported.
//
// `delayWhen(durationSelector)` is `delay(offset:)` (CwlSignal's `delay` with a signal);
// RxJS's `let idx = 0; … selector[idx++]` is `SelectorIndex`.
//
// Not ported (JavaScript only):
// - "should call predicate with indices starting at 0": the selector's `index` argument.
// A throwing selector uses `delay(offset:)`'s overload on `throws`. RxJS's second argument,
// `subscriptionDelay`, is `delaySubscription(until:)` before `delay(offset:)`.
//
// Not written: none.

@Suite("delay(offset:) — rxjs spec/operators/delayWhen-spec.ts")
struct DelayWhenConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should delay by duration selector", arguments: variants) func shouldDelayByDurationSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c--|      ")
            let expected = "-----a------c----(b|)"
            let subs = "    ^-------------!      "
            let selector = [
                m.cold("             --x--|            "),
                m.cold("                 ----------(x|)"),
                m.cold("                     -x--|     "),
            ]
            let selectorSubs = [
                "               ---^-!               ",
                "               -------^---------!   ",
                "               -----------^!        ",
            ]
            let idx = SelectorIndex()
            let result = e1.signal.delay { _ in selector[idx.next()].signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector[0].subscriptions).toBe(selectorSubs[0])
            m.expectSubscriptions(selector[1].subscriptions).toBe(selectorSubs[1])
            m.expectSubscriptions(selector[2].subscriptions).toBe(selectorSubs[2])
        }
    }

    @Test("should delay by selector", arguments: variants) func shouldDelayBySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     --a--b--| ")
            let expected = "   ---a--b-| "
            let subs = "       ^-------! "
            let selector = m.cold("-x--|   ")
            //                        -x--|
            let selectorSubs = [
                "                  --^!      ",
                "                  -----^!   ",
            ]
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("      --a--# ")
            let expected = "    ---a-# "
            let subs = "        ^----! "
            let selector = m.cold(" -x--|")
            let selectorSubs = "--^!   "
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should raise error if selector raises error", arguments: variants) func shouldRaiseErrorIfSelectorRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("      --a--b--|")
            let expected = "    ---#     "
            let subs = "        ^--!     "
            let selector = m.cold(" -#     ")
            let selectorSubs = "--^!     "
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should delay by selector and completes after value emits", arguments: variants) func shouldDelayBySelectorAndCompletesAfterValueEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     --a--b--|       ")
            let expected = "   ---------a--(b|)"
            let subs = "       ^-------!       "
            let selector = m.cold("-------x--|   ")
            //                        -------x--|
            let selectorSubs = [
                "                  --^------!      ",
                "                  -----^------!   ",
            ]
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should delay, but not emit if the selector never emits a notification", arguments: variants) func shouldDelayButNotEmitIfTheSelectorNeverEmitsANotification(_ variant: DeliveryVariant) {
        withKnownDifference(.anyEndCloses, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("     --a--b--|   ")
                let expected = "   -----------|"
                let subs = "       ^-------!   "
                let selector = m.cold("------|   ")
                //                        ------|
                let selectorSubs = [
                    "                  --^-----!   ",
                    "                  -----^-----!",
                ]
                let result = e1.signal.delay { _ in selector.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
                m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
            }
        }
    }

    @Test("should not emit for async source and sync empty selector", arguments: variants) func shouldNotEmitForAsyncSourceAndSyncEmptySelector(_ variant: DeliveryVariant) {
        withKnownDifference(.anyEndCloses, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("  a--|")
                let expected = "---|"
                let subs = "    ^--!"
                let result = e1.signal.delay { _ in Signal<String>.empty(delivery: variant) }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should not emit if selector never emits", arguments: variants) func shouldNotEmitIfSelectorNeverEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     --a--b--|")
            let expected = "   -        "
            let subs = "       ^-------!"
            let selector = m.cold("-      ")
            //                        -
            let selectorSubs = [
                "--^------!",
                "-----^---!",
            ]
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result, unsubscription: "^--------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should delay by first value from selector", arguments: variants) func shouldDelayByFirstValueFromSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     --a--b--|       ")
            let expected = "   ------a--(b|)   "
            let subs = "       ^-------!       "
            let selector = m.cold("----x--y--|   ")
            //                        ----x--y--|
            let selectorSubs = [
                "                  --^---!         ",
                "                  -----^---!      ",
            ]
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should delay by selector that does not completes", arguments: variants) func shouldDelayBySelectorThatDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     --a--b--|          ")
            let expected = "   ------a--(b|)      "
            let subs = "       ^-------!          "
            let selector = m.cold("----x-----y---   ")
            //                        ----x-----y---
            let selectorSubs = [
                "                  --^---!            ",
                "                  -----^---!         ",
            ]
            let result = e1.signal.delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
        }
    }

    @Test("should raise error if selector throws", arguments: variants) func shouldRaiseErrorIfSelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs = "    ^-!      "
            let expected = "  --#      "
            let err = MarbleError("error")
            let result = e1.signal.delay { (_: String) throws -> Signal<String> in throw err }
            m.expectSignal(result).toBe(expected, error: err)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start subscription when subscription delay emits", arguments: variants) func shouldStartSubscriptionWhenSubscriptionDelayEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("       -----a---b---| ")
            let expected = "     -------a---b-| "
            let subs = "         ---^---------! "
            let selector = m.cold("     --x--|    ")
            //                              --x--|
            let selectorSubs = [
                "                -----^-!     ",
                "                ---------^-! ",
            ]
            let subDelay = m.cold("---x--|        ")
            let subDelaySub = "  ^--!           "
            let result = e1.signal.delaySubscription(until: subDelay.signal).delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
            m.expectSubscriptions(subDelay.subscriptions).toBe(subDelaySub)
        }
    }

    @Test("should start subscription when subscription delay completes without emit value", arguments: variants) func shouldStartSubscriptionWhenSubscriptionDelayCompletesWithoutEmitValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("       -----a---b---| ")
            let expected = "     -------a---b-| "
            let subs = "         ---^---------! "
            let selector = m.cold("     --x--|    ")
            //                              --x--|
            let selectorSubs = [
                "              -----^-!       ",
                "              ---------^-!   ",
            ]
            let subDelay = m.cold("---|           ")
            let subDelaySub = "  ^--!           "
            let result = e1.signal.delaySubscription(until: subDelay.signal).delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(selector.subscriptions).toBe(selectorSubs)
            m.expectSubscriptions(subDelay.subscriptions).toBe(subDelaySub)
        }
    }

    @Test("should raise error when subscription delay raises error", arguments: variants) func shouldRaiseErrorWhenSubscriptionDelayRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("       -----a---b---|")
            let expected = "     ---#          "
            let selector = m.cold("     --x--|   ")
            let subDelay = m.cold("---#          ")
            let subDelaySub = "  ^--!          "
            let result = e1.signal.delaySubscription(until: subDelay.signal).delay { _ in selector.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe([])
            m.expectSubscriptions(selector.subscriptions).toBe([])
            m.expectSubscriptions(subDelay.subscriptions).toBe(subDelaySub)
        }
    }
}

#endif
