import Signals
import Testing

/// `SignalCapture`: activation values and end are available at once; later results are held
/// and released, in order, to the subscriber or bound input.
@Suite struct CaptureTests {
    /// The capture activates the signal and takes what activation delivers (a continuous
    /// signal's latest value) as `values`; values sent later are held and released in order,
    /// synchronously, on subscribe, followed by live values.
    @Test(arguments: DeliveryVariant.allCases)
    func capturesActivationValuesAndHoldsTheRest(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous(initialValue: 5) }
        let capture = multi.capture()
        #expect(capture.values == [5])
        #expect(capture.end == nil)
        #expect(input.send(value: 6) == nil)
        #expect(input.send(value: 7) == nil)
        let c = Recorder<Int>()
        let out = capture.subscribe(c.handler)
        #expect(c.events == [.value(6), .value(7)])
        input.send(value: 8)
        #expect(c.events == [.value(6), .value(7), .value(8)])
        out.cancel()
    }

    /// `resend: true` precedes the held values with the activation values.
    @Test(arguments: DeliveryVariant.allCases)
    func resendIncludesActivationValues(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        input.send(value: 1)
        input.send(value: 2)
        let capture = multi.capture()
        #expect(capture.values == [1, 2])
        input.send(value: 3)
        let c = Recorder<Int>()
        let out = capture.subscribe(resend: true, c.handler)
        #expect(c.events == [.value(1), .value(2), .value(3)])
        input.send(value: 4)
        #expect(c.events == [.value(1), .value(2), .value(3), .value(4)])
        #expect(a.events == [.value(1), .value(2), .value(3), .value(4)])
        out.cancel()
        outA.cancel()
    }

    /// An end delivered during activation is captured as `end`, with the values before it.
    @Test(arguments: DeliveryVariant.allCases)
    func capturesEnd(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        input.send(value: 1)
        input.send(value: 2)
        input.send(end: .other(CoreError.boom))
        let capture = multi.capture()
        #expect(capture.values == [1, 2])
        #expect(capture.end?.otherError as? CoreError == .boom)
        let c = Recorder<Int>()
        let out = capture.subscribe(resend: true, c.handler)
        #expect(c.events == [.value(1), .value(2), .boom])
        #expect(a.events == [.value(1), .value(2), .boom])
        out.cancel()
        outA.cancel()
    }

    /// Held values and a held end are released in order on subscribe.
    @Test(arguments: DeliveryVariant.allCases)
    func heldEndIsReleasedInOrder(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let capture = signal.capture()
        #expect(capture.values == [])
        #expect(capture.end == nil)
        #expect(input.send(value: 1) == nil)
        #expect(input.send(value: 2) == nil)
        #expect(input.complete() == nil)
        #expect(input.send(value: 3) == .disconnected)
        let c = Recorder<Int>()
        let out = capture.subscribe(c.handler)
        #expect(c.events == [.value(1), .value(2), .complete])
        out.cancel()
    }

    /// `bind(to:)` sends held values and everything after into an input.
    @Test(arguments: DeliveryVariant.allCases)
    func bindToInput(_ variant: DeliveryVariant) throws {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let capture = signal.capture()
        input.send(value: 1)
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        let junction = try capture.bind(to: target).get()
        #expect(c.events == [.value(1)])
        input.send(value: 2)
        input.complete()
        #expect(c.events == [.value(1), .value(2), .complete])
        #expect(target.send(value: 3) == .disconnected)
        junction.cancel()
        out.cancel()
    }

    /// A capture's output can be taken once; a second subscribe gets the duplicate error.
    @Test(arguments: DeliveryVariant.allCases)
    func secondSubscribeIsDuplicate(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let capture = signal.capture()
        let c1 = Recorder<Int>()
        let c2 = Recorder<Int>()
        let out1 = capture.subscribe(c1.handler)
        let out2 = capture.subscribe(c2.handler)
        #expect(c2.events == [.duplicate])
        input.send(value: 1)
        #expect(c1.events == [.value(1)])
        #expect(c2.events == [.duplicate])
        out1.cancel()
        out2.cancel()
    }

    /// Cancelling (or releasing) a capture that was never subscribed deactivates its upstream.
    @Test(arguments: DeliveryVariant.allCases)
    func cancelAndReleaseDeactivate(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let capture = signal.capture()
        #expect(input.send(value: 1) == nil)
        capture.cancel()
        #expect(input.send(value: 2) == .inactive)

        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        var capture2: SignalCapture<Int>? = signal2.capture()
        #expect(input2.send(value: 1) == nil)
        #expect(capture2?.values == [])
        capture2 = nil
        #expect(input2.send(value: 2) == .inactive)
    }

    /// Capturing an already-taken plain signal captures the duplicate error as its end.
    @Test(arguments: DeliveryVariant.allCases)
    func captureOfTakenSignal(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(input) {} }  // kept: releasing it would end the stream and free the output
        let (_, out) = signal.collect()
        let capture = signal.capture()
        #expect(capture.values == [])
        #expect(capture.end?.otherError as? SignalBindError == .duplicate)
        let c = Recorder<Int>()
        let o = capture.subscribe(resend: true, c.handler)
        #expect(c.events == [.duplicate])
        o.cancel()
        out.cancel()
    }

    /// A capture of a `generate` whose activation sends values synchronously does not take
    /// them as activation values (CwlSignal's `testFrom`): they are ordinary
    /// values, held with what the input sends later until subscribe.
    @Test(arguments: DeliveryVariant.allCases)
    func capturesGenerateActivationValues(_ variant: DeliveryVariant) {
        let held = Shared<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(delivery: variant) { input in
            held.value = input
            input?.send(value: 1)
            input?.send(value: 2)
        }
        let capture = signal.capture()
        #expect(capture.values == [])
        #expect(capture.end == nil)
        held.value?.send(value: 3)
        let c = Recorder<Int>()
        let out = capture.subscribe(c.handler)
        #expect(c.events == [.value(1), .value(2), .value(3)])
        held.value?.send(value: 4)
        #expect(c.events == [.value(1), .value(2), .value(3), .value(4)])
        out.cancel()
        held.value = nil
    }

    /// `bind(to:resend:)` with resend sends the activation values first; a second bind of the
    /// same capture fails with `.duplicate`.
    @Test(arguments: DeliveryVariant.allCases)
    func bindWithResendAndTwice(_ variant: DeliveryVariant) throws {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous(initialValue: 7) }
        let capture = multi.capture()
        input.send(value: 8)
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        let junction = try capture.bind(to: target, resend: true).get()
        #expect(c.events == [.value(7), .value(8)])
        let (target2, _) = Signal<Int>.create(delivery: variant)
        if case .failure(let e) = capture.bind(to: target2) {
            #expect(e == .duplicate)
        } else {
            Issue.record("second bind of a capture succeeded")
        }
        // The refused bind leaves the other input untouched (not closed by an error).
        #expect(target2.send(value: 0) == .inactive)
        input.send(value: 9)
        #expect(c.events == [.value(7), .value(8), .value(9)])
        junction.cancel()
        out.cancel()
    }

    /// `subscribeValues(resend:)` on a capture gets the (optionally resent) values, no end.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeValuesOnCapture(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous(initialValue: 1) }
        let capture = multi.capture()
        input.send(value: 2)
        let c = Recorder<Int>()
        let out = capture.subscribeValues(resend: true, c.valueHandler)
        input.send(value: 3)
        input.complete()
        #expect(c.events == [.value(1), .value(2), .value(3)])
        #expect(out.isClosed)
    }

    /// A capture made from inside a handler of the multi it captures (re-entrant, on the
    /// thread holding the multi's node) does not wait for that node: its join runs after the
    /// current delivery, and the replay of the cache there is recognised as its activation
    /// value (nothing read the empty snapshot before it); the subscriber gets the later
    /// values, in order and once.
    @Test(arguments: DeliveryVariant.allCases)
    func captureInsideAHandlerOfTheSameMultiGetsTheCacheAsActivation(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let made = Shared<SignalCapture<Int>?>(nil)
        let out = multi.subscribeValues { v in
            if v == 2 { made.value = multi.capture() }
        }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        guard let capture = made.value else {
            Issue.record("the handler made no capture")
            return
        }
        // The join ran after the delivery that made the capture; its replay of the cache is
        // recognised as the activation value.
        #expect(capture.values == [2])
        #expect(capture.end == nil)
        let c = Recorder<Int>()
        let sub = capture.subscribe(c.handler)
        #expect(c.events == [.value(3)])
        input.send(value: 4)
        #expect(c.events == [.value(3), .value(4)])
        sub.cancel()
        out.cancel()
        made.value = nil
    }

    /// A capture made from inside a delivery on another node takes its activation values
    /// synchronously, like one made outside any delivery (the multi's node is idle here).
    @Test(arguments: DeliveryVariant.allCases)
    func captureInsideADeliveryOnAnotherNode(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        input.send(value: 1)
        let (other, otherSignal) = Signal<Int>.create(delivery: variant)
        let made = Shared<SignalCapture<Int>?>(nil)
        let out = otherSignal.subscribeValues { _ in made.value = multi.capture() }
        other.send(value: 0)
        #expect(made.value?.values == [1])
        input.send(value: 2)
        let c = Recorder<Int>()
        let sub = made.value?.subscribe(c.handler)
        #expect(c.events == [.value(2)])
        sub?.cancel()
        out.cancel()
        made.value = nil
    }
}
