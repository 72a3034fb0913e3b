import ArgumentParser
import Foundation
import SignalsHarness

/// `bench`: the project's benchmark harness. The work is in SignalsHarness; this target only
/// parses arguments and maps outcomes to exit codes (0 ok, 1 a violated guarantee or a
/// regression, 2 bad arguments).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks Signals' delivery variants against peers, checking every guarantee.",
        discussion: """
        Exit status: 0 when every guarantee held, 1 when a workload found a violated guarantee \
        (or `compare` found a regression), 2 for bad arguments.
        """,
        // `stress` is built in Sources/SignalsHarness/Stress/ (issue #4).
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, StressCommand.self, CaseCommand.self,
                      RoundsCommand.self, ServeCommand.self, InstructionsCommand.self, ABCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// A bad argument: printed as one line naming the flag and the allowed values; exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Parses comma-separated and repeated list options (`--workload send,chain --workload hop`).
func splitList(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
