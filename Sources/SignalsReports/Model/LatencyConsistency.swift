/// One case's send-call p50 read against its throughput figure.
package struct ConsistencyCheck: Codable, Sendable, Equatable {
    /// The case (`CaseResult.key`) and the subject.
    package var key: String
    package var subject: SubjectID
    /// The send call's p50, the clock's cost taken off (ns; may be below 0 when the cost
    /// measured beside the round exceeds the raw p50).
    package var sendP50Ns: Double
    /// The throughput figure, ns per value.
    package var nsPerValue: Double
    /// `sendP50Ns - nsPerValue`.
    package var gapNs: Double
    /// The fastest and slowest timed round behind the figure (ns per value).
    package var fastestRoundNs: Double
    package var slowestRoundNs: Double
    /// The clock's resolution + the margin (`LatencyConsistency.marginNs`, `marginFraction`).
    package var marginNs: Double
    package var consistent: Bool

    package init(key: String, subject: SubjectID, sendP50Ns: Double, nsPerValue: Double,
                fastestRoundNs: Double, slowestRoundNs: Double, marginNs: Double) {
        self.key = key; self.subject = subject; self.sendP50Ns = sendP50Ns; self.nsPerValue = nsPerValue
        gapNs = sendP50Ns - nsPerValue
        self.fastestRoundNs = min(fastestRoundNs, nsPerValue)
        self.slowestRoundNs = max(slowestRoundNs, nsPerValue)
        self.marginNs = marginNs
        consistent = sendP50Ns >= self.fastestRoundNs - marginNs && sendP50Ns <= self.slowestRoundNs + marginNs
    }

    /// The p50s that agree: the rounds' span widened by the margin on both sides.
    package var lowestNs: Double { fastestRoundNs - marginNs }
    package var highestNs: Double { slowestRoundNs + marginNs }

    /// "consistent (p50 12.1 ns vs 13.4 ns/value: gap −1.3 ns; rounds 13.1–14.0 ± 15.4)" or
    /// the gap named.
    package var summary: String {
        let gap = (gapNs < 0 ? "−" : "+") + Fmt.ns(abs(gapNs))
        let words = "p50 \(Fmt.ns(sendP50Ns)) ns vs \(Fmt.ns(nsPerValue)) ns/value: gap \(gap) ns; rounds \(Fmt.ns(fastestRoundNs))–\(Fmt.ns(slowestRoundNs)) ± \(Fmt.ns(marginNs))"
        return consistent ? "consistent (\(words))" : "INCONSISTENT (\(words))"
    }
}

/// The check every `bench run` report makes: where one thread sends and the handler runs
/// inside the `send` call, that call's median time and the time per value of the throughput
/// rounds measure the same thing, so they must agree. A harness whose two figures contradict
/// each other is broken, and `bench run` exits 1 (as for a violated guarantee).
///
/// Checked for `send`, `send-map`, `chain` and `hop[direct]`, on the subjects that deliver in
/// the caller (`lockfree`, `mutex`, `opencombine`): an async peer's send only enqueues, and its
/// throughput is the consumer's. Only reports whose latency carries its measured clock.
package enum LatencyConsistency {
    /// The margin beyond the clock's resolution, in ns and as a fraction of the figure (the
    /// larger applies), on either side of the span of the timed rounds behind the figure. Why
    /// these: the p50 is a median of single calls and the figure a mean per value over whole
    /// rounds, which also includes the send loop (≈1 ns) and every rare slow call, so the
    /// figure lies above the median by a few ns; the clock's cost subtracted is itself a
    /// median, off by a few ns for any one sample. Why the span of the rounds: the latency
    /// rounds run after the timed ones, on a machine whose speed drifts by 1.5–2× within
    /// minutes, and a wall-clock mean includes the time the thread was preempted, which a
    /// median of single calls does not; a p50 within the span of the rounds agrees with the
    /// figure as well as the figure's own rounds agree with each other. The contradiction this
    /// check exists for was a factor of 4–6 outside rounds that agreed within a few percent
    /// (p50 80 ns against 13 ns per value).
    package static let marginNs = 5.0
    package static let marginFraction = 0.25

    package static func applies(to r: CaseResult) -> Bool {
        guard r.status == .ok, r.subject == .lockfree || r.subject == .mutex || r.subject == .opencombine else { return false }
        switch r.workload {
        case .send, .sendMap, .chain: return true
        case .hop: return (r.spec?.hop ?? HopContext(rawValue: r.caseLabel)) == .direct
        default: return false
        }
    }

    /// The checks of every case they apply to, in result order.
    package static func check(_ results: [CaseResult]) -> [ConsistencyCheck] {
        results.compactMap { r in
            guard applies(to: r), let latency = r.latency, let clock = latency.clock,
                  let raw = latency.sendRaw, let t = r.throughput else { return nil }
            let figure = r.interval?.estimate ?? t.medianNsPerOp
            guard figure.isFinite, figure > 0 else { return nil }
            let rounds = t.repetitionsNsPerOp.filter(\.isFinite)
            return ConsistencyCheck(key: r.key, subject: r.subject, sendP50Ns: Double(raw.p50) - clock.costNs, nsPerValue: figure,
                                    fastestRoundNs: rounds.min() ?? figure, slowestRoundNs: rounds.max() ?? figure,
                                    marginNs: clock.resolutionNs + max(marginNs, marginFraction * figure))
        }
    }
}
