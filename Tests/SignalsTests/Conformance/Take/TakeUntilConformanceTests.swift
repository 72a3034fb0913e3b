#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/takeUntil-spec.ts (packages/rxjs/test/ported/cold/operators/take-until.spec.ts), ported.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("takeUntil — rxjs spec/operators/takeUntil-spec.ts")
struct TakeUntilConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take values until notifier emits", arguments: variants) func shouldTakeValuesUntilNotifierEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^------------!          "
            let e2 = m.hot("  -------------z--|       ")
            let e2subs = "    ^------------!          "
            let expected = "  --a--b--c--d-|          "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should take values and raises error when notifier raises error", arguments: variants) func shouldTakeValuesAndRaisesErrorWhenNotifierRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^------------!          "
            let e2 = m.hot("  -------------#          ")
            let e2subs = "    ^------------!          "
            let expected = "  --a--b--c--d-#          "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should take all values when notifier is empty", arguments: variants) func shouldTakeAllValuesWhenNotifierIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^----------------------!"
            let e2 = m.hot("  -------------|          ")
            let e2subs = "    ^------------!          "
            let expected = "  --a--b--c--d--e--f--g--|"
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should take all values when notifier does not complete", arguments: variants) func shouldTakeAllValuesWhenNotifierDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^----------------------!"
            let e2 = m.hot("  -                       ")
            let e2subs = "    ^----------------------!"
            let expected = "  --a--b--c--d--e--f--g--|"
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should complete without subscribing to the source when notifier synchronously emits", arguments: variants) func shouldCompleteWithoutSubscribingToTheSourceWhenNotifierSynchronouslyEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a--|")
            let e2 = Signal.just(1, 2, 3, delivery: variant)
            let expected = "  (|)     "
            m.expectSignal(e1.signal.takeUntil(e2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe()
        }
    }

    @Test("should subscribe to the source when notifier synchronously completes without emitting", arguments: variants) func shouldSubscribeToTheSourceWhenNotifierSynchronouslyCompletesWithoutEmitting(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a--|")
            let e1subs = "    ^------!"
            let e2 = Signal<Int>.empty(delivery: variant)
            let expected = "  ----a--|"
            m.expectSignal(e1.signal.takeUntil(e2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^------!                "
            let e2 = m.hot("  -------------z--|       ")
            let e2subs = "    ^------!                "
            let unsub = "     -------!                "
            let expected = "  --a--b--                "
            m.expectSignal(e1.signal.takeUntil(e2.signal), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should complete when notifier emits if source observable does not complete", arguments: variants) func shouldCompleteWhenNotifierEmitsIfSourceObservableDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -        ")
            let e1subs = "    ^-!      "
            let e2 = m.hot("  --a--b--|")
            let e2subs = "    ^-!      "
            let expected = "  --|      "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error when notifier raises error if source observable does not complete", arguments: variants) func shouldRaiseErrorWhenNotifierRaisesErrorIfSourceObservableDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -  ")
            let e1subs = "    ^-!"
            let e2 = m.hot("  --#")
            let e2subs = "    ^-!"
            let expected = "  --#"
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete when notifier is empty if source observable does not complete", arguments: variants) func shouldNotCompleteWhenNotifierIsEmptyIfSourceObservableDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -  ")
            let e1subs = "  ^--!"
            let e2 = m.hot("  --|")
            let e2subs = "    ^-!"
            let expected = "  ---"
            m.expectSignal(e1.signal.takeUntil(e2.signal), unsubscription: "^--!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete when source and notifier do not complete", arguments: variants) func shouldNotCompleteWhenSourceAndNotifierDoNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs = "  ^!"
            let e2 = m.hot("  -")
            let e2subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.takeUntil(e2.signal), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should complete when notifier emits before source observable emits", arguments: variants) func shouldCompleteWhenNotifierEmitsBeforeSourceObservableEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a--|")
            let e1subs = "    ^-!     "
            let e2 = m.hot("  --x     ")
            let e2subs = "    ^-!     "
            let expected = "  --|     "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if source raises error before notifier emits", arguments: variants) func shouldRaiseErrorIfSourceRaisesErrorBeforeNotifierEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--#     ")
            let e1subs = "    ^-------------!     "
            let e2 = m.hot("  ----------------a--|")
            let e2subs = "    ^-------------!     "
            let expected = "  --a--b--c--d--#     "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error immediately if source throws", arguments: variants) func shouldRaiseErrorImmediatelyIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let e2 = m.hot("  --x ")
            let e2subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should dispose source observable if notifier emits before source emits", arguments: variants) func shouldDisposeSourceObservableIfNotifierEmitsBeforeSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---|")
            let e1subs = "    ^-!     "
            let e2 = m.hot("  --x-|   ")
            let e2subs = "    ^-!     "
            let expected = "  --|     "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should dispose notifier if source observable completes", arguments: variants) func shouldDisposeNotifierIfSourceObservableCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|     ")
            let e1subs = "    ^----!     "
            let e2 = m.hot("  -------x--|")
            let e2subs = "    ^----!     "
            let expected = "  --a--|     "
            m.expectSignal(e1.signal.takeUntil(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--|")
            let e1subs = "    ^------!                "
            let e2 = m.hot("  -------------z--|       ")
            let e2subs = "    ^------!                "
            let unsub = "     -------!                "
            let expected = "  --a--b--                "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .takeUntil(e2.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }
}

#endif
