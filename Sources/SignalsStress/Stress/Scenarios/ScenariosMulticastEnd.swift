import Signals
import Synchronization

/// Branches of a `multicast()` whose upstream has ended: the multi keeps the end for every
/// later branch and never activates the ended upstream again (an activated `generate` would
/// get a fresh input whose sends the ended multi could only drop).
///
/// Two shapes, chosen per iteration:
/// - *ended first*: a standing branch takes the values and the end of a `generate` upstream;
///   then every actor subscribes and cancels late branches while actor 0 also cancels the
///   standing branch at a random point, so the multi goes from one branch to none and back
///   many times. Arbiter: each late branch gets exactly the end, and the generate closure is
///   called with an input once in the whole iteration.
/// - *end racing*: actor 0 sends the values and completes while the others subscribe and
///   cancel branches (the standing branch held throughout). Arbiter: each branch gets
///   consecutive values, then the end at most once, nothing after it; the standing branch
///   gets everything, then the end.
package struct MulticastEndedBranchesScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("multicast-ended-branches", "branches of an ended multicast() added and removed across threads", acceptable: "late branches get only the end; the ended upstream is never activated again")

    final class Upstream: @unchecked Sendable {
        let activations = StressCounter(0)
        let input = StressLock<SignalInput<StressMsg>?>(nil)
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let endedFirst = it.random.below(2) == 0
        let upstream = Upstream()
        let ledger = it.ledger
        let shared = it.shared
        let late = StressLock<[StressRecorder]>([])
        let standing = StressRecorder(capacity: n + 2, perturber: nil)
        var findings: [StressFinding] = []
        do {
            let token = ledger.token()
            let generated = Signal<StressMsg>.generate(delivery: it.variant) { input in
                withExtendedLifetime(token) {
                    if input != nil { upstream.activations.value.wrappingAdd(1, ordering: .relaxed) }
                    upstream.input.withLock { $0 = input }
                }
            }
            let multi = generated.multicast()
            it.track(generated, "generate signal"); it.track(multi, "multi")
            let standingOutput = StressHandOff(multi.stressSubscribe(standing, ledger: ledger))
            let send: @Sendable () -> Void = {
                guard let input = upstream.input.withLock({ $0 }) else { return }
                for i in 0..<n { _ = input.send(value: StressMsg(sender: 0, seq: i, token: ledger.token())) }
                input.complete()
            }
            if endedFirst { send() }
            let rounds = max(4, n / 16)
            it.runActors(it.threads) { a, rng in
                if !endedFirst && a == 0 { return send() }
                let cancelAt = a == 0 ? rng.below(rounds) : -1
                for k in 0..<rounds {
                    if k == cancelAt { standingOutput.take()?.cancel() }
                    let recorder = StressRecorder(capacity: n + 2, perturber: shared)
                    let output = multi.stressSubscribe(recorder, ledger: ledger)
                    rng.hold()
                    output.cancel()
                    recorder.markCancelled()
                    late.withLock { $0.append(recorder) }
                    it.progress(a, k)
                }
            }
            standingOutput.take()?.cancel()
            upstream.input.withLock { $0 = nil }
        }
        findings += standing.entryFindings("standing branch")
        let all = (0..<n).map { StressEvent.value(sender: 0, seq: $0, tag: 0) } + [.end("complete")]
        if standing.events != all {
            findings.append(.forbidden(StressCheck.lost, "standing branch: \(standing.events.count) events, not the \(n) values and the end"))
        }
        let activations = upstream.activations.load
        if activations != 1 {
            findings.append(.forbidden(StressCheck.activationOrder, "ended upstream activated again: \(activations) activations of the generate closure"))
        }
        for (k, recorder) in late.withLock({ $0 }).enumerated() {
            let who = "late branch \(k)"
            findings += recorder.entryFindings(who)
            let events = recorder.events
            if endedFirst {
                if events != [.end("complete")] {
                    findings.append(.forbidden(StressCheck.wrongEnd, "\(who): \(events.prefix(4)) where only the kept end was due"))
                }
                continue
            }
            let seqs = events.compactMap { e -> Int? in if case .value(_, let q, _) = e { return q } else { return nil } }
            if let b = stressConsecutiveBreak(seqs) {
                findings.append(.forbidden(b.check, "\(who): \(Array(b.around))"))
            }
            let ends = events.indices.filter { if case .end = events[$0] { return true } else { return false } }
            if ends.count > 1 { findings.append(.forbidden(StressCheck.endTwice, "\(who): \(ends.count) ends")) }
            if let e = ends.first, e != events.count - 1 {
                findings.append(.forbidden(StressCheck.valueAfterEnd, "\(who): a value after the end"))
            }
            if let e = ends.first, events[e] != .end("complete") {
                findings.append(.forbidden(StressCheck.wrongEnd, "\(who): \(events[e])"))
            }
        }
        return findings
    }
}

/// A reference held by one actor until it takes it.
final class StressHandOff<Value>: @unchecked Sendable {
    private let lock = StressLock<Value?>(nil)
    init(_ value: Value) { lock.withLock { $0 = value } }
    /// The value, once: later calls get nil.
    func take() -> Value? { lock.withLock { v in defer { v = nil }; return v } }
}
