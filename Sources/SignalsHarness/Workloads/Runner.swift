import Foundation

/// Runs cases against subjects: calibration, warm-up, timed repetitions, one sampled latency
/// repetition, verification after each, and isolation of risky cases.
public struct Runner: Sendable {
    public var parameters: Parameters
    public var subjects: [any BenchSubject]
    /// Runs an isolated case elsewhere (the CLI re-executes itself); nil runs it in process.
    public var isolate: (@Sendable (CaseSpec, SubjectID) -> CaseResult)?
    /// Called before each case with (index, total, label).
    public var progress: (@Sendable (Int, Int, String) -> Void)?

    public init(parameters: Parameters, subjects: [any BenchSubject],
                isolate: (@Sendable (CaseSpec, SubjectID) -> CaseResult)? = nil,
                progress: (@Sendable (Int, Int, String) -> Void)? = nil) {
        self.parameters = parameters
        self.subjects = subjects
        self.isolate = isolate
        self.progress = progress
    }

    /// Every selected case against every selected subject, in table order.
    public func runAll() -> [CaseResult] {
        let cases = parameters.cases()
        let chosen = subjects.filter { parameters.subjects.contains($0.id) }.sorted { $0.id < $1.id }
        let total = cases.count * chosen.count
        var results: [CaseResult] = []
        var index = 0
        for spec in cases {
            for subject in chosen {
                index += 1
                progress?(index, total, "\(spec.key) · \(subject.id.rawValue)")
                results.append(run(subject, spec))
            }
        }
        return results
    }

    /// One subject on one case, honouring its `Support`.
    public func run(_ subject: any BenchSubject, _ spec: CaseSpec) -> CaseResult {
        switch subject.support(for: spec) {
        case .unsupported(let reason):
            return CaseResult(spec: spec, subject: subject.id, status: .unsupported, reason: reason)
        case .isolated(let fear):
            if let isolate {
                var r = isolate(spec, subject.id)
                r.isolated = true
                if r.status == .crashed || r.status == .timedOut {
                    r.reason = (r.reason ?? "") + " [\(fear)]"
                }
                return r
            }
            return measure(subject, spec)
        case .inProcess:
            return measure(subject, spec)
        }
    }

    /// Largest operation count a repetition may use, whatever the calibration says.
    static let maxOperations = 50_000_000

    /// Measures in this process: calibrate, warm up, repeat, sample latency, verify.
    public func measure(_ subject: any BenchSubject, _ spec: CaseSpec) -> CaseResult {
        var result = CaseResult(spec: spec, subject: subject.id, status: .ok)
        let meter = AllocationMeter.shared
        let targetNs = Double(parameters.targetRepetitionMilliseconds) * 1e6

        // One repetition; returns ns per operation, or sets the failure on `result`.
        func once(_ n: Int, sampler: LatencySampler? = nil) -> (nsPerOp: Double, ctx: RunContext)? {
            let ctx = RunContext(spec: spec, operations: n, sampler: sampler, meter: meter, stallSeconds: parameters.stallSeconds)
            do {
                try subject.run(ctx)
            } catch {
                result.status = .failed
                result.reason = "setup failed: \(error)"
                return nil
            }
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
            for (k, v) in ctx.counters { result.counters[k] = v }
            let ops = max(1, ctx.completedOperations ?? n)
            return (Double(ctx.elapsedNs) / Double(ops), ctx)
        }

        // Calibration doubles as warm-up: grow n until a run is long enough to scale from.
        var n: Int
        if spec.workload == .reentrant {
            n = spec.depth
        } else {
            n = spec.workload == .churn ? 200 : 1_000
            while true {
                guard let r = once(n) else { return result }
                // Scale on wall time per *requested* operation (fan-out delivers more).
                let elapsed = Double(r.ctx.elapsedNs)
                if elapsed >= targetNs / 8 || n >= Self.maxOperations {
                    let perRequested = max(elapsed, 1) / Double(n)
                    n = Int(min(Double(Self.maxOperations), max(Double(n), targetNs / perRequested)))
                    break
                }
                n = min(Self.maxOperations, n * 4)
            }
        }

        // A case whose single run already takes far longer than the target (a slow peer on
        // the fixed-depth re-entrant chain) gets fewer repetitions, so the suite stays
        // within its time budget; the repetition count is visible in the JSON.
        var repetitions = max(1, parameters.repetitions)
        var reps: [Double] = []
        guard let probe = once(n) else { return result }
        if Double(probe.ctx.elapsedNs) > 20 * targetNs {
            // Long enough to be its own warm-up: count the probe as the first repetition.
            repetitions = parameters.quick ? 1 : min(repetitions, 3)
            reps.append(probe.nsPerOp)
            result.throughput = ThroughputStats(operations: probe.ctx.completedOperations ?? n, repetitionsNsPerOp: reps)
        }
        // Every repetition's allocations, reported as the median: the minimum (used before)
        // picked whichever repetition jemalloc's lazy merging happened to undercount.
        var allocs: [(count: Double, bytes: Double)] = []
        func noteAllocations(_ ctx: RunContext) {
            guard let a = ctx.allocStart, let b = ctx.allocStop else { return }
            let ops = Double(max(1, ctx.completedOperations ?? n))
            allocs.append((Double(b.count &- a.count) / ops, Double(b.bytes &- a.bytes) / ops))
        }
        if !reps.isEmpty { noteAllocations(probe.ctx) }
        while reps.count < repetitions {
            guard let r = once(n) else { return result }
            reps.append(r.nsPerOp)
            noteAllocations(r.ctx)
            result.throughput = ThroughputStats(operations: r.ctx.completedOperations ?? n, repetitionsNsPerOp: reps)
        }
        if !allocs.isEmpty {
            result.allocations = AllocationStats(source: meter?.source ?? "", repetitions: allocs)
        }

        // Latency: one extra repetition with sampling; its time is not part of the throughput.
        if Self.hasLatency(spec.workload) {
            let senders = max(1, spec.workload == .reentrant ? spec.threads + 1 : spec.threads)
            let sampler = LatencySampler(sampleEvery: parameters.latencySampleEvery, senders: senders, receivers: 1)
            guard once(n, sampler: sampler) != nil else { return result }
            let stats = sampler.stats()
            if stats.send != nil || stats.endToEnd != nil { result.latency = stats }
        }
        return result
    }

    /// Workloads whose sends are timed (the others measure structural operations).
    public static func hasLatency(_ w: WorkloadID) -> Bool {
        switch w {
        case .send, .sendMap, .chain, .fanout, .contended, .hop: return true
        case .reentrant, .churn, .mutation: return false
        }
    }
}
