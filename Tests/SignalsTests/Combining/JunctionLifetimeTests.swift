import Signals
import Synchronization
import Testing

/// What junctions with end handlers, reconnectors and captures keep after an end, a
/// disconnect or a cancel (deinit counters and weak references), and their calls at the edges
/// (again after cancel, twice, in the wrong state).
@Suite struct JunctionLifetimeTests {
    static let variants = DeliveryVariant.allCases

    /// The end handler (and what it captured) is released once the end has passed, while the
    /// junction lives on; likewise after a disconnect.
    @Test(arguments: variants) func endHandlerReleasedAfterEndAndAfterDisconnect(_ v: DeliveryVariant) {
        let deinits = DeinitCounter()
        let (source, signal) = Signal<Int>.create(delivery: v)
        let junction = signal.junction()
        let (input, result) = Signal<Int>.create(delivery: v)
        let (c, out) = result.collect()
        do {
            let token = deinits.token()
            #expect(junction.bind(to: input) { _, e, i in withExtendedLifetime(token) {}; i.send(end: e) } == nil)
        }
        source.send(value: 1)
        source.send(end: .complete)
        #expect(c.events == [.value(1), .complete])
        #expect(deinits.freed == 1, "handler released after the end")

        let kept = KeptInputSource(v)
        let other = kept.signal.junction()
        let (input2, result2) = Signal<Int>.create(delivery: v)
        let (c2, out2) = result2.collect()
        do {
            let token = deinits.token()
            #expect(other.bind(to: input2) { _, e, i in withExtendedLifetime(token) {}; i.send(end: e) } == nil)
        }
        #expect(other.disconnect() === input2)
        #expect(other.disconnect() == nil, "a second disconnect finds nothing bound")
        #expect(deinits.freed == 2, "handler released after disconnect")
        #expect(kept.input == nil, "the source was deactivated")
        #expect(c2.events.isEmpty)
        withExtendedLifetime((junction, out, out2)) {}
    }

    /// A reconnector: cancel ends the downstream once; calls after it do nothing; releasing
    /// everything frees the reconnector and deactivates the upstream.
    @Test(arguments: variants) func reconnectorAfterCancelAndRelease(_ v: DeliveryVariant) {
        let source = KeptInputSource(v)
        weak var weakReconnector: SignalReconnector<Int>?
        do {
            let (reconnector, signal) = source.signal.reconnector(initiallyConnected: false)
            weakReconnector = reconnector
            let (c, out) = signal.collect()
            #expect(source.input == nil, "not connected before the first reconnect()")
            reconnector.disconnect()
            reconnector.reconnect()
            reconnector.reconnect()
            #expect(source.activations == 1)
            #expect(source.input?.send(value: 1) == nil)
            reconnector.cancel()
            reconnector.cancel()
            reconnector.reconnect()
            #expect(source.input == nil, "cancel deactivated the upstream; reconnect after it does nothing")
            #expect(c.events == [.value(1), .cancelled])
            withExtendedLifetime(out) {}
        }
        #expect(weakReconnector == nil)
        do {
            let (reconnector, signal) = source.signal.reconnector()
            let (c, out) = signal.collect()
            #expect(source.input != nil)
            withExtendedLifetime(reconnector) {}
            // Released: as a cancel.
            _ = consume reconnector
            #expect(c.events == [.cancelled])
            #expect(source.input == nil)
            withExtendedLifetime(out) {}
        }
    }

    /// `resume(resend:onEnd:)`: the handler and the capture are released once the resumed
    /// signal's subscription is cancelled and released; nothing binds before it is subscribed.
    @Test(arguments: variants) func resumedCaptureReleased(_ v: DeliveryVariant) {
        let deinits = DeinitCounter()
        weak var weakCapture: SignalCapture<Int>?
        let (input, signal) = Signal<Int>.create(delivery: v)
        do {
            let capture = signal.capture()
            weakCapture = capture
            let token = deinits.token()
            let resumed = capture.resume { _, e, i in withExtendedLifetime(token) {}; i.send(end: e) }
            let (c, out) = resumed.collect()
            input.send(value: 1)
            #expect(c.events == [.value(1)])
            out.cancel()
        }
        #expect(weakCapture == nil)
        #expect(deinits.freed == 1)
        #expect(input.send(value: 2) != nil, "nothing is bound after the release")
    }
}
