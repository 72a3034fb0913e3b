import Foundation

/// One row of `bench ab`: one case and subject, measured by two builds in alternating launches.
public struct ABRow: Codable, Sendable {
    public var workload: WorkloadID
    public var caseLabel: String
    public var subject: SubjectID
    public var unit: String
    /// The baseline's figure (ns per operation) with its 95% interval.
    public var baseline: Interval?
    public var current: Interval?
    /// current / baseline, its interval and the verdict.
    public var change: PairedComparison?
    /// Each launch's timed repetitions, launch by launch.
    public var baselineLaunches: [[Double]]
    public var currentLaunches: [[Double]]
    public var baselineSpread: LaunchSpread?
    public var currentSpread: LaunchSpread?
    /// Why the row has no verdict (a build could not run the case), when it has none.
    public var note: String?
    /// `ABRow.servedMethod` (both builds alive, alternating round by round) or
    /// `ABRow.wholeLaunchesMethod` (a build without served rounds: alternating launches of the
    /// per-case child).
    public var method: String? = ABRow.wholeLaunchesMethod

    /// JSON keys: the schema's names ("variant" is the case label).
    enum CodingKeys: String, CodingKey {
        case workload, caseLabel = "variant", subject, unit, baseline, current, change, baselineLaunches, currentLaunches
        case baselineSpread, currentSpread, note, method
    }

    public static let servedMethod = "served rounds"
    public static let wholeLaunchesMethod = "whole launches"

    public var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }
    /// True when current is slower than baseline beyond the smallest effect, with confidence.
    public var isSlower: Bool { change?.verdict == .slower }
}

extension ABRow {
    /// A row of `workload`, its case and `subject` with no measurement yet.
    public init(workload: WorkloadID, caseLabel: String, subject: SubjectID, unit: String) {
        self.init(workload: workload, caseLabel: caseLabel, subject: subject, unit: unit, baselineLaunches: [], currentLaunches: [])
    }
}

/// What `bench ab --format json` writes.
public struct ABReport: Codable, Sendable {
    public var tool = "signals-bench-ab"
    public var schemaVersion = 1
    public var machine: MachineInfo
    public var parameters: Parameters
    /// What each side is: "ref abc1234 (built at .build-ab-abc1234/release/bench)" or a path.
    public var baseline: String
    public var current: String
    public var thresholdPercent: Double
    public var budgetSeconds: Double
    public var rows: [ABRow]
    /// What each side was built from, when recorded (absent in older reports).
    public var baselineBuild: BuildProvenance?
    public var currentBuild: BuildProvenance?

    /// What differs between the two sides' builds ("commit", "configuration (release vs
    /// debug)", "opencombine 0.14.0 vs 0.13.0"); empty when nothing recorded differs.
    public var buildDifferences: [String] { BuildProvenance.differences(baselineBuild, currentBuild) }

    public init(machine: MachineInfo, parameters: Parameters, baseline: String, current: String,
                thresholdPercent: Double, budgetSeconds: Double, rows: [ABRow]) {
        self.machine = machine; self.parameters = parameters; self.baseline = baseline; self.current = current
        self.thresholdPercent = thresholdPercent; self.budgetSeconds = budgetSeconds; self.rows = rows
    }

    public var anySlower: Bool { rows.contains(where: \.isSlower) }
    /// Rows both builds measured.
    public var judgedRows: [ABRow] { rows.filter { $0.change != nil } }
}

/// Runs two bench executables against each other through the hidden `_case` child command,
/// which every bench since c7ebe5e offers: one launch measures one subject on one case and
/// prints one `CaseResult`. Launches alternate (A B, B A, A B, …) so drift falls on both.
public struct ABRunner: Sendable {
    public var baseline: String
    public var current: String
    public var baselineEnvironment: [String: String] = [:]
    public var currentEnvironment: [String: String] = [:]
    public var parameters: Parameters
    public var budgetSeconds: Double
    /// Fewest and most launch pairs per row.
    public var minimumPairs = 3
    public var maximumPairs = 30
    public var progress: (@Sendable (String) -> Void)?
    /// Called when a row is done.
    public var finished: (@Sendable (ABRow) -> Void)?

    public init(baseline: String, current: String, parameters: Parameters, budgetSeconds: Double) {
        self.baseline = baseline; self.current = current; self.parameters = parameters; self.budgetSeconds = budgetSeconds
    }

    /// A function running one launch: (executable, environment, case, subject) → result.
    public typealias Launch = @Sendable (String, [String: String], CaseSpec, SubjectID) -> CaseResult

    /// Every case × subject, each given an equal share of the budget (at least `minimumPairs`).
    public func run(cases: [CaseSpec], subjects: [SubjectID], launch: Launch? = nil) -> [ABRow] {
        let launchOne: Launch = launch ?? { exe, env, spec, subject in
            ChildProcess.runCase(spec: spec, subject: subject, parameters: parameters, executable: exe, environment: env)
        }
        let rowCount = max(1, cases.count * subjects.count)
        let share = budgetSeconds / Double(rowCount)
        var rows: [ABRow] = []
        for spec in cases {
            for subject in subjects {
                progress?("\(spec.key) · \(subject.rawValue)")
                let done = row(spec, subject, seconds: share, launch: launchOne)
                finished?(done)
                rows.append(done)
            }
        }
        return rows
    }

    /// Rounds per launch pair when both builds serve rounds.
    public var servedRounds = 10

    /// Served rounds: both builds alive at once, repetitions alternating round by round. Nil
    /// when a build does not serve rounds (the caller then falls back to whole launches).
    func servedRow(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double) -> ABRow? {
        let sides = [ABSide(name: "baseline", executable: baseline, environment: baselineEnvironment),
                     ABSide(name: "current", executable: current, environment: currentEnvironment)]
        let session = ServedSession(sides: sides, spec: spec, subject: subject, parameters: parameters,
                                    roundsPerLaunch: servedRounds, minimumLaunches: max(minimumPairs, PairedStatistics.minimumLaunchesForRobust),
                                    maximumLaunches: maximumPairs * 4)
        let outcome = session.measure(seconds: seconds)
        if outcome.unsupported { return nil }
        var row = ABRow(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject, unit: spec.workload.unit,
                        baselineLaunches: outcome.rounds[0], currentLaunches: outcome.rounds[1])
        row.method = ABRow.servedMethod
        row.note = outcome.note
        if !row.baselineLaunches.isEmpty { Self.judge(&row, parameters: parameters) }
        return row
    }

    func row(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double, launch: Launch) -> ABRow {
        if let served = servedRow(spec, subject, seconds: seconds) { return served }
        return launchRow(spec, subject, seconds: seconds, launch: launch)
    }

    func launchRow(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double, launch: Launch) -> ABRow {
        var row = ABRow(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject, unit: spec.workload.unit,
                        baselineLaunches: [], currentLaunches: [])
        let start = Date()
        var pair = 0
        while pair < maximumPairs && (pair < minimumPairs || Date().timeIntervalSince(start) < seconds) {
            // Alternate which build goes first, so neither always runs on a warmer machine.
            let baseFirst = pair % 2 == 0
            let first = baseFirst ? launch(baseline, baselineEnvironment, spec, subject) : launch(current, currentEnvironment, spec, subject)
            let second = baseFirst ? launch(current, currentEnvironment, spec, subject) : launch(baseline, baselineEnvironment, spec, subject)
            let (b, c) = baseFirst ? (first, second) : (second, first)
            if b.status != .ok || c.status != .ok {
                func say(_ r: CaseResult, _ side: String) -> String? {
                    r.status == .ok ? nil : "\(side): \(r.status.rawValue)\(r.reason.map { ": " + $0 } ?? "")"
                }
                row.note = [say(b, "baseline"), say(c, "current")].compactMap { $0 }.joined(separator: "; ")
                break
            }
            row.baselineLaunches.append(b.throughput?.repetitionsNsPerOp ?? [])
            row.currentLaunches.append(c.throughput?.repetitionsNsPerOp ?? [])
            pair += 1
        }
        guard row.note == nil || !row.baselineLaunches.isEmpty, !row.baselineLaunches.isEmpty else { return row }
        Self.judge(&row, parameters: parameters)
        return row
    }

    /// Fills the figures, spreads and the verdict of a row from its launches.
    public static func judge(_ row: inout ABRow, parameters: Parameters) {
        let seed = parameters.seedValue
        row.baseline = PairedStatistics.figure(row.baselineLaunches, seed: seed)
        row.current = PairedStatistics.figure(row.currentLaunches, seed: seed &+ 1)
        row.baselineSpread = LaunchSpread(values: row.baselineLaunches.filter { !$0.isEmpty }.map(median))
        row.currentSpread = LaunchSpread(values: row.currentLaunches.filter { !$0.isEmpty }.map(median))
        row.change = PairedStatistics.compare(subject: row.currentLaunches, reference: row.baselineLaunches,
                                              referenceName: "baseline", smallestEffect: parameters.smallestEffectValue,
                                              seed: seed &+ 2)
    }
}

/// Text, Markdown and JSON renderings of `bench ab`.
public enum ABFormat {
    static func withInterval(_ i: Interval?) -> String {
        guard let i, i.estimate.isFinite else { return "–" }
        return "\(Fmt.ns(i.estimate)) [\(Fmt.ns(i.lower))–\(Fmt.ns(i.upper))]"
    }

    static func ratio(_ c: PairedComparison?) -> String {
        guard let c else { return "–" }
        let r = c.ratio
        func f(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "∞" }
        return "\(f(r.estimate)) [\(f(r.lower))–\(f(r.upper))]"
    }

    static func verdict(_ r: ABRow) -> String {
        var verdict = r.change?.verdict.rawValue ?? ("not judged" + (r.note.map { ": " + $0 } ?? ""))
        if r.baselineSpread?.bimodal == true || r.currentSpread?.bimodal == true { verdict += " (launches in separate modes)" }
        if r.method != ABRow.servedMethod { verdict += " (whole launches)" }
        return verdict
    }

    /// Every column: both sides' figures with their intervals, the ratio and the launch pairs.
    static func table(_ report: ABReport) -> Table {
        Table(headers: ["case", "subject", "baseline ns [95%]", "current ns [95%]", "current/baseline [95%]", "launches", "verdict"],
              rows: report.rows.map { r in
                  [r.key, r.subject.rawValue, withInterval(r.baseline), withInterval(r.current), ratio(r.change),
                   String(r.baselineLaunches.count), verdict(r)]
              }, leftColumns: [0, 1, 6])
    }

    /// The columns that fit `TextReport.width`: the baseline's figure without its interval and
    /// no launch count (both in `--wide`, JSON, CSV and Markdown); the verdict wraps under its
    /// column. Where long case names would leave the verdict too narrow, each case becomes a
    /// title line above its subjects' rows.
    static func compactTable(_ report: ABReport) -> Table {
        func figures(_ r: ABRow) -> [String] {
            [r.subject.rawValue, r.baseline.map { Fmt.ns($0.estimate) } ?? "–", withInterval(r.current), ratio(r.change), verdict(r)]
        }
        let headers = ["subject", "baseline ns", "current ns [95%]", "ratio [95%]", "verdict"]
        let flat = Table(headers: ["case"] + headers, rows: report.rows.map { [$0.key] + figures($0) }, leftColumns: [0, 1, 5])
        if flat.prefixWidth <= TextReport.width - minimumVerdictWidth { return flat }
        var grouped = Table(headers: headers, rows: [], leftColumns: [0, 4])
        for r in report.rows {
            if grouped.rows.isEmpty || report.rows[grouped.rows.count - 1].key != r.key { grouped.headings[grouped.rows.count] = r.key }
            grouped.rows.append(figures(r))
        }
        return grouped
    }

    /// The narrowest the verdict column may get before the cases move to title lines.
    static let minimumVerdictWidth = 32

    static func header(_ report: ABReport) -> [String] {
        let p = report.parameters
        let differences = report.buildDifferences
        return [
            "baseline: \(report.baseline)" + (report.baselineBuild.map { " — \($0.summary)" } ?? " — build not recorded"),
            "current:  \(report.current)" + (report.currentBuild.map { " — \($0.summary)" } ?? " — build not recorded"),
            differences.isEmpty ? "builds: the same commit, configuration, toolchain and dependency versions"
                : "builds differ in: " + differences.joined(separator: "; "),
            "machine: \(report.machine.cores) cores, \(report.machine.cpuModel); \(report.machine.date)",
            "method: served rounds (both builds alive in each launch pair, taking turns round by round: A B, B A, …), "
                + "\(p.repetitions) rounds per build and launch, ~\(p.targetRepetitionMilliseconds) ms each; the build that starts first alternates; "
                + "ratio = Hodges-Lehmann estimate over the launch pairs' median log-ratios with its Wilcoxon signed-rank 95% interval "
                + "(below 6 launch pairs, or against a bench without served rounds: whole alternating launches and the bootstrap/t interval); "
                + "verdict at \(String(format: "%g", report.thresholdPercent))% smallest effect"
                + (p.loadThreads > 0 ? "; \(p.loadThreads) busy load thread(s)" : ""),
        ]
    }

    /// Aligned text: within `TextReport.width` columns (prose wrapped, the verdict wrapped
    /// under its column), or with `wide` every column and unwrapped lines.
    public static func text(_ report: ABReport, wide: Bool = false) -> String {
        var out = header(report).map { wide ? $0 + "\n" : wrapped($0) }.joined() + "\n"
        out += wide ? table(report).text() : compactTable(report).text(maxWidth: TextReport.width)
        out += "\n" + (wide ? summary(report) + "\n" : wrapped(summary(report)))
        return out
    }

    public static func markdown(_ report: ABReport) -> String {
        var out = "# bench ab\n\n" + header(report).map { "- " + $0 }.joined(separator: "\n") + "\n\n" + table(report).markdown()
        out += "\n**" + summary(report) + "**\n"
        return out
    }

    public static func json(_ report: ABReport) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    public static func summary(_ report: ABReport) -> String {
        let slower = report.rows.filter(\.isSlower)
        let faster = report.rows.filter { $0.change?.verdict == .faster }
        if slower.isEmpty {
            return "no case slower beyond \(String(format: "%g", report.thresholdPercent))% with 95% confidence"
                + (faster.isEmpty ? "" : " (\(faster.count) faster)")
        }
        return "\(slower.count) case(s) slower beyond \(String(format: "%g", report.thresholdPercent))% with 95% confidence: "
            + slower.map { "\($0.key) · \($0.subject.rawValue)" }.joined(separator: ", ")
    }
}
