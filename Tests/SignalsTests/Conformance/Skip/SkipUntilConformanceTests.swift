#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/skipUntil-spec.ts (packages/rxjs/test/ported/cold/operators/skip-until.spec.ts), ported.
//
// Not ported (JavaScript only):
// - "should not break unsubscription chains with interop inners when result is unsubscribed
//   explicitly": a JavaScript Proxy posing as a foreign library's observable.
// - "should skip all elements if notifier is unsubscribed explicitly before the notifier emits":
//   an AbortController-driven producer fed from a synchronous `subscribe` on the hot source.
// Not written (a form Signals lacks): none.

@Suite("skipUntil — rxjs spec/operators/skipUntil-spec.ts")
struct SkipUntilConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should skip values until another observable notifies", arguments: variants) func shouldSkipValuesUntilAnotherObservableNotifies(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("    --a--b--c--d--e----|")
                let e1subs =   "    ^------------------!"
                let skip = m.hot("  ---------x------|   ")
                let skipSubs = "  ^--------!          "
                let expected = "  -----------d--e----|"
                m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
            }
        }
    }

    @Test("should emit elements after notifier emits", arguments: variants) func shouldEmitElementsAfterNotifierEmits(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("    --a--b--c--d--e--|")
                let e1subs =   "    ^----------------!"
                let skip = m.hot("  ---------x----|   ")
                let skipSubs = "  ^--------!        "
                let expected = "  -----------d--e--|"
                m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
            }
        }
    }

    @Test("should raise an error if notifier throws and source is hot", arguments: variants) func shouldRaiseAnErrorIfNotifierThrowsAndSourceIsHot(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs =   "  ^------------!    "
            let skip = m.hot("-------------#    ")
            let skipSubs = "^------------!    "
            let expected = "-------------#    "
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should skip all elements when notifier does not emit and completes early", arguments: variants) func shouldSkipAllElementsWhenNotifierDoesNotEmitAndCompletesEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs =   "  ^----------------!"
            let skip = m.hot("------------|     ")
            let skipSubs = "^-----------!     "
            let expected = "-----------------|"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("    --a--b--c--d--e----|")
            let unsub =    "     ---------!          "
            let e1subs =   "    ^--------!          "
            let skip = m.hot("  -------------x--|   ")
            let skipSubs = "  ^--------!          "
            let expected = "  ----------          "
            m.expectSignal(e1.signal.skipUntil(skip.signal), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("    --a--b--c--d--e----|")
            let e1subs =   "    ^--------!          "
            let skip = m.hot("  -------------x--|   ")
            let skipSubs = "  ^--------!          "
            let expected = "  ----------          "
            let unsub =    "     ---------!          "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .skipUntil(skip.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should skip all elements when notifier is empty", arguments: variants) func shouldSkipAllElementsWhenNotifierIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("   --a--b--c--d--e--|")
            let e1subs =   "   ^----------------!"
            let skip = m.cold("|                 ")
            let skipSubs = " (^!)              "
            let expected = " -----------------|"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should keep subscription to source, to wait for its eventual completion", arguments: variants) func shouldKeepSubscriptionToSourceToWaitForItsEventualCompletion(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ------------------------------|")
            let e1subs =   "  ^-----------------------------!"
            let skip = m.hot("-------|                       ")
            let skipSubs = "^------!                       "
            let expected = "------------------------------|"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should not complete if hot source observable does not complete", arguments: variants) func shouldNotCompleteIfHotSourceObservableDoesNotComplete(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  -                ")
                let e1subs =   "^---------------!"
                let skip = m.hot("-------------x--|")
                let skipSubs = "^------------!   "
                let expected = "-                "
                m.expectSignal(e1.signal.skipUntil(skip.signal), unsubscription: "^---------------!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
            }
        }
    }

    @Test("should not complete if cold source observable never completes", arguments: variants) func shouldNotCompleteIfColdSourceObservableNeverCompletes(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" -                ")
                let e1subs =   "^---------------!"
                let skip = m.hot("-------------x--|")
                let skipSubs = "^------------!   "
                let expected = "-                "
                m.expectSignal(e1.signal.skipUntil(skip.signal), unsubscription: "^---------------!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
            }
        }
    }

    @Test("should raise error if cold source is never and notifier errors", arguments: variants) func shouldRaiseErrorIfColdSourceIsNeverAndNotifierErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -             ")
            let e1subs =   "  ^------------!"
            let skip = m.hot("-------------#")
            let skipSubs = "^------------!"
            let expected = "-------------#"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should skip all elements and complete if notifier is cold never", arguments: variants) func shouldSkipAllElementsAndCompleteIfNotifierIsColdNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("   --a--b--c--d--e--|")
            let e1subs =   "   ^----------------!"
            let skip = m.cold("-                 ")
            let skipSubs = " ^----------------!"
            let expected = " -----------------|"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should skip all elements and complete if notifier is a hot never", arguments: variants) func shouldSkipAllElementsAndCompleteIfNotifierIsAHotNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs =   "  ^----------------!"
            let skip = m.hot("-                 ")
            let skipSubs = "^----------------!"
            let expected = "-----------------|"
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should skip all elements and complete, even if notifier would not complete until later", arguments: variants) func shouldSkipAllElementsAndCompleteEvenIfNotifierWouldNotCompleteUntilLater(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ^-a--b--c--d--e--|       ")
            let e1subs =   "  ^----------------!       "
            let skip = m.hot("^-----------------------|")
            let skipSubs = "^----------------!       "
            let expected = "-----------------|       "
            m.expectSignal(e1.signal.skipUntil(skip.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should not complete if source does not complete if notifier completes without emission", arguments: variants) func shouldNotCompleteIfSourceDoesNotCompleteIfNotifierCompletesWithoutEmission(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -              ")
            let e1subs =   "^-------------!"
            let skip = m.hot("--------------|")
            let skipSubs = "^-------------!"
            let expected = "-              "
            m.expectSignal(e1.signal.skipUntil(skip.signal), unsubscription: "^-------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should not complete if source and notifier are both hot never", arguments: variants) func shouldNotCompleteIfSourceAndNotifierAreBothHotNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs =   "^!"
            let skip = m.hot("-")
            let skipSubs = "^!"
            let expected = "-"
            m.expectSignal(e1.signal.skipUntil(skip.signal), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(skip.subscriptions).toBe(skipSubs)
        }
    }

    @Test("should unsubscribe the notifier after its first nexted value", arguments: variants) func shouldUnsubscribeTheNotifierAfterItsFirstNextedValue(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.hot("  -^-o---o---o---o---o---o---|")
                let notifier = m.hot("-^--------n--n--n--n--n--n-|")
                let nSubs =    "        ^--------!                 "
                let expected = "----------o---o---o---o---|"
                m.expectSignal(source.signal.skipUntil(notifier.signal)).toBe(expected)
                m.expectSubscriptions(notifier.subscriptions).toBe(nSubs)
            }
        }
    }
}

#endif
