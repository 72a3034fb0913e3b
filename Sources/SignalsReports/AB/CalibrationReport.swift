import Foundation

/// What `bench ab --calibrate` prints and writes.
public struct CalibrationReport: Codable, Sendable {
    public var tool = "signals-bench-ab-calibrate"
    public var schemaVersion = 1
    public var machine: MachineInfo
    public var parameters: Parameters
    public var runs: Int
    public var budgetSeconds: Double
    public var thresholdPercent: Double
    public var cases: [CaseCalibration]

    public init(machine: MachineInfo, parameters: Parameters, runs: Int, budgetSeconds: Double, thresholdPercent: Double,
                cases: [CaseCalibration]) {
        self.machine = machine; self.parameters = parameters; self.runs = runs; self.budgetSeconds = budgetSeconds
        self.thresholdPercent = thresholdPercent; self.cases = cases
    }

    /// One run's judgement of one comparison.
    public struct Judgement: Codable, Sendable, Equatable {
        /// The A′/A ratio with its interval and verdict.
        public var comparison: PairedComparison
        public var launches: Int

        public init(comparison: PairedComparison, launches: Int) {
            self.comparison = comparison; self.launches = launches
        }
    }

    /// One calibration run of one case.
    public struct Run: Codable, Sendable {
        public var seconds: Double
        /// Second A against A.
        public var aa: Judgement?
        /// Each A′ against A, in the order of `slowdowns`.
        public var slowed: [Judgement?]
        public var note: String?

        public init(seconds: Double, aa: Judgement?, slowed: [Judgement?], note: String?) {
            self.seconds = seconds; self.aa = aa; self.slowed = slowed; self.note = note
        }
    }

    /// Every run of one case, and what they add up to.
    public struct CaseCalibration: Codable, Sendable {
        public var workload: WorkloadID
        public var caseLabel: String
        public var subject: SubjectID
        public var slowdowns: [Double]
        public var runs: [Run]

        enum CodingKeys: String, CodingKey { case workload, caseLabel = "variant", subject, slowdowns, runs }

        public init(workload: WorkloadID, caseLabel: String, subject: SubjectID, slowdowns: [Double], runs: [Run]) {
            self.workload = workload; self.caseLabel = caseLabel; self.subject = subject; self.slowdowns = slowdowns; self.runs = runs
        }

        public var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }
        var judged: [Run] { runs.filter { $0.aa != nil } }
        /// A/A runs that said `slower` (the false alarms `bench ab`'s exit status would raise).
        public var falseSlower: Int { judged.filter { $0.aa?.comparison.verdict == .slower }.count }
        /// A/A runs that said `faster`.
        public var falseFaster: Int { judged.filter { $0.aa?.comparison.verdict == .faster }.count }
        /// Runs whose A′ at slowdown index `i` was called `slower`.
        public func detected(_ i: Int) -> Int {
            judged.filter { $0.slowed.indices.contains(i) && $0.slowed[i]?.comparison.verdict == .slower }.count
        }
        /// The median A′/A estimate at slowdown index `i` (how well the injected cost is recovered).
        public func medianRatio(_ i: Int) -> Double {
            median(judged.compactMap { $0.slowed.indices.contains(i) ? $0.slowed[i]?.comparison.ratio.estimate : nil })
        }
        /// The median and the widest relative half-width of the A/A interval.
        public var medianHalfWidth: Double { median(judged.compactMap { $0.aa?.comparison.ratio.relativeHalfWidth }) }
        public var widestHalfWidth: Double { judged.compactMap { $0.aa?.comparison.ratio.relativeHalfWidth }.max() ?? .nan }
        public var longestRunSeconds: Double { runs.map(\.seconds).max() ?? 0 }
        public var medianLaunches: Double { median(judged.compactMap { Double($0.aa?.launches ?? 0) }) }
        /// The smallest slowdown found in at least 9 runs of 10.
        public var smallestReliablyDetected: Double? {
            let n = judged.count
            guard n > 0 else { return nil }
            return slowdowns.indices.filter { Double(detected($0)) >= 0.9 * Double(n) }.map { slowdowns[$0] }.min()
        }
    }

    /// A slowdown as the tables and side names spell it: 0.05 is "5%".
    package static func percent(_ f: Double) -> String { String(format: "%g%%", f * 100) }

    func table() -> Table {
        let slowdowns = cases.first?.slowdowns ?? []
        var headers = ["case", "subject", "A/A slower", "A/A faster", "A/A ±half-width (median, widest)"]
        for s in slowdowns { headers.append("+\(CalibrationReport.percent(s)) found (median ratio)") }
        headers += ["smallest found ≥ 9/10", "launches", "longest run"]
        let rows: [[String]] = cases.map { c in
            let n = c.judged.count
            var row = [c.key, c.subject.rawValue, "\(c.falseSlower)/\(n)", "\(c.falseFaster)/\(n)",
                       String(format: "±%.1f%%, ±%.1f%%", c.medianHalfWidth * 100, c.widestHalfWidth * 100)]
            for i in slowdowns.indices { row.append(String(format: "%d/%d (%.3f)", c.detected(i), n, c.medianRatio(i))) }
            row.append(c.smallestReliablyDetected.map { "+" + CalibrationReport.percent($0) } ?? "none tried")
            row.append(String(format: "%.0f", c.medianLaunches))
            row.append(String(format: "%.1f s", c.longestRunSeconds))
            return row
        }
        return Table(headers: headers, rows: rows, leftColumns: [0, 1])
    }

    func header() -> [String] {
        [
            "machine: \(machine.cores) cores, \(machine.cpuModel); \(machine.date)",
            "method: \(runs) runs per case, each a served-rounds session of ≤ \(String(format: "%g", budgetSeconds)) s with sides "
                + "A, A again, and A′ = A + a known added cost; each run judged as `bench ab` judges a row "
                + "(verdict at \(String(format: "%g", thresholdPercent))% smallest effect, 95% intervals)"
                + (parameters.loadThreads > 0 ? "; \(parameters.loadThreads) busy load thread(s)" : ""),
        ]
    }

    public func text() -> String {
        header().joined(separator: "\n") + "\n\n" + table().text() + "\n"
    }

    public func markdown() -> String {
        "# bench ab --calibrate\n\n" + header().map { "- " + $0 }.joined(separator: "\n") + "\n\n" + table().markdown() + "\n"
    }

    public func json() -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
