import Foundation

/// `bench ab --calibrate`: how often `bench ab` cries wolf, and how small a slowdown it finds.
///
/// Every calibration run is one served session (see `ServedSession`) with these sides, all the
/// same executable: A, a second A, and one A′ per requested slowdown, launched with
/// `SIGNALS_BENCH_ADDED_COST` (see `AddedCost`) so that its every repetition takes exactly that
/// fraction longer. Each run is judged exactly as `bench ab` judges a row (second A against A
/// for the false alarms, each A′ against A for the detections), from the same rounds, so one
/// session gives both. `runs` such sessions per case, each within `budget` seconds, give the
/// false-alarm rate (a `slower` or `faster` verdict on A/A) and each slowdown's detection rate.
public struct Calibration: Sendable {
    public var executable: String
    public var parameters: Parameters
    public var subject: SubjectID
    public var runs: Int
    public var budgetSeconds: Double
    public var slowdowns: [Double]
    public var roundsPerLaunch: Int
    public var progress: (@Sendable (String) -> Void)?

    public init(executable: String, parameters: Parameters, subject: SubjectID, runs: Int, budgetSeconds: Double,
                slowdowns: [Double], roundsPerLaunch: Int) {
        self.executable = executable; self.parameters = parameters; self.subject = subject; self.runs = runs
        self.budgetSeconds = budgetSeconds; self.slowdowns = slowdowns; self.roundsPerLaunch = roundsPerLaunch
    }

    /// One run's judgement of one comparison.
    public struct Judgement: Codable, Sendable, Equatable {
        /// The A′/A ratio with its interval and verdict.
        public var comparison: PairedComparison
        public var launches: Int
    }

    /// One calibration run of one case.
    public struct Run: Codable, Sendable {
        public var seconds: Double
        /// Second A against A.
        public var aa: Judgement?
        /// Each A′ against A, in the order of `slowdowns`.
        public var slowed: [Judgement?]
        public var note: String?
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

    /// The sides of one calibration session.
    public func sides() -> [ABSide] {
        var sides = [ABSide(name: "A", executable: executable), ABSide(name: "A (again)", executable: executable)]
        for s in slowdowns {
            sides.append(ABSide(name: "A′ +\(Calibration.percent(s))", executable: executable,
                                environment: [AddedCost.environmentVariable: String(s)]))
        }
        return sides
    }

    public func run(cases: [CaseSpec]) -> [CaseCalibration] {
        cases.map { spec in
            var runsDone: [Run] = []
            for i in 0..<runs {
                progress?("\(spec.key) · \(subject.rawValue): run \(i + 1) of \(runs)")
                runsDone.append(runOnce(spec, index: i))
            }
            return CaseCalibration(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject,
                                   slowdowns: slowdowns, runs: runsDone)
        }
    }

    func runOnce(_ spec: CaseSpec, index: Int) -> Run {
        let session = ServedSession(sides: sides(), spec: spec, subject: subject, parameters: parameters,
                                    roundsPerLaunch: roundsPerLaunch, minimumLaunches: PairedStatistics.minimumLaunchesForRobust,
                                    maximumLaunches: 200)
        let outcome = session.measure(seconds: budgetSeconds)
        return Self.judge(outcome, slowdowns: slowdowns.count, parameters: parameters, seed: parameters.seedValue &+ UInt64(index) &* 7919)
    }

    /// Judges a session's rounds as `bench ab` would: side 1 and each side from 2 on against side 0.
    public static func judge(_ outcome: ServedSession.Outcome, slowdowns: Int, parameters: Parameters, seed: UInt64) -> Run {
        func judgement(_ side: Int) -> Judgement? {
            guard outcome.rounds.indices.contains(side), !outcome.rounds[0].isEmpty else { return nil }
            guard let c = PairedStatistics.compare(subject: outcome.rounds[side], reference: outcome.rounds[0], referenceName: "A",
                                                   smallestEffect: parameters.smallestEffectValue, seed: seed &+ UInt64(side))
            else { return nil }
            return Judgement(comparison: c, launches: c.launches)
        }
        return Run(seconds: outcome.seconds, aa: judgement(1), slowed: (0..<slowdowns).map { judgement(2 + $0) }, note: outcome.note)
    }

    static func percent(_ f: Double) -> String { String(format: "%g%%", f * 100) }
}

/// What `bench ab --calibrate` prints and writes.
public struct CalibrationReport: Codable, Sendable {
    public var tool = "signals-bench-ab-calibrate"
    public var schemaVersion = 1
    public var machine: MachineInfo
    public var parameters: Parameters
    public var runs: Int
    public var budgetSeconds: Double
    public var thresholdPercent: Double
    public var cases: [Calibration.CaseCalibration]

    public init(machine: MachineInfo, parameters: Parameters, runs: Int, budgetSeconds: Double, thresholdPercent: Double,
                cases: [Calibration.CaseCalibration]) {
        self.machine = machine; self.parameters = parameters; self.runs = runs; self.budgetSeconds = budgetSeconds
        self.thresholdPercent = thresholdPercent; self.cases = cases
    }

    func table() -> Table {
        let slowdowns = cases.first?.slowdowns ?? []
        var headers = ["case", "subject", "A/A slower", "A/A faster", "A/A ±half-width (median, widest)"]
        for s in slowdowns { headers.append("+\(Calibration.percent(s)) found (median ratio)") }
        headers += ["smallest found ≥ 9/10", "launches", "longest run"]
        let rows: [[String]] = cases.map { c in
            let n = c.judged.count
            var row = [c.key, c.subject.rawValue, "\(c.falseSlower)/\(n)", "\(c.falseFaster)/\(n)",
                       String(format: "±%.1f%%, ±%.1f%%", c.medianHalfWidth * 100, c.widestHalfWidth * 100)]
            for i in slowdowns.indices { row.append(String(format: "%d/%d (%.3f)", c.detected(i), n, c.medianRatio(i))) }
            row.append(c.smallestReliablyDetected.map { "+" + Calibration.percent($0) } ?? "none tried")
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
