#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/every-spec.ts, ported.

// Signals' name for `every` is `all(_:)` (docs/operators.md). The spec's predicate is
// `+x % 5 === 0`: JavaScript turns a letter or `undefined` (a character missing from `values`)
// into NaN, which fails it. Here the values are `Int?` (nil for a missing character) and the
// String sources' letters fail it the same way.
//
// Not written (a form Signals lacks): none.

@Suite("every (Signals all) — rxjs spec/operators/every-spec.ts")
struct EveryConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Sendable static func predicate(_ x: Int?) -> Bool { x.map { $0 % 5 == 0 } ?? false }
    @Sendable static func predicate(_ x: String) -> Bool { Int(x).map { $0 % 5 == 0 } ?? false }
    @Sendable static func truePredicate<T>(_ x: T) -> Bool { true }

    @Test("should return false if only one of elements does not match with predicate", arguments: variants) func shouldReturnFalseIfOnlyOneOfElementsDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": 18, "e": 20]
            let e1 = m.hot("  --a--b--c--d--e--|", values: values)
            let e1subs =   "  ^----------!      "
            let expected =   "-----------(x|)   "
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": false])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit true if source is empty", arguments: variants) func shouldEmitTrueIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----|   ")
            let e1subs =   "  ^----!   "
            let expected =   "-----(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": true])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit false if single source element does not match with predicate", arguments: variants) func shouldEmitFalseIfSingleSourceElementDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^-!   "
            let expected =   "--(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": false])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit false if none of elements match with predicate", arguments: variants) func shouldEmitFalseIfNoneOfElementsMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs =   "  ^-!               "
            let expected =   "--(x|)            "
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": false])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return false if only some of elements matches with predicate", arguments: variants) func shouldReturnFalseIfOnlySomeOfElementsMatchesWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": nil, "e": nil]
            let e1 = m.hot("  --a--b--c--d--e--|", values: values)
            let e1subs =   "  ^----------!      "
            let expected =   "-----------(x|)   "
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": false])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": nil, "e": nil]
            let e1 = m.hot("  --a--b--c--d--e--|", values: values)
            let e1subs =   "  ^------!          "
            let expected =   "--------          "
            let unsub =   "   -------!          "
            let result = e1.signal.all(Self.predicate)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result observable is unsubscribed", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultObservableIsUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": nil, "e": nil]
            let e1 = m.hot("  --a--b--c--d--e--|", values: values)
            let e1subs =   "  ^------!          "
            let expected =   "--------          "
            let unsub =   "   -------!          "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.all(Self.predicate).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit true if single source element matches with predicate", arguments: variants) func shouldEmitTrueIfSingleSourceElementMatchesWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5]
            let e1 = m.hot("  --a--|   ", values: values)
            let e1subs =   "  ^----!   "
            let expected =   "-----(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": true])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit true if scalar source matches with predicate", arguments: variants) func shouldEmitTrueIfScalarSourceMatchesWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal<Int?>.from([5], delivery: variant)
            let expected =   "(x|)"
            m.expectSignal(e1.all(Self.predicate)).toBe(expected, values: ["x": true])
        }
    }

    @Test("should emit false if scalar source does not match with predicate", arguments: variants) func shouldEmitFalseIfScalarSourceDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal<Int?>.from([3], delivery: variant)
            let expected =   "(x|)"
            m.expectSignal(e1.all(Self.predicate)).toBe(expected, values: ["x": false])
        }
    }

    @Test("should emit true if scalar array source matches with predicate", arguments: variants) func shouldEmitTrueIfScalarArraySourceMatchesWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal<Int?>.from([5, 10, 15, 20], delivery: variant)
            let expected =   "(x|)"
            m.expectSignal(e1.all(Self.predicate)).toBe(expected, values: ["x": true])
        }
    }

    @Test("should emit false if scalar array source does not match with predicate", arguments: variants) func shouldEmitFalseIfScalarArraySourceDoesNotMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal<Int?>.from([5, 9, 15, 20], delivery: variant)
            let expected =   "(x|)"
            m.expectSignal(e1.all(Self.predicate)).toBe(expected, values: ["x": false])
        }
    }

    @Test("should emit true if all source elements match with predicate", arguments: variants) func shouldEmitTrueIfAllSourceElementsMatchWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": 20, "e": 25]
            let e1 = m.hot("  --a--b--c--d--e--|   ", values: values)
            let e1subs =   "  ^----------------!   "
            let expected =   "-----------------(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": true])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --#")
            let e1subs =   "  ^-!"
            let expected =   "--#"
            m.expectSignal(e1.signal.all(Self.truePredicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source never emits", arguments: variants) func shouldNotCompleteIfSourceNeverEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.all(Self.truePredicate), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit true if source element matches with predicate after subscription", arguments: variants) func shouldEmitTrueIfSourceElementMatchesWithPredicateAfterSubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": 20, "e": 25, "z": nil]
            let e1 = m.hot("--z--^--a--b--c--d--e--|   ", values: values)
            let e1subs =   "     ^-----------------!   "
            let expected =   "   ------------------(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": true])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit false if source element does not match with predicate after subscription", arguments: variants) func shouldEmitFalseIfSourceElementDoesNotMatchWithPredicateAfterSubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int?] = ["a": 5, "b": 10, "c": 15, "d": 20, "z": nil]
            let e1 = m.hot("--z--^--b--c--z--d--|", values: values)
            let e1subs =   "     ^--------!      "
            let expected =   "   ---------(x|)   "
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": false])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source raises error after subscription", arguments: variants) func shouldRaiseErrorIfSourceRaisesErrorAfterSubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--z--^--#")
            let e1subs =   "     ^--!"
            let expected =   "   ---#"
            m.expectSignal(e1.signal.all(Self.truePredicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit true if source does not emit after subscription", arguments: variants) func shouldEmitTrueIfSourceDoesNotEmitAfterSubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--z--^-----|   ")
            let e1subs =   "     ^-----!   "
            let expected =   "   ------(x|)"
            m.expectSignal(e1.signal.all(Self.predicate)).toBe(expected, values: ["x": true])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error if predicate eventually throws", arguments: variants) func shouldPropagateErrorIfPredicateEventuallyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs =   "  ^-------!"
            let expected =   "--------#"
            let faultyPredicate = { @Sendable (x: String) throws -> Bool in
                if x == "c" { throw MarbleError("error") }
                return true
            }
            m.expectSignal(e1.signal.all(faultyPredicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error if predicate eventually throws on scalar array source", arguments: variants) func shouldPropagateErrorIfPredicateEventuallyThrowsOnScalarArraySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal<Int>.from([5, 10, 15, 20], delivery: variant)
            let expected =   "#"
            let faultyPredicate = { @Sendable (x: Int) throws -> Bool in
                if x == 15 { throw MarbleError("error") }
                return true
            }
            m.expectSignal(e1.all(faultyPredicate)).toBe(expected)
        }
    }

    @Test("should propagate error if predicate throws on scalar source", arguments: variants) func shouldPropagateErrorIfPredicateThrowsOnScalarSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.just(3, delivery: variant)
            let expected =   "#"
            let faultyPredicate = { @Sendable (_: Int) throws -> Bool in throw MarbleError("error") }
            m.expectSignal(e1.all(faultyPredicate)).toBe(expected)
        }
    }
}

#endif
