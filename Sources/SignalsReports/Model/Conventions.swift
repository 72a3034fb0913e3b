import Foundation
import Signals

/// The formats every reporting subcommand (`run`, `ab`, `compare`, `stress`, `list`) writes,
/// chosen with `--format`. The raw value is the command-line spelling.
package enum ReportFormat: String, CaseIterable, Codable, Sendable {
    case text, json, csv, markdown, html

    /// The file name extension of a report in this format (`report.<ext>` in an output folder).
    package var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .csv: "csv"
        case .markdown: "md"
        case .html: "html"
        }
    }

    /// "text, json, csv, markdown or html": for help and error messages.
    package static var spelled: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// A report every subcommand can write in each `ReportFormat`.
package protocol RenderableReport {
    /// The whole report in `format`.
    func rendered(_ format: ReportFormat) -> String
    /// Files written beside `report.<ext>` when `--output` names a folder (name, contents).
    var companionFiles: [(name: String, contents: String)] { get }
}

extension RenderableReport {
    package var companionFiles: [(name: String, contents: String)] { [] }
}

/// The exit status of `bench` and of the scripts that gate CI (`scripts/benchmarks-check`,
/// `scripts/instruction-counts`): one table, printed by `bench --help` and in the guide.
package enum BenchExitCode: Int32, CaseIterable, Sendable {
    /// Every guarantee held; nothing slower or above its threshold.
    case passed = 0
    /// A finding: a violated guarantee or a latency figure contradicting its throughput figure
    /// (`run`), a forbidden outcome or leak (`stress`), a case
    /// slower with confidence (`ab`), a regression (`compare`), a count above its committed
    /// threshold (the scripts).
    case finding = 1
    /// A bad argument: the message names the flag and what it accepts.
    case usage = 2
    /// A committed count is better than measured beyond its tolerance (the scripts): re-record.
    case stale = 3
    /// The watchdog caught a deadlock (`stress`).
    case deadlock = 4
    /// The check could not run: a build failed, a tool is missing, no row could be judged.
    case couldNotRun = 5

    /// One line per code, for `bench --help` and the guide.
    package static var table: String {
        allCases.map { code in
            let text: String
            switch code {
            case .passed: text = "passed: every guarantee held, nothing slower or above its threshold"
            case .finding: text = "a finding: violated guarantee or latency contradicting throughput (run), forbidden outcome or leak (stress), slower with confidence (ab), regression (compare, the scripts)"
            case .usage: text = "bad arguments: the message names the flag and the accepted values"
            case .stale: text = "stale: a committed count is better than measured (the scripts): re-record it"
            case .deadlock: text = "deadlock caught by the watchdog (stress)"
            case .couldNotRun: text = "could not run: a build failed, a tool is missing, no row could be judged"
            }
            return "  \(code.rawValue)  \(text)"
        }.joined(separator: "\n")
    }
}

extension DeliveryVariant {
    /// The spelling on every command line and in every report: `lockfree` or `mutex`, the same
    /// as the two library subjects of `bench run` and `bench ab`.
    package var commandLineName: String {
        switch self {
        case .lockFree: "lockfree"
        case .mutex: "mutex"
        }
    }

    /// The variant spelled `name`, exactly; nil for any other spelling.
    package init?(commandLineName name: String) {
        guard let v = Self.allCases.first(where: { $0.commandLineName == name }) else { return nil }
        self = v
    }

    /// Parses a comma-separated `--variant` list; an empty list, an empty item (`lockfree,,mutex`),
    /// a variant given twice or another spelling (`lockFree`, `lock-free`, `all`) is an error that
    /// names the accepted values.
    package static func parseList(_ text: String) throws(ArgumentError) -> [DeliveryVariant] {
        let accepted = "accepted: lockfree, mutex (comma-separated for both)"
        var out: [DeliveryVariant] = []
        for n in try ArgumentCheck.listItems(text, flag: "--variant", what: "variants", allowed: accepted) {
            guard let v = DeliveryVariant(commandLineName: n) else {
                throw ArgumentError(flag: "--variant", message: "unknown variant '\(n)'; \(accepted)")
            }
            out.append(v)
        }
        return out
    }
}
