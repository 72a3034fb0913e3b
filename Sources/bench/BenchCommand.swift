import ArgumentParser
import Foundation
import SignalsReports
import SignalsStress

/// `bench`: the project's benchmark harness. The work is in SignalsWorkloads (measuring),
/// SignalsReports (statistics and reports) and SignalsStress (`bench stress`); this target only
/// parses arguments and maps outcomes to the exit codes of `BenchExitCode`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks Signals' delivery variants against peers, checking every guarantee.",
        discussion: """
        Every subcommand that reports takes --format text|json|csv|markdown|html and --output PATH; \
        the delivery variant is spelled lockfree or mutex everywhere. Guide: docs/bench-guide.md.

        Exit status, the same for bench, scripts/benchmarks-check and scripts/instruction-counts:
        \(BenchExitCode.table)
        """,
        subcommands: [RunCommand.self, LatencyCommand.self, ListCommand.self, CompareCommand.self, ReportCommand.self, StressCommand.self, ExploreCommand.self, CaseCommand.self,
                      RoundsCommand.self, ServeCommand.self, InstructionsCommand.self, ABCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// A bad argument: printed as one line naming the flag and the allowed values; exit code 2
/// (`BenchExitCode.usage`).
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

