#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/find-spec.ts, ported. Signals' `find(_:)` sends an optional: RxJS's
// `undefined` (no match) is nil.
//
// Not ported (JavaScript only):
// - "should work with a bound predicate": `thisArg` (`predicate.bind(finder)`).
// Not written (a form Signals lacks): none.

@Suite("find — rxjs spec/operators/find-spec.ts")
struct FindConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should return matching element from source emits single element", arguments: variants) func shouldReturnMatchingElementFromSourceEmitsSingleElement(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 3, "b": 9, "c": 15, "d": 20]
            let e1 = m.hot("  ---a--b--c--d---|", values: values)
            let e1subs =   "  ^--------!       "
            let expected =   "---------(c|)    "
            let predicate: @Sendable (Int) -> Bool = { $0 % 5 == 0 }
            m.expectSignal(e1.signal.find(predicate)).toBe(expected, values: values.mapValues { Int?.some($0) })
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not emit if source does not emit", arguments: variants) func shouldNotEmitIfSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.find { _ in true }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return undefined if source is empty to match predicate", arguments: variants) func shouldReturnUndefinedIfSourceIsEmptyToMatchPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            m.expectSignal(e1.signal.find { _ in true }).toBe(expected, values: ["x": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return matching element from source emits single element (second case)", arguments: variants) func shouldReturnMatchingElementFromSourceEmitsSingleElementSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^-!   "
            let expected =   "--(a|)"
            m.expectSignal(e1.signal.find { $0 == "a" }).toBe(expected, values: ["a": "a"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return matching element from source emits multiple elements", arguments: variants) func shouldReturnMatchingElementFromSourceEmitsMultipleElements(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b---c-|")
            let e1subs =   "  ^----!      "
            let expected =   "-----(b|)   "
            m.expectSignal(e1.signal.find { $0 == "b" }).toBe(expected, values: ["b": "b"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return undefined if element does not match with predicate", arguments: variants) func shouldReturnUndefinedIfElementDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|   ")
            let e1subs =   "  ^----------!   "
            let expected =   "-----------(x|)"
            m.expectSignal(e1.signal.find { $0 == "z" }).toBe(expected, values: ["x": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            m.expectSignal(e1.signal.find { $0 == "z" }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .find { $0 == "z" }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should unsubscribe when the predicate is matched", arguments: variants) func shouldUnsubscribeWhenThePredicateIsMatched(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--b---c-|")
                let e1subs =   "  ^----!      "
                let t = m.time("    --|       ")
                let expected =   "-------(b|) "
                let result = e1.signal.find { $0 == "b" }.delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected, values: ["b": "b"])
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should raise if source raise error while element does not match with predicate", arguments: variants) func shouldRaiseIfSourceRaiseErrorWhileElementDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let expected =   "--------#"
            m.expectSignal(e1.signal.find { $0 == "z" }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if predicate throws error", arguments: variants) func shouldRaiseErrorIfPredicateThrowsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-!         "
            let expected =   "--#         "
            let predicate = { @Sendable (_: String) throws -> Bool in throw MarbleError("error") }
            m.expectSignal(e1.signal.find(predicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
