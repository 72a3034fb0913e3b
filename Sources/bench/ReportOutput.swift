import ArgumentParser
import Foundation
import Signals
import SignalsReports

extension ReportFormat: ExpressibleByArgument {}

/// `--format` and `--output`, the same on every subcommand that reports.
struct ReportOutput: ParsableArguments {
    @Option(help: "Report format.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp(
        "Write the report to this file instead of standard output. A folder (one that exists, or a path ending in /) gets every format as report.<ext> (and latency.svg from `run`), and the --format one is printed.",
        valueName: "path"))
    var output: String?

    /// True when `--output` names a folder: an existing directory or a path ending in "/".
    var outputIsFolder: Bool {
        guard let output else { return false }
        var isDir: ObjCBool = false
        return output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDir) && isDir.boolValue)
    }

    /// Checked before any work starts: the parent folder of a file must exist.
    func validate() throws {
        guard let output, !outputIsFolder else { return }
        let parent = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDir), isDir.boolValue else {
            throw ValidationError("--output: the folder '\(parent)' of '\(output)' does not exist")
        }
    }

    /// Prints or writes `report`; names what it wrote on standard error.
    func emit(_ report: some RenderableReport) throws {
        guard let output else {
            print(report.rendered(format), terminator: "")
            return
        }
        if outputIsFolder {
            let dir = URL(fileURLWithPath: output)
            var names: [String] = []
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                for f in ReportFormat.allCases {
                    try report.rendered(f).write(to: dir.appendingPathComponent("report.\(f.fileExtension)"), atomically: true, encoding: .utf8)
                    names.append("report.\(f.fileExtension)")
                }
                for (name, contents) in report.companionFiles {
                    try contents.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
                    names.append(name)
                }
            } catch {
                throw UsageError("--output: cannot write into '\(output)': \(error.localizedDescription)")
            }
            print(report.rendered(format), terminator: "")
            FileHandle.standardError.write(Data("wrote \(names.joined(separator: ", ")) to \(output)\n".utf8))
        } else {
            do {
                try report.rendered(format).write(to: URL(fileURLWithPath: output), atomically: true, encoding: .utf8)
            } catch {
                throw UsageError("--output: cannot write '\(output)': \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("wrote the \(format.rawValue) report to \(output)\n".utf8))
        }
    }
}

/// `--variant lockfree|mutex|lockfree,mutex`: the delivery variant, spelled as the library
/// subjects of `run` and `ab` are.
struct VariantList: ExpressibleByArgument {
    var variants: [DeliveryVariant]

    init?(argument: String) {
        guard let v = try? DeliveryVariant.parseList(argument) else { return nil }
        variants = v
    }

    static var allValueStrings: [String] { ["lockfree", "mutex"] }
    var defaultValueDescription: String { variants.map(\.commandLineName).joined(separator: ",") }
}

/// `--quiet`: progress goes to standard error (a live line on a terminal, a line per finished
/// step elsewhere) unless it is given.
struct ProgressOptions: ParsableArguments {
    @Flag(help: "No progress on standard error.")
    var quiet = false

    func meter(_ title: String) -> ProgressMeter {
        ProgressMeter(style: .forStandardError(quiet: quiet), title: title)
    }
}
