import Dispatch
import Signals
import Synchronization

// MARK: - Execution contexts

/// Threads send into a multicast signal with a `.global` map stage feeding a `.global`
/// subscriber, and a subscriber on a concurrent queue.
///
/// Arbiter: no stage or handler entered concurrently, everything once, in order, end last.
package struct GlobalContextScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("global-handlers", "handlers and a map stage on .global / concurrent queues never overlap", acceptable: "no overlap, all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        // Two subscribers of the same senders: the stream's recorder and one more like it.
        let stream = StressStream(it, senders: it.threads)
        let first = stream.recorder
        let second = StressRecorder(capacity: it.threads * it.operations + 4, perturber: it.shared)
        let stage = StressStage(shared: it.shared)
        let concurrent = DispatchQueue(label: "stress.concurrent", attributes: .concurrent)
        var findings: [StressFinding] = []
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { $0.multicast() }
            it.track(input, "input"); it.track(multi, "multi")
            let token = it.ledger.token()
            let mapped = multi.map(context: .global) { m in withExtendedLifetime(token) { stage.pass(m) } }
            it.track(mapped, "mapped signal")
            let out1 = stream.subscribe(mapped, as: "global output", context: .global)
            let out2 = multi.stressSubscribe(second, ledger: it.ledger, context: .concurrent(concurrent))
            it.track(out2, "concurrent-queue output")
            it.runActors(it.threads) { a, rng in
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            it.waitUntil("the ends") { first.endCount > 0 && second.endCount > 0 }
            out1.cancel()
            out2.cancel()
        }
        findings += stage.findings("map stage on .global")
        findings += stream.check(".global subscriber", StressStreamPolicy(expectedEnd: "complete"))
        findings += stressCheckStream("concurrent-queue subscriber", second, senders: stream.senders, policy: StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}

/// A pass-through stage that checks it is never entered concurrently.
final class StressStage: @unchecked Sendable {
    let guardian = StressGuard()
    let shared: StressSharedRandom
    /// Plain memory, for ThreadSanitizer (see `StressRecorder.plainCount`).
    var plainCount = 0

    init(shared: StressSharedRandom) { self.shared = shared }

    func pass(_ m: StressMsg) -> StressMsg {
        guardian.enter()
        plainCount &+= 1
        shared.perturb()
        guardian.exit()
        return m
    }

    func findings(_ who: String) -> [StressFinding] {
        guardian.overlaps > 0 ? [.forbidden(StressCheck.concurrentEntry, "\(who): \(guardian.overlaps) overlapping entries")] : []
    }
}

/// A chain of stages across a serial queue, a concurrent queue, `.global` and another serial
/// queue, fed by T threads.
///
/// Arbiter: no stage entered concurrently; everything once, in each sender's order, end last.
package struct ContextChainScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("context-chain", "stages across serial, concurrent and global queues keep order", acceptable: "no overlap, all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let stream = StressStream(it, senders: it.threads)
        let stages = (0..<3).map { _ in StressStage(shared: it.shared) }
        let serialA = DispatchQueue(label: "stress.serial.a")
        let concurrent = DispatchQueue(label: "stress.concurrent", attributes: .concurrent)
        let serialB = DispatchQueue(label: "stress.serial.b")
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput()
            let token = it.ledger.token()
            let chain = signal
                .map(context: .queue(serialA)) { m in withExtendedLifetime(token) { stages[0].pass(m) } }
                .filter(context: .concurrent(concurrent)) { m in stages[1].pass(m).seq >= 0 }
                .map(context: .global) { m in stages[2].pass(m) }
            it.track(chain, "chain")
            let output = stream.subscribe(chain, context: .queue(serialB))
            it.runActors(it.threads) { a, rng in
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            findings += stream.complete(input)
            output.cancel()
        }
        for (i, name) in ["serial-queue map", "concurrent-queue filter", ".global map"].enumerated() {
            findings += stages[i].findings(name)
        }
        findings += stream.check("serial-queue subscriber", StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}
