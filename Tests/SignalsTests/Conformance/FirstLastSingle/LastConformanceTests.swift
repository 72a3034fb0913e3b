#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/last-spec.ts, ported.

// Not written (a form Signals lacks): none.
// A default value is `last(where:)` followed by `defaultIfEmpty(_:)` (Signals' `last` has no
// default argument).

@Suite("last — rxjs spec/operators/last-spec.ts")
struct LastConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take the last value of an observable", arguments: variants) func shouldTakeTheLastValueOfAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a----b--c--|   ")
            let e1subs =   "  ^------------!   "
            let expected =   "-------------(c|)"
            m.expectSignal(e1.signal.last()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error on nothing sent but completed", arguments: variants) func shouldErrorOnNothingSentButCompleted(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^----|")
                let e1subs =   "     ^----!"
                let expected =   "   -----#"
                m.expectSignal(e1.signal.last()).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should error on empty", arguments: variants) func shouldErrorOnEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.completesWithoutValue, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.cold(" |   ")
                let e1subs =   "  (^!)"
                let expected =   "#   "
                m.expectSignal(e1.signal.last()).toBe(expected, error: SignalOperatorError.noElements)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should go on forever on never", arguments: variants) func shouldGoOnForeverOnNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.last(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow undefined as a default value", arguments: variants) func shouldAllowUndefinedAsADefaultValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--a---a-|   ")
            let e1subs =   "  ^-------------!   "
            let expected =   "--------------(U|)"
            m.expectSignal(e1.signal.map { String?.some($0) }.last(where: { $0 == "b" }).defaultIfEmpty(nil)).toBe(expected, values: ["U": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return last element matches with predicate", arguments: variants) func shouldReturnLastElementMatchesWithPredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--|   ")
            let e1subs =   "  ^-------------!   "
            let expected =   "--------------(b|)"
            m.expectSignal(e1.signal.last(where: { $0 == "b" })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^------!       "
            let expected =   "--------       "
            let unsub =   "   -------!       "
            m.expectSignal(e1.signal.last(), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^------!       "
            let expected =   "--------       "
            let unsub =   "   -------!       "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.last().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return a default value if no element found", arguments: variants) func shouldReturnADefaultValueIfNoElementFound(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(a|)"
            m.expectSignal(e1.signal.last().defaultIfEmpty("a")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not return default value if an element is found", arguments: variants) func shouldNotReturnDefaultValueIfAnElementIsFound(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a---^---b---c---d---|   ")
            let e1subs =   "      ^---------------!   "
            let expected =   "    ----------------(d|)"
            m.expectSignal(e1.signal.last().defaultIfEmpty("x")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when predicate throws", arguments: variants) func shouldRaiseErrorWhenPredicateThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e--|")
            let e1subs =   "     ^-------!           "
            let expected =   "   --------#           "
            let predicate = { @Sendable (x: String) throws -> Bool in
                if x == "c" { throw MarbleError("error") }
                return false
            }
            m.expectSignal(e1.signal.last(where: predicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
