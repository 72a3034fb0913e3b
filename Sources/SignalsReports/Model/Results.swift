/// The JSON document `bench --format json` writes. Documented field by field in docs/bench-guide.md;
/// bump `currentSchemaVersion` on any incompatible change.
package struct BenchReport: Codable, Sendable {
    package static let currentSchemaVersion = 3
    /// Versions `load` reads: 2 only adds optional fields to 1 (and makes allocation counts
    /// medians instead of minimums), and 3 only adds optional fields to 2 (launches, intervals,
    /// paired ratios, load), so older baselines still compare.
    package static let readableSchemaVersions = [1, 2, 3]

    package var schemaVersion: Int
    package var tool: String
    package var machine: MachineInfo
    package var parameters: Parameters
    package var results: [CaseResult]
    package var targets: [TargetResult]
    /// False when a library subject violated a guarantee or crashed, or a latency figure
    /// contradicts its throughput figure (`consistency`).
    package var passed: Bool
    /// Send-call p50 against ns/value for each direct single-thread case (`LatencyConsistency`);
    /// absent in older reports.
    package var consistency: [ConsistencyCheck]?

    package init(machine: MachineInfo, parameters: Parameters, results: [CaseResult], targets: [TargetResult]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.tool = "signals-bench"
        self.machine = machine
        self.parameters = parameters
        self.results = results
        self.targets = targets
        let consistency = LatencyConsistency.check(results)
        self.consistency = consistency
        self.passed = !results.contains { $0.failsRun } && !consistency.contains { !$0.consistent }
    }
}

/// The machine and build a report was produced on.
package struct MachineInfo: Codable, Sendable, Equatable {
    package var cores: Int
    package var cpuModel: String
    package var toolchain: String
    package var buildConfiguration: String
    /// "jemalloc" or "system".
    package var allocator: String
    /// How allocations were counted: "jemalloc" (its statistics) or "interposer" (the malloc
    /// family counted in the executable); nil when they were not (absent in older reports).
    package var allocationCounting: String?
    package var os: String
    /// ISO 8601, UTC.
    package var date: String
    /// Median cost of reading the clock, which every latency sample includes once.
    package var timerOverheadNs: Double
    /// Absent in new reports. Reports written before carry one unpaired measurement of the
    /// harness's send loop and checker with no subject (ns per value), taken once in the parent
    /// process at start-up: not paired with the cases, so no figure may be read against it.
    package var harnessFloorNsPerValue: Double?

    package init(cores: Int, cpuModel: String, toolchain: String, buildConfiguration: String,
                allocator: String, os: String, date: String, timerOverheadNs: Double = 0,
                harnessFloorNsPerValue: Double? = nil, allocationCounting: String? = nil) {
        self.allocationCounting = allocationCounting
        self.timerOverheadNs = timerOverheadNs
        self.harnessFloorNsPerValue = harnessFloorNsPerValue
        self.cores = cores
        self.cpuModel = cpuModel
        self.toolchain = toolchain
        self.buildConfiguration = buildConfiguration
        self.allocator = allocator
        self.os = os
        self.date = date
    }
}

/// How a case ended.
package enum CaseStatus: String, Codable, Sendable {
    /// Measured, and every check held.
    case ok
    /// The subject cannot do this workload; `reason` says why. Not a failure.
    case unsupported
    /// A check found a violated guarantee; `violations` says which, with counts.
    case failed
    /// The (isolated) case crashed; `reason` names the signal.
    case crashed
    /// The (isolated) case did not finish before the watchdog fired.
    case timedOut
}

/// Throughput of the timed repetitions.
package struct ThroughputStats: Codable, Sendable, Equatable {
    /// Operations (see `CaseResult.unit`) per timed repetition.
    package var operations: Int
    package var medianNsPerOp: Double
    package var minNsPerOp: Double
    package var maxNsPerOp: Double
    /// 1e9 / medianNsPerOp.
    package var opsPerSecond: Double
    /// ns per operation of each repetition, in run order.
    package var repetitionsNsPerOp: [Double]

    package init(operations: Int, repetitionsNsPerOp: [Double]) {
        self.operations = operations
        self.repetitionsNsPerOp = repetitionsNsPerOp
        medianNsPerOp = median(repetitionsNsPerOp)
        minNsPerOp = repetitionsNsPerOp.min() ?? 0
        maxNsPerOp = repetitionsNsPerOp.max() ?? 0
        opsPerSecond = medianNsPerOp > 0 ? 1e9 / medianNsPerOp : 0
    }
}

/// Percentiles of one merged latency histogram, in nanoseconds.
package struct LatencySummary: Codable, Sendable, Equatable {
    package var count: UInt64
    package var p50: UInt64
    package var p90: UInt64
    package var p99: UInt64
    package var p999: UInt64
    package var p9999: UInt64
    package var max: UInt64
    /// (percentile, ns) pairs along HdrHistogram's logarithmic percentile ticks, for plots.
    package var distribution: [PercentilePoint]

    package init(count: UInt64, p50: UInt64, p90: UInt64, p99: UInt64, p999: UInt64, p9999: UInt64,
                max: UInt64, distribution: [PercentilePoint]) {
        self.count = count; self.p50 = p50; self.p90 = p90; self.p99 = p99
        self.p999 = p999; self.p9999 = p9999; self.max = max; self.distribution = distribution
    }
}

package struct PercentilePoint: Codable, Sendable, Equatable {
    package var percentile: Double
    package var ns: UInt64
    package init(percentile: Double, ns: UInt64) { self.percentile = percentile; self.ns = ns }
}

/// The clock latency samples were taken with, measured in the launch that took them.
package struct ClockInfo: Codable, Sendable, Equatable {
    /// `tsc` (x86_64 `rdtsc`), `cntvct` (arm64 `cntvct_el0`) or `clock_gettime` (CLOCK_MONOTONIC).
    package var source: String
    /// Median time between two consecutive reads: what one sample includes beyond the work
    /// it times, subtracted from every latency figure.
    package var costNs: Double
    /// Smallest nonzero difference between two consecutive reads: the shortest interval the
    /// clock tells from zero.
    package var resolutionNs: Double
    /// Nanoseconds per tick (calibrated against CLOCK_MONOTONIC for `tsc`; 1 for `clock_gettime`).
    package var nsPerTick: Double
    package init(source: String, costNs: Double, resolutionNs: Double, nsPerTick: Double) {
        self.source = source; self.costNs = costNs; self.resolutionNs = resolutionNs; self.nsPerTick = nsPerTick
    }
}

/// Latency figures of one case.
package struct LatencyStats: Codable, Sendable, Equatable {
    /// One send (or subscribe+cancel) in this many was timed.
    package var sampleEvery: Int
    /// Time of the `send` call itself, all sender threads merged: from a round whose handler
    /// stores nothing; the clock's cost taken off each sample when `clock` is present (before
    /// it was, raw, and the handler recorded the end-to-end sample inside the timed call).
    package var send: LatencySummary?
    /// Time from just before `send` to the handler seeing the value, from a round of its own;
    /// the clock's cost taken off likewise.
    package var endToEnd: LatencySummary?
    /// The clock, measured in the launch that took the samples; absent in older reports.
    package var clock: ClockInfo?
    /// `send` and `endToEnd` as measured, the clock's cost included.
    package var sendRaw: LatencySummary?
    package var endToEndRaw: LatencySummary?
    package init(sampleEvery: Int, send: LatencySummary?, endToEnd: LatencySummary?, clock: ClockInfo? = nil,
                sendRaw: LatencySummary? = nil, endToEndRaw: LatencySummary? = nil) {
        self.sampleEvery = sampleEvery; self.send = send; self.endToEnd = endToEnd
        self.clock = clock; self.sendRaw = sendRaw; self.endToEndRaw = endToEndRaw
    }
}

/// Allocation figures of one case (present only when jemalloc's statistics are available).
package struct AllocationStats: Codable, Sendable, Equatable {
    /// What the counters are, e.g. "jemalloc process-wide nrequests, size-class bytes".
    package var source: String
    /// Allocations per operation over the timed interval: the median of the repetitions
    /// (schema 1: the least-allocating repetition).
    package var countPerOp: Double
    /// Bytes (rounded up to jemalloc's size classes) per operation: median of the repetitions.
    package var bytesPerOp: Double
    /// Allocations per operation of each repetition, in run order (absent in schema 1).
    package var repetitionsCountPerOp: [Double]?

    package init(source: String, countPerOp: Double, bytesPerOp: Double, repetitionsCountPerOp: [Double]? = nil) {
        self.source = source; self.countPerOp = countPerOp; self.bytesPerOp = bytesPerOp
        self.repetitionsCountPerOp = repetitionsCountPerOp
    }

    /// Median of each figure over the repetitions, keeping every repetition's count.
    package init(source: String, repetitions: [(count: Double, bytes: Double)]) {
        self.init(source: source, countPerOp: median(repetitions.map(\.count)), bytesPerOp: median(repetitions.map(\.bytes)),
                  repetitionsCountPerOp: repetitions.map(\.count))
    }

    /// Smallest and largest count of the repetitions, when they were recorded.
    package var countRange: (min: Double, max: Double)? {
        guard let r = repetitionsCountPerOp, let lo = r.min(), let hi = r.max() else { return nil }
        return (lo, hi)
    }
}

/// The median (mean of the middle two for an even count); 0 for none.
package func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let n = sorted.count
    if n == 0 { return 0 }
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}

/// A guarantee a workload's checker found broken.
package struct Violation: Codable, Sendable, Equatable, CustomStringConvertible {
    /// e.g. "exactly once", "per-sender order", "no concurrent entry".
    package var guarantee: String
    package var detail: String
    package var counts: [String: Int]
    package init(guarantee: String, detail: String, counts: [String: Int]) {
        self.guarantee = guarantee; self.detail = detail; self.counts = counts
    }
    package var description: String {
        let c = counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return "\(guarantee) violated: \(detail)" + (c.isEmpty ? "" : " (\(c))")
    }
}

/// One row: a subject on one case.
package struct CaseResult: Codable, Sendable {
    package var workload: WorkloadID
    package var caseLabel: String
    package var subject: SubjectID
    package var status: CaseStatus
    package var reason: String?
    package var unit: String
    package var throughput: ThroughputStats?
    package var latency: LatencyStats?
    package var allocations: AllocationStats?
    package var violations: [Violation]
    /// Extra counts a workload reports (e.g. values dropped in transit by `mutation`).
    package var counters: [String: Int]

    /// Whether `name` is one of the library's wait counters that churn reports (`wait…`) or
    /// the pairs they were counted over (`churnPairs`): summed over a launch's rounds, and
    /// left to the JSON report.
    package static func isWaitCounter(_ name: String) -> Bool {
        name.hasPrefix("wait") || name == "churnPairs"
    }
    /// True when the case ran in a child process.
    package var isolated: Bool
    /// Every launch's timed rounds (ns per operation), launch by launch; absent before schema 3.
    package var launchRounds: [[Double]]?
    /// The launches' medians, their spread, and whether they fall into separate modes.
    package var launchSpread: LaunchSpread?
    /// The figure (ns per operation) with its 95% interval over launches and rounds.
    package var interval: Interval?
    /// The paired ratio to the reference subject of the case, with its interval and verdict.
    package var versus: PairedComparison?
    /// The paired ratio to the `floor` subject (the C model of the single-thread delivery
    /// path) of the case, with its interval: how far this subject is from what the machine
    /// allows. Absent where the floor did not run beside it, and on the floor's own row.
    package var versusFloor: PairedComparison?
    /// For workloads with several threads: the machine's cross-core round trip (ns), measured
    /// beside each launch (`CrossCoreProbe`), launch by launch; tells a slow launch of the
    /// subject from a slow phase of the machine. Absent for one-thread workloads and in
    /// reports written before it existed (an optional field: schema 3 still reads).
    package var launchCrossCoreNs: [Double]?
    /// The case itself, typed (absent in reports written before it was recorded: readers then
    /// fall back to `caseLabel`).
    package var spec: CaseSpec?

    /// JSON keys: the schema's names ("variant" is the case label).
    enum CodingKeys: String, CodingKey {
        case workload, caseLabel = "variant", subject, status, reason, unit, throughput, latency, allocations, violations
        case counters, isolated, launchRounds, launchSpread, interval, versus, versusFloor, launchCrossCoreNs, spec
    }

    package init(spec: CaseSpec, subject: SubjectID, status: CaseStatus, reason: String? = nil) {
        self.workload = spec.workload
        self.caseLabel = spec.caseLabel
        self.subject = subject
        self.status = status
        self.reason = reason
        self.unit = spec.workload.unit
        self.throughput = nil
        self.latency = nil
        self.allocations = nil
        self.violations = []
        self.counters = [:]
        self.isolated = false
        self.launchRounds = nil
        self.launchSpread = nil
        self.interval = nil
        self.versus = nil
        self.versusFloor = nil
        self.launchCrossCoreNs = nil
        self.spec = spec
    }

    /// Stages of a `chain` case: from the typed case, else parsed from an older report's label.
    package var stages: Int? {
        spec.map(\.stages) ?? (workload == .chain ? Int(caseLabel.split(separator: " ").first ?? "") : nil)
    }

    /// Sender threads of a `contended` or `mutation` case, likewise.
    package var senderThreads: Int? {
        guard workload == .contended || workload == .mutation else { return nil }
        return spec.map(\.threads) ?? Int(caseLabel.split(separator: " ").first ?? "")
    }

    /// Depth of a `reentrant` case and whether a busy sender ran beside it, likewise.
    package var reentrantDepth: (depth: Int, busySender: Bool)? {
        guard workload == .reentrant else { return nil }
        if let spec { return (spec.depth, spec.threads > 0) }
        let digits = caseLabel.dropFirst("depth ".count).prefix { $0.isNumber }
        return Int(digits).map { ($0, !caseLabel.hasSuffix("alone")) }
    }

    /// `workload` or `workload[case label]`.
    package var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }

    /// A library subject that broke a guarantee or crashed fails the run; peers never do
    /// (their limits are what the table reports).
    package var failsRun: Bool {
        subject.isLibrary && (status == .failed || status == .crashed || status == .timedOut)
    }
}

/// Whether one of the library's performance targets was met.
package struct TargetResult: Codable, Sendable, Equatable {
    package enum Verdict: String, Codable, Sendable {
        case met, notMet = "not met", notMeasured = "not measured"
        /// Measured, but on a machine the goal is not set for (too few cores): no verdict.
        case notJudged = "not judged"
    }
    package var id: String
    package var description: String
    package var verdict: Verdict
    /// The measured figure, in the target's unit, when there is one.
    package var measured: Double?
    package var limit: Double?
    package var unit: String
    package init(id: String, description: String, verdict: Verdict, measured: Double?, limit: Double?, unit: String) {
        self.id = id; self.description = description; self.verdict = verdict
        self.measured = measured; self.limit = limit; self.unit = unit
    }
}
