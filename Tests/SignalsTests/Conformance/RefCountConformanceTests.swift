#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/refCount-spec.ts (packages/rxjs/test/ported/cold/operators/ref-count.spec.ts), ported.
//
// `publish().refCount()` is `multicast()` (docs/operators.md, "Conformance"): a `SignalMulti`
// counts its own branches, activated by the first and deactivated with the last.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("multicast() (refCount) — rxjs spec/operators/refCount-spec.ts")
struct RefCountConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should turn a multicasted Observable an automatically (dis)connecting hot one", arguments: variants) func shouldTurnAMulticastedObservableAnAutomaticallyDisConnectingHotOne(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1-2---3-4--5-|")
            let e1Subs = "    ^--------------!"
            let expected = "  --1-2---3-4--5-|"
            let result = e1.signal.multicast()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1Subs)
        }
    }
}

#endif
