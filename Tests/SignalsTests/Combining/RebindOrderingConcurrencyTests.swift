// CwlSignal's `testAsynchronousJoinAndDetach`, ported (rewritten, not copied): four
// threads keep disconnecting one junction over a cold source and binding it to a fresh merged
// input that feeds ten `.global` stateful stages. Every chain must see its values in order
// (0, 1, 2, …: each binding runs the cold source afresh), each exactly once, and end exactly once: complete
// after all ten values, or interrupted (cancelled when its input was unbound and released)
// after a prefix.

import Dispatch
import Foundation
import Signals
import Synchronization
import Testing

/// A value behind an `NSLock`: ThreadSanitizer sees a pthread mutex, but not
/// `Synchronization.Mutex`'s futex on Linux, and this test runs under TSan in CI.
private final class NSLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// What the chains of one run observed.
private final class RebindObservations: @unchecked Sendable {
    // Unchecked: every field is behind the lock or is a semaphore.
    struct State {
        var outOfOrder: [String] = []
        var endsPerChain: [String: Int] = [:]
        var completions = 0
        var interruptions = 0
        var badResults: [String] = []
        var outputs: [String: SignalOutput<Int>] = [:]
    }
    let state = NSLocked(State())
    let ended = DispatchSemaphore(value: 0)
}

@Suite("Ordering under concurrent rebind (Concurrency)", .tags(.startsThreads))
struct RebindOrderingConcurrencyTests {
    static let sequenceLength = 10
    static let iterations = 50
    static let threadCount = 4
    static let depth = 10

    /// Failed intermittently before the fix (about one run in three, both variants): the end
    /// of the previous activation of the `generate` source, sent just as a rebinding thread
    /// started the next generation, closed the reopened queue and reached the new binding's
    /// chain, which completed with no value ("straggler" below). `SignalNode.deliverEnd` now
    /// queues an end only while its generation is current, and the holder delivers it only
    /// while it still is.
    @Test(arguments: DeliveryVariant.allCases)
    func chainsSeeTheirValuesInOrderAndEndOnce(variant: DeliveryVariant) {
        for _ in 0..<3 { run(variant) }
    }

    private func run(_ variant: DeliveryVariant) {
        let seen = RebindObservations()
        let junction = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            for x in 0..<Self.sequenceLength { input.send(value: x) }
            input.complete()
        }.junction()

        DispatchQueue.concurrentPerform(iterations: Self.threadCount) { t in
            for i in 0..<Self.iterations {
                let name = "thread \(t) iteration \(i)"
                let (input, merged) = Signal<Int>.createMergedInput(delivery: variant)
                var signal = merged.transform(initialState: 0) { (_: inout Int, r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
                    next.send(result: r)
                }
                for d in 0..<Self.depth {
                    // Each binding re-activates the cold source, so every chain's values count
                    // up from 0: each stage checks that it sees 0, 1, 2, … in turn.
                    signal = signal.transform(initialState: 0, context: .global) { (expected: inout Int, r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
                        if case .success(let v) = r {
                            if v != expected {
                                seen.state.withLock { $0.outOfOrder.append("\(name) depth \(d): expected \(expected), got \(v)") }
                            }
                            expected = v + 1
                        }
                        next.send(result: r)
                    }
                }
                let results = NSLocked<[Int]>([])
                let out = signal.subscribe { r in
                    switch r {
                    case .success(let v):
                        results.withLock { $0.append(v) }
                    case .failure(let e):
                        let values = results.withLock { $0 }
                        seen.state.withLock { s in
                            s.endsPerChain[name, default: 0] += 1
                            // A chain sees a prefix of 0..<sequenceLength; a complete
                            // chain sees all of it.
                            if values != Array(0..<values.count) {
                                s.badResults.append("\(name): \(values)")
                            }
                            if e.isComplete {
                                s.completions += 1
                                if values != Array(0..<Self.sequenceLength) { s.badResults.append("\(name) complete with \(values)") }
                            } else {
                                s.interruptions += 1
                            }
                        }
                        seen.ended.signal()
                    }
                }
                seen.state.withLock { $0.outputs[name] = out }
                _ = junction.disconnect()
                _ = junction.bind(to: input)
            }
        }
        // The last binding stays until the junction goes: unbind it so its chain ends too.
        _ = junction.disconnect()
        let total = Self.threadCount * Self.iterations
        var endedCount = 0
        while endedCount < total, seen.ended.wait(timeout: .now() + 30) == .success { endedCount += 1 }
        let s = seen.state.withLock { s -> RebindObservations.State in
            let copy = s
            s.outputs = [:]
            return copy
        }
        #expect(endedCount == total, "\(total - endedCount) chains never ended")
        #expect(s.outOfOrder.isEmpty, "straggler: \(s.outOfOrder.count) out of order, first: \(s.outOfOrder.prefix(3))")
        #expect(s.badResults.isEmpty, "straggler: \(s.badResults.prefix(3))")
        #expect(s.endsPerChain.values.allSatisfy { $0 == 1 }, "a chain ended more than once")
        #expect(s.completions + s.interruptions == total)
        withExtendedLifetime(junction) {}
    }
}
