#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/take-spec.ts, ported.
//
// Not ported (JavaScript only):
// - "should complete even if the parameter is a string": JavaScript's number coercion.
// - "should unsubscribe from the source when it reaches the limit before a recursive
//   synchronous upstream error is notified": a JS `Subject` erroring re-entrantly from `tap`.

@Suite("take — rxjs spec/operators/take-spec.ts")
struct TakeConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take two values of an observable with many values", arguments: variants) func shouldTakeTwoValuesOfAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs = "    ^-------!------------"
            let expected = "  --a-----(b|)         "
            m.expectSignal(e1.signal.take(2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with empty", arguments: variants) func shouldWorkWithEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs = "    (^!)"
            let expected = "  |"
            m.expectSignal(e1.signal.take(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should go on forever on never", arguments: variants) func shouldGoOnForeverOnNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.take(42), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be empty on take(0)", arguments: variants) func shouldBeEmptyOnTake0(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b----c---d--|")
            let expected = "     |"
            m.expectSignal(e1.signal.take(0)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe([])  // not subscribed at all
        }
    }

    @Test("should be empty if provided with negative value", arguments: variants) func shouldBeEmptyIfProvidedWithNegativeValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let expected = "  |"
            m.expectSignal(e1.signal.take(-42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe([])  // not subscribed at all
        }
    }

    @Test("should take one value of an observable with one value", arguments: variants) func shouldTakeOneValueOfAnObservableWithOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---(a|)")
            let e1subs = "    ^--!---"
            let expected = "  ---(a|)"
            m.expectSignal(e1.signal.take(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take one values of an observable with many values", arguments: variants) func shouldTakeOneValuesOfAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b----c---d--|")
            let e1subs = "       ^--!------------"
            let expected = "     ---(b|)         "
            m.expectSignal(e1.signal.take(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error on empty", arguments: variants) func shouldErrorOnEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^----|")
            let e1subs = "       ^----!"
            let expected = "     -----|"
            m.expectSignal(e1.signal.take(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from the source observable", arguments: variants) func shouldPropagateErrorFromTheSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^---#", error: MarbleError("too bad"))
            let e1subs = "     ^---!"
            let expected = "   ----#"
            m.expectSignal(e1.signal.take(42)).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from an observable with values", arguments: variants) func shouldPropagateErrorFromAnObservableWithValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b--#")
            let e1subs = "     ^--------!"
            let expected = "   ---a--b--#"
            m.expectSignal(e1.signal.take(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub = "      ---------!------------"
            let e1subs = "     ^--------!------------"
            let expected = "   ---a--b---            "
            m.expectSignal(e1.signal.take(42), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs = "    (^!)"
            let expected = "  #"
            m.expectSignal(e1.signal.take(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub = "      ---------!            "
            let e1subs = "     ^--------!            "
            let expected = "   ---a--b---            "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .take(42)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
