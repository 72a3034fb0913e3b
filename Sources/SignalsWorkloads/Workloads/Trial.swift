import Foundation
import SignalsReports

/// One subject on one case inside one process: calibration, timed repetitions, the latency
/// repetition and the checks after each. `Runner.measure` runs one trial's repetitions back to
/// back; `Runner.measurePaired` runs several trials' repetitions in interleaved rounds.
final class Trial {
    let subject: any BenchSubject
    let spec: CaseSpec
    let parameters: Parameters
    /// The result so far; a failure sets its status and reason.
    var result: CaseResult
    /// Operations per repetition, set by `calibrate`.
    var n = 0
    /// ns per operation of each timed repetition, in run order.
    var reps: [Double] = []
    /// Allocations per operation of each timed repetition.
    var allocs: [(count: Double, bytes: Double)] = []
    var failed: Bool { result.status != .ok }

    init(subject: any BenchSubject, spec: CaseSpec, parameters: Parameters) {
        self.subject = subject
        self.spec = spec
        self.parameters = parameters
        result = CaseResult(spec: spec, subject: subject.id, status: .ok)
    }

    var targetNs: Double { Double(parameters.targetRepetitionMilliseconds) * 1e6 }

    /// One repetition; returns ns per operation, or sets the failure on `result`.
    func once(_ n: Int, sampler: LatencySampler? = nil) -> (nsPerOp: Double, ctx: RunContext)? {
        let ctx = RunContext(spec: spec, operations: n, sampler: sampler, meter: AllocationMeter.shared,
                             stallSeconds: parameters.stallSeconds)
        do {
            try subject.run(ctx)
        } catch {
            result.status = .failed
            result.reason = "setup failed: \(error)"
            return nil
        }
        AddedCost.apply(to: ctx)
        if let stall = ctx.stalled {
            result.status = .timedOut
            result.reason = stall
            return nil
        }
        let check = ctx.verify()
        if !check.violations.isEmpty {
            result.status = .failed
            result.violations = check.violations
            result.reason = check.violations.map(\.description).joined(separator: "; ")
            return nil
        }
        if spec.workload == .mutation {
            result.counters["droppedInTransit"] = check.dropped
        }
        for (k, v) in ctx.counters {
            // The wait counters add up over the launch's rounds (calibration included), so
            // one slow round's waits are not lost to the next; the rest are the last round's.
            if CaseResult.isWaitCounter(k) {
                result.counters[k, default: 0] += v
            } else {
                result.counters[k] = v
            }
        }
        let ops = max(1, ctx.completedOperations ?? n)
        return (Double(ctx.elapsedNs) / Double(ops), ctx)
    }

    /// Calibration doubles as warm-up: grow n until a run is long enough to scale from.
    func calibrate() -> Bool {
        if spec.workload == .reentrant {
            n = spec.depth
            return true
        }
        n = spec.workload == .churn ? 200 : 1_000
        while true {
            guard let r = once(n) else { return false }
            // Scale on wall time per *requested* operation (fan-out delivers more).
            let elapsed = Double(r.ctx.elapsedNs)
            if elapsed >= targetNs / 8 || n >= Runner.maxOperations {
                let perRequested = max(elapsed, 1) / Double(n)
                n = Int(min(Double(Runner.maxOperations), max(Double(n), targetNs / perRequested)))
                return true
            }
            n = min(Runner.maxOperations, n * 4)
        }
    }

    /// Whether one repetition took far longer than the target (it is then its own warm-up).
    func isLong(_ ctx: RunContext) -> Bool { Double(ctx.elapsedNs) > 20 * targetNs }

    /// Counts a finished repetition: its time and its allocations.
    func record(_ r: (nsPerOp: Double, ctx: RunContext)) {
        reps.append(r.nsPerOp)
        // Every repetition's allocations, reported as the median: the minimum (used before)
        // picked whichever repetition jemalloc's lazy merging happened to undercount.
        if let a = r.ctx.allocStart, let b = r.ctx.allocStop {
            let ops = Double(max(1, r.ctx.completedOperations ?? n))
            allocs.append((Double(b.count &- a.count) / ops, Double(b.bytes &- a.bytes) / ops))
        }
        result.throughput = ThroughputStats(operations: r.ctx.completedOperations ?? n, repetitionsNsPerOp: reps)
    }

    /// One timed repetition; false when it failed.
    func repeatOnce() -> Bool {
        guard let r = once(n) else { return false }
        record(r)
        return true
    }

    /// Allocation figures and the latency repetition (whose time is not part of the throughput).
    func finish() {
        if !allocs.isEmpty {
            result.allocations = AllocationStats(source: AllocationMeter.shared?.source ?? "", repetitions: allocs)
        }
        if Runner.hasLatency(spec.workload) { result.latency = latencyRounds() }
    }

    /// Two more rounds, after the timed ones: one timing the send call (the handler stores
    /// nothing), one timing send → handler (the handler stores one timestamp); the clock is
    /// measured before each, in this launch, and its cost taken off every sample.
    func latencyRounds() -> LatencyStats? {
        let senders = max(1, spec.workload == .reentrant ? spec.threads + 1 : spec.threads)
        let perSender = (n + senders - 1) / senders
        let every = parameters.latencySampleEvery
        let clockBefore = LatencyClock.measure()
        let call = LatencySampler(mode: .sendCall, sampleEvery: every, senders: senders, valuesPerSender: perSender)
        guard once(n, sampler: call) != nil else { return nil }
        let clockBetween = LatencyClock.measure()
        let e2e = LatencySampler(mode: .endToEnd, sampleEvery: every, senders: senders, valuesPerSender: perSender)
        guard once(n, sampler: e2e) != nil else { return nil }
        // Two measurements moments apart, each of 20,000 pairs: their mean cost, the finer resolution.
        let clock = ClockInfo(source: clockBefore.source, costNs: (clockBefore.costNs + clockBetween.costNs) / 2,
                              resolutionNs: min(clockBefore.resolutionNs, clockBetween.resolutionNs),
                              nsPerTick: clockBefore.nsPerTick)
        let s = call.summaries(clockCostNs: clock.costNs)
        let e = e2e.summaries(clockCostNs: clock.costNs)
        guard s.raw != nil || e.raw != nil else { return nil }
        return LatencyStats(sampleEvery: every, send: s.corrected, endToEnd: e.corrected, clock: clock,
                            sendRaw: s.raw, endToEndRaw: e.raw)
    }
}
