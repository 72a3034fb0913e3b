#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/ignoreElements-spec.ts, ported.

@Suite("ignoreElements — rxjs spec/operators/ignoreElements-spec.ts")
struct IgnoreElementsConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should ignore all the elements of the source", arguments: variants) func shouldIgnoreAllTheElementsOfTheSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^-------------!"
            let expected =   "--------------|"
            m.expectSignal(e1.signal.ignoreElements()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^------!       "
            let expected =   "--------       "
            let unsub =   "   -------!       "
            let result = e1.signal.ignoreElements()
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly with higher order", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitlyWithHigherOrder(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let e1subs =   "  ^------!       "
            let expected =   "--------       "
            let unsub =   "   -------!       "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.ignoreElements().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors from the source", arguments: variants) func shouldPropagateErrorsFromTheSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--#")
            let e1subs =   "  ^----!"
            let expected =   "-----#"
            m.expectSignal(e1.signal.ignoreElements()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            m.expectSignal(e1.signal.ignoreElements()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.ignoreElements(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  #  ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.ignoreElements()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
