import Dispatch
import Signals
import Testing

/// `Signal.generate`: a fresh input at the end of each activation, nil on each deactivation,
/// after which the old input is disconnected.
@Suite struct GenerateTests {
    /// Activation hands the closure an input (synchronously on `.direct`), and values sent on
    /// it during activation reach the subscriber; cancelling the output passes nil, and the old
    /// input is refused with `.disconnected` from then on.
    @Test(arguments: DeliveryVariant.allCases)
    func activationAndDeactivation(_ variant: DeliveryVariant) {
        let inputs = Shared<[SignalInput<Int>?]>([])
        let signal = Signal<Int>.generate(delivery: variant) { input in
            inputs.update { $0.append(input) }
            if let input {
                for i in 0..<3 { input.send(value: i) }
            }
        }
        #expect(inputs.value.isEmpty)
        let (c, out) = signal.collect()
        #expect(inputs.value.count == 1)
        #expect(c.events == [.value(0), .value(1), .value(2)])
        let first = inputs.value[0]!
        #expect(first.send(value: 3) == nil)
        out.cancel()
        #expect(inputs.value.count == 2)
        #expect(inputs.value[1] == nil)
        #expect(first.send(value: 4) == .disconnected)
        #expect(c.events == [.value(0), .value(1), .value(2), .value(3)])
    }

    /// Releasing the output (rather than cancelling) also passes nil to the closure.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingOutputPassesNil(_ variant: DeliveryVariant) {
        let inputs = Shared<[SignalInput<Int>?]>([])
        let signal = Signal<Int>.generate(delivery: variant) { input in inputs.update { $0.append(input) } }
        let c = Recorder<Int>()
        var out: SignalOutput<Int>? = signal.subscribe(c.handler)
        #expect(out?.isClosed == false)
        #expect(inputs.value.count == 1)
        out = nil
        #expect(inputs.value.count == 2)
        #expect(inputs.value.last! == nil)
        #expect(inputs.value[0]?.send(value: 1) == .disconnected)
    }

    /// Each reactivation (through a multicast) gets a new input; only the current one is
    /// accepted, the earlier one stays disconnected.
    @Test(arguments: DeliveryVariant.allCases)
    func reactivationGetsAFreshInput(_ variant: DeliveryVariant) {
        let inputs = Shared<[SignalInput<Int>?]>([])
        let multi = Signal<Int>.generate(delivery: variant) { input in inputs.update { $0.append(input) } }.multicast()
        let (a, outA) = multi.collect()
        let first = inputs.value[0]!
        first.send(value: 1)
        outA.cancel()
        let (b, outB) = multi.collect()
        #expect(inputs.value.count == 3)
        #expect(inputs.value[1] == nil)
        let second = inputs.value[2]!
        #expect(first !== second)
        #expect(first.send(value: 2) == .disconnected)
        #expect(second.send(value: 3) == nil)
        #expect(a.events == [.value(1)])
        #expect(b.events == [.value(3)])
        outB.cancel()
        #expect(second.send(value: 4) == .disconnected)
    }

    /// An input the closure does not keep is released, which delivers `.cancelled`.
    @Test(arguments: DeliveryVariant.allCases)
    func droppedInputCancels(_ variant: DeliveryVariant) {
        let signal = Signal<Int>.generate(delivery: variant) { input in
            input?.send(value: 1)
            input?.send(value: 2)
        }
        let (c, out) = signal.collect()
        #expect(c.events == [.value(1), .value(2), .cancelled])
        out.cancel()
    }

    /// A generated stream can end itself; the subscriber gets exactly that end.
    @Test(arguments: DeliveryVariant.allCases)
    func generateCompletes(_ variant: DeliveryVariant) {
        let signal = Signal<String>.generate(delivery: variant) { input in
            guard let input else { return }
            input.send(value: "a")
            input.complete()
            input.send(value: "b")
        }
        let (c, out) = signal.collect()
        #expect(c.events == [.value("a"), .complete])
        out.cancel()
    }

    /// With a `.queue` context the closure runs there (activation and deactivation alike).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func closureRunsOnContext(_ variant: DeliveryVariant) {
        let (queue, mark) = QueueMark.serialQueue("generate.queue", id: 21)
        let calls = Shared<[String]>([])
        let held = Shared<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(context: .queue(queue), delivery: variant) { input in
            calls.update { $0.append("\(input == nil ? "nil" : "input"):\(mark.isCurrent)") }
            held.value = input
            input?.send(value: 42)
        }
        let (c, out) = signal.collect()
        c.expectCount(1)
        #expect(c.events == [.value(42)])
        out.cancel()
        queue.sync {}
        #expect(calls.value == ["input:true", "nil:true"])
        held.value = nil
    }
}
