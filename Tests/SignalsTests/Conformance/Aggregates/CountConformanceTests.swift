#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/count-spec.ts, ported.

// Not written (a form Signals lacks): none.
// A predicate is a `filter` before `count()` (Signals' `count` takes none).

@Suite("count — rxjs spec/operators/count-spec.ts")
struct CountConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should count the values of an observable", arguments: variants) func shouldCountTheValuesOfAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--|")
            let subs =   "      ^----------!"
            let expected =   "  -----------(x|)"
            m.expectSignal(source.signal.count()).toBe(expected, values: ["x": 3])
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should be never when source is never", arguments: variants) func shouldBeNeverWhenSourceIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.count(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be zero when source is empty", arguments: variants) func shouldBeZeroWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "(w|)"
            m.expectSignal(e1.signal.count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be never when source doesn't complete", arguments: variants) func shouldBeNeverWhenSourceDoesnTComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--x--^--y--")
            let e1subs =   "^-----!"
            let expected =   "   ------"
            m.expectSignal(e1.signal.count(), unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be zero when source doesn't have values", arguments: variants) func shouldBeZeroWhenSourceDoesnTHaveValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|")
            let e1subs =   "   ^---!"
            let expected =   " ----(w|)"
            m.expectSignal(e1.signal.count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should count the unique value of an observable", arguments: variants) func shouldCountTheUniqueValueOfAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--|")
            let e1subs =   "   ^-----!"
            let expected =   " ------(w|)"
            m.expectSignal(e1.signal.count()).toBe(expected, values: ["w": 1])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should count the values of an ongoing hot observable", arguments: variants) func shouldCountTheValuesOfAnOngoingHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a-^-b--c--d--|")
            let subs =   "          ^----------!"
            let expected =   "      -----------(x|)"
            m.expectSignal(source.signal.count()).toBe(expected, values: ["x": 3])
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should work with error", arguments: variants) func shouldWorkWithError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--z--#", values: ["x": 1, "y": 2, "z": 3], error: MarbleError("too bad"))
            let e1subs =   "   ^--------!"
            let expected =   " ---------#"
            m.expectSignal(e1.signal.count()).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs =   "  (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.count()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-true predicate on an empty hot observable", arguments: variants) func shouldHandleAnAlwaysTruePredicateOnAnEmptyHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|")
            let e1subs =   "   ^---!"
            let expected =   " ----(w|)"
            let predicate: @Sendable (String) -> Bool = { _ in true }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-false predicate on an empty hot observable", arguments: variants) func shouldHandleAnAlwaysFalsePredicateOnAnEmptyHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|")
            let e1subs =   "   ^---!"
            let expected =   " ----(w|)"
            let predicate: @Sendable (String) -> Bool = { _ in false }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-true predicate on a simple hot observable", arguments: variants) func shouldHandleAnAlwaysTruePredicateOnASimpleHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^-a-|")
            let e1subs =   "   ^---!"
            let expected =   " ----(w|)"
            let predicate: @Sendable (String) -> Bool = { _ in true }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 1])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-false predicate on a simple hot observable", arguments: variants) func shouldHandleAnAlwaysFalsePredicateOnASimpleHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^-a-|")
            let e1subs =   "   ^---!"
            let expected =   " ----(w|)"
            let predicate: @Sendable (String) -> Bool = { _ in false }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--4-|")
            let e1subs =   "   ^-----!    "
            let expected =   " -------    "
            let unsub =   "    ------!    "
            let result = e1.signal.filter { Int($0)! < 10 }.count()
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: ["w": 3])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--4-|")
            let e1subs =   "   ^-----!    "
            let expected =   " -------    "
            let unsub =   "    ------!    "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.filter { Int($0)! < 10 }.count().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: ["w": 3])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a match-all predicate on observable with many values", arguments: variants) func shouldHandleAMatchAllPredicateOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--4-|")
            let e1subs =   "   ^---------!"
            let expected =   " ----------(w|)"
            let predicate: @Sendable (String) -> Bool = { Int($0)! < 10 }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 3])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a match-none predicate on observable with many values", arguments: variants) func shouldHandleAMatchNonePredicateOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--4-|")
            let e1subs =   "   ^---------!"
            let expected =   " ----------(w|)"
            let predicate: @Sendable (String) -> Bool = { Int($0)! > 10 }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected, values: ["w": 0])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-true predicate on observable that throws", arguments: variants) func shouldHandleAnAlwaysTruePredicateOnObservableThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^---#")
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            let predicate: @Sendable (String) -> Bool = { _ in true }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-false predicate on observable that throws", arguments: variants) func shouldHandleAnAlwaysFalsePredicateOnObservableThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^---#")
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            let predicate: @Sendable (String) -> Bool = { _ in false }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an always-true predicate on a hot never-observable", arguments: variants) func shouldHandleAnAlwaysTruePredicateOnAHotNeverObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^----")
            let e1subs =   "^----!"
            let expected =   " -----"
            let predicate: @Sendable (String) -> Bool = { _ in true }
            m.expectSignal(e1.signal.filter(predicate).count(), unsubscription: "^----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a predicate that throws, on observable with many values", arguments: variants) func shouldHandleAPredicateThatThrowsOnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^-2--3--|")
            let e1subs =   "   ^----!   "
            let expected =   " -----#   "
            let predicate = { @Sendable (value: String) throws -> Bool in
                if value == "3" { throw MarbleError("error") }
                return true
            }
            m.expectSignal(e1.signal.filter(predicate).count()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
