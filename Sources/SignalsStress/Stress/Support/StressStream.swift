import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The skeleton most scenarios repeat: a few senders of `StressMsg` values, one recorder that
// watches the subscriber, the graph's objects tracked for leaks, then the arbiter's check of
// what the recorder saw against what the senders were told. A scenario keeps only what is its
// own: the graph it builds, what the extra actor does and the policy it judges by.

/// Senders and the recorder that watches their values arrive.
///
/// Each sender may send `operations` values; the recorder has room for all of them and a few
/// ends. Built once per iteration, before any actor runs; the senders are written by their own
/// actor only and read by the arbiter after `runActors` returned.
package struct StressStream: Sendable {
    /// The iteration the stream belongs to (its variant, ledger and progress report).
    package let iteration: StressIteration
    /// Values each sender may send.
    package let operations: Int
    /// Sender `i` has id `i` (the `sender` field of its values).
    package let senders: [StressSender]
    /// The recorder the subscriber feeds.
    package let recorder: StressRecorder

    /// `count` senders of `operations` values each (the iteration's count by default), stamped
    /// by `clock` where given, and a recorder with room for all their values plus `spare`.
    package init(_ iteration: StressIteration, senders count: Int, operations: Int? = nil,
                clock: StressClock? = nil, spare: Int = 4) {
        let n = operations ?? iteration.operations
        self.iteration = iteration
        self.operations = n
        senders = (0..<max(0, count)).map { StressSender(id: $0, capacity: n, clock: clock) }
        recorder = StressRecorder(capacity: max(0, count) * n + spare, perturber: iteration.shared)
    }

    /// Actor `actor` sends its sender's `operations` values through `send`, one after another,
    /// perturbing between sends and reporting progress (`StressSender.sendAll`).
    package func sendAll(_ actor: Int, random: inout StressRandom, _ send: (StressMsg) -> SignalSendError?) {
        senders[actor].sendAll(operations, actor: actor, of: iteration, ledger: iteration.ledger, random: &random, send)
    }

    /// Subscribes the recorder to `signal` (the handler holds a counted token) and tracks the
    /// output as `name`.
    package func subscribe(_ signal: Signal<StressMsg>, as name: String = "output", context: Exec = .direct) -> SignalOutput<StressMsg> {
        let output = signal.stressSubscribe(recorder, ledger: iteration.ledger, context: context)
        iteration.track(output, name)
        return output
    }

    /// Ends `input` after the senders finished (a refused `complete()` is a setup failure) and
    /// waits for the recorder to see the end.
    package func complete(_ input: SignalInput<StressMsg>, timeoutSeconds: Double? = nil) -> [StressFinding] {
        var findings: [StressFinding] = []
        if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
        let recorder = self.recorder
        iteration.waitUntil("the end", timeoutSeconds: timeoutSeconds) { recorder.endCount > 0 }
        return findings
    }

    /// The arbiter: what the recorder saw against what the senders were told, judged by
    /// `policy` and reported as `who` (`stressCheckStream`).
    package func check(_ who: String, _ policy: StressStreamPolicy) -> [StressFinding] {
        stressCheckStream(who, recorder, senders: senders, policy: policy)
    }
}

extension StressIteration {
    /// A `Signal<StressMsg>` input and signal on this iteration's variant, both tracked (the
    /// signal only where `signalName` is not nil).
    package func makeInput(_ inputName: String = "input", signal signalName: String? = "signal")
        -> (input: SignalInput<StressMsg>, signal: Signal<StressMsg>) {
        let (input, signal) = Signal<StressMsg>.create(delivery: variant)
        track(input, inputName)
        if let signalName { track(signal, signalName) }
        return (input, signal)
    }

    /// The plain sending loop of the scenarios that send bare numbers: `send(v)` for `v` in
    /// `0..<count`, perturbing between sends and reporting progress as actor `actor`.
    package func sendNumbers(_ count: Int, actor: Int, random: inout StressRandom, _ send: (Int) -> Void) {
        for v in 0..<count {
            send(v)
            random.perturb()
            if v & 31 == 0 { progress(actor, v) }
        }
    }
}

extension StressIteration {
    /// The flood skeleton: actor 0 calls `send(v)` for `v` = `first`, `first + 1`, … until every
    /// one of the `readers` other actors (1…readers; the iteration's other threads, at least
    /// one, by default) has returned from `reader`; each reader does its rounds against the
    /// flood. Progress is reported, and actor 0 perturbed, every
    /// `every` values (a power of two). `send` gets the flood's stop test, for a sender that
    /// waits inside a send (a bounded backlog) and must not wait past the end.
    package func runFlood(readers: Int? = nil, from first: Int = 0, every: Int = 256,
                          send: @escaping @Sendable (_ value: Int, _ stopped: () -> Bool) -> Void,
                          reader: @escaping @Sendable (_ actor: Int, _ random: inout StressRandom) -> Void) {
        let readers = max(1, readers ?? threads - 1)
        let stop = Atomic<Bool>(false)
        let left = Atomic<Int>(readers)
        let mask = max(1, every) - 1
        runActors(readers + 1) { a, rng in
            if a == 0 {
                let stopped = { stop.load(ordering: .acquiring) }
                var v = first
                while !stopped() {
                    send(v, stopped)
                    v += 1
                    if v & mask == 0 { self.progress(a, v); rng.perturb() }
                }
                return
            }
            defer { if left.subtract(1, ordering: .relaxed).newValue == 0 { stop.store(true, ordering: .releasing) } }
            reader(a, &rng)
        }
    }
}

extension StressIteration {
    /// The churn skeleton: the last of the iteration's actors runs `churn(k, random)` for each
    /// round `k` (at least 4, one per 16 operations), reporting progress after each, while the
    /// others run `sender(actor, random)`.
    package func runChurn(churn: @escaping @Sendable (_ round: Int, _ random: inout StressRandom) -> Void,
                          senders sender: @escaping @Sendable (_ actor: Int, _ random: inout StressRandom) -> Void) {
        let churner = threads - 1
        let rounds = max(4, operations / 16)
        runActors(threads) { a, rng in
            guard a == churner else { return sender(a, &rng) }
            for k in 0..<rounds {
                churn(k, &rng)
                self.progress(a, k)
            }
        }
    }
}

/// Where `run` stops counting up by one: the index of the first value that is not the one
/// before plus 1, with the check it breaks (`duplicate` when it is not above the one before,
/// `lost` when it skips), and the values around it for the report. Nil when `run` is
/// consecutive (an empty or one-value run is).
func stressConsecutiveBreak(_ run: [Int]) -> (index: Int, check: String, around: ArraySlice<Int>)? {
    guard let i = run.indices.dropFirst().first(where: { run[$0] != run[$0 - 1] + 1 }) else { return nil }
    let check = run[i] <= run[i - 1] ? StressCheck.duplicate : StressCheck.lost
    return (i, check, run[max(0, i - 3)..<min(run.count, i + 3)])
}

/// The findings the actors of one iteration file as they go, from any thread.
package final class StressFindings: Sendable {
    let filed = StressLock<[StressFinding]>([])
    package init() {}
    /// Files `finding`.
    package func add(_ finding: StressFinding) { filed.withLock { $0.append(finding) } }
    /// Files `findings`.
    package func add(_ findings: [StressFinding]) { filed.withLock { $0 += findings } }
    /// What was filed so far.
    package var all: [StressFinding] { filed.withLock { $0 } }
}

/// Keeps a flooding sender at most `limit` values ahead of a permanent branch of the multi it
/// floods. Unbounded, a flood that outruns the thread holding the multi (a perturbed holder, a
/// busy machine) queues so many values ahead of a reader's subscribe or cancel, which wait for
/// the values queued before them, that the reader outwaits the watchdog: a backlog, not a
/// deadlock. Several hand-over budgets of backlog (four thousand values) still make holders
/// hand over.
final class StressBacklogLimit: Sendable {
    let limit: Int
    /// Values the permanent branch has taken.
    let taken = StressCounter(0)
    let output: SignalOutput<Int>

    /// Subscribes the permanent branch to `multi`; its handler is perturbed by `perturber`.
    init(_ multi: SignalMulti<Int>, limit: Int = 4_096, perturber: StressSharedRandom) {
        self.limit = limit
        let taken = self.taken
        output = multi.subscribeValues { _ in
            taken.value.add(1, ordering: .relaxed)
            perturber.perturb()
        }
    }

    /// Waits (yielding) until value number `v` is at most `limit` ahead, or the flood stopped.
    func wait(toSend v: Int, stopped: () -> Bool) {
        while v &- taken.load > limit && !stopped() { sched_yield() }
    }
}
