import ArgumentParser
import Foundation
import SignalsHarness

/// `bench list`: workloads, subjects, and which subject can do which case.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List workloads and subjects.")

    func run() throws {
        print("workloads:")
        for w in WorkloadID.allCases { print("  \(w.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(w.summary)") }
        print("\nsubjects:")
        let available = Set(SubjectRegistry.all().map(\.id))
        for s in SubjectID.allCases {
            let note = available.contains(s) ? "" : "  (not built in)"
            print("  \(s.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(s.summary)\(note)")
        }
        print("\nsupport (default parameters):")
        for spec in Parameters().cases() {
            print("  \(spec.key)")
            for s in SubjectRegistry.all() {
                let text: String
                switch s.support(for: spec) {
                case .inProcess: text = "yes"
                case .isolated(let why): text = "yes, in a child process (\(why))"
                case .unsupported(let why): text = "unsupported: \(why)"
                }
                print("    \(s.id.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(text)")
            }
        }
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

    @Option(help: "Largest allowed growth of any figure, in percent (e.g. 10%).",
            transform: { (text: String) throws -> Double in
                guard let v = Comparison.parseThreshold(text) else {
                    throw ValidationError("--threshold: expected a non-negative percentage such as 10% or 2.5 (got '\(text)')")
                }
                return v
            })
    var threshold: Double = 10

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
        print(c.render(), terminator: "")
        if !c.regressions.isEmpty { throw ExitCode(1) }
    }
}
