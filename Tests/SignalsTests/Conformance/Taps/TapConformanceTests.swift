#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/tap-spec.ts (packages/rxjs/test/ported/cold/operators/tap.spec.ts), ported.
//
// `tap(next)` is `onValue(_:)` (the spec's taps do nothing: each case checks that values, ends
// and unsubscription pass through unchanged).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("onValue (tap) — rxjs spec/operators/tap-spec.ts")
struct TapConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should mirror multiple values and complete", arguments: variants) func shouldMirrorMultipleValuesAndComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs =   "  ^----------!"
            let expected =   "--1--2--3--|"
            let result = e1.signal.onValue { _ in }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --1--2--3--#")
            let unsub =   "   -------!    "
            let e1subs =   "  ^------!    "
            let expected =   "--1--2--    "
            let result = e1.signal.onValue { _ in }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --1--2--3--#")
            let e1subs =   "  ^------!    "
            let expected =   "--1--2--    "
            let unsub =   "   -------!    "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .onValue { _ in }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mirror multiple values and complete (second case)", arguments: variants) func shouldMirrorMultipleValuesAndCompleteSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs =   "  ^----------!"
            let expected =   "--1--2--3--|"
            let result = e1.signal.onValue { _ in }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mirror multiple values and terminate with error", arguments: variants) func shouldMirrorMultipleValuesAndTerminateWithError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--#")
            let e1subs =   "  ^----------!"
            let expected =   "--1--2--3--#"
            let result = e1.signal.onValue { _ in }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
