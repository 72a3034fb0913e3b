import Signals
import Testing

/// `SignalMergedInput`: direct sends plus whole signals added and removed as sources, run only
/// while the merged signal is active, with configurable end propagation.
@Suite struct MergedInputTests {
    /// Sources added before activation start with it; direct sends and sources interleave in
    /// the order they are sent.
    @Test(arguments: DeliveryVariant.allCases)
    func sourcesRunWhileActive(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        let (s2, sig2) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(sig1) == nil)
        #expect(merged.add(sig2.map { $0 * 100 }) == nil)
        #expect(s1.send(value: 0) == .inactive)
        #expect(merged.send(value: 0) == .inactive)
        let (c, out) = signal.collect()
        #expect(s1.send(value: 1) == nil)
        #expect(s2.send(value: 2) == nil)
        #expect(merged.send(value: 3) == nil)
        #expect(s1.send(value: 4) == nil)
        #expect(c.events == [.value(1), .value(200), .value(3), .value(4)])
        out.cancel()
        #expect(s1.send(value: 5) == .inactive)
        #expect(s2.send(value: 5) == .inactive)
    }

    /// A source added while active starts at once; `remove` stops and deactivates it, returns
    /// true once and false after.
    @Test(arguments: DeliveryVariant.allCases)
    func addWhileActiveAndRemove(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(sig1) == nil)
        #expect(s1.send(value: 1) == nil)
        #expect(merged.remove(sig1))
        #expect(!merged.remove(sig1))
        #expect(s1.send(value: 2) == .inactive)
        #expect(merged.send(value: 3) == nil)
        #expect(c.events == [.value(1), .value(3)])
        out.cancel()
    }

    /// Default propagation (`.errors`): a source's completion only removes it; an error closes
    /// the merged signal.
    @Test(arguments: DeliveryVariant.allCases)
    func errorsPropagation(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        let (s2, sig2) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(sig1) == nil)
        #expect(merged.add(sig2) == nil)
        s1.send(value: 1)
        s1.complete()
        s1.cancel()
        s2.send(value: 2)
        merged.send(value: 3)
        s2.send(end: .other(CoreError.boom))
        #expect(merged.send(value: 4) == .disconnected)
        #expect(c.events == [.value(1), .value(2), .value(3), .boom])
        out.cancel()
    }

    /// `.all`: a source's completion closes the merged signal.
    @Test(arguments: DeliveryVariant.allCases)
    func allPropagation(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(sig1, closePropagation: .all) == nil)
        s1.send(value: 1)
        s1.complete()
        #expect(merged.send(value: 2) == .disconnected)
        #expect(c.events == [.value(1), .complete])
        out.cancel()
    }

    /// `.none`: not even an error from a source closes the merged signal.
    @Test(arguments: DeliveryVariant.allCases)
    func nonePropagation(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(sig1, closePropagation: .none) == nil)
        s1.send(value: 1)
        s1.send(end: .other(CoreError.boom))
        #expect(merged.send(value: 2) == nil)
        merged.complete()
        #expect(c.events == [.value(1), .value(2), .complete])
        out.cancel()
    }

    /// Adding a signal whose output is taken returns `.duplicate`; adding one fed by the merged
    /// signal returns `.loop`; neither disturbs the merged input.
    @Test(arguments: DeliveryVariant.allCases)
    func duplicateAndLoop(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let multi = signal.multicast()
        let (takenInput, taken) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(takenInput) {} }  // kept: releasing it would end the stream and free the output
        let (_, takenOut) = taken.collect()
        #expect(merged.add(taken) == .duplicate)
        let looping = multi.map { $0 + 1 }
        #expect(merged.add(looping) == .loop)
        let (c, out) = multi.collect()
        let (loopingCollector, loopingOut) = looping.collect()
        #expect(merged.send(value: 1) == nil)
        #expect(c.events == [.value(1)])
        #expect(loopingCollector.events == [.value(2)])
        out.cancel()
        loopingOut.cancel()
        takenOut.cancel()
    }

    /// The merged input is an input: releasing it sends `.cancelled`.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingMergedInputCancels(_ variant: DeliveryVariant) {
        var (merged, signal): (SignalMergedInput<Int>?, Signal<Int>) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        merged?.send(value: 1)
        merged = nil
        #expect(c.events == [.value(1), .cancelled])
        out.cancel()
    }
}
