import Dispatch
import Signals
import Synchronization
import Testing

/// A capture's end-handler APIs: `resume(resend:onEnd:)` keeps the activation and held values
/// for the subscriber of the returned signal, and `bind(to:resend:onEnd:)` leaves the capture
/// reading no values and the end once the bound signal has ended.
@Suite struct CaptureEndHandlerTests {
    static let variants = DeliveryVariant.allCases

    /// The activation value, the held value and everything after them reach the subscriber
    /// that comes after `resume(resend:onEnd:)` returned.
    @Test(arguments: variants) func resumeWithEndHandlerKeepsActivationAndHeldValues(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        input.send(value: 5)
        let capture = multi.capture()
        input.send(value: 6)
        let resumed = capture.resume(resend: .all) { _, e, i in i.send(end: e) }
        let (c, out) = resumed.collect()
        input.send(value: 7)
        input.send(end: .complete)
        #expect(c.events == [.value(5), .value(6), .value(7), .complete])
        withExtendedLifetime(out) {}
    }

    /// Without `resend`, the held values and everything after them arrive.
    @Test(arguments: variants) func resumeWithEndHandlerKeepsHeldValues(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        input.send(value: 5)
        let capture = multi.capture()
        input.send(value: 6)
        let ends = Shared<[String]>([])
        let resumed = capture.resume { _, e, i in
            ends.update { $0.append("\(Ev<Int>(end: e))") }
            i.send(value: 100)
            i.send(end: e)
        }
        let (c, out) = resumed.collect()
        input.send(value: 7)
        input.send(end: .other(CoreError.boom))
        #expect(c.events == [.value(6), .value(7), .value(100), .boom])
        #expect(ends.value == ["\(Ev<Int>.boom)"])
        withExtendedLifetime(out) {}
    }

    /// A second resume of the same capture is refused: the signal ends with `.duplicate`
    /// when subscribed.
    @Test(arguments: variants) func secondResumeWithEndHandlerIsRefused(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let capture = signal.capture()
        let first = capture.resume { _, e, i in i.send(end: e) }
        let second = capture.resume { _, e, i in i.send(end: e) }
        let (c1, o1) = first.collect()
        let (c2, o2) = second.collect()
        input.send(value: 1)
        #expect(c1.events == [.value(1)])
        #expect(c2.events == [.duplicate])
        withExtendedLifetime((o1, o2)) {}
    }

    /// Once the signal bound by `bind(to:resend:onEnd:)` has ended, the capture reads no
    /// values and that end (CwlSignal's capture does the same).
    @Test(arguments: variants) func captureReadsTheEndOnceTheBoundSignalEnded(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        input.send(value: 5)
        let capture = multi.capture()
        #expect(capture.values == [5])
        #expect(capture.end == nil)
        let (downstream, signal) = Signal<Int>.create(delivery: v)
        let (c, out) = signal.collect()
        let bound = capture.bind(to: downstream, resend: .all) { _, e, i in i.send(end: e) }
        guard case .success(let junction) = bound else {
            Issue.record("refused: \(bound)")
            return
        }
        input.send(value: 6)
        input.send(end: .complete)
        #expect(c.events == [.value(5), .value(6), .complete])
        #expect(capture.values == [])
        #expect(capture.end.map { Ev<Int>(end: $0) } == .complete)
        withExtendedLifetime((out, junction)) {}
    }

    /// The same with an error: the capture reads the error.
    @Test(arguments: variants) func captureReadsTheErrorOnceTheBoundSignalFailed(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let capture = signal.capture()
        let (downstream, result) = Signal<Int>.create(delivery: v)
        let (c, out) = result.collect()
        let bound = capture.bind(to: downstream) { _, e, i in i.send(end: e) }
        input.send(value: 1)
        input.send(end: .other(CoreError.boom))
        #expect(c.events == [.value(1), .boom])
        #expect(capture.values == [])
        #expect(capture.end.map { Ev<Int>(end: $0) } == .boom)
        withExtendedLifetime((out, bound)) {}
    }
}
