#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/finalize-spec.ts (packages/rxjs/test/ported/cold/operators/finalize.spec.ts), ported.
//
// `finalize(f)` is `onDeactivate(_:)`: it runs when the graph is torn down, at the end or at
// unsubscription. RxJS checks its flag once the scheduler is flushed (or at a frame with
// `advanceTo`); here a probe on the clock reads it at that frame, before the marble kit cancels
// what is still subscribed (which would deactivate the graph itself).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("onDeactivate (finalize) — rxjs spec/operators/finalize-spec.ts")
struct FinalizeConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            // RxJS advances the clock to frame 0 and checks the finalizer has not run yet.
            executed.look(at: 0, in: m)
        }
        #expect(executed.seen == false)
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }

    @Test("should handle basic hot observable", arguments: variants) func shouldHandleBasicHotObservable(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^----------!"
            let expected =   "--a--b--c--|"
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }

    @Test("should handle basic cold observable", arguments: variants) func shouldHandleBasicColdObservable(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.cold(" --a--b--c--|")
            let e1subs =   "  ^----------!"
            let expected =   "--a--b--c--|"
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }

    @Test("should handle basic error", arguments: variants) func shouldHandleBasicError(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  --a--b--c--#")
            let e1subs =   "  ^----------!"
            let expected =   "--a--b--c--#"
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }

    @Test("should handle unsubscription", arguments: variants) func shouldHandleUnsubscription(_ variant: DeliveryVariant) {
        let executed = Probe()
        marbleTest(variant, maxFrames: Probe.lastFrame) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "--a--b-"
            let unsub =   "   ------!"
            let result = e1.signal.onDeactivate { executed.ran() }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            executed.look(at: Probe.lastFrame - 1, in: m)
        }
        #expect(executed.seen == true)
    }
}

/// Whether a finalizer has run, read at a frame of the clock.
private final class Probe: Sendable {
    /// The last frame the clock runs to; the probe reads one frame before it, once everything
    /// the diagrams scheduled has happened.
    static let lastFrame = 1_000
    private let state = Mutex<(ran: Bool, seen: Bool?, look: (any Lifetime)?)>((false, nil, nil))

    func ran() { state.withLock { $0.ran = true } }

    /// Reads whether the finalizer has run when the clock reaches `frame`.
    func look(at frame: Int, in m: MarbleTest) {
        let lifetime = m.clock.schedule(after: m.duration(frame)) { [self] in
            state.withLock { $0.seen = $0.ran }
        }
        state.withLock { $0.look = lifetime }
    }

    /// What the probe read (nil: the clock never reached its frame).
    var seen: Bool? { state.withLock { $0.seen } }
}

#endif
