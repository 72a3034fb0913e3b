import Dispatch
import Foundation
import Signals
import Synchronization

// Scenarios for execution contexts: stages and handlers on `.global`, concurrent and serial
// queues (never entered concurrently, order kept), a `.queue` stage cancelled with values queued
// behind it, and `hop(to:)` re-activated while an earlier activation's end is held.

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
                .filter(context: .concurrent(concurrent)) { m in stages[1].pass(m).stamp.seq >= 0 }
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

/// A stage on a `.queue` context with values queued behind it is cancelled;
/// no call of its closure may begin after `cancel()` returned (the one running may finish, and
/// one may have begun between the holder's check and the cancel's return). The library once
/// let the closures of a cancelled graph run on: the scenario finds it if it comes back.
package struct QueueStageCancelScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("queue-stage-cancel", "cancel() of a subscription whose .queue stage has a backlog, while senders send", acceptable: "stage stops at cancel")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(64, it.operations)
        let q = DispatchQueue(label: "stress.queue-stage-cancel")
        let (input, signal) = Signal<Int>.create(delivery: it.variant)
        let probe = StressCancelProbe()
        probe.output = signal.map(context: .queue(q)) { v -> Int in probe.called(); return v }.subscribeValues { _ in }
        let cancelAt = it.random.below(n)
        let senders = max(1, it.threads - 1)
        it.runActors(senders + 1) { actor, rng in
            if actor == senders {
                stressSpin(cancelAt * 4)
                probe.cancel()
                return
            }
            for v in 0..<n {
                _ = input.send(value: v)
                rng.perturb()
            }
        }
        q.sync {}
        q.sync {}
        let late = probe.lateCalls.load(ordering: .relaxed)
        if late > 1 {
            return [.forbidden("stage of a cancelled subscription ran after cancel() returned", "\(late) calls")]
        }
        return []
    }
}

/// `generate` → `onEnd { sleep }` → `hop(to:)` (`.global`, a serial queue, `.syncQueue()` in
/// turn): one thread sends an error into the source's input; while the end is held in the
/// end handler, another cancels and subscribes again and sends into the new activation's
/// input. The new subscription must get that value: the old end must not close the hop
/// node's re-activation.
package struct HopReactivationAfterEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "hop-reactivation-after-end", "an end held in onEnd above a hop(to:) while another thread cancels, subscribes again and sends",
        acceptable: "the new activation delivers what it accepted")

    struct Failure: Error {}

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(2, it.operations / 50)
        let queue = DispatchQueue(label: "stress.hop-reactivation")
        var findings: [StressFinding] = []
        for round in 0..<rounds where findings.isEmpty {
            let context: Exec = [.global, .queue(queue), .syncQueue()][(it.index + round) % 3]
            let hold = UInt32(1_000 + it.random.below(3_000))
            let (source, holder) = stressGenerateSource(it.variant)
            let signal = source
            .onEnd { _ in usleep(hold) }
            .hop(to: context)
            let first = signal.subscribe { _ in }
            guard let oldInput = holder.withLock({ $0 }) else { return [.forbidden("generate not activated by subscribe")] }
            let received = StressLock<[Int]>([])
            let second = StressLock<SignalOutput<Int>?>(nil)
            let accepted = Atomic<Bool>(false)
            let gap = it.random.below(2) == 0 ? UInt32(hold / 2) : 0
            it.runActors(2) { a, _ in
                if a == 0 {
                    oldInput.send(end: .other(Failure()))
                    return
                }
                usleep(gap)
                first.cancel()
                let out = signal.subscribe { r in if case .success(let v) = r { received.withLock { $0.append(v) } } }
                second.withLock { $0 = out }
                if let fresh = holder.withLock({ $0 }) {
                    accepted.store(fresh.send(value: 42) == nil, ordering: .relaxed)
                }
            }
            let deadline = Date().addingTimeInterval(2)
            while accepted.load(ordering: .relaxed) && received.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
            if accepted.load(ordering: .relaxed) && received.withLock({ $0 }) != [42] {
                findings.append(.forbidden(
                    "accepted value lost after re-activation",
                    "round \(round), context \(context): the new activation's input accepted 42, the new subscriber got \(received.withLock { $0 })"))
            }
            second.withLock { $0?.cancel(); $0 = nil }
        }
        return findings
    }
}
