import Foundation

/// What `bench ab --calibrate` prints and writes.
package struct CalibrationReport: Codable, Sendable {
    package var tool = "signals-bench-ab-calibrate"
    package var schemaVersion = 1
    package var machine: MachineInfo
    package var parameters: Parameters
    package var runs: Int
    package var budgetSeconds: Double
    package var thresholdPercent: Double
    package var cases: [CaseCalibration]

    package init(machine: MachineInfo, parameters: Parameters, runs: Int, budgetSeconds: Double, thresholdPercent: Double,
                cases: [CaseCalibration]) {
        self.machine = machine; self.parameters = parameters; self.runs = runs; self.budgetSeconds = budgetSeconds
        self.thresholdPercent = thresholdPercent; self.cases = cases
    }

    /// One run's judgement of one comparison.
    package struct Judgement: Codable, Sendable, Equatable {
        /// The A′/A ratio with its interval and verdict.
        package var comparison: PairedComparison
        package var launches: Int

        package init(comparison: PairedComparison, launches: Int) {
            self.comparison = comparison; self.launches = launches
        }
    }

    /// One calibration run of one case.
    package struct Run: Codable, Sendable {
        package var seconds: Double
        /// Second A against A.
        package var aa: Judgement?
        /// Each A′ against A, in the order of `slowdowns`.
        package var slowed: [Judgement?]
        package var note: String?

        package init(seconds: Double, aa: Judgement?, slowed: [Judgement?], note: String?) {
            self.seconds = seconds; self.aa = aa; self.slowed = slowed; self.note = note
        }
    }

    /// Every run of one case, and what they add up to.
    package struct CaseCalibration: Codable, Sendable {
        package var workload: WorkloadID
        package var caseLabel: String
        package var subject: SubjectID
        package var slowdowns: [Double]
        package var runs: [Run]

        enum CodingKeys: String, CodingKey { case workload, caseLabel = "variant", subject, slowdowns, runs }

        package init(workload: WorkloadID, caseLabel: String, subject: SubjectID, slowdowns: [Double], runs: [Run]) {
            self.workload = workload; self.caseLabel = caseLabel; self.subject = subject; self.slowdowns = slowdowns; self.runs = runs
        }

        package var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }
        var judged: [Run] { runs.filter { $0.aa != nil } }
        /// A/A runs that said `slower` (the false alarms `bench ab`'s exit status would raise).
        package var falseSlower: Int { judged.filter { $0.aa?.comparison.verdict == .slower }.count }
        /// A/A runs that said `faster`.
        package var falseFaster: Int { judged.filter { $0.aa?.comparison.verdict == .faster }.count }
        /// Runs whose A′ at slowdown index `i` was called `slower`.
        package func detected(_ i: Int) -> Int {
            judged.filter { $0.slowed.indices.contains(i) && $0.slowed[i]?.comparison.verdict == .slower }.count
        }
        /// The median A′/A estimate at slowdown index `i` (how well the injected cost is recovered).
        package func medianRatio(_ i: Int) -> Double {
            median(judged.compactMap { $0.slowed.indices.contains(i) ? $0.slowed[i]?.comparison.ratio.estimate : nil })
        }
        /// The median and the widest relative half-width of the A/A interval.
        package var medianHalfWidth: Double { median(judged.compactMap { $0.aa?.comparison.ratio.relativeHalfWidth }) }
        package var widestHalfWidth: Double { judged.compactMap { $0.aa?.comparison.ratio.relativeHalfWidth }.max() ?? .nan }
        package var longestRunSeconds: Double { runs.map(\.seconds).max() ?? 0 }
        package var medianLaunches: Double { median(judged.compactMap { Double($0.aa?.launches ?? 0) }) }
        /// The smallest slowdown found in at least 9 runs of 10.
        package var smallestReliablyDetected: Double? {
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

    package func text() -> String {
        header().joined(separator: "\n") + "\n\n" + table().text() + "\n"
    }

    package func markdown() -> String {
        "# bench ab --calibrate\n\n" + header().map { "- " + $0 }.joined(separator: "\n") + "\n\n" + table().markdown() + "\n"
    }

    package func json() -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
