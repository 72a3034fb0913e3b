import Foundation
import SignalsHarness
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
        let report = try canonicalReport()
        #expect(report.machine.harnessFloorNsPerValue != nil)  // an older report carries one
        #expect(MachineInfo.current(allocator: "system").harnessFloorNsPerValue == nil)
        for text in [RunReport(report: report).rendered(.text), RunReport(report: report, wide: true).rendered(.text),
                     report.rendered(.markdown), report.rendered(.html), report.rendered(.csv)] {
            #expect(!text.contains("harness floor") && !text.contains("part of every"))
        }
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
}
