import Signals
import Synchronization

// MARK: - SignalMulti

/// Which kind of `SignalMulti`.
package enum StressMultiKind: String, Sendable, CaseIterable {
    case continuous, playback, multicast
}

/// One thread sends into a `SignalMulti` (with one standing subscriber) while others
/// subscribe new branches and cancel them.
///
/// Arbiter, per branch: what `subscribe()` delivered before returning is the cache (the latest
/// value for `continuous`, all values for `playback`, none for `multicast`), once; then live
/// values with no gap, repeat or reordering; nothing after `cancel()` returns; no
/// overlapping entry. The standing subscriber gets everything once, in order, end last.
package struct MultiChurnScenario: LabelledStressScenario {
    package let kind: StressMultiKind
    package init(_ kind: StressMultiKind) { self.kind = kind }
    package var label: StressScenarioLabel {
        StressScenarioLabel("multi-\(kind.rawValue)", "subscribe/cancel racing with delivery on a \(kind.rawValue)() SignalMulti",
                            acceptable: "cache first and once, then live values, nothing after cancel")
    }

    final class Log: @unchecked Sendable {
        var entries: [(before: Int, immediate: Int, recorder: StressRecorder)] = []
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let sender = StressSender(id: 0, capacity: n)
        let lastReturned = StressCounter(-1)
        let standing = StressRecorder(capacity: n + 4, perturber: it.shared)
        let logs = (0..<it.threads).map { _ in Log() }
        let subscriptions = max(4, n / 16)
        var findings: [StressFinding] = []
        let kind = self.kind
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { s -> SignalMulti<StressMsg> in
                switch kind {
                case .continuous: return s.continuous()
                case .playback: return s.playback()
                case .multicast: return s.multicast()
                }
            }
            it.track(input, "input"); it.track(multi, "multi")
            let standingOutput = multi.stressSubscribe(standing, ledger: it.ledger)
            it.track(standingOutput, "standing output")
            let ledger = it.ledger
            let shared = it.shared
            it.runActors(it.threads) { a, rng in
                if a == 0 {
                    for i in 0..<n {
                        if sender.send(ledger: ledger, { input.send(value: $0) }) == nil { lastReturned.store(i) }
                        rng.perturb()
                        if i & 31 == 0 { it.progress(a, i) }
                    }
                    return
                }
                for k in 0..<subscriptions {
                    let before = lastReturned.load
                    let recorder = StressRecorder(capacity: n + 4, perturber: shared)
                    let output = multi.stressSubscribe(recorder, ledger: ledger)
                    let immediate = recorder.deliveries
                    rng.hold()
                    output.cancel()
                    recorder.markCancelled()
                    logs[a].entries.append((before, immediate, recorder))
                    rng.perturb()
                    it.progress(a, k)
                }
            }
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            it.waitUntil("the end") { standing.endCount > 0 }
            standingOutput.cancel()
        }
        findings += stressCheckStream("standing subscriber", standing, senders: [sender], policy: StressStreamPolicy(expectedEnd: "complete"))
        for (a, log) in logs.enumerated() {
            for (k, entry) in log.entries.enumerated() {
                let who = "branch \(a).\(k)"
                findings += entry.recorder.entryFindings(who)
                let events = entry.recorder.events
                let values = events.compactMap { e -> Int? in if case .value(_, let q, _) = e { return q } else { return nil } }
                if events.contains(where: { if case .end = $0 { return true } else { return false } }) {
                    findings.append(.forbidden(StressCheck.wrongEnd, "\(who): got an end though only cancelled"))
                }
                if let i = values.indices.dropFirst().first(where: { values[$0] != values[$0 - 1] + 1 }) {
                    findings.append(.forbidden(StressCheck.cacheOrder, "\(who): \(values[i - 1]) then \(values[i])"))
                }
                let before = entry.before
                switch kind {
                case .playback:
                    if let f = values.first, f != 0 {
                        findings.append(.forbidden(StressCheck.cacheOrder, "\(who): playback started at \(f)"))
                    }
                    if before >= 0 && entry.immediate < before + 1 {
                        findings.append(.forbidden(StressCheck.staleCache, "\(who): subscribe() delivered \(entry.immediate) cached values, \(before + 1) were sent"))
                    }
                case .continuous:
                    if before >= 0 {
                        if entry.immediate < 1 {
                            findings.append(.forbidden(StressCheck.staleCache, "\(who): subscribe() delivered no cached value; \(before) was sent"))
                        } else if let f = values.first, f < before {
                            findings.append(.forbidden(StressCheck.staleCache, "\(who): cached \(f), but \(before) had been sent"))
                        }
                    }
                case .multicast:
                    if let f = values.first, f <= before {
                        findings.append(.forbidden(StressCheck.staleCache, "\(who): got \(f), sent before subscribe() (\(before) had returned)"))
                    }
                }
            }
        }
        return findings
    }
}
