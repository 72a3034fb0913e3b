import Foundation
import SignalsReports
import SignalsWorkloads
import Testing

/// The repository's canonical report of the default run (`docs/bench/report.json`, written by
/// `scripts/bench-report` from `swift run -c release bench`): real results of every workload
/// and subject.
func canonicalReport() throws -> BenchReport {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return try JSONReport.load(path: root.appendingPathComponent("docs/bench/report.json").path)
}

@Suite("report width")
struct ReportWidthTests {
    /// What `swift run -c release bench` prints for the default run (`RunReport` with the
    /// command's defaults, as `bench run` renders it) fits 120 columns, line by line.
    @Test func defaultTextFitsOneHundredTwentyColumns() throws {
        let report = try canonicalReport()
        #expect(Set(report.results.map(\.workload)).count == WorkloadID.allCases.count)
        let text = RunReport(report: report).rendered(.text)
        if let path = ProcessInfo.processInfo.environment["SIGNALS_WRITE_DEFAULT_TEXT"] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let wide = text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.count > TextReport.width }.map(String.init)
        #expect(wide.isEmpty, "\(wide.count) line(s) over \(TextReport.width) columns:\n\(wide.joined(separator: "\n"))")
        // Nothing lost: every case and subject, every verdict, the result line.
        for r in report.results { #expect(text.contains(r.subject.rawValue)) }
        #expect(text.contains("result: PASS"))
        #expect(text.contains("p99.9"))
        let verdicts = report.results.compactMap { $0.versus?.verdict.rawValue }
        for v in Set(verdicts) { #expect(text.contains(v)) }
    }

    /// The peer figures that no run of `bench` measured are printed as such, with the record
    /// that says what is known of them, never as "peer references:" alone beside the tables.
    @Test func peerReferencesAreLabelledAsMeasuredElsewhere() throws {
        let report = try canonicalReport()
        for text in [RunReport(report: report).rendered(.text), RunReport(report: report, wide: true).rendered(.text)] {
            #expect(text.contains("peer references (measured elsewhere, not by this run"))
            #expect(!text.contains("peer references:"))
            #expect(text.contains(Targets.peerReferencesRecord))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let record = try String(contentsOf: root.appendingPathComponent(Targets.peerReferencesRecord), encoding: .utf8)
        #expect(record.contains("Not measured by this harness, not on this machine"))
    }

    /// `--wide` keeps every column, whatever the width.
    @Test func wideKeepsEveryColumn() throws {
        let text = RunReport(report: try canonicalReport(), wide: true).rendered(.text)
        for column in ["launches", "per second", "×fastest", "bytes/value", "p99.99", "samples"] {
            #expect(text.contains(column), "\(column)")
        }
    }

    /// No report prints an unpaired figure as "part of" the figures it would qualify: the
    /// harness floor (one loop without a subject, timed at start-up) is not measured any more,
    /// and an older report's value is not printed.
    @Test func noUnpairedFloorInAnyReport() throws {
        // A report written before the harness floor was dropped carries one: the canonical
        // report with a figure in that field stands for it.
        var report = try canonicalReport()
        report.machine.harnessFloorNsPerValue = 12.5
        #expect(MachineInfo.current(allocator: "system").harnessFloorNsPerValue == nil)
        for text in [RunReport(report: report).rendered(.text), RunReport(report: report, wide: true).rendered(.text),
                     report.rendered(.markdown), report.rendered(.html), report.rendered(.csv)] {
            #expect(!text.contains("harness floor") && !text.contains("part of every"))
        }
    }

    /// A `bench ab` report over every case and subject, with figures as wide as they get
    /// (six digits and their intervals), a failed row's long note and rows flagged "(whole
    /// launches)" and "(launches in separate modes)".
    static func widestABReport() -> ABReport {
        var parameters = Parameters()
        parameters.threads = [2, 64]
        var rows: [ABRow] = []
        for (i, spec) in parameters.cases().enumerated() {
            for subject in SubjectID.allCases {
                var r = ABRow(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject, unit: spec.workload.unit)
                r.baseline = Interval(estimate: 123_456, lower: 120_001, upper: 129_999)
                r.current = Interval(estimate: 133_456, lower: 130_001, upper: 139_999)
                r.baselineLaunches = Array(repeating: [123_456], count: 30)
                switch (i + subject.rawValue.count) % 3 {
                case 0:
                    r.note = "baseline: failed: " + String(repeating: "the child exited before it answered the round request; ", count: 3)
                case 1:
                    r.change = PairedComparison(reference: "baseline", ratio: Interval(estimate: 1.081, lower: 1.012, upper: 1.155),
                                                verdict: .slower, smallestEffect: 0.03, launches: 30, rounds: 300)
                    r.currentSpread = LaunchSpread(values: [1, 1, 1, 1, 5])
                default:
                    r.change = PairedComparison(reference: "baseline", ratio: Interval(estimate: 0.999, lower: 0.981, upper: 1.019),
                                                verdict: .noDifference, smallestEffect: 0.03, launches: 30, rounds: 300)
                    r.method = ABRow.servedMethod
                }
                rows.append(r)
            }
        }
        let machine = MachineInfo(cores: 2, cpuModel: "Test CPU with a rather long model name @ 2.10GHz", toolchain: "Swift 6.3",
                                  buildConfiguration: "release", allocator: "system", os: "Linux", date: "2026-01-01T00:00:00Z")
        return ABReport(machine: machine, parameters: parameters, baseline: "before (.build-ab/before/bench)",
                        current: "this executable", thresholdPercent: 3, budgetSeconds: 60, rows: rows)
    }

    /// What `bench ab` prints fits 120 columns, line by line, and loses no row or verdict;
    /// `--wide` keeps the baseline's interval and the launch pairs.
    @Test func abTextFitsOneHundredTwentyColumns() {
        let report = Self.widestABReport()
        let text = ABComparisonReport(report: report).rendered(.text)
        let wide = text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.count > TextReport.width }.map(String.init)
        #expect(wide.isEmpty, "\(wide.count) line(s) over \(TextReport.width) columns:\n\(wide.joined(separator: "\n"))")
        for r in report.rows { #expect(text.contains(r.key)) }
        // A wrapped verdict reads the same once its continuation lines are joined.
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for verdict in ["slower", "no difference", "not judged", "(whole launches)", "(launches in separate modes)"] {
            #expect(words.contains(verdict), "\(verdict)")
        }
        #expect(text.contains("case(s) slower"))

        let full = ABComparisonReport(report: report, wide: true).rendered(.text)
        #expect(full.split(separator: "\n").contains { $0.count > TextReport.width })
        for column in ["baseline ns [95%]", "current/baseline [95%]", "120,001"] {
            #expect(full.contains(column), "\(column)")
            #expect(!text.contains(column), "\(column)")
        }
        func headerLine(_ t: String) -> Substring? { t.split(separator: "\n").first { $0.hasPrefix("case ") } }
        #expect(headerLine(full)?.contains("launches") == true)
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("subject ") && $0.contains("launches") })
        // Long case names (reentrant's) become title lines; short ones stay in a column.
        #expect(headerLine(text) == nil && text.contains("\nreentrant[depth 1000000, 1 busy sender]\n"))
        var short = report
        short.rows = report.rows.filter { !$0.key.contains("[") && $0.subject == .lockfree }
        #expect(headerLine(ABComparisonReport(report: short).rendered(.text)) != nil)
        // The other formats are not narrowed.
        #expect(ABComparisonReport(report: report).rendered(.markdown) == report.rendered(.markdown))
    }

    /// A long note wraps under its column instead of widening the line.
    @Test func longNotesWrap() {
        let spec = CaseSpec(workload: .sendMap)
        var r = CaseResult(spec: spec, subject: .asyncchannel, status: .unsupported,
                           reason: String(repeating: "a very long reason that goes on ", count: 12))
        r.throughput = nil
        let machine = MachineInfo(cores: 2, cpuModel: "Test CPU", toolchain: "Swift 6.3", buildConfiguration: "release",
                                  allocator: "system", os: "Linux", date: "2026-01-01T00:00:00Z")
        let text = TextReport.render(BenchReport(machine: machine, parameters: Parameters(), results: [r], targets: []))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= TextReport.width }, "\(text)")
        #expect(text.contains("goes on"))
    }

    /// A continuation row (its first cells empty, as `bench stress` prints a scenario's second
    /// outcome) keeps its cells under their columns: only trailing spaces are trimmed.
    @Test func continuationRowsKeepTheirColumns() {
        let table = Table(headers: ["scenario", "count", "outcome"],
                          rows: [["merged-add-remove", "3", "dropped"], ["", "12", "delivered"]],
                          leftColumns: [0, 2])
        let lines = table.text().split(separator: "\n").map(String.init)
        #expect(lines[2] == "merged-add-remove      3  dropped")
        #expect(lines[3] == "                      12  delivered")
    }
}
