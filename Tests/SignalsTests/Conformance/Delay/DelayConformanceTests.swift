#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/delay-spec.ts, ported: `delay(t)` with a number is
// `delay(interval: t, context: m.context)`; `delay(date)` is `delay(until:context:)`, the
// date a reading of `m.context`'s clock.
//
// Not ported (JavaScript only):
// - "should unsubscribe scheduled actions after execution": inspects the `AbortSignal` each
//   JS subscriber is handed; cancellation before the delay elapses is the "unsubscribed
//   explicitly" cases here.

@Suite("delay — rxjs spec/operators/delay-spec.ts")
struct DelayConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should delay by specified timeframe", arguments: variants) func shouldDelayBySpecifiedTimeframe(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("  ---a--b--|")
                let e1subs = "    ^--------!"
                let t = m.time("     --|    ")
                //                      --|
                let expected = "  -----a--b|"
                let result = e1.signal.delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should not delay at all if the delay number is negative", arguments: variants) func shouldNotDelayAtAllIfTheDelayNumberIsNegative(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b--|")
            let e1subs = "    ^--------!"
            let t = m.duration(-1)
            let expected = "  ---a--b--|"
            let result = e1.signal.delay(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source raises error", arguments: variants) func shouldRaiseErrorWhenSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---#")
            let e1subs = "    ^----------!"
            let t = m.time("     ---|     ")
            //                       ---|
            let expected = "  ------a---b#"
            let result = e1.signal.delay(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay when source does not emit", arguments: variants) func shouldDelayWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("  ----|")
                let e1subs = "    ^---!"
                let t = m.time("  ---| ")
                let expected = "  ----|"
                let result = e1.signal.delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should not delay when source is empty", arguments: variants) func shouldNotDelayWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.cold(" |   ")
                let e1subs = "    (^!)"
                let t = m.time("  ---|")
                let expected = "  |   "
                let result = e1.signal.delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should delay complete when a value is scheduled", arguments: variants) func shouldDelayCompleteWhenAValueIsScheduled(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.cold(" -a-|    ")
                let e1subs = "    ^--!    "
                let t = m.time("   ---|   ")
                let expected = "  ----(a|)"
                let result = e1.signal.delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should not complete when source does not complete", arguments: variants) func shouldNotCompleteWhenSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---------")
            let e1subs = "    ^---------------!"
            let t = m.time("     ---|          ")
            //                       ---|
            let expected = "  ------a---b------"
            let unsub = "     ----------------!"
            let result = e1.signal.delay(interval: t, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b----")
            let e1subs = "    ^-------!   "
            let t = m.time("     ---|     ")
            //                       ---|
            let expected = "  ------a--   "
            let unsub = "     --------!   "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .delay(interval: t, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete when source never completes", arguments: variants) func shouldNotCompleteWhenSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -   ")
            let e1subs = "  ^!"
            let t = m.time("  ---|")
            let expected = "  -   "
            let result = e1.signal.delay(interval: t, context: m.context)
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be possible to delay complete by composition", arguments: variants) func shouldBePossibleToDelayCompleteByComposition(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b---|  ")
            let e1subs = "    ^---------!  "
            let t = m.time("     --|       ")
            //                      --|
            //                          --|
            let expected = "  -----a--b---|"
            let result = e1.signal.delay(interval: t, context: m.context).concat(
                Signal.just((), delivery: variant)
                    .delay(interval: t, context: m.context)
                    .flatMap { _ in Signal<String>.empty(delivery: variant) }
            )
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay by absolute time period", arguments: variants) func shouldDelayByAbsoluteTimePeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a---a----a----a------------b---b---b---b--|")
            let e1subs = "    ^----------------------------------------------!"
            let t = m.time("  --------------------|                           ")
            let expected = "  --------------------(aaaaa)-----b---b---b---b--|"
            let result = e1.signal.delay(until: m.context.now() + t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not delay at all if the absolute time is in the past", arguments: variants) func shouldNotDelayAtAllIfTheAbsoluteTimeIsInThePast(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a---a----a----a------------b---b---b---b--|")
            let e1subs = "    ^----------------------------------------------!"
            let t = m.duration(-10000)
            let expected = "  --a--a---a----a----a------------b---b---b---b--|"
            let result = e1.signal.delay(until: m.context.now() + t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay by absolute time period after source ends", arguments: variants) func shouldDelayByAbsoluteTimePeriodAfterSourceEnds(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a-----a---a-----a---|             ")
            let e1subs = "     ^----------------------!             "
            let t = m.time("   ------------------------------|      ")
            let expected = "   ------------------------------(aaaa|)"
            let result = e1.signal.delay(until: m.context.now() + t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source raises error before absolute delay fires", arguments: variants) func shouldRaiseErrorWhenSourceRaisesErrorBeforeAbsoluteDelayFires(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a---a-----#     ")
            let e1subs = "    ^--------------!     "
            let t = m.time("  --------------------|")
            let expected = "  ---------------#     "
            let result = e1.signal.delay(until: m.context.now() + t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source raises error after absolute delay fires", arguments: variants) func shouldRaiseErrorWhenSourceRaisesErrorAfterAbsoluteDelayFires(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^---a--a---a---a--------b---b---b--#")
            let e1subs = "     ^----------------------------------!"
            let t = m.time("   -----------------|                  ")
            let expected = "   -----------------(aaaa)-b---b---b--#"
            let result = e1.signal.delay(until: m.context.now() + t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
