import Signals
import Synchronization
import Testing

/// A capture that cannot wait for the multi's holder (made inside a delivery of the multi it
/// joins) gets the cache replayed after `capture()` returned: the capture recognises that
/// replay as its activation value, unless its snapshot was read or it was connected first, in
/// which case the value is its first held value. Either way it reaches a subscriber once.
@Suite struct CaptureLateReplayTests {
    static let variants = DeliveryVariant.allCases

    /// Captures made inside the handler, with `body` run on each there.
    static func captureInsideHandler(_ v: DeliveryVariant, _ body: @escaping @Sendable (SignalCapture<Int>) -> Void)
        -> (SignalInput<Int>, SignalCapture<Int>?, SignalOutput<Int>) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        let made = Shared<SignalCapture<Int>?>(nil)
        let out = multi.subscribeValues { x in
            if x == 2 {
                let c = multi.capture()
                body(c)
                made.value = c
            }
        }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        return (input, made.value, out)
    }

    /// Not read inside the handler: `values` reads the cached value once the delivery is over;
    /// `resend: true` re-sends it, then the later values.
    @Test(arguments: variants) func lateReplayIsAnActivationValue(_ v: DeliveryVariant) {
        let (input, capture, out) = Self.captureInsideHandler(v) { _ in }
        #expect(capture?.values == [2])
        let c = Recorder<Int>()
        let sub = capture?.subscribe(resend: true, c.handler)
        input.send(value: 4)
        #expect(c.events == [.value(2), .value(3), .value(4)])
        withExtendedLifetime((sub, out)) {}
    }

    /// Read inside the handler (empty): the replay is then the first held value.
    @Test(arguments: variants) func lateReplayAfterAReadIsHeld(_ v: DeliveryVariant) {
        let seen = Shared<[Int]?>(nil)
        let (input, capture, out) = Self.captureInsideHandler(v) { c in seen.value = c.values }
        #expect(seen.value == [])
        #expect(capture?.values == [])
        let c = Recorder<Int>()
        let sub = capture?.subscribe(resend: true, c.handler)
        input.send(value: 4)
        #expect(c.events == [.value(2), .value(3), .value(4)])
        withExtendedLifetime((sub, out)) {}
    }

    /// Resumed inside the handler with `.all` (an empty prefix): the subscriber gets the cached
    /// value once, then the later ones.
    @Test(arguments: variants) func resumeInsideTheHandlerGetsTheCacheOnce(_ v: DeliveryVariant) {
        let resumed = Shared<Signal<Int>?>(nil)
        let (input, _, out) = Self.captureInsideHandler(v) { c in resumed.value = c.resume(resend: .all) }
        let c = Recorder<Int>()
        let sub = resumed.value?.subscribe(c.handler)
        input.send(value: 4)
        #expect(c.events == [.value(2), .value(3), .value(4)])
        withExtendedLifetime((sub, out)) {}
    }
}
