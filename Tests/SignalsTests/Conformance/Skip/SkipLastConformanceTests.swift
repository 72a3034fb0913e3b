#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/skipLast-spec.ts, ported.

@Suite("skipLast — rxjs spec/operators/skipLast-spec.ts")
struct SkipLastConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should skip two values of an observable with many values", arguments: variants) func shouldSkipTwoValuesOfAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "-------------a---b--|"
            m.expectSignal(e1.signal.skipLast(2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip last three values", arguments: variants) func shouldSkipLastThreeValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "-----------------a--|"
            m.expectSignal(e1.signal.skipLast(3)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip all elements when trying to skip larger then source", arguments: variants) func shouldSkipAllElementsWhenTryingToSkipLargerThenSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--------------------|"
            m.expectSignal(e1.signal.skipLast(5)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip all elements when trying to skip exact", arguments: variants) func shouldSkipAllElementsWhenTryingToSkipExact(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--------------------|"
            m.expectSignal(e1.signal.skipLast(4)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not skip any values", arguments: variants) func shouldNotSkipAnyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----b----c---d--|"
            m.expectSignal(e1.signal.skipLast(0)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not skip any values if provided with negative value", arguments: variants) func shouldNotSkipAnyValuesIfProvidedWithNegativeValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----b----c---d--|"
            m.expectSignal(e1.signal.skipLast(-42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with empty", arguments: variants) func shouldWorkWithEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "|"
            m.expectSignal(e1.signal.skipLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should go on forever on never", arguments: variants) func shouldGoOnForeverOnNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.skipLast(42), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip one value from an observable with one value", arguments: variants) func shouldSkipOneValueFromAnObservableWithOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---(a|)")
            let e1subs =   "  ^--!   "
            let expected =   "---|   "
            m.expectSignal(e1.signal.skipLast(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip one value from an observable with many values", arguments: variants) func shouldSkipOneValueFromAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b----c---d--|")
            let e1subs =   "     ^--------------!"
            let expected =   "   --------b---c--|"
            m.expectSignal(e1.signal.skipLast(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with empty and early emission", arguments: variants) func shouldWorkWithEmptyAndEarlyEmission(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^----|")
            let e1subs =   "     ^----!"
            let expected =   "   -----|"
            m.expectSignal(e1.signal.skipLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from the source observable", arguments: variants) func shouldPropagateErrorFromTheSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^---#", error: MarbleError("too bad"))
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            m.expectSignal(e1.signal.skipLast(42)).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from an observable with values", arguments: variants) func shouldPropagateErrorFromAnObservableWithValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b--#")
            let e1subs =   "   ^--------!"
            let expected =   " ---------#"
            m.expectSignal(e1.signal.skipLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub =   "    ---------!            "
            let e1subs =   "   ^--------!            "
            let expected =   " ----------            "
            m.expectSignal(e1.signal.skipLast(42), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs =   "  (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.skipLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub =   "    ---------!            "
            let e1subs =   "   ^--------!            "
            let expected =   " ----------            "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.skipLast(42).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
