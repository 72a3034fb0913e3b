#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/skip-spec.ts, ported.

@Suite("skip — rxjs spec/operators/skip-spec.ts")
struct SkipConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should skip values before a total", arguments: variants) func shouldSkipValuesBeforeATotal(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let subs =   "      ^----------------!"
            let expected =   "  -----------d--e--|"
            m.expectSignal(source.signal.skip(3)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should skip all values without error if total is more than actual number of values", arguments: variants) func shouldSkipAllValuesWithoutErrorIfTotalIsMoreThanActualNumberOfValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let subs =   "      ^----------------!"
            let expected =   "  -----------------|"
            m.expectSignal(source.signal.skip(6)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should skip all values without error if total is same as actual number of values", arguments: variants) func shouldSkipAllValuesWithoutErrorIfTotalIsSameAsActualNumberOfValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let subs =   "      ^----------------!"
            let expected =   "  -----------------|"
            m.expectSignal(source.signal.skip(5)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should not skip if count is zero", arguments: variants) func shouldNotSkipIfCountIsZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let subs =   "      ^----------------!"
            let expected =   "  --a--b--c--d--e--|"
            m.expectSignal(source.signal.skip(0)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should not skip if count is negative value", arguments: variants) func shouldNotSkipIfCountIsNegativeValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--a--b--c--d--e--|")
            let subs =   "       ^----------------!"
            let expected =   "   --a--b--c--d--e--|"
            m.expectSignal(source.signal.skip(-42)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let unsub =   "     ----------!       "
            let subs =   "      ^---------!       "
            let expected =   "  --------c--       "
            m.expectSignal(source.signal.skip(2), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|")
            let subs =   "      ^---------!       "
            let expected =   "  --------c--       "
            let unsub =   "     ----------!       "
            let result = source.signal.flatMap { Signal.just($0, delivery: variant) }.skip(2).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error if skip count is more than actual number of emits and source raises error", arguments: variants) func shouldRaiseErrorIfSkipCountIsMoreThanActualNumberOfEmitsAndSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--#")
            let subs =   "      ^-------------!"
            let expected =   "  --------------#"
            m.expectSignal(source.signal.skip(6)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error if skip count is same as emits of source and source raises error", arguments: variants) func shouldRaiseErrorIfSkipCountIsSameAsEmitsOfSourceAndSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--#")
            let subs =   "      ^-------------!"
            let expected =   "  --------------#"
            m.expectSignal(source.signal.skip(4)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should skip values before a total and raises error if source raises error", arguments: variants) func shouldSkipValuesBeforeATotalAndRaisesErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--#")
            let subs =   "      ^-------------!"
            let expected =   "  -----------d--#"
            m.expectSignal(source.signal.skip(3)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should complete regardless of skip count if source is empty", arguments: variants) func shouldCompleteRegardlessOfSkipCountIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "|"
            m.expectSignal(e1.signal.skip(3)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source never completes without emit", arguments: variants) func shouldNotCompleteIfSourceNeverCompletesWithoutEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.skip(3), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip values before total and never completes if source emits and does not complete", arguments: variants) func shouldSkipValuesBeforeTotalAndNeverCompletesIfSourceEmitsAndDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c-")
            let e1subs =   "^---------!"
            let expected =   "-----b--c-"
            m.expectSignal(e1.signal.skip(1), unsubscription: "^---------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip all values and never completes if total is more than numbers of value and source does not complete", arguments: variants) func shouldSkipAllValuesAndNeverCompletesIfTotalIsMoreThanNumbersOfValueAndSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c-")
            let e1subs =   "^---------!"
            let expected =   "----------"
            m.expectSignal(e1.signal.skip(6), unsubscription: "^---------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip all values and never completes if total is same asnumbers of value and source does not complete", arguments: variants) func shouldSkipAllValuesAndNeverCompletesIfTotalIsSameAsnumbersOfValueAndSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c-")
            let e1subs =   "^---------!"
            let expected =   "----------"
            m.expectSignal(e1.signal.skip(3), unsubscription: "^---------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source throws", arguments: variants) func shouldRaiseErrorIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs =   "  (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.skip(3)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
