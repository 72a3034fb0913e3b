import Foundation
import Signals
import Synchronization
import Testing

/// Graphs joined by junctions and merged inputs, far deeper and wider than elsewhere in the
/// tests, on a 512 KiB stack: binding checks for a loop, activation crosses every bound input,
/// and a disconnect or release must not recurse once per junction either.
@Suite(.tags(.startsThreads), .stackThreadOnly) struct DeepJunctionTests {
    static let depth = 100_000

    /// 100,000 signals, each bound by a junction to the next one's input: built (each bind
    /// checked for a loop: once a walk over the whole chain above, O(n²) for the chain),
    /// subscribed at the far end, sent through, cut in the middle, completed and released.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandJunctions(_ variant: DeliveryVariant) {
        onThread {
            let (first, s0) = Signal<Int>.create(delivery: variant)
            var s = s0
            var junctions: [SignalJunction<Int>] = []
            junctions.reserveCapacity(Self.depth)
            for _ in 0..<Self.depth {
                let (next, signal) = Signal<Int>.create(delivery: variant)
                let j = s.junction()
                #expect(j.bind(to: next) == nil)
                junctions.append(j)
                s = signal
            }
            let seen = Mutex<[Int]>([])
            let ended = Mutex<SignalEnd?>(nil)
            var output: SignalOutput<Int>? = s.subscribe { r in
                switch r {
                case .success(let v): seen.withLock { $0.append(v) }
                case .failure(let e): ended.withLock { $0 = e }
                }
            }
            #expect(first.send(value: 1) == nil)
            #expect(first.send(value: 2) == nil)
            #expect(seen.withLock { $0 } == [1, 2])
            // A disconnect in the middle cuts the chain: the upstream half's values stop there.
            let middle = junctions[Self.depth / 2].disconnect()
            #expect(middle != nil)
            _ = first.send(value: 3)
            #expect(seen.withLock { $0 } == [1, 2])
            // Sending into the returned input reaches the far end through the lower half.
            #expect(middle?.send(value: 4) == nil)
            #expect(seen.withLock { $0 } == [1, 2, 4])
            middle?.complete()
            #expect(ended.withLock { $0 }.map { "\($0)" } == "\(SignalEnd.complete)")
            output = nil
            junctions = []
            s = Signal<Int>.just(0)
            withExtendedLifetime((first, output)) {}
        }
    }

    /// A merged input given 100,000 sources (each checked for a loop as it is added),
    /// subscribed, sent through from its first, middle and last source, and released. Each
    /// `add` once looked at every source already there (an activation pass over all feeders),
    /// which made adding n sources O(n²).
    @Test(arguments: DeliveryVariant.allCases)
    func mergedInputOfAHundredThousandSources(_ variant: DeliveryVariant) {
        onThread {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
            var inputs: [SignalInput<Int>] = []
            inputs.reserveCapacity(Self.depth)
            for _ in 0..<Self.depth {
                let (i, s) = Signal<Int>.create(delivery: variant)
                #expect(merged.add(s, closePropagation: .none) == nil)
                inputs.append(i)
            }
            let seen = Mutex<[Int]>([])
            var output: SignalOutput<Int>? = signal.subscribe { r in
                if case .success(let v) = r { seen.withLock { $0.append(v) } }
            }
            #expect(inputs[0].send(value: 1) == nil)
            #expect(inputs[Self.depth / 2].send(value: 2) == nil)
            #expect(inputs[Self.depth - 1].send(value: 3) == nil)
            #expect(merged.send(value: 4) == nil)
            #expect(seen.withLock { $0 } == [1, 2, 3, 4])
            output?.cancel()
            #expect(inputs[0].send(value: 5) == .inactive)
            output = nil
            inputs = []
            withExtendedLifetime((merged, output)) {}
        }
    }
}
