import Foundation
import Signals
import Synchronization
import Testing

/// Chains of 100,000 real nodes (stages that cannot be fused: multis), on a 512 KiB stack:
/// subscribing activates every node upstream (each feeder attaches to the node above it),
/// a value crosses every node, cancelling deactivates every node, and releasing frees them.
/// Each of these once recursed once per node.
@Suite(.tags(.startsThreads), .stackThreadOnly) struct DeepNodeChainTests {
    static let depth = 100_000

    /// 100,000 `multicast()` nodes, each fed by the one above: lazy, so the subscription
    /// activates all of them and its cancel deactivates all of them; subscribed twice to check
    /// that the second activation works as the first did.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandMulticasts(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            for _ in 0..<Self.depth { s = s.multicast() }
            #expect(input.send(value: 0) == .inactive)

            let first = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { first.receive($0) }
            #expect(input.send(value: 1) == nil)
            #expect(input.send(value: 2) == nil)
            #expect(first.values == [1, 2])
            // Cancelling deactivates every node: the input is inactive again.
            output?.cancel()
            output = nil
            #expect(input.send(value: 3) == .inactive)
            #expect(first.values == [1, 2])

            let second = Recorder<Int>()
            output = s.subscribe { second.receive($0) }
            #expect(input.send(value: 4) == nil)
            input.complete()
            #expect(second.values == [4])
            #expect(second.end == .complete)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }

    /// `map` + `multicast()` alternating with `continuous()` (an eager multi, active from the
    /// moment it is made): 100,000 nodes in all, built (each `continuous()` activates what is
    /// above it), subscribed, sent through, ended and released.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandMixedNodes(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            var maps = 0
            for k in 0..<Self.depth {
                if k % 2 == 0 {
                    s = s.map { $0 + 1 }.multicast()
                    maps += 1
                } else {
                    s = s.continuous()
                }
            }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            #expect(input.send(value: 1) == nil)
            #expect(input.send(value: 2) == nil)
            #expect(seen.values == [1 + maps, 2 + maps])
            input.complete()
            #expect(seen.end == .complete)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }
}
