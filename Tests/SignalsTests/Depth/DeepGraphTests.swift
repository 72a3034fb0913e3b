import Foundation
import Signals
import Synchronization
import Testing

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it: a graph
/// whose building, activation, delivery or release recursed once per stage would overflow it.
func onThread(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}

/// Graphs far deeper and wider than any built elsewhere in the tests: every part of their life
/// (building, subscribing, sending through, releasing) runs in bounded stack, so each test runs
/// on a thread with a 512 KiB stack (a secondary thread's default on Apple platforms).
@Suite(.tags(.startsThreads), .stackThreadOnly) struct DeepGraphTests {
    /// A million fused stages, built and released without being subscribed: freeing each
    /// derived signal drops its hold on the one upstream, which frees that one, and so on.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingAMillionStageChainDoesNotRecurse(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s = s0.map { $0 }
            for _ in 1..<1_000_000 { s = s.map { $0 + 1 } }
            _ = s
            s = Signal<Int>.just(0)
            withExtendedLifetime(input) {}
        }
    }

    /// A million fused stages subscribed, sent through, cancelled and released: attaching a
    /// fused chain and a value crossing it nest one call per stage, so a node ends the fusion
    /// every `fusedDepthLimit` stages and the nodes hand over in bounded stack.
    @Test(arguments: DeliveryVariant.allCases)
    func aMillionStageChainIsSubscribedSentThroughAndReleased(_ variant: DeliveryVariant) {
        let received = Mutex<[Int]>([])
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s = s0.map { $0 }
            for _ in 1..<1_000_000 { s = s.map { $0 &+ 1 } }
            var output: SignalOutput<Int>? = s.subscribeValues { v in received.withLock { $0.append(v) } }
            s = Signal<Int>.just(0)
            input.send(value: 1)
            input.send(value: 2)
            output?.cancel()
            input.send(value: 3)
            output = nil
            withExtendedLifetime(input) {}
        }
        #expect(received.withLock { $0 } == [1_000_000, 1_000_001])
    }
}

/// `merge(sequence:)` of very many sources: one node with a feeder per source.
@Suite struct WideMergeTests {
    /// 100,000 sources merged, subscribed, sent through (the first, a middle and the last
    /// source), completed and released, on a 512 KiB stack. Folded pairwise, the merge was a
    /// chain of 100,000 nodes: subscribing it recursed once per node (crashing at 8,000 on an
    /// 8 MiB stack) and a value of the first source crossed every one of them.
    @Test(.tags(.startsThreads), .stackThreadOnly, arguments: DeliveryVariant.allCases)
    func mergeOfAHundredThousandSourcesOnASmallStack(_ variant: DeliveryVariant) {
        onThread {
            let count = 100_000
            var inputs: [SignalInput<Int>] = []
            var sources: [Signal<Int>] = []
            inputs.reserveCapacity(count)
            sources.reserveCapacity(count)
            for _ in 0..<count {
                let (i, s) = Signal<Int>.create(delivery: variant)
                inputs.append(i)
                sources.append(s)
            }
            let merged = Signal<Int>.merge(sequence: sources, delivery: variant)
            sources = []
            let seen = Mutex<[Int]>([])
            let ended = Mutex<SignalEnd?>(nil)
            var output: SignalOutput<Int>? = merged.subscribe { r in
                switch r {
                case .success(let v): seen.withLock { $0.append(v) }
                case .failure(let e): ended.withLock { $0 = e }
                }
            }
            #expect(inputs[0].send(value: 1) == nil)
            #expect(inputs[count / 2].send(value: 2) == nil)
            #expect(inputs[count - 1].send(value: 3) == nil)
            #expect(seen.withLock { $0 } == [1, 2, 3])
            // The merge completes when every source has.
            for i in inputs { i.complete() }
            #expect(ended.withLock { $0 }.map { "\($0)" } == "\(SignalEnd.complete)")
            output = nil
            inputs = []
            withExtendedLifetime(output) {}
        }
    }

    /// A value of any source crosses one node: the first of 1,000 sources and the last reach
    /// the subscriber the same way (the merge is one node, so the subscriber sees values in
    /// the order they were sent, whichever source sent them).
    @Test(arguments: DeliveryVariant.allCases)
    func mergeOfManySourcesDeliversInSendOrder(_ variant: DeliveryVariant) {
        let pairs = (0..<1_000).map { _ in Signal<Int>.create(delivery: variant) }
        let rec = Recorder(Signal<Int>.merge(sequence: pairs.map(\.signal), delivery: variant))
        for (k, p) in pairs.enumerated().reversed() where k % 100 == 0 { p.input.send(value: k) }
        #expect(rec.values == [900, 800, 700, 600, 500, 400, 300, 200, 100, 0])
    }
}
