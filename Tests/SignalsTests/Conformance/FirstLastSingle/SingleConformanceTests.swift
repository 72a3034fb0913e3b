#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/single-spec.ts, ported.

// Not ported (JavaScript only):
// - "should call predicate with indices starting at 0": the predicate's `index` argument.
// Not written (a form Signals lacks): none.
// RxJS's errors map to Signals' `SignalOperatorError`: SequenceError ("Too many matching
// values") is `.moreThanOneElement`; EmptyError and NotFoundError ("No matching values") are
// both `.noElements` (Signals does not tell an empty source from one with no match).

@Suite("single — rxjs spec/operators/single-spec.ts")
struct SingleConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should raise error from empty predicate if observable emits multiple time", arguments: variants) func shouldRaiseErrorFromEmptyPredicateIfObservableEmitsMultipleTime(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^----!      "
            let expected =   "-----#      "
            m.expectSignal(e1.signal.single()).toBe(expected, error: SignalOperatorError.moreThanOneElement)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from empty predicate if observable does not emit", arguments: variants) func shouldRaiseErrorFromEmptyPredicateIfObservableDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--|")
            let e1subs =   "     ^--!"
            let expected =   "   ---#"
            m.expectSignal(e1.signal.single()).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return only element from empty predicate if observable emits only once", arguments: variants) func shouldReturnOnlyElementFromEmptyPredicateIfObservableEmitsOnlyOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^----!"
            let expected =   "-----(a|)"
            m.expectSignal(e1.signal.single()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let unsub =   "   ----!        "
            let e1subs =   "  ^---!        "
            let expected =   "------------"
            m.expectSignal(e1.signal.single(), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^--!        "
            let expected =   "----        "
            let unsub =   "   ---!        "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.single().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from empty predicate if observable emits error", arguments: variants) func shouldRaiseErrorFromEmptyPredicateIfObservableEmitsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b^--#")
            let e1subs =   "        ^--!"
            let expected =   "      ---#"
            m.expectSignal(e1.signal.single()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from predicate if observable emits error", arguments: variants) func shouldRaiseErrorFromPredicateIfObservableEmitsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--b^--#")
            let e1subs =   "      ^--!"
            let expected =   "    ---#"
            m.expectSignal(e1.signal.single(where: { $0 == "c" })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return element from predicate if observable have single matching element", arguments: variants) func shouldReturnElementFromPredicateIfObservableHaveSingleMatchingElement(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^----------!"
            let expected =   "-----------(b|)"
            m.expectSignal(e1.signal.single(where: { $0 == "b" })).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from predicate if observable have multiple matching element", arguments: variants) func shouldRaiseErrorFromPredicateIfObservableHaveMultipleMatchingElement(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--b--|")
            let e1subs =   "  ^----------!      "
            let expected =   "-----------#      "
            m.expectSignal(e1.signal.single(where: { $0 == "b" })).toBe(expected, error: SignalOperatorError.moreThanOneElement)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from predicate if observable does not emit", arguments: variants) func shouldRaiseErrorFromPredicateIfObservableDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--|")
            let e1subs =   "     ^--!"
            let expected =   "   ---#"
            m.expectSignal(e1.signal.single(where: { $0 == "a" })).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error from predicate if observable does not contain matching element", arguments: variants) func shouldRaiseErrorFromPredicateIfObservableDoesNotContainMatchingElement(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^----------!"
            let expected =   "-----------#"
            m.expectSignal(e1.signal.single(where: { $0 == "x" })).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error for synchronous empty observables when no arguments are provided", arguments: variants) func shouldErrorForSynchronousEmptyObservablesWhenNoArgumentsAreProvided(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|")
            let expected =   "   #"
            let subs = ["      (^!)"]
            let result = source.signal.single()
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for async empty observables when no arguments are provided", arguments: variants) func shouldErrorForAsyncEmptyObservablesWhenNoArgumentsAreProvided(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-------|")
            let expected =   "   -------#"
            let subs = ["      ^------!"]
            let result = source.signal.single()
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for hot observables that do not emit while active when no arguments are provided", arguments: variants) func shouldErrorForHotObservablesThatDoNotEmitWhileActiveWhenNoArgumentsAreProvided(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--^----|")
            let expected =   "          -----#"
            let subs = ["             ^----!"]
            let result = source.signal.single()
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for synchronous empty observables when predicate never passes", arguments: variants) func shouldErrorForSynchronousEmptyObservablesWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|")
            let expected =   "   #"
            let subs = ["      (^!)"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for async empty observables when predicate never passes", arguments: variants) func shouldErrorForAsyncEmptyObservablesWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-------|")
            let expected =   "   -------#"
            let subs = ["      ^------!"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for hot observables that do not emit while active when predicate never passes", arguments: variants) func shouldErrorForHotObservablesThatDoNotEmitWhileActiveWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--^----|")
            let expected =   "          -----#"
            let subs = ["             ^----!"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for synchronous observables that emit when predicate never passes", arguments: variants) func shouldErrorForSynchronousObservablesThatEmitWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(a|)")
            let expected =   "   #"
            let subs = ["      (^!)"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for async observables that emit when predicate never passes", arguments: variants) func shouldErrorForAsyncObservablesThatEmitWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--a--b-|")
            let expected =   "   -------#"
            let subs = ["      ^------!"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for hot observables that emit while active when predicate never passes", arguments: variants) func shouldErrorForHotObservablesThatEmitWhileActiveWhenPredicateNeverPasses(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--^--c--d--|")
            let expected =   "          ---------#"
            let subs = ["             ^--------!"]
            let result = source.signal.single(where: { _ in false })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.noElements)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for synchronous observables when the predicate passes more than once", arguments: variants) func shouldErrorForSynchronousObservablesWhenThePredicatePassesMoreThanOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(axbxc|)")
            let expected =   "   #"
            let subs = ["      (^!)"]
            let result = source.signal.single(where: { $0 == "x" })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.moreThanOneElement)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for async observables that emit when the predicate passes more than once", arguments: variants) func shouldErrorForAsyncObservablesThatEmitWhenThePredicatePassesMoreThanOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--a-x-b-x-c-|")
            let expected =   "   --------#"
            let subs = ["      ^-------!"]
            let result = source.signal.single(where: { $0 == "x" })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.moreThanOneElement)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should error for hot observables that emit while active when the predicate passes more than once", arguments: variants) func shouldErrorForHotObservablesThatEmitWhileActiveWhenThePredicatePassesMoreThanOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--^--c--x--d--x--|")
            let expected =   "          ------------#"
            let subs = ["             ^-----------!"]
            let result = source.signal.single(where: { $0 == "x" })
            m.expectSignal(result).toBe(expected, error: SignalOperatorError.moreThanOneElement)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error if predicate throws error", arguments: variants) func shouldRaiseErrorIfPredicateThrowsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^----------!   "
            let expected =   "-----------#   "
            let predicate = { @Sendable (v: String) throws -> Bool in
                if v != "d" { return false }
                throw MarbleError("error")
            }
            m.expectSignal(e1.signal.single(where: predicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
