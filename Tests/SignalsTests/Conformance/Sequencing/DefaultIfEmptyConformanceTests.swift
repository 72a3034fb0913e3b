#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/defaultIfEmpty-spec.ts, ported.

@Suite("defaultIfEmpty — rxjs spec/operators/defaultIfEmpty-spec.ts")
struct DefaultIfEmptyConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should return the Observable if not empty with a default value", arguments: variants) func shouldReturnTheObservableIfNotEmptyWithADefaultValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --------|", values: [Character: Int]())
            let e1subs =   "  ^-------!"
            let expected =   "--------(x|)"
            m.expectSignal(e1.signal.defaultIfEmpty(42)).toBe(expected, values: ["x": 42])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return the argument if Observable is empty", arguments: variants) func shouldReturnTheArgumentIfObservableIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            m.expectSignal(e1.signal.defaultIfEmpty("x")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return the Observable if not empty with a default value (second case)", arguments: variants) func shouldReturnTheObservableIfNotEmptyWithADefaultValue2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^-------!"
            let expected =   "--a--b--|"
            m.expectSignal(e1.signal.defaultIfEmpty("x")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow undefined as a default value", arguments: variants) func shouldAllowUndefinedAsADefaultValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --------|")
            let e1subs =   "  ^-------!"
            let expected =   "--------(U|)"
            m.expectSignal(e1.signal.map { String?.some($0) }.defaultIfEmpty(nil)).toBe(expected, values: ["U": String?.none])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^---!    "
            let expected =   "--a--    "
            let unsub =   "   ----!    "
            let result = e1.signal.defaultIfEmpty("x")
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^---!    "
            let expected =   "--a--    "
            let unsub =   "   ----!    "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.defaultIfEmpty("x").flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error if the Observable errors", arguments: variants) func shouldErrorIfTheObservableErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs =   "  (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.defaultIfEmpty("x")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
