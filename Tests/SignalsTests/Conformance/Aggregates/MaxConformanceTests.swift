#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/max-spec.ts, ported.

// Not written (a form Signals lacks): none.
// RxJS's comparer returns a number; `order(_:)` turns it into Signals' `max(by:)` ordering.

@Suite("max — rxjs spec/operators/max-spec.ts")
struct MaxConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// RxJS's `max(comparer)` keeps the kept value `x` over a new `y` when `comparer(x, y) > 0`;
    /// Signals' `max(by:)` replaces the kept value when `areInIncreasingOrder(kept, new)`.
    static func order<T>(_ comparer: @escaping @Sendable (T, T) -> Int) -> @Sendable (T, T) -> Bool {
        { kept, new in comparer(kept, new) <= 0 }
    }

    @Test("should find the max of values of an observable", arguments: variants) func shouldFindTheMaxOfValuesOfAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|   ", values: ["a": 42, "b": -1, "c": 3])
            let e1subs =   "  ^----------!   "
            let expected =   "-----------(x|)"
            m.expectSignal(e1.signal.max()).toBe(expected, values: ["x": 42])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be never when source is never", arguments: variants) func shouldBeNeverWhenSourceIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.max(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be zero when source is empty", arguments: variants) func shouldBeZeroWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            m.expectSignal(e1.signal.max()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be never when source doesn't complete", arguments: variants) func shouldBeNeverWhenSourceDoesnTComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--x--^--y--")
            let e1subs =   "^-----!"
            let expected =   "   ------"
            m.expectSignal(e1.signal.max(), unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source doesn't have values", arguments: variants) func shouldCompleteWhenSourceDoesnTHaveValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|")
            let e1subs =   "   ^---!"
            let expected =   " ----|"
            m.expectSignal(e1.signal.max()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should max the unique value of an observable", arguments: variants) func shouldMaxTheUniqueValueOfAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--|   ", values: ["x": 0, "y": 42])  // "x" (RxJS: undefined) comes before the subscription
            let e1subs =   "   ^-----!   "
            let expected =   " ------(w|)"
            m.expectSignal(e1.signal.max()).toBe(expected, values: ["w": 42])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should max the values of an ongoing hot observable", arguments: variants) func shouldMaxTheValuesOfAnOngoingHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--|   ", values: ["a": 42, "b": -1, "c": 0, "d": 6])
            let e1subs =   "    ^----------!   "
            let expected =   "  -----------(x|)"
            m.expectSignal(e1.signal.max()).toBe(expected, values: ["x": 6])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|", values: ["a": 42, "b": -1, "c": 0])
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            m.expectSignal(e1.signal.max(), unsubscription: unsub).toBe(expected, values: ["x": 42])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|", values: ["a": 42, "b": -1, "c": 0])
            let e1subs =   "  ^-----!     "
            let expected =   "-------     "
            let unsub =   "   ------!     "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.max().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: ["x": 42])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with error", arguments: variants) func shouldWorkWithError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--z--#", values: ["x": 1, "y": 2, "z": 3], error: MarbleError("too bad"))
            let e1subs =   "   ^--------!"
            let expected =   " ---------#"
            m.expectSignal(e1.signal.max()).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.max()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a constant predicate on an empty hot observable", arguments: variants) func shouldHandleAConstantPredicateOnAnEmptyHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|")
            let e1subs =   "   ^---!"
            let expected =   " ----|"
            let predicate: @Sendable (String, String) -> Int = { _, _ in 42 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate))).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a constant predicate on an never hot observable", arguments: variants) func shouldHandleAConstantPredicateOnAnNeverHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^----")
            let e1subs =   "^----!"
            let expected =   " -----"
            let predicate: @Sendable (String, String) -> Int = { _, _ in 42 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate)), unsubscription: "^----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a constant predicate on a simple hot observable", arguments: variants) func shouldHandleAConstantPredicateOnASimpleHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^-a-|   ", values: ["x": 0, "a": 1])  // "x" (RxJS: undefined) comes before the subscription
            let e1subs =   "   ^---!   "
            let expected =   " ----(w|)"
            let predicate: @Sendable (Int, Int) -> Int = { _, _ in 42 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate))).toBe(expected, values: ["w": 1])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a reverse predicate on observable with many values", arguments: variants) func shouldHandleAReversePredicateOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-a-^-b--c--d-|   ", values: ["a": 42, "b": -1, "c": 0, "d": 666])
            let e1subs =   "   ^---------!   "
            let expected =   " ----------(w|)"
            let predicate: @Sendable (Int, Int) -> Int = { x, y in x > y ? -1 : 1 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate))).toBe(expected, values: ["w": -1])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a predicate for string on observable with many values", arguments: variants) func shouldHandleAPredicateForStringOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-a-^-b--c--d-|   ")
            let e1subs =   "   ^---------!   "
            let expected =   " ----------(w|)"
            let predicate: @Sendable (String, String) -> Int = { x, y in x > y ? -1 : 1 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate))).toBe(expected, values: ["w": "b"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a constant predicate on observable that throws", arguments: variants) func shouldHandleAConstantPredicateOnObservableThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^---#")
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            let predicate: @Sendable (String, String) -> Int = { _, _ in 42 }
            m.expectSignal(e1.signal.max(by: Self.order(predicate))).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a predicate that throws, on observable with many values", arguments: variants) func shouldHandleAPredicateThatThrowsOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--|")
            let e1subs =   "   ^----!   "
            let expected =   " -----#   "
            let predicate = { @Sendable (x: String, y: String) throws -> Int in
                if y == "3" { throw MarbleError("error") }
                return x > y ? -1 : 1
            }
            // The throwing form of `order(_:)`.
            m.expectSignal(e1.signal.max(by: { kept, new in try predicate(kept, new) <= 0 })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
