import ArgumentParser
import Foundation
import SignalsHarness

/// `bench list`: workloads, subjects, and which subject can do which case.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List workloads and subjects.")

    @OptionGroup var report: ReportOutput

    func run() throws {
        try report.emit(CatalogueReport.current())
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

    @Option(help: "Largest allowed growth of any figure, in percent (e.g. 10% or 2.5).",
            transform: { (text: String) throws -> Double in
                guard let v = Comparison.parseThreshold(text) else {
                    throw ValidationError("--threshold: expected a non-negative percentage such as 10% or 2.5 (got '\(text)')")
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
