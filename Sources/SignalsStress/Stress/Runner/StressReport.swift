import Foundation
import Signals
import SignalsReports

/// Everything `bench stress` ran, for the table and the JSON file.
package struct StressReport: Codable, Sendable {
    /// "signals-bench-stress" (absent in reports written before it was recorded).
    package var tool: String? = "signals-bench-stress"
    /// 1; bumped on any incompatible change (absent in reports written before it was recorded).
    package var schemaVersion: Int? = 1
    package var seed: UInt64
    package var threads: Int
    package var operations: Int
    package var secondsPerRun: Double?
    package var iterationCap: Int?
    package var results: [StressRunResult]
    /// Busy threads that ran beside the scenarios (`--load`); nil in reports before it existed.
    package var load: Int?

    /// A report.
    package init(seed: UInt64, threads: Int, operations: Int, secondsPerRun: Double?, iterationCap: Int?, results: [StressRunResult]) {
        self.seed = seed
        self.threads = threads
        self.operations = operations
        self.secondsPerRun = secondsPerRun
        self.iterationCap = iterationCap
        self.results = results
    }

    /// True if nothing forbidden, no leak and no deadlock was seen.
    package var passed: Bool { results.allSatisfy(\.passed) }

    /// The jcstress-like table: one block per scenario and variant, one line per outcome.
    package func table() -> String {
        let outcomes = outcomeTable()
        let header = outcomes.headers, rows = outcomes.rows
        var widths = header.map(\.count)
        for row in rows { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { i, c in c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        var out = [line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
        out += rows.map(line)
        return out.joined(separator: "\n")
    }

    /// The failures, each with the command that replays it.
    package func failureSummary() -> String {
        var lines: [String] = []
        for r in results where !r.passed {
            for f in r.failures {
                lines.append("FORBIDDEN \(f.outcome) in \(r.scenario)/\(r.variant), iteration \(f.iteration) (iteration seed \(f.iterationSeed)):")
                lines.append("  \(f.detail)")
                lines.append("  replay: \(f.replay)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

/// Picks scenarios and variants from command-line names.
package enum StressSelection {
    /// The scenarios named (all if `names` is empty); throws on an unknown name.
    package static func scenarios(_ names: [String]) throws -> [any StressScenario] {
        let all = StressRegistry.all
        if names.isEmpty { return all }
        return try names.flatMap { n -> [any StressScenario] in
            let matches = all.filter { $0.name == n || ($0.name.hasPrefix(n) && n.hasSuffix("-")) }
            if matches.isEmpty {
                throw StressSelectionError("unknown scenario '\(n)'; known: \(all.map(\.name).joined(separator: ", "))")
            }
            return matches
        }
    }
}

/// A bad `--scenario` or `--variant`.
package struct StressSelectionError: Error, CustomStringConvertible {
    package var description: String
    init(_ d: String) { description = d }
}
