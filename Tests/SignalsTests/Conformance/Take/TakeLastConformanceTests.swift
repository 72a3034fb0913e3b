#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/takeLast-spec.ts, ported.

@Suite("takeLast — rxjs spec/operators/takeLast-spec.ts")
struct TakeLastConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take two values of an observable with many values", arguments: variants) func shouldTakeTwoValuesOfAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("--a-----b----c---d--|    ")
            let e1subs =   " ^-------------------!    "
            let expected =   "--------------------(cd|)"
            m.expectSignal(e1.signal.takeLast(2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take last three values", arguments: variants) func shouldTakeLastThreeValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|    ")
            let e1subs =   "  ^-------------------!    "
            let expected =   "--------------------(bcd|)"
            m.expectSignal(e1.signal.takeLast(3)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take all element when try to take larger then source", arguments: variants) func shouldTakeAllElementWhenTryToTakeLargerThenSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|    ")
            let e1subs =   "  ^-------------------!    "
            let expected =   "--------------------(abcd|)"
            m.expectSignal(e1.signal.takeLast(5)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take all element when try to take exact", arguments: variants) func shouldTakeAllElementWhenTryToTakeExact(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a-----b----c---d--|    ")
            let e1subs =   "  ^-------------------!    "
            let expected =   "--------------------(abcd|)"
            m.expectSignal(e1.signal.takeLast(4)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not take any values", arguments: variants) func shouldNotTakeAnyValues(_ variant: DeliveryVariant) {
        withKnownDifference(.takeLastZeroWaitsForEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a-----b----c---d--|")
                let expected =   "|"
                let e1subs: [String] = []
                m.expectSignal(e1.signal.takeLast(0)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should not take any values if provided with negative value", arguments: variants) func shouldNotTakeAnyValuesIfProvidedWithNegativeValue(_ variant: DeliveryVariant) {
        withKnownDifference(.takeLastZeroWaitsForEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a-----b----c---d--|")
                let expected =   "|"
                let e1subs: [String] = []
                m.expectSignal(e1.signal.takeLast(-42)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should work with empty", arguments: variants) func shouldWorkWithEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "|"
            m.expectSignal(e1.signal.takeLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should go on forever on never", arguments: variants) func shouldGoOnForeverOnNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.takeLast(42), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be empty on takeLast(0)", arguments: variants) func shouldBeEmptyOnTakeLast0(_ variant: DeliveryVariant) {
        withKnownDifference(.takeLastZeroWaitsForEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^--b----c---d--|")
                let expected =   "   |"
                let e1subs: [String] = []
                m.expectSignal(e1.signal.takeLast(0)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should take one value from an observable with one value", arguments: variants) func shouldTakeOneValueFromAnObservableWithOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---(a|)")
            let e1subs =   "  ^--!   "
            let expected =   "---(a|)"
            m.expectSignal(e1.signal.takeLast(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take one value from an observable with many values", arguments: variants) func shouldTakeOneValueFromAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b----c---d--|   ")
            let e1subs =   "     ^--------------!   "
            let expected =   "   ---------------(d|)"
            m.expectSignal(e1.signal.takeLast(1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error on empty", arguments: variants) func shouldErrorOnEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^----|")
            let e1subs =   "     ^----!"
            let expected =   "   -----|"
            m.expectSignal(e1.signal.takeLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from the source observable", arguments: variants) func shouldPropagateErrorFromTheSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^---#", error: MarbleError("too bad"))
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            m.expectSignal(e1.signal.takeLast(42)).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from an observable with values", arguments: variants) func shouldPropagateErrorFromAnObservableWithValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b--#")
            let e1subs =   "   ^--------!"
            let expected =   " ---------#"
            m.expectSignal(e1.signal.takeLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub =   "    ---------!            "
            let e1subs =   "   ^--------!            "
            let expected =   " ----------------------"
            m.expectSignal(e1.signal.takeLast(42), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs =   "  (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.takeLast(42)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--a--b-----c--d--e--|")
            let unsub =   "    ---------!            "
            let e1subs =   "   ^--------!            "
            let expected =   " ----------------------"
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.takeLast(42).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
