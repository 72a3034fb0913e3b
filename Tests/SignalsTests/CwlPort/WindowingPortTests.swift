import Signals
import Testing

/// Buffers and windows by a signal of windows and by interval and timeshift, in virtual time,
/// on both variants.
@Suite struct WindowingPortTests {
    static let variants = DeliveryVariant.allCases

    /// Each window signal opens a buffer, closed by its first value or end; values go into
    /// every open buffer; the end emits what is open, oldest first.
    @Test(arguments: variants) func bufferWindows(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (windowInput, windows) = Signal<Signal<Void>>.create(delivery: v)
        let r = Recorder(signal.buffer(windows: windows))
        input.send(value: 0)                       // no window open: dropped
        let (close1, w1) = Signal<Void>.create(delivery: v)
        windowInput.send(value: w1)
        input.send(value: 1)
        let (close2, w2) = Signal<Void>.create(delivery: v)
        windowInput.send(value: w2)
        input.send(value: 2)
        close1.send(value: ())
        #expect(r.values == [[1, 2]])
        input.send(value: 3)
        let (close3, w3) = Signal<Void>.create(delivery: v)
        windowInput.send(value: w3)
        input.send(end: .complete)
        #expect(r.values == [[1, 2], [2, 3], []])
        #expect(r.end == .complete)
        withExtendedLifetime((close2, close3)) {}
    }

    /// The end of the signal of windows ends the result. CwlSignal emitted the open arrays
    /// before any end; Signals emits them before a completion only and drops them at an error
    /// (ReactiveX's rule for every buffer form).
    @Test(arguments: variants) func windowsEnding(_ v: DeliveryVariant) {
        for end in [SignalEnd.other(TestError.boom), .complete] {
            let (input, signal) = Signal<Int>.create(delivery: v)
            let (windowInput, windows) = Signal<Signal<Void>>.create(delivery: v)
            let r = Recorder(signal.buffer(windows: windows))
            windowInput.send(value: Signal<Void>.never(delivery: v))
            input.send(value: 1)
            windowInput.send(end: end)
            #expect(r.values == (end.isComplete ? [[1]] : []))
            #expect(r.end == End(end))
            withExtendedLifetime(input) {}
        }
    }

    @Test(arguments: variants) func windowWindows(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (windowInput, windows) = Signal<Signal<Void>>.create(delivery: v)
        let opened = Collected<Recorder<Int>>()
        let out = signal.window(windows: windows).subscribeValues { opened.append(Recorder($0)) }
        let (close1, w1) = Signal<Void>.create(delivery: v)
        windowInput.send(value: w1)
        input.send(value: 1)
        windowInput.send(value: Signal<Void>.never(delivery: v))
        input.send(value: 2)
        close1.complete()
        input.send(value: 3)
        input.send(end: .other(TestError.boom))
        #expect(opened.all.map(\.values) == [[1, 2], [2, 3]])
        #expect(opened.all.map(\.end) == [.complete, .boom])
        withExtendedLifetime(out) {}
    }

    /// A window's signal that fails fails the result with its error (RxJS's `windowToggle` and
    /// `bufferToggle`): every open window ends with it, open arrays are dropped, and the
    /// signal of windows and the other windows' signals are released. A completion or
    /// cancellation only closes that window (CwlSignal's rule).
    @Test(arguments: variants) func aWindowSignalErrorFailsTheResult(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (windowInput, windows) = Signal<Signal<Void>>.create(delivery: v)
        let opened = Collected<Recorder<Int>>()
        let result = Recorder(signal.window(windows: windows).map { w -> Int in
            opened.append(Recorder(w))
            return 0
        })
        let (close1, w1) = Signal<Void>.create(delivery: v)
        let (close2, w2) = Signal<Void>.create(delivery: v)
        let (close3, w3) = Signal<Void>.create(delivery: v)
        windowInput.send(value: w1)
        windowInput.send(value: w2)
        input.send(value: 1)
        close1.send(end: .cancelled)               // closes that window only
        windowInput.send(value: w3)
        input.send(value: 2)
        close2.send(end: .other(TestError.boom))
        #expect(opened.all.map(\.values) == [[1], [1, 2], [2]])
        #expect(opened.all.map(\.end) == [.complete, .boom, .boom], "a cancelled window signal closes its window")
        #expect(result.end == .boom)
        #expect(windowInput.send(value: Signal<Void>.never(delivery: v)) != nil, "the signal of windows is released")
        #expect(close3.send(value: ()) != nil, "the open windows' signals are released")
        withExtendedLifetime(input) {}

        let (bufferedInput, buffered) = Signal<Int>.create(delivery: v)
        let (bufferWindows, bw) = Signal<Signal<Void>>.create(delivery: v)
        let rec = Recorder(buffered.buffer(windows: bw))
        let (closeA, a) = Signal<Void>.create(delivery: v)
        let (closeB, b) = Signal<Void>.create(delivery: v)
        bufferWindows.send(value: a)
        bufferWindows.send(value: b)
        bufferedInput.send(value: 1)
        closeA.complete()                          // emits that array
        bufferedInput.send(value: 2)
        closeB.send(end: .other(TestError.boom))
        #expect(rec.values == [[1]], "the open array is dropped at the error")
        #expect(rec.end == .boom)
        withExtendedLifetime((bufferedInput, bufferWindows)) {}
    }

    /// Overlapping: a buffer of 3 s starts every 2 s, from activation.
    @Test(arguments: variants) func bufferIntervalTimeshift(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.buffer(interval: .seconds(3), timeshift: .seconds(2), context: .custom(vt)))
        input.send(value: 0)                       // t=0: buffer A (0–3)
        vt.advance(to: .seconds(1))
        input.send(value: 1)
        vt.advance(to: .seconds(2))                // buffer B (2–5)
        input.send(value: 2)
        vt.advance(to: .seconds(3))                // A closes
        #expect(r.values == [[0, 1, 2]])
        input.send(value: 3)
        vt.advance(to: .seconds(4))                // buffer C (4–7)
        input.send(value: 4)
        vt.advance(to: .seconds(5))                // B closes
        #expect(r.values == [[0, 1, 2], [2, 3, 4]])
        input.send(end: .complete)
        #expect(r.values == [[0, 1, 2], [2, 3, 4], [4]])
        #expect(r.end == .complete)
        #expect(vt.pendingCount == 0, "the end cancels the timers")
    }

    /// Gaps: a window of 1 s every 2 s; values between windows go nowhere.
    @Test(arguments: variants) func windowIntervalTimeshift(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let opened = Collected<Recorder<Int>>()
        let out = signal.window(interval: .seconds(1), timeshift: .seconds(2), context: .custom(vt))
            .subscribeValues { opened.append(Recorder($0)) }
        input.send(value: 0)
        vt.advance(to: .milliseconds(1500))
        input.send(value: 1)                       // between windows
        vt.advance(to: .seconds(2))
        input.send(value: 2)
        vt.advance(to: .seconds(3))
        #expect(opened.all.map(\.values) == [[0], [2]])
        #expect(opened.all.map(\.end) == [.complete, .complete])
        out.cancel()
        #expect(vt.pendingCount == 0, "cancelling deactivates the timers")
    }

    /// State is per activation: a re-activated buffer starts afresh, without the values the
    /// first activation's open buffer held.
    @Test(arguments: variants) func reactivation(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let result = reactivate(v, first: [1, 2], second: [3], endSecond: .complete) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(10), context: .custom(vt))
        }
        #expect(result.first == [])
        #expect(result.second == [[3]])
        #expect(result.secondEnd == .complete)
    }
}
