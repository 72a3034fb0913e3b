import Signals
import Synchronization
import Testing

/// CwlSignal's junction and capture end handlers, `rebind`, merged inputs removed on
/// deactivation and the reconnector, on both variants.
@Suite struct RebindingPortTests {
    static let variants = DeliveryVariant.allCases

    /// A source that counts its activations and hands out its current input.
    final class CountingSource: Sendable {
        final class State: Sendable {
            let lock = Mutex<(activations: Int, input: SignalInput<Int>?)>((0, nil))
            func withLock<R>(_ body: (inout (activations: Int, input: SignalInput<Int>?)) -> R) -> R { lock.withLock { body(&$0) } }
        }
        let state = State()
        let signal: Signal<Int>
        init(_ v: DeliveryVariant) {
            let state = self.state
            signal = Signal<Int>.generate(delivery: v) { input in
                state.withLock { s in
                    if input != nil { s.activations += 1 }
                    s.input = input
                }
            }
        }
        var activations: Int { state.withLock { $0.activations } }
        @discardableResult func send(_ x: Int) -> SignalSendError? {
            let input = state.withLock { $0.input }
            return input?.send(value: x) ?? .inactive
        }
        func fail() { state.withLock { $0.input }?.send(end: .other(TestError.boom)) }
    }

    /// The end goes to the handler, not into the input; the junction is disconnected by then.
    @Test(arguments: variants) func junctionEndHandler(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (downstream, result) = Signal<Int>.create(delivery: v)
        let r = Recorder(result)
        let ends = Collected<String>()
        let junction = signal.junction()
        let stillBound = Collected<Bool>()
        let refused = junction.bind(to: downstream) { j, end, i in
            ends.append("\(End(end))")
            stillBound.append(j.disconnect() != nil)
            i.send(value: 99)
        }
        #expect(refused == nil)
        input.send(value: 1)
        input.send(end: .other(TestError.boom))
        #expect(r.values == [1, 99])
        #expect(r.end == nil)
        #expect(ends.all == ["\(End.boom)"])
        #expect(stillBound.all == [false], "disconnected before the handler runs")
    }

    /// `rebind()` deactivates and re-activates the source, still bound to the same input;
    /// unbound, it does nothing.
    @Test(arguments: variants) func rebind(_ v: DeliveryVariant) {
        let source = CountingSource(v)
        let (downstream, result) = Signal<Int>.create(delivery: v)
        let r = Recorder(result)
        let junction = source.signal.junction()
        junction.bind(to: downstream)
        source.send(1)
        #expect(source.activations == 1)
        junction.rebind()
        #expect(source.activations == 2)
        source.send(2)
        let ends = Collected<String>()
        junction.rebind { _, end, _ in ends.append("\(End(end))") }
        #expect(source.activations == 3)
        source.fail()
        #expect(ends.all == ["\(End.boom)"])
        #expect(r.values == [1, 2])
        #expect(r.end == nil)
        junction.rebind()
        #expect(source.activations == 3, "not bound: nothing to rebind")
    }

    /// A capture bound with a selection sends the chosen activation values, then the held
    /// values; with an end handler, the end goes to the handler.
    @Test(arguments: variants) func captureBindWithSelectionAndEndHandler(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let (downstream, result) = Signal<Int>.create(delivery: v)
        let r = Recorder(result)
        let capture = multi.capture()
        input.send(value: 3)
        let junction = capture.bind(to: downstream, resend: .last)
        #expect(r.values == [2, 3])
        input.send(value: 4)
        #expect(r.values == [2, 3, 4])

        let ends = Collected<String>()
        let resumed = Recorder(multi.capture().resume(resend: .none) { c, end, i in
            ends.append("\(End(end)) after \(c.values)")
            i.send(value: -1)
            i.send(end: .complete)
        })
        input.send(value: 5)
        input.send(end: .other(TestError.boom))
        #expect(resumed.values == [5, -1])
        #expect(resumed.end == .complete)
        // Once the bound signal has ended, the capture reads no values (CwlSignal's clears them).
        #expect(ends.all == ["\(End.boom) after []"])
        #expect(r.end == .boom)
        #expect(capture.bind(to: downstream, resend: .all).isFailure, "a capture binds once")
        withExtendedLifetime(junction) {}
    }

    /// `removeOnDeactivate: true` drops the source when the merged signal deactivates; by
    /// default it is attached again on the next activation.
    @Test(arguments: variants) func mergedInputRemoveOnDeactivate(_ v: DeliveryVariant) {
        for remove in [true, false] {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: v)
            let shared = signal.multicast()
            let source = CountingSource(v)
            #expect(merged.add(source.signal, closePropagation: .errors, removeOnDeactivate: remove) == nil)
            let first = Recorder(shared)
            source.send(1)
            first.cancel()
            let second = Recorder(shared)
            source.send(2)
            #expect(first.values == [1])
            #expect(second.values == (remove ? [] : [2]))
            #expect(source.activations == (remove ? 1 : 2))
            merged.send(value: 3)
            #expect(second.values == (remove ? [3] : [2, 3]), "the merged input itself still works")
            second.cancel()
        }
    }

    /// CwlSignal's `testMergeSet`: four sources in a merged input behind a junction, the
    /// junction disconnected and bound again at once, one source removed by hand. CwlSignal's
    /// test expects the `removeOnDeactivate: true` source's `8` after the rebind: its code never
    /// removes such a source (the processor's output activation count is cleared just before
    /// `lastOutputDeactivatedInternal` reads it, so its guard returns). Signals removes it at the
    /// merged signal's deactivation, as the parameter says: `8` is not delivered (README,
    /// "Where Signals differs from CwlSignal").
    @Test(arguments: variants) func mergeSet(_ v: DeliveryVariant) {
        let (merged, mergeSignal) = Signal<Int>.createMergedInput(delivery: v)
        let (input, out) = Signal<Int>.create(delivery: v)
        let r = Recorder(out)
        let junction = mergeSignal.junction()
        #expect(junction.bind(to: input) == nil)

        let (input1, signal1) = Signal<Int>.create(delivery: v)
        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let (input3, signal3) = Signal<Int>.create(delivery: v)
        let (input4, signal4) = Signal<Int>.create(delivery: v)
        let cached4 = signal4.cacheUntilActive()
        #expect(merged.add(signal1.cacheUntilActive(), closePropagation: .none, removeOnDeactivate: false) == nil)
        #expect(merged.add(signal2.cacheUntilActive(), closePropagation: .all, removeOnDeactivate: false) == nil)
        #expect(merged.add(signal3.cacheUntilActive(), closePropagation: .none, removeOnDeactivate: true) == nil)
        #expect(merged.add(cached4, closePropagation: .none, removeOnDeactivate: false) == nil)

        input1.send(value: 3)
        input2.send(value: 4)
        input3.send(value: 5)
        input4.send(value: 9)
        input1.complete()

        let reconnectable = junction.disconnect()
        #expect(reconnectable != nil)
        if let reconnectable { #expect(junction.bind(to: reconnectable) == nil) }

        #expect(merged.remove(cached4))

        input1.send(value: 6)
        input2.send(value: 7)
        input3.send(value: 8)
        input4.send(value: 10)
        input2.complete()
        input3.complete()

        // CwlSignal: [3, 4, 5, 9, 7, 8] (see above).
        #expect(r.values == [3, 4, 5, 9, 7])
        #expect(r.end == .complete)
    }

    /// Disconnecting pauses the upstream (deactivates it); reconnecting starts it again.
    @Test(arguments: variants) func reconnector(_ v: DeliveryVariant) {
        let source = CountingSource(v)
        let (reconnector, signal) = source.signal.reconnector()
        let r = Recorder(signal)
        source.send(1)
        reconnector.disconnect()
        #expect(source.send(2) != nil)
        reconnector.disconnect()
        reconnector.reconnect()
        reconnector.reconnect()
        #expect(source.activations == 2)
        source.send(3)
        #expect(r.values == [1, 3])
        reconnector.cancel()
        #expect(r.end == .cancelled)

        let source2 = CountingSource(v)
        let (later, signal2) = source2.signal.reconnector(initiallyConnected: false)
        let r2 = Recorder(signal2)
        #expect(source2.activations == 0)
        later.reconnect()
        source2.send(7)
        #expect(r2.values == [7])
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { return true } else { return false } }
}
