import ArgumentParser
import Foundation
import SignalsReports
import SignalsWorkloads

/// `bench list`: workloads, subjects, and which subject can do which case.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List workloads and subjects.")

    @OptionGroup var report: ReportOutput

    func run() throws {
        try report.emit(ListReport.current())
    }
}

/// `bench compare BASELINE.json CURRENT.json [--threshold 10%]`.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two JSON reports; exit 1 on a regression beyond the threshold."
    )

    @Argument(help: "The baseline report (from `bench --format json` or --output).")
    var baseline: String

    @Argument(help: "The current report.")
    var current: String

    @Option(help: "Largest allowed growth of any figure, in percent, above 0 and at most 1000 (e.g. 10% or 2.5).",
            transform: { (text: String) throws -> Double in
                guard let v = Comparison.parseThreshold(text), v > 0, v <= 1000 else {
                    throw ValidationError("--threshold: expected a percentage above 0 and at most 1000 such as 10% or 2.5 (got '\(text)'); 0 would call every change, noise included, a regression")
                }
                return v
            })
    var threshold: Double = 10

    @OptionGroup var report: ReportOutput

    func run() throws {
        let t = threshold
        let base: BenchReport, cur: BenchReport
        do {
            base = try JSONReport.load(path: baseline)
            cur = try JSONReport.load(path: current)
        } catch {
            throw UsageError(error.description)
        }
        let c = Comparison.compare(baseline: base, current: cur, thresholdPercent: t)
        try report.emit(c)
        if !c.regressions.isEmpty { throw ExitCode(BenchExitCode.finding.rawValue) }
    }
}

/// `bench report REPORT.json`: a saved run report (`--format json`, or report.json of an
/// output folder) rendered again, in any format, with the renderers of this build: the
/// figures are those of the file; nothing is measured.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a saved JSON report of `bench run` again, in any format (nothing is measured)."
    )

    @Argument(help: "The report (from `bench run --format json`, or report.json of an --output folder).")
    var input: String

    @OptionGroup var report: ReportOutput

    @Flag(help: "Text with every column and the full method; wider than 120 columns.")
    var wide = false

    @Flag(help: "Also print the full latency percentile distribution of every case (text).")
    var percentiles = false

    func run() throws {
        let saved: BenchReport
        do { saved = try JSONReport.load(path: input) } catch { throw UsageError(error.description) }
        try report.emit(RunReport(report: saved, percentiles: percentiles, wide: wide))
        if !saved.passed { throw ExitCode(BenchExitCode.finding.rawValue) }
    }
}
