#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/elementAt-spec.ts, ported.

// A default value is `elementAt(_:)` followed by `defaultIfEmpty(_:)` (Signals' `elementAt` has
// no default argument).

@Suite("elementAt — rxjs spec/operators/elementAt-spec.ts")
struct ElementAtConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should return next to last element by zero-based index", arguments: variants) func shouldReturnNextToLastElementByZeroBasedIndex(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c-d---|")
            let e1subs =   "  ^-------!      "
            let expected =   "--------(c|)   "
            m.expectSignal(e1.signal.elementAt(2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return first element by zero-based index", arguments: variants) func shouldReturnFirstElementByZeroBasedIndex(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-!"
            let expected =   "--(a|)"
            m.expectSignal(e1.signal.elementAt(0)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow undefined as a default value", arguments: variants) func shouldAllowUndefinedAsADefaultValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--a---a-|   ")
            let e1subs =   "  ^-------------!   "
            let expected =   "--------------(U|)"
            m.expectSignal(e1.signal.map { String?.some($0) }.elementAt(100).defaultIfEmpty(nil)).toBe(expected, values: ["U": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return non-first element by zero-based index", arguments: variants) func shouldReturnNonFirstElementByZeroBasedIndex(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^----------!         "
            let expected =   "-----------(d|)      "
            m.expectSignal(e1.signal.elementAt(3)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return last element by zero-based index", arguments: variants) func shouldReturnLastElementByZeroBasedIndex(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-------!   "
            let expected =   "--------(c|)"
            m.expectSignal(e1.signal.elementAt(2)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if e1 is Empty Observable", arguments: variants) func shouldRaiseErrorIfE1IsEmptyObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.cold(" |   ")
                let e1subs =   "  (^!)"
                let expected =   "#   "
                m.expectSignal(e1.signal.elementAt(0)).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should raise error if source throws", arguments: variants) func shouldRaiseErrorIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.elementAt(0)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source never completes", arguments: variants) func shouldNotCompleteIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let expected =   "-"
            let e1subs =   "^!"
            m.expectSignal(e1.signal.elementAt(0), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            let result = e1.signal.elementAt(2)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result Observable is unsubscribed", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultObservableIsUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.elementAt(2).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if index is out of range but does not have default value", arguments: variants) func shouldRaiseErrorIfIndexIsOutOfRangeButDoesNotHaveDefaultValue(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--|")
                let e1subs =   "  ^----!"
                let expected =   "-----#"
                m.expectSignal(e1.signal.elementAt(3)).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should return default value if index is out of range", arguments: variants) func shouldReturnDefaultValueIfIndexIsOutOfRange(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|   ")
            let e1subs =   "  ^----!   "
            let expected =   "-----(x|)"
            let defaultValue =   "42"
            m.expectSignal(e1.signal.elementAt(3).defaultIfEmpty(defaultValue)).toBe(expected, values: ["x": defaultValue])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
