#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/distinctUntilChanged-spec.ts, ported.

// Not written (a form Signals lacks): none.
// A key selector is applied inside `distinctUntilChanged(by:)` (Signals has no `keySelector`
// argument): `by: { compare(key($0), key($1)) }`.

@Suite("distinctUntilChanged — rxjs spec/operators/distinctUntilChanged-spec.ts")
struct DistinctUntilChangedConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should distinguish between values", arguments: variants) func shouldDistinguishBetweenValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -1--2-2----1-3-|")
            let e1subs =   "  ^--------------!"
            let expected =   "-1--2------1-3-|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should distinguish between values (second case)", arguments: variants) func shouldDistinguishBetweenValues2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--b--b--a--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--------b-----a--|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should distinguish between values and does not complete", arguments: variants) func shouldDistinguishBetweenValuesAndDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--b--b--a-")
            let e1subs =   "^------------------!"
            let expected =   "--a--------b-----a-"
            m.expectSignal(e1.signal.distinctUntilChanged(), unsubscription: "^------------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source never completes", arguments: variants) func shouldNotCompleteIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.distinctUntilChanged(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source does not complete", arguments: variants) func shouldNotCompleteIfSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.distinctUntilChanged(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete if source is empty", arguments: variants) func shouldCompleteIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete if source does not emit", arguments: variants) func shouldCompleteIfSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ------|")
            let e1subs =   "  ^-----!"
            let expected =   "------|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit if source emits single element only", arguments: variants) func shouldEmitIfSourceEmitsSingleElementOnly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^----!"
            let expected =   "--a--|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit if source is scalar", arguments: variants) func shouldEmitIfSourceIsScalar(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.just("a", delivery: variant)
            let expected =   "(a|)"
            m.expectSignal(e1.distinctUntilChanged()).toBe(expected)
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--#")
            let e1subs =   "  ^-------!"
            let expected =   "--a-----#"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source throws", arguments: variants) func shouldRaiseErrorIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not omit if source elements are all different", arguments: variants) func shouldNotOmitIfSourceElementsAreAllDifferent(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--b--c--d--e--f--|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--b--d--a--f--|")
            let e1subs =   "  ^---------!          "
            let expected =   "--a--b-----          "
            let unsub =   "   ----------!          "
            let result = e1.signal.distinctUntilChanged()
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--b--d--a--f--|")
            let e1subs =   "  ^---------!          "
            let expected =   "--a--b-----          "
            let unsub =   "   ----------!          "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.distinctUntilChanged().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit once if source elements are all same", arguments: variants) func shouldEmitOnceIfSourceElementsAreAllSame(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--a--a--a--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----------------|"
            m.expectSignal(e1.signal.distinctUntilChanged()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit once if comparator returns true always regardless of source emits", arguments: variants) func shouldEmitOnceIfComparatorReturnsTrueAlwaysRegardlessOfSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----------------|"
            let comparator: @Sendable (String, String) -> Bool = { _, _ in true }
            m.expectSignal(e1.signal.distinctUntilChanged(by: comparator)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit all if comparator returns false always regardless of source emits", arguments: variants) func shouldEmitAllIfComparatorReturnsFalseAlwaysRegardlessOfSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--a--a--a--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--a--a--a--a--a--|"
            let comparator: @Sendable (String, String) -> Bool = { _, _ in false }
            m.expectSignal(e1.signal.distinctUntilChanged(by: comparator)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should distinguish values by comparator", arguments: variants) func shouldDistinguishValuesByComparator(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----c-----e-----|"
            let comparator: @Sendable (Int, Int) -> Bool = { _, y in y % 2 == 0 }
            m.expectSignal(e1.signal.distinctUntilChanged(by: comparator)).toBe(expected, values: ["a": 1, "c": 3, "e": 5])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should use the keySelector to pick comparator values", arguments: variants) func shouldUseTheKeySelectorToPickComparatorValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--b-----d-----f--|"
            let comparator: @Sendable (Int, Int) -> Bool = { _, y in y % 2 == 1 }
            let keySelector: @Sendable (Int) -> Int = { $0 % 2 }
            m.expectSignal(e1.signal.distinctUntilChanged(by: { comparator(keySelector($0), keySelector($1)) })).toBe(expected, values: ["a": 1, "b": 2, "d": 4, "f": 6])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should use the keySelector even for the first emit", arguments: variants) func shouldUseTheKeySelectorEvenForTheFirstEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|", values: ["a": 2, "b": 4])
            let e1subs =   "  ^-------!"
            let expected =   "--a-----|"
            let keySelector: @Sendable (Int) -> Int = { $0 % 2 }
            m.expectSignal(e1.signal.distinctUntilChanged(by: { keySelector($0) == keySelector($1) })).toBe(expected, values: ["a": 2])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when comparator throws", arguments: variants) func shouldRaiseErrorWhenComparatorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^----------!         "
            let expected =   "--a--b--c--#         "
            let comparator = { @Sendable (x: String, y: String) throws -> Bool in
                if y == "d" { throw MarbleError("error") }
                return x == y
            }
            m.expectSignal(e1.signal.distinctUntilChanged(by: comparator)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when keySelector throws", arguments: variants) func shouldRaiseErrorWhenKeySelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^----------!         "
            let expected =   "--a--b--c--#         "
            let keySelector = { @Sendable (x: String) throws -> String in
                if x == "d" { throw MarbleError("error") }
                return x
            }
            m.expectSignal(e1.signal.distinctUntilChanged(by: { try keySelector($0) == keySelector($1) })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
