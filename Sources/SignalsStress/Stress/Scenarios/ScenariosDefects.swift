// Stress scenarios for four classes of race the library once had, so that the harness finds
// them if they come back: graph changes made from inside deliveries on other
// nodes (a deadlock), closures of a cancelled graph running on (an asynchronous stage), merged
// sources that end while values flow, and loops closed through inner subscriptions.

import Dispatch
import Signals
import Synchronization

/// A subscription whose handler counts the calls that began after its `cancel()` returned.
final class StressCancelProbe: @unchecked Sendable {
    // Unchecked: the output is set once before the probe is shared; the rest is atomic.
    var output: SignalOutput<Int>?
    let cancelReturned = Atomic<Bool>(false)
    let lateCalls = Atomic<Int>(0)

    /// For the handler (or stage) of the probed subscription.
    func called() {
        if cancelReturned.load(ordering: .acquiring) { lateCalls.add(1, ordering: .relaxed) }
    }

    func cancel() {
        output?.cancel()
        cancelReturned.store(true, ordering: .releasing)
    }
}

/// Handlers on two multicasts cancel branches of each other while two threads
/// send into both. A cancel that waits for the other node's holder deadlocks (the watchdog
/// reports it); a cancelled branch must not be entered after its `cancel()` returned.
package struct CrossCancelScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("cross-cancel", "handlers on two multicasts cancel each other's branches while two threads send", acceptable: "no deadlock, nothing after cancel")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let (inA, a) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        let (inB, b) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        func victims(on multi: SignalMulti<Int>) -> [StressCancelProbe] {
            (0..<n).map { _ in
                let p = StressCancelProbe()
                p.output = multi.map { v -> Int in p.called(); return v }.subscribeValues { _ in p.called() }
                return p
            }
        }
        let onA = victims(on: a), onB = victims(on: b)
        let nextA = Atomic<Int>(0), nextB = Atomic<Int>(0)
        let cancellerA = a.subscribeValues { _ in
            let i = nextB.add(1, ordering: .relaxed).newValue - 1
            if i < n { onB[i].cancel() }
        }
        let cancellerB = b.subscribeValues { _ in
            let i = nextA.add(1, ordering: .relaxed).newValue - 1
            if i < n { onA[i].cancel() }
        }
        it.runActors(max(2, it.threads)) { actor, rng in
            let input = actor % 2 == 0 ? inA : inB
            it.sendNumbers(n, actor: actor, random: &rng) { _ = input.send(value: $0) }
        }
        withExtendedLifetime((cancellerA, cancellerB)) {}
        let late = (onA + onB).reduce(0) { $0 + $1.lateCalls.load(ordering: .relaxed) }
        if late > 0 {
            return [.forbidden("closure of a cancelled branch entered after cancel() returned", "\(late) calls")]
        }
        return []
    }
}

/// A stage on a `.queue` context with values queued behind it is cancelled;
/// no call of its closure may begin after `cancel()` returned (the one running may finish, and
/// one may have begun between the holder's check and the cancel's return).
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

/// Sources of a merged input complete while values flow through the others
/// (`.none` or `.errors` propagation); every ended source must be gone.
package struct MergedSourceEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("merged-source-end", "merged sources complete while others send; ended sources must be removed", acceptable: "ended sources removed")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let actors = max(2, it.threads)
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: it.variant)
        let output = signal.subscribeValues { _ in }
        let sources = (0..<actors).map { _ in Signal<Int>.create(delivery: it.variant) }
        let propagation: SignalEndPropagation = it.random.below(2) == 0 ? .none : .errors
        for s in sources { _ = merged.add(s.signal, closePropagation: propagation) }
        let endAt = (0..<actors).map { _ in it.random.below(n) }
        it.runActors(actors) { actor, rng in
            let input = sources[actor].input
            for v in 0..<n {
                // Completes (neither propagation closes the merged signal on `.complete`, so it
                // stays active and sees every end; an error that closes it is the unit test's
                // `failedMergedSourceIsRemoved`).
                if v == endAt[actor] { _ = input.complete() }
                _ = input.send(value: v)
                rng.perturb()
            }
        }
        withExtendedLifetime(output) {}
        let stillAttached = sources.indices.filter { merged.remove(sources[$0].signal) }
        if !stillAttached.isEmpty {
            return [.forbidden("ended merged source still attached", "sources \(stillAttached)")]
        }
        return []
    }
}

/// A `flatMap` whose inner signal closes a loop back into its own input,
/// triggered from several threads while others send into that input. The inner subscription
/// must be refused (`.loop`); a value that went round the loop is a broken promise, and an
/// endless cycle is caught by the watchdog.
package struct InnerLoopScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("inner-loop", "flatMap inner subscriptions that would close a loop, triggered while values flow", acceptable: "loop refused")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let (inA, a) = Signal<Int>.create(delivery: it.variant)
        let multiA = a.multicast()
        let (trigger, triggers) = Signal<Int>.create(delivery: it.variant)
        let laps = Atomic<Int>(0)
        let junction = triggers.flatMap { _ in
            multiA.map { v -> Int in laps.add(1, ordering: .relaxed); return v + 1 }
        }.junction()
        let watcher = multiA.subscribeValues { _ in }
        let bound = junction.bind(to: inA)
        it.runActors(max(2, it.threads)) { actor, rng in
            it.sendNumbers(n, actor: actor, random: &rng) { v in
                _ = actor == 0 ? trigger.send(value: v) : inA.send(value: v)
            }
        }
        junction.cancel()
        withExtendedLifetime(watcher) {}
        var findings: [StressFinding] = []
        if let bound { findings.append(.forbidden("flatMap junction bind refused", "\(bound)")) }
        let l = laps.load(ordering: .relaxed)
        if l > 0 { findings.append(.forbidden("value went round a loop through an inner subscription", "\(l) laps")) }
        return findings
    }
}
