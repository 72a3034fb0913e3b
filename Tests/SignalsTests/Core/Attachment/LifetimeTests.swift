import Signals
import Testing

/// `SignalOutput` and `Lifetime`: cancelling or releasing an output deactivates what fed only
/// it; activation hooks run once per activation.
@Suite struct LifetimeTests {
    /// Cancelling the output deactivates the graph: sends are `.inactive`, the handler is not
    /// called again, the output is closed, and a second cancel does nothing.
    @Test(arguments: DeliveryVariant.allCases)
    func cancellingOutputDeactivates(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.map { $0 + 1 }.collect()
        #expect(input.send(value: 1) == nil)
        out.cancel()
        #expect(out.isClosed)
        #expect(input.send(value: 2) == .inactive)
        out.cancel()
        #expect(input.send(value: 3) == .inactive)
        #expect(c.events == [.value(2)])
    }

    /// Releasing the output (its last reference) deactivates the graph as cancelling does.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingOutputDeactivates(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int>()
        var out: SignalOutput<Int>? = signal.subscribe(c.handler)
        #expect(input.send(value: 1) == nil)
        #expect(out?.isClosed == false)
        out = nil
        #expect(input.send(value: 2) == .inactive)
        #expect(c.events == [.value(1)])
    }

    /// An output cancelled from inside its own handler receives nothing after that call.
    @Test(arguments: DeliveryVariant.allCases)
    func cancelInsideHandler(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let holder = Shared<SignalOutput<Int>?>(nil)
        let c = Recorder<Int> { r in
            if r.value == 2 { holder.value?.cancel() }
        }
        holder.value = signal.subscribe(c.handler)
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        input.send(value: 4)
        #expect(c.events == [.value(1), .value(2)])
        #expect(input.send(value: 5) == .inactive)
        #expect(c.events == [.value(1), .value(2)])
        holder.value = nil
    }

    /// A graph stays alive and active through its output alone: the intermediate `Signal`
    /// objects may be released.
    @Test(arguments: DeliveryVariant.allCases)
    func outputKeepsGraphAlive(_ variant: DeliveryVariant) {
        func build(_ c: Recorder<Int>) -> (SignalInput<Int>, SignalOutput<Int>) {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let out = signal.map { $0 * 10 }.filter { $0 > 10 }.multicast().map { $0 + 1 }.subscribe(c.handler)
            return (input, out)
        }
        let c = Recorder<Int>()
        let (input, out) = build(c)
        input.send(value: 1)
        input.send(value: 2)
        #expect(c.events == [.value(21)])
        out.cancel()
        #expect(input.send(value: 3) == .inactive)
    }

    /// Lifetimes kept in an `[any Lifetime]` (appended with `+=`) end together when the array
    /// lets them go; `cancel`
    /// through the protocol works for outputs and inputs alike.
    @Test(arguments: DeliveryVariant.allCases)
    func lifetimesArray(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let c1 = Recorder<Int>()
        let c2 = Recorder<Int>()
        var lifetimes: [any Lifetime] = [multi.subscribe(c1.handler)]
        lifetimes += multi.subscribe(c2.handler)
        #expect(input.send(value: 1) == nil)
        #expect(lifetimes.count == 2)
        lifetimes.removeAll()
        #expect(input.send(value: 2) == .inactive)
        #expect(c1.events == [.value(1)])
        #expect(c2.events == [.value(1)])

        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let (c3, out3) = signal2.collect()
        let asLifetime: any Lifetime = input2
        asLifetime.cancel()
        #expect(c3.events == [.cancelled])
        out3.cancel()
    }

    /// `onActivate` runs on each activation and `onDeactivate` on each deactivation of the
    /// stage (here through a multicast: first branch activates, last branch gone deactivates).
    @Test(arguments: DeliveryVariant.allCases)
    func activationHooks(_ variant: DeliveryVariant) {
        let log = Shared<[String]>([])
        let (input, multi) = Signal<Int>.create(delivery: variant) {
            $0.onActivate { log.update { $0.append("activate") } }
                .onDeactivate { log.update { $0.append("deactivate") } }
                .multicast()
        }
        #expect(log.value == [])
        let (a, outA) = multi.collect()
        #expect(log.value == ["activate"])
        let (b, outB) = multi.collect()
        #expect(log.value == ["activate"])
        input.send(value: 1)
        outA.cancel()
        #expect(log.value == ["activate"])
        outB.cancel()
        #expect(log.value == ["activate", "deactivate"])
        #expect(input.send(value: 2) == .inactive)
        let (c, outC) = multi.collect()
        #expect(log.value == ["activate", "deactivate", "activate"])
        input.send(value: 3)
        outC.cancel()
        #expect(log.value == ["activate", "deactivate", "activate", "deactivate"])
        #expect(a.events == [.value(1)])
        #expect(b.events == [.value(1)])
        #expect(c.events == [.value(3)])
    }

    /// A multi node deactivates its upstream when its last branch goes and reactivates on the
    /// next one; the same input works across both activations.
    @Test(arguments: DeliveryVariant.allCases)
    func multiDeactivatesWithLastBranch(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        #expect(input.send(value: 0) == .inactive)
        let (a, outA) = multi.collect()
        let (b, outB) = multi.collect()
        #expect(input.send(value: 1) == nil)
        outA.cancel()
        #expect(input.send(value: 2) == nil)
        outB.cancel()
        #expect(input.send(value: 3) == .inactive)
        let (c, outC) = multi.collect()
        #expect(input.send(value: 4) == nil)
        #expect(a.events == [.value(1)])
        #expect(b.events == [.value(1), .value(2)])
        #expect(c.events == [.value(4)])
        outC.cancel()
    }
}
