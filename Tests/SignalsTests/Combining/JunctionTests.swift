import Signals
import Testing

/// `SignalJunction`: bind activates and forwards results (the end included) into an input;
/// disconnect deactivates and returns the input; misuse is returned as a `SignalBindError` without losing anything.
@Suite struct JunctionTests {
    /// Before bind the source is inactive; bound, its values reach the target's subscriber;
    /// disconnected, the source is inactive again, the target still works, and rebinding
    /// resumes the flow.
    @Test(arguments: DeliveryVariant.allCases)
    func bindDisconnectRebind(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.map { $0 * 10 }.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        #expect(source.send(value: 1) == .inactive)
        #expect(junction.bind(to: target) == nil)
        #expect(source.send(value: 2) == nil)
        let returned = junction.disconnect()
        #expect(returned === target)
        #expect(source.send(value: 3) == .inactive)
        #expect(target.send(value: 4) == nil)
        #expect(junction.disconnect() == nil)
        #expect(junction.bind(to: target) == nil)
        #expect(source.send(value: 5) == nil)
        #expect(c.events == [.value(20), .value(4), .value(50)])
        junction.cancel()
        out.cancel()
    }

    /// The source's end is sent into the bound input, which closes it.
    @Test(arguments: DeliveryVariant.allCases)
    func endIsForwarded(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        #expect(junction.bind(to: target) == nil)
        source.send(value: 1)
        source.send(end: .other(CoreError.boom))
        #expect(c.events == [.value(1), .boom])
        #expect(target.send(value: 2) == .disconnected)
        junction.cancel()
        out.cancel()
    }

    /// Binding a bound junction again returns `.duplicate`; the existing binding is untouched.
    @Test(arguments: DeliveryVariant.allCases)
    func doubleBindIsDuplicate(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (t1, s1) = Signal<Int>.create(delivery: variant)
        let (t2, s2) = Signal<Int>.create(delivery: variant)
        let (c1, o1) = s1.collect()
        let (c2, o2) = s2.collect()
        #expect(junction.bind(to: t1) == nil)
        #expect(junction.bind(to: t2) == .duplicate)
        source.send(value: 1)
        #expect(c1.events == [.value(1)])
        #expect(c2.events == [])
        #expect(t2.send(value: 2) == nil)
        #expect(c2.events == [.value(2)])
        junction.cancel()
        o1.cancel()
        o2.cancel()
    }

    /// A junction of a signal whose output is already taken returns `.duplicate` on bind.
    @Test(arguments: DeliveryVariant.allCases)
    func junctionOfTakenSignal(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(input) {} }  // kept: releasing it would end the stream and free the output
        let (_, out) = signal.collect()
        let junction = signal.junction()
        let (target, _) = Signal<Int>.create(delivery: variant)
        #expect(junction.bind(to: target) == .duplicate)
        out.cancel()
    }

    /// Binding a signal into the input that feeds it returns `.loop` and loses nothing: the
    /// input keeps working and the junction can still bind elsewhere, with every value arriving.
    @Test(arguments: DeliveryVariant.allCases)
    func directLoopThrowsAndLosesNothing(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let junction = signal.map { $0 + 1 }.junction()
        #expect(junction.bind(to: input) == .loop)
        #expect(input.send(value: 0) == .inactive)
        let (other, otherSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = otherSignal.collect()
        #expect(junction.bind(to: other) == nil)
        for i in 0..<5 { #expect(input.send(value: i) == nil) }
        #expect(c.events == (1...5).map { .value($0) })
        junction.cancel()
        out.cancel()
    }

    /// A loop through two junctions (A feeds B, then B into A) is detected too (returned as `.loop`); the first
    /// binding keeps working and the second junction can bind elsewhere.
    @Test(arguments: DeliveryVariant.allCases)
    func indirectLoopThrows(_ variant: DeliveryVariant) {
        let (inA, sigA) = Signal<Int>.create(delivery: variant)
        let (inB, sigB) = Signal<Int>.create(delivery: variant)
        let jAB = sigA.junction()
        #expect(jAB.bind(to: inB) == nil)
        let multiB = sigB.multicast()
        let jBA = multiB.map { $0 * 2 }.junction()
        #expect(jBA.bind(to: inA) == .loop)
        let (inC, sigC) = Signal<Int>.create(delivery: variant)
        let (cC, oC) = sigC.collect()
        let (cB, oB) = multiB.collect()
        #expect(jBA.bind(to: inC) == nil)
        inA.send(value: 1)
        inA.send(value: 2)
        #expect(cB.events == [.value(1), .value(2)])
        #expect(cC.events == [.value(2), .value(4)])
        jAB.cancel()
        jBA.cancel()
        oC.cancel()
        oB.cancel()
    }

    /// After a loop is removed (disconnect), the same binding that was refused is allowed.
    @Test(arguments: DeliveryVariant.allCases)
    func loopClearsAfterDisconnect(_ variant: DeliveryVariant) {
        let (inA, sigA) = Signal<Int>.create(delivery: variant)
        let (inB, sigB) = Signal<Int>.create(delivery: variant)
        let jAB = sigA.junction()
        let jBA = sigB.junction()
        #expect(jAB.bind(to: inB) == nil)
        #expect(jBA.bind(to: inA) == .loop)
        jAB.disconnect()
        #expect(jBA.bind(to: inA) == nil)
        #expect(jAB.bind(to: inB) == .loop)
        jBA.cancel()
    }

    /// Releasing a bound junction unbinds it: the source deactivates.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingJunctionUnbinds(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        var junction: SignalJunction<Int>? = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        #expect(junction?.bind(to: target) == nil)
        #expect(source.send(value: 1) == nil)
        junction = nil
        #expect(source.send(value: 2) == .inactive)
        #expect(c.events == [.value(1)])
        out.cancel()
    }

    /// A junction bound before the target has a subscriber: forwarded values are refused by the
    /// inactive target (dropped), and flow once the target is subscribed.
    @Test(arguments: DeliveryVariant.allCases)
    func bindBeforeTargetSubscribed(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        #expect(junction.bind(to: target) == nil)
        #expect(source.send(value: 1) == nil)
        let (c, out) = targetSignal.collect()
        #expect(source.send(value: 2) == nil)
        #expect(c.events == [.value(2)])
        junction.cancel()
        out.cancel()
    }

    /// A junction disconnected from inside the target's handler stops forwarding at once.
    @Test(arguments: DeliveryVariant.allCases)
    func disconnectInsideDelivery(_ variant: DeliveryVariant) {
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let returned = Shared<SignalInput<Int>?>(nil)
        let c = Recorder<Int> { r in
            if r.value == 2 { returned.value = junction.disconnect() }
        }
        let out = targetSignal.subscribe(c.handler)
        #expect(junction.bind(to: target) == nil)
        source.send(value: 1)
        source.send(value: 2)
        #expect(source.send(value: 3) == .inactive)
        #expect(c.events == [.value(1), .value(2)])
        #expect(returned.value === target)
        returned.value = nil
        out.cancel()
    }

    /// A junction of a signal derived from an already-taken one (the second `map` of a plain
    /// signal) refuses to bind with `.duplicate` and leaves the target input untouched.
    @Test(arguments: DeliveryVariant.allCases)
    func junctionOfDerivedDuplicate(_ variant: DeliveryVariant) {
        let (_, signal) = Signal<Int>.create(delivery: variant)
        let first = signal.map { $0 }
        let junction = signal.map { $0 + 1 }.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        #expect(junction.bind(to: target) == .duplicate)
        #expect(target.send(value: 5) == nil)
        #expect(c.events == [.value(5)])
        junction.cancel()
        out.cancel()
        _ = first
    }
}
