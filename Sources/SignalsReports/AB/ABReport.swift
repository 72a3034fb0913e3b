import Foundation

/// One row of `bench ab`: one case and subject, measured by two builds in alternating launches.
package struct ABRow: Codable, Sendable {
    package var workload: WorkloadID
    package var caseLabel: String
    package var subject: SubjectID
    package var unit: String
    /// The baseline's figure (ns per operation) with its 95% interval.
    package var baseline: Interval?
    package var current: Interval?
    /// current / baseline, its interval and the verdict.
    package var change: PairedComparison?
    /// Each launch's timed repetitions, launch by launch.
    package var baselineLaunches: [[Double]]
    package var currentLaunches: [[Double]]
    package var baselineSpread: LaunchSpread?
    package var currentSpread: LaunchSpread?
    /// Why the row has no verdict (a build could not run the case), when it has none.
    package var note: String?
    /// `ABRow.servedMethod` (both builds alive, alternating round by round) or
    /// `ABRow.wholeLaunchesMethod` (a build without served rounds: alternating launches of the
    /// per-case child).
    package var method: String? = ABRow.wholeLaunchesMethod

    /// JSON keys: the schema's names ("variant" is the case label).
    enum CodingKeys: String, CodingKey {
        case workload, caseLabel = "variant", subject, unit, baseline, current, change, baselineLaunches, currentLaunches
        case baselineSpread, currentSpread, note, method
    }

    package static let servedMethod = "served rounds"
    package static let wholeLaunchesMethod = "whole launches"

    package var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }
    /// True when current is slower than baseline beyond the smallest effect, with confidence.
    package var isSlower: Bool { change?.verdict == .slower }
}

extension ABRow {
    /// A row of `workload`, its case and `subject` with these launches' rounds (none: no
    /// measurement yet), before it is judged.
    package init(workload: WorkloadID, caseLabel: String, subject: SubjectID, unit: String,
                baselineLaunches: [[Double]] = [], currentLaunches: [[Double]] = []) {
        self.workload = workload; self.caseLabel = caseLabel; self.subject = subject; self.unit = unit
        self.baselineLaunches = baselineLaunches; self.currentLaunches = currentLaunches
    }
}

/// What `bench ab --format json` writes.
package struct ABReport: Codable, Sendable {
    package var tool = "signals-bench-ab"
    package var schemaVersion = 1
    package var machine: MachineInfo
    package var parameters: Parameters
    /// What each side is: "ref abc1234 (built at .build-ab-abc1234/release/bench)" or a path.
    package var baseline: String
    package var current: String
    package var thresholdPercent: Double
    package var budgetSeconds: Double
    package var rows: [ABRow]
    /// What each side was built from, when recorded (absent in older reports).
    package var baselineBuild: BuildProvenance?
    package var currentBuild: BuildProvenance?

    /// What differs between the two sides' builds ("commit", "configuration (release vs
    /// debug)", "opencombine 0.14.0 vs 0.13.0"); empty when nothing recorded differs.
    package var buildDifferences: [String] { BuildProvenance.differences(baselineBuild, currentBuild) }

    package init(machine: MachineInfo, parameters: Parameters, baseline: String, current: String,
                thresholdPercent: Double, budgetSeconds: Double, rows: [ABRow]) {
        self.machine = machine; self.parameters = parameters; self.baseline = baseline; self.current = current
        self.thresholdPercent = thresholdPercent; self.budgetSeconds = budgetSeconds; self.rows = rows
    }

    package var anySlower: Bool { rows.contains(where: \.isSlower) }
    /// Rows both builds measured.
    package var judgedRows: [ABRow] { rows.filter { $0.change != nil } }
}

/// Text, Markdown and JSON renderings of `bench ab`.
package enum ABFormat {
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
    package static func text(_ report: ABReport, wide: Bool = false) -> String {
        var out = header(report).map { wide ? $0 + "\n" : wrapped($0) }.joined() + "\n"
        out += wide ? table(report).text() : compactTable(report).text(maxWidth: TextReport.width)
        out += "\n" + (wide ? summary(report) + "\n" : wrapped(summary(report)))
        return out
    }

    package static func markdown(_ report: ABReport) -> String {
        var out = "# bench ab\n\n" + header(report).map { "- " + $0 }.joined(separator: "\n") + "\n\n" + table(report).markdown()
        out += "\n**" + summary(report) + "**\n"
        return out
    }

    package static func json(_ report: ABReport) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    package static func summary(_ report: ABReport) -> String {
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
