import Signals
import Synchronization
import Testing

/// `SignalJunction.bind(to:)` refuses an input that is closed (`SignalBindError.cancelled`):
/// the junction's source is not activated, so a send into it is refused rather than accepted
/// and then refused by the closed input (lost). CwlSignal refuses such a bind the same way.
@Suite struct JunctionBindToClosedInputTests {
    /// An input whose signal ended while subscribed: refused, the source stays inactive, and
    /// the junction can still be bound to an open input afterwards.
    @Test(arguments: DeliveryVariant.allCases)
    func inputEndedWhileSubscribedIsRefused(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let received = Mutex<[Result<Int, SignalEnd>]>([])
        let out = targetSignal.subscribe { r in received.withLock { $0.append(r) } }
        #expect(target.complete() == nil)
        #expect(junction.bind(to: target) == .cancelled)
        #expect(source.send(value: 1) == .inactive)
        #expect(junction.disconnect() == nil)
        let (open, openSignal) = Signal<Int>.create(delivery: variant)
        let openReceived = Mutex<[Int]>([])
        let openOut = openSignal.subscribeValues { v in openReceived.withLock { $0.append(v) } }
        #expect(junction.bind(to: open) == nil)
        #expect(source.send(value: 2) == nil)
        #expect(openReceived.withLock { $0 } == [2])
        #expect(received.withLock { $0.count } == 1)
        withExtendedLifetime((out, openOut, open)) {}
    }

    /// An end sent while nothing was subscribed is kept for the first subscriber: the input is
    /// closed all the same.
    @Test(arguments: DeliveryVariant.allCases)
    func inputEndedWhileInactiveIsRefused(_ variant: DeliveryVariant) {
        let (_, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, _) = Signal<Int>.create(delivery: variant)
        #expect(target.send(end: .other(SignalBindError.loop)) == .inactive)
        #expect(junction.bind(to: target) == .cancelled)
    }

    /// A `generate` input of an activation that has gone (the subscription cancelled).
    @Test(arguments: DeliveryVariant.allCases)
    func inputOfAGoneActivationIsRefused(_ variant: DeliveryVariant) {
        let generated = Mutex<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(delivery: variant) { input in generated.withLock { $0 = input } }
        let out = signal.subscribeValues { _ in }
        let first = generated.withLock { $0 }
        out.cancel()
        let (_, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        #expect(first != nil)
        if let first { #expect(junction.bind(to: first) == .cancelled) }
    }

    /// A refused bind keeps nothing: neither the input nor the junction's source is held
    /// once the junction and the input's signal are released.
    @Test(arguments: DeliveryVariant.allCases)
    func refusedBindKeepsNothing(_ variant: DeliveryVariant) {
        weak var weakTarget: SignalInput<Int>?
        weak var weakJunction: SignalJunction<Int>?
        do {
            let (_, sourceSignal) = Signal<Int>.create(delivery: variant)
            let junction = sourceSignal.junction()
            let (target, _) = Signal<Int>.create(delivery: variant)
            target.complete()
            #expect(junction.bind(to: target) == .cancelled)
            weakTarget = target
            weakJunction = junction
        }
        #expect(weakTarget == nil)
        #expect(weakJunction == nil)
    }

    /// The open case is unchanged: an input that is merely unsubscribed (inactive) is bound.
    @Test(arguments: DeliveryVariant.allCases)
    func inactiveInputIsStillBound(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        #expect(junction.bind(to: target) == nil)
        let received = Mutex<[Int]>([])
        let out = targetSignal.subscribeValues { v in received.withLock { $0.append(v) } }
        #expect(source.send(value: 7) == nil)
        #expect(received.withLock { $0 } == [7])
        withExtendedLifetime(out) {}
    }
}
