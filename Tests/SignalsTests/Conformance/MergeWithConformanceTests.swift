#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/mergeWith-spec.ts (packages/rxjs/test/ported/cold/operators/merge-with.spec.ts), ported.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("merge(with:) — rxjs spec/operators/mergeWith-spec.ts")
struct MergeWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should handle merging two hot observables", arguments: variants) func shouldHandleMergingTwoHotObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a-----b-----c----|")
            let e1subs =   "  ^------------------!"
            let e2 = m.hot("-----d-----e-----f---|")
            let e2subs =   "  ^--------------------!"
            let expected =   "--a--d--b--e--c--f---|"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge cold and cold", arguments: variants) func shouldMergeColdAndCold(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a-----b-----c----|")
            let e1subs =   "  ^-------------------!"
            let e2 = m.cold(" ------x-----y-----z----|")
            let e2subs =   "  ^----------------------!"
            let expected =   "---a--x--b--y--c--z----|"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge hot and hot", arguments: variants) func shouldMergeHotAndHot(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---a---^-b-----c----|")
            let e1subs =   "       ^------------!"
            let e2 = m.hot("-----x-^----y-----z----|")
            let e2subs =   "       ^---------------!"
            let expected =   "     --b--y--c--z----|"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge hot and cold", arguments: variants) func shouldMergeHotAndCold(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("---a-^---b-----c----|")
            let e1subs =   "     ^--------------!"
            let e2 = m.cold("    --x-----y-----z----|")
            let e2subs =   "     ^------------------!"
            let expected =   "   --x-b---y-c---z----|"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge parallel emissions", arguments: variants) func shouldMergeParallelEmissions(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a----b----c----|")
            let e1subs =   "  ^-----------------!"
            let e2 = m.hot("  ---x----y----z----|")
            let e2subs =   "  ^-----------------!"
            let expected =   "---(ax)-(by)-(cz)-|"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a-----b-----c----|  ")
            let e1subs =   "  ^---------!           "
            let e2 = m.hot("  -----d-----e-----f---|")
            let e2subs =   "  ^---------!           "
            let expected =   "--a--d--b--           "
            let unsub =   "   ----------!           "
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a-----b-----c----|  ")
            let e1subs =   "  ^---------!           "
            let e2 = m.hot("  -----d-----e-----f---|")
            let e2subs =   "  ^---------!           "
            let expected =   "--a--d--b--           "
            let unsub =   "   ----------!           "
            let result = e1.signal.map { $0 }
                .merge(with: e2.signal)
                .map { $0 }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge empty and empty", arguments: variants) func shouldMergeEmptyAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("|   ")
            let e1subs =   " (^!)"
            let e2 = m.cold("|   ")
            let e2subs =   " (^!)"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe("|")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge three empties", arguments: variants) func shouldMergeThreeEmpties(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("|")
            let e1subs =   " (^!)"
            let e2 = m.cold("|")
            let e2subs =   " (^!)"
            let e3 = m.cold("|")
            let e3subs =   " (^!)"
            let result = e1.signal.merge(with: e2.signal, e3.signal)
            m.expectSignal(result).toBe("|")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should merge never and empty", arguments: variants) func shouldMergeNeverAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let e1subs =   "^!"
            let e2 = m.cold("|")
            let e2subs =   " (^!)"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result, unsubscription: "^!").toBe("-")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge never and never", arguments: variants) func shouldMergeNeverAndNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let e1subs =   "^!"
            let e2 = m.cold("-")
            let e2subs =   "^!"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result, unsubscription: "^!").toBe("-")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge empty and throw", arguments: variants) func shouldMergeEmptyAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("|")
            let e1subs =   " (^!)"
            let e2 = m.cold("#")
            let e2subs =   " (^!)"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe("#")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge hot and throw", arguments: variants) func shouldMergeHotAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot(" --a--b--c--|")
            let e1subs =   "(^!)"
            let e2 = m.cold("#")
            let e2subs =   "(^!)"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe("#")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge never and throw", arguments: variants) func shouldMergeNeverAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let e1subs =   " (^!)"
            let e2 = m.cold("#")
            let e2subs =   " (^!)"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe("#")
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge empty and eventual error", arguments: variants) func shouldMergeEmptyAndEventualError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)    "
            let e2 = m.hot("  -------#")
            let e2subs =   "  ^------!"
            let expected =   "-------#"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge hot and error", arguments: variants) func shouldMergeHotAndError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^------!    "
            let e2 = m.hot("  -------#    ")
            let e2subs =   "  ^------!    "
            let expected =   "--a--b-#    "
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge never and error", arguments: variants) func shouldMergeNeverAndError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --------")
            let e1subs =   "  ^------!"
            let e2 = m.hot("  -------#")
            let e2subs =   "  ^------!"
            let expected =   "-------#"
            let result = e1.signal.merge(with: e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }
}

#endif
