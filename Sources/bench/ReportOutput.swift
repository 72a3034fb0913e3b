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

    /// True when `--output` names a folder: an existing directory (a symlink to one included:
    /// the person named it) or a path ending in "/".
    var outputIsFolder: Bool {
        guard let output else { return false }
        var isDir: ObjCBool = false
        return output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDir) && isDir.boolValue)
    }

    /// Checked before any work starts: the parent folder of a file must exist, and the path
    /// must be something a report can be written to (see `OutputTarget`).
    func validate() throws {
        guard let output, !outputIsFolder else { return }
        do { _ = try OutputTarget.resolve(output) } catch { throw ValidationError(error.description) }
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
                // Each file is replaced atomically (a new file renamed over the name): a symlink
                // or FIFO already there under one of these names is replaced, not followed, so
                // nothing outside the folder is written (docs/bench-guide.md, "Output paths").
                for f in ReportFormat.allCases {
                    try OutputTarget.replaceAtomically(Data(report.rendered(f).utf8), at: dir.appendingPathComponent("report.\(f.fileExtension)").path)
                    names.append("report.\(f.fileExtension)")
                }
                for (name, contents) in report.companionFiles {
                    try OutputTarget.replaceAtomically(Data(contents.utf8), at: dir.appendingPathComponent(name).path)
                    names.append(name)
                }
            } catch let e as OutputError {
                throw UsageError(e.description)
            } catch {
                throw UsageError("--output: cannot write into '\(output)': \(error.localizedDescription)")
            }
            print(report.rendered(format), terminator: "")
            FileHandle.standardError.write(Data("wrote \(names.joined(separator: ", ")) to \(output)\n".utf8))
        } else {
            do {
                try OutputTarget.resolve(output).deliver(Data(report.rendered(format).utf8))
            } catch {
                throw UsageError(error.description)
            }
            FileHandle.standardError.write(Data("wrote the \(format.rawValue) report to \(output)\n".utf8))
        }
    }
}

/// Why `--output` cannot be written; the message names the flag, the path and the reason.
struct OutputError: Error, CustomStringConvertible {
    var description: String
}

/// Where `--output PATH` writes, decided as a shell redirection (`> PATH`) would, except that a
/// regular file is replaced atomically:
/// - a new path, or a regular file: a new file written beside it and renamed over it (a reader
///   never sees half a report);
/// - a symlink: followed (as `>` does) to what it names, which is then treated by these rules
///   (the link itself stays);
/// - a character device (`/dev/null`, a terminal) or a FIFO: written through, never replaced. A
///   FIFO with no reader is refused at once (exit 2) rather than waited on;
/// - a socket or a block device: refused.
enum OutputTarget {
    case replace(String)
    case stream(String, what: String)

    /// Follows symlinks (at most 40, as the kernel does) and classifies what `path` names.
    static func resolve(_ path: String) throws(OutputError) -> OutputTarget {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            if lstat(current, &st) != 0 {
                guard errno == ENOENT else { throw OutputError(description: "--output: cannot use '\(path)': \(String(cString: strerror(errno)))") }
                // A new file: its folder must exist.
                let parent = URL(fileURLWithPath: current).deletingLastPathComponent().path
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDir), isDir.boolValue else {
                    throw OutputError(description: "--output: the folder '\(parent)' of '\(current)' does not exist")
                }
                return .replace(current)
            }
            switch st.st_mode & S_IFMT {
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(current, &buffer, buffer.count - 1)
                guard n > 0 else { throw OutputError(description: "--output: cannot read the symlink '\(current)'") }
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current = target.hasPrefix("/") ? target
                    : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
            case S_IFREG: return .replace(current)
            case S_IFCHR: return .stream(current, what: "character device")
            case S_IFIFO: return .stream(current, what: "FIFO")
            case S_IFDIR: throw OutputError(description: "--output: '\(path)' is a folder; end the path with / to write every format into it")
            case S_IFSOCK: throw OutputError(description: "--output: '\(path)' is a socket; expected a file, a folder, a FIFO or a character device")
            case S_IFBLK: throw OutputError(description: "--output: '\(path)' is a block device; expected a file, a folder, a FIFO or a character device")
            default: throw OutputError(description: "--output: '\(path)' is not a file; expected a file, a folder, a FIFO or a character device")
            }
        }
        throw OutputError(description: "--output: '\(path)': too many levels of symlinks")
    }

    /// Writes `data` as decided by `resolve`.
    func deliver(_ data: Data) throws(OutputError) {
        switch self {
        case .replace(let path): try Self.replaceAtomically(data, at: path)
        case .stream(let path, let what): try Self.writeThrough(data, to: path, what: what)
        }
    }

    /// A new file beside `path`, renamed over it: `path` names the report or what it was
    /// before, never half of one. A symlink at `path` itself is replaced, not followed
    /// (`resolve` has already followed the one the person named).
    static func replaceAtomically(_ data: Data, at path: String) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputError(description: "--output: cannot write '\(path)': \(String(cString: strerror(errno)))") }
        let temp = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The mode a shell redirection would give a new file (0666 less the umask).
        let mask = umask(0); umask(mask)
        fchmod(fd, 0o666 & ~mask)
        let written = writeAll(fd, data)
        let closed = close(fd) == 0
        guard written == nil, closed, rename(temp, path) == 0 else {
            let why = written ?? String(cString: strerror(errno))
            unlink(temp)
            throw OutputError(description: "--output: cannot write '\(path)': \(why)")
        }
    }

    /// Writes through a device or FIFO as `> path` would. A FIFO is opened non-blocking first:
    /// with no reader that fails at once (ENXIO) and is refused, where a blocking open would
    /// wait forever.
    static func writeThrough(_ data: Data, to path: String, what: String) throws(OutputError) {
        signal(SIGPIPE, SIG_IGN)
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if fd < 0 {
            if errno == ENXIO { throw OutputError(description: "--output: '\(path)' is a FIFO with no reader; start the reader first") }
            throw OutputError(description: "--output: cannot write the \(what) '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // Blocking from here on, as a redirection: a slow reader is waited for.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if let why = writeAll(fd, data) {
            throw OutputError(description: "--output: cannot write the \(what) '\(path)': \(why)")
        }
    }

    /// Writes every byte; the error's text, or nil.
    static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return String(cString: strerror(errno)) }
            offset += n
        }
        return nil
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
