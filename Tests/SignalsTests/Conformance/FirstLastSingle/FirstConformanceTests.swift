#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/first-spec.ts, ported.

// Not ported (JavaScript only):
// - "should return first value that matches the index in the predicate": the predicate's
//   `index` argument.
// Not written (a form Signals lacks): none.
// A default value is `first(where:)` followed by `defaultIfEmpty(_:)` (Signals' `first` has
// no default argument).

@Suite("first — rxjs spec/operators/first-spec.ts")
struct FirstConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take the first value of an observable with many values", arguments: variants) func shouldTakeTheFirstValueOfAnObservableWithManyValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--b--c---d---|")
            let e1subs =   "  ^----!              "
            let expected =   "-----(a|)           "
            m.expectSignal(e1.signal.first()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take the first value of an observable with one value", arguments: variants) func shouldTakeTheFirstValueOfAnObservableWithOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---(a|)")
            let e1subs =   "  ^--!   "
            let expected =   "---(a|)"
            m.expectSignal(e1.signal.first()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow undefined as a default value", arguments: variants) func shouldAllowUndefinedAsADefaultValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--a---a-|   ")
            let e1subs =   "  ^-------------!   "
            let expected =   "--------------(U|)"
            m.expectSignal(e1.signal.map { String?.some($0) }.first(where: { $0 == "b" }).defaultIfEmpty(nil)).toBe(expected, values: ["U": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error on empty", arguments: variants) func shouldErrorOnEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^----|")
                let e1subs =   "     ^----!"
                let expected =   "   -----#"
                m.expectSignal(e1.signal.first()).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should return the default value if source observable was empty", arguments: variants) func shouldReturnTheDefaultValueIfSourceObservableWasEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-----^----|   ")
            let e1subs =   "     ^----!   "
            let expected =   "   -----(a|)"
            m.expectSignal(e1.signal.first().defaultIfEmpty("a")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from the source observable", arguments: variants) func shouldPropagateErrorFromTheSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^---#")
            let e1subs =   "   ^---!"
            let expected =   " ----#"
            m.expectSignal(e1.signal.first()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should go on forever on never", arguments: variants) func shouldGoOnForeverOnNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--^-------")
            let e1subs =   "^-------!"
            let expected =   "--------"
            m.expectSignal(e1.signal.first(), unsubscription: "^-------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^-----b----c---d--|")
            let e1subs =   "     ^--!               "
            let expected =   "   ----               "
            let unsub =   "      ---!               "
            m.expectSignal(e1.signal.first(), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^-----b----c---d--|")
            let e1subs =   "     ^--!               "
            let expected =   "   ----               "
            let unsub =   "      ---!               "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.first().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should unsubscribe when the first value is received", arguments: variants) func shouldUnsubscribeWhenTheFirstValueIsReceived(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--b---c-|")
                let e1subs =   "  ^-!         "
                let t = m.time("    --|       ")
                let expected =   "----(a|)    "
                let result = e1.signal.first().delay(interval: t, context: m.context)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should return first value that matches a predicate", arguments: variants) func shouldReturnFirstValueThatMatchesAPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^--b--c--a--c--|")
            let e1subs =   "    ^-----!         "
            let expected =   "  ------(c|)      "
            m.expectSignal(e1.signal.first(where: { $0 == "c" })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return first value that matches a predicate for odd numbers", arguments: variants) func shouldReturnFirstValueThatMatchesAPredicateForOddNumbers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5]
            let e1 = m.hot("--a-^--b--c--d--e--|", values: values)
            let e1subs =   "    ^-----!         "
            let expected =   "  ------(c|)      "
            m.expectSignal(e1.signal.first(where: { $0 % 2 == 1 })).toBe(expected, values: ["c": 3])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error when no value matches the predicate", arguments: variants) func shouldErrorWhenNoValueMatchesThePredicate(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a-^--b--c--a--c--|")
                let e1subs =   "    ^--------------!"
                let expected =   "  ---------------#"
                m.expectSignal(e1.signal.first(where: { $0 == "s" })).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should return the default value when no value matches the predicate", arguments: variants) func shouldReturnTheDefaultValueWhenNoValueMatchesThePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^--b--c--a--c--|   ")
            let e1subs =   "    ^--------------!   "
            let expected =   "  ---------------(d|)"
            m.expectSignal(e1.signal.first(where: { $0 == "s" }).defaultIfEmpty("d")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error when no value matches the predicate", arguments: variants) func shouldPropagateErrorWhenNoValueMatchesThePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^--b--c--a--#")
            let e1subs =   "    ^-----------!"
            let expected =   "  ------------#"
            m.expectSignal(e1.signal.first(where: { $0 == "s" })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate error from predicate", arguments: variants) func shouldPropagateErrorFromPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5]
            let e1 = m.hot("--a-^--b--c--d--e--|", values: values)
            let e1subs =   "    ^--------!      "
            let expected =   "  ---------#      "
            let predicate = { @Sendable (value: Int) throws -> Bool in
                if value < 4 { return false }
                throw MarbleError("error")
            }
            m.expectSignal(e1.signal.first(where: predicate)).toBe(expected, error: MarbleError("error"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
