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

    /// Released with sources attached, a merged input keeps them running (CwlSignal: each
    /// source holds its merged input): their values still arrive; `.cancelled` comes once the
    /// last of them is gone, here when it completes (`.errors` propagation: its `complete` only
    /// removes it). The input object itself is freed at once.
    @Test(arguments: DeliveryVariant.allCases)
    func releasedMergedInputRunsUntilItsSourcesEnd(_ variant: DeliveryVariant) {
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        let (s2, sig2) = Signal<Int>.create(delivery: variant)
        weak var released: SignalMergedInput<Int>?
        let (c, out): (Recorder<Int>, SignalOutput<Int>)
        do {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
            #expect(merged.add(sig1) == nil)
            #expect(merged.add(sig2) == nil)
            (c, out) = signal.collect()
            #expect(merged.send(value: 0) == nil)
            released = merged
        }
        #expect(released == nil, "the input object is not kept")
        #expect(s1.send(value: 1) == nil)
        #expect(s1.complete() == nil)
        #expect(s2.send(value: 2) == nil)
        #expect(c.events == [.value(0), .value(1), .value(2)], "one source left: still open")
        #expect(s2.complete() == nil)
        #expect(c.events == [.value(0), .value(1), .value(2), .cancelled])
        out.cancel()
    }

    /// A released merged input whose source leaves on deactivation (`removeOnDeactivate`)
    /// sends its `.cancelled` then: the next subscriber gets it. With the source staying
    /// (the default), the merged signal runs the source again for the next subscriber.
    @Test(arguments: DeliveryVariant.allCases)
    func releasedMergedInputAndDeactivation(_ variant: DeliveryVariant) {
        for removeOnDeactivate in [true, false] {
            let (s1, sig1) = Signal<Int>.create(delivery: variant)
            let signal: Signal<Int>
            do {
                let (merged, merging) = Signal<Int>.createMergedInput(delivery: variant)
                #expect(merged.add(sig1, removeOnDeactivate: removeOnDeactivate) == nil)
                signal = merging
            }
            let (c1, out1) = signal.collect()
            #expect(s1.send(value: 1) == nil)
            out1.cancel()
            let (c2, out2) = signal.collect()
            let sent = s1.send(value: 2)
            #expect(c1.events == [.value(1)])
            if removeOnDeactivate {
                #expect(c2.events == [.cancelled])
                #expect(sent == .inactive)
            } else {
                #expect(c2.events == [.value(2)])
                #expect(sent == nil)
            }
            out2.cancel()
        }
    }

    /// Nothing of a released merged input outlives its graph: once the subscription is
    /// cancelled and the signals are released, the handler is freed, with a source that never
    /// ended still attached.
    @Test(arguments: DeliveryVariant.allCases)
    func releasedMergedInputFreesItsGraph(_ variant: DeliveryVariant) {
        let deinits = DeinitCounter()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        weak var weakSignal: Signal<Int>?
        do {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
            #expect(merged.add(sig1) == nil)
            let token = deinits.token()
            let out = signal.subscribeValues { _ in token.touch() }
            #expect(s1.send(value: 1) == nil)
            weakSignal = signal
            out.cancel()
        }
        #expect(deinits.freed == 1, "handler freed")
        #expect(weakSignal == nil, "merged signal freed")
        withExtendedLifetime(s1) {}
    }

    /// A removed source's output is free again: it can be added back (its values flow again)
    /// or subscribed directly (CwlSignal: the source's handler goes with the merge's
    /// processor). A mapped source frees its whole chain.
    @Test(arguments: DeliveryVariant.allCases)
    func removedSourceCanBeAddedAgainOrSubscribed(_ variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        let mapped = sig1.map { $0 * 10 }
        #expect(merged.add(mapped) == nil)
        #expect(s1.send(value: 1) == nil)
        #expect(merged.remove(mapped))
        #expect(merged.add(mapped) == nil, "added again after remove")
        #expect(s1.send(value: 2) == nil)
        #expect(merged.remove(mapped))
        let (direct, directOut) = mapped.collect()
        #expect(s1.send(value: 3) == nil)
        #expect(c.events == [.value(10), .value(20)])
        #expect(direct.events == [.value(30)], "subscribed directly after remove")
        directOut.cancel()
        out.cancel()
    }

    /// Once a merged graph is gone (its subscription cancelled, its input and signal released),
    /// a source it held, which never ended, is free for another merged input or a subscriber.
    @Test(arguments: DeliveryVariant.allCases)
    func sourceIsFreeOnceItsMergedGraphIsGone(_ variant: DeliveryVariant) {
        let (s1, sig1) = Signal<Int>.create(delivery: variant)
        do {
            let (merged, out) = Signal<Int>.mergedChannel(delivery: variant).subscribeValues { _ in }
            #expect(merged.add(sig1) == nil)
            #expect(s1.send(value: 1) == nil)
            out.cancel()
        }
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        #expect(merged.add(sig1) == nil)
        let (c, out) = signal.collect()
        #expect(s1.send(value: 2) == nil)
        #expect(c.events == [.value(2)])
        out.cancel()
    }
}
