import ArgumentParser
import Foundation
import SignalsReports
import SignalsWorkloads

/// `bench ab`: two builds of bench side by side, in alternating launches, with a paired verdict
/// per case and subject. The statistics are in Sources/SignalsReports/Statistics/, the report in
/// Sources/SignalsReports/AB/; the launch loop in Sources/SignalsWorkloads/AB/. Method and
/// calibration: docs/bench-guide.md.
struct ABCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Compare two builds (git refs or bench executables) in alternating launches, with 95% intervals.",
        discussion: """
        Exit status: 0 when no case is slower beyond --threshold with 95% confidence, 1 when some \
        case is, 2 for bad arguments (an unknown ref, a path that is not a bench executable), 5 when \
        a build failed or no row could be judged (the table in `bench --help`).
        """
    )

    @Option(help: "The baseline: a name saved with --save (.build-ab/NAME), the path of a bench executable, or a git ref of this repository (built into .build-ab-<sha>); required unless --calibrate or --save.")
    var baseline: String?

    @Option(help: ArgumentHelp("Keep this executable under .build-ab/NAME, with its commit, build and dependency versions, for a later --baseline NAME; compares nothing.", valueName: "name"))
    var save: String?

    @Option(help: "The current side: a git ref, a saved name or a bench executable (default: this executable).")
    var current: String?

    @Option(name: .long, help: "Workloads, comma-separated (default: the single-thread ones). See `bench list`.")
    var workload: [NameList<WorkloadID>] = []

    @Option(name: .long, help: "Subjects, comma-separated (default: lockfree). See `bench list`.")
    var subject: [NameList<SubjectID>] = []

    @Option(help: "Sender threads for `contended` and `mutation`, comma-separated, 1–64 (default: 2).",
            transform: { (text: String) throws -> ThreadCountList in
                do throws(ArgumentError) { return try ThreadCountList(parsing: text) } catch { throw ValidationError(error.message) }
            })
    var threads: [ThreadCountList] = []

    @Option(help: "Smallest slowdown that counts, in percent.")
    var threshold: String = "3%"

    @Option(help: "Seconds for the whole comparison, shared by the rows (at least 6 launch pairs per row; 3 against a bench without served rounds).")
    var budget: Double = 60

    @Option(help: "Busy threads running beside every launch, 0–64 (default: 0).")
    var load: Int?

    @Option(help: "Timed rounds per launch and build (default: 10).")
    var repetitions: Int?

    @Option(help: "Milliseconds one round aims for, 5–1000.")
    var roundMilliseconds: Int = 20

    @OptionGroup var report: ReportOutput

    @OptionGroup var progressOptions: ProgressOptions

    @Flag(help: "Text with every column (the baseline's interval, launch pairs) and unwrapped lines; wider than 120 columns.")
    var wide = false

    @Flag(help: "Calibrate instead of comparing: A/A and A against A′ (A plus a known added cost), --runs times per case; reports the false-alarm rate and the slowdowns found. Uses --baseline's build when given, else this executable; --budget is then the seconds of one run.")
    var calibrate = false

    @Option(help: "Calibration runs per case, 1–1000.")
    var runs: Int = 20

    @Option(help: "Calibration slowdowns A′ adds, comma-separated percentages above 0 and up to 100.")
    var slowdowns: String = "5%,10%"

    /// The run options the flags give (defaults filled in).
    var options: RunOptions {
        var options = RunOptions()
        let workloads = workload.flatMap(\.names)
        options.workloads = workloads.isEmpty ? Self.singleThread : workloads
        let subjects = subject.flatMap(\.names)
        options.subjects = subjects.isEmpty ? [.lockfree] : subjects
        options.threads = threads.flatMap(\.counts)
        options.repetitions = repetitions ?? 10
        options.load = load
        options.smallestEffect = threshold
        return options
    }

    /// The workloads a default `bench ab` compares: those that run on one thread.
    static let singleThread: [WorkloadID] = [.sendMap, .chain, .fanout, .reentrant, .churn]

    /// The slowdowns as fractions, or nil when one is not a percentage in (0, 100].
    static func parseSlowdowns(_ text: String) -> [Double]? {
        guard let parts = try? ArgumentCheck.listItems(text, flag: "--slowdowns", what: "percentages", allowed: "") else { return nil }
        var out: [Double] = []
        for p in parts {
            guard let v = Comparison.parseThreshold(p), v > 0, v <= 100 else { return nil }
            out.append(v / 100)
        }
        return out
    }

    func validate() throws {
        if let save {
            guard BuildResolver.isValidName(save) else {
                throw ValidationError("--save: '\(save)' is not a name: use letters, digits, '.', '_' and '-', not starting with '.' or '-'")
            }
            if baseline != nil || current != nil || calibrate {
                throw ValidationError("--save: saves this executable and compares nothing; give it without --baseline, --current or --calibrate")
            }
            return
        }
        if !calibrate && baseline == nil {
            throw ValidationError("--baseline: required (a saved name, a bench executable or a git ref), unless --calibrate or --save is given")
        }
        if calibrate && current != nil {
            throw ValidationError("--current: not used with --calibrate (it calibrates one build: --baseline's, or this executable)")
        }
        guard (1...1000).contains(runs) else {
            throw ValidationError("--runs: expected 1 to 1000 (got \(runs))")
        }
        guard Self.parseSlowdowns(slowdowns) != nil else {
            throw ValidationError("--slowdowns: expected comma-separated percentages above 0 and up to 100 such as 5%,10% (got '\(slowdowns)')")
        }
        guard let t = Comparison.parseThreshold(threshold), t > 0, t < 100 else {
            throw ValidationError("--threshold: expected a percentage above 0 and below 100 such as 3% or 2.5 (got '\(threshold)')")
        }
        guard (5...1000).contains(roundMilliseconds) else {
            throw ValidationError("--round-milliseconds: expected 5 to 1000 (got \(roundMilliseconds))")
        }
        do throws(ArgumentError) {
            _ = try ArgumentCheck.positiveSeconds(budget, flag: "--budget", upTo: 86_400)
        } catch {
            throw ValidationError(error.description)
        }
        // The shared ranges of `run`'s flags (--workload, --subject, --threads, --load, --repetitions).
        do { _ = try options.parameters() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        if let save {
            let (path, provenance) = try BuildResolver.save(name: save)
            print("saved this executable as '\(save)' (\(path)): \(provenance.summary)")
            print("compare against it with: swift run -c release bench ab --baseline \(save)")
            return
        }
        let options = self.options
        var parameters: Parameters
        do { parameters = try options.parameters() } catch { throw UsageError(error.description) }
        // Short rounds follow the machine's drift closely; every side runs the same count.
        parameters.targetRepetitionMilliseconds = roundMilliseconds

        let thresholdPercent = Comparison.parseThreshold(threshold) ?? 3
        if calibrate {
            return try runCalibration(parameters: parameters, subjects: options.subjects, thresholdPercent: thresholdPercent)
        }
        let baselineExe = try BuildResolver.executable(for: baseline ?? "", flag: "--baseline")
        let currentExe = try current.map { try BuildResolver.executable(for: $0, flag: "--current") } ?? ChildProcess.executablePath()
        let baselineBuild = BuildResolver.provenance(of: baselineExe)
        let currentBuild = current == nil ? BuildResolver.runningProvenance() : BuildResolver.provenance(of: currentExe)

        var runner = ABRunner(baseline: baselineExe, current: currentExe, parameters: parameters, budgetSeconds: budget)
        runner.servedRounds = parameters.repetitions
        let meter = progressOptions.meter("bench ab")
        let cases = parameters.cases()
        meter.start(total: cases.count * options.subjects.count,
                    what: "\(cases.count * options.subjects.count) row(s) in about \(ProgressMeter.duration(budget)) (--budget)")
        runner.progress = { label in meter.begin(label) }
        runner.finished = { row in meter.finish(note: row.change.map { "\($0.verdict.rawValue), ratio \(String(format: "%.3f", $0.ratio.estimate))" } ?? "not judged") }
        let load = BusyLoad(threads: parameters.loadThreads)
        let rows = runner.run(cases: cases, subjects: options.subjects)
        load.stop()
        meter.end()

        var result = ABReport(machine: .current(allocator: "system"), parameters: parameters,
                              baseline: "\(baseline ?? "") (\(baselineExe))", current: current.map { "\($0) (\(currentExe))" } ?? "this executable",
                              thresholdPercent: thresholdPercent, budgetSeconds: budget, rows: rows)
        result.baselineBuild = baselineBuild
        result.currentBuild = currentBuild
        try report.emit(ABComparisonReport(report: result, wide: wide))
        if result.judgedRows.isEmpty {
            let notes = Set(rows.compactMap(\.note)).sorted().joined(separator: "; ")
            FileHandle.standardError.write(Data("bench ab: no row could be judged (every launch pair failed)\(notes.isEmpty ? "; see the notes" : ": " + notes)\n".utf8))
            throw ExitCode(BenchExitCode.couldNotRun.rawValue)
        }
        if result.anySlower { throw ExitCode(BenchExitCode.finding.rawValue) }
    }

    /// `--calibrate`: every selected case and subject, `--runs` sessions each.
    func runCalibration(parameters: Parameters, subjects: [SubjectID], thresholdPercent: Double) throws {
        let exe = try baseline.map { try BuildResolver.executable(for: $0, flag: "--baseline") } ?? ChildProcess.executablePath()
        let fractions = Self.parseSlowdowns(slowdowns) ?? [0.05, 0.10]
        let load = BusyLoad(threads: parameters.loadThreads)
        var cases: [CalibrationReport.CaseCalibration] = []
        let meter = progressOptions.meter("bench ab --calibrate")
        let specs = parameters.cases()
        meter.start(total: specs.count * subjects.count * runs, what: "\(specs.count * subjects.count) case(s) × \(runs) run(s)")
        for subject in subjects {
            var calibration = Calibration(executable: exe, parameters: parameters, subject: subject, runs: runs,
                                          budgetSeconds: budget, slowdowns: fractions, roundsPerLaunch: parameters.repetitions)
            calibration.progress = { label in meter.next(label) }
            cases += calibration.run(cases: specs)
        }
        load.stop()
        meter.end()
        let result = CalibrationReport(machine: .current(allocator: "system"), parameters: parameters, runs: runs,
                                       budgetSeconds: budget, thresholdPercent: thresholdPercent, cases: cases)
        try report.emit(result)
        if cases.allSatisfy({ $0.runs.allSatisfy { $0.aa == nil } }) {
            FileHandle.standardError.write(Data("bench ab --calibrate: no run could be judged; see the notes in --format json\n".utf8))
            throw ExitCode(BenchExitCode.couldNotRun.rawValue)
        }
    }
}

/// Turns `--baseline`/`--current` into a bench executable: a path is checked, a saved name
/// is looked up under `.build-ab/NAME`, a git ref is built in its own scratch folder from a
/// temporary worktree. In that order: a saved name hides a branch of the same name.
enum BuildResolver {
    static func executable(for spec: String, flag: String) throws -> String {
        let fm = FileManager.default
        if spec.contains("/") || fm.fileExists(atPath: spec) {
            return try checkedExecutable(spec, flag: flag)
        }
        if isValidName(spec), fm.isExecutableFile(atPath: savedPath(spec)) {
            return savedPath(spec)
        }
        return try build(ref: spec, flag: flag)
    }

    /// Letters, digits, '.', '_' and '-', not starting with '.' or '-' (a folder name that
    /// cannot climb out of .build-ab or read as an option).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first != ".", first != "-", name.count <= 100 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }

    /// The repository's top folder (the current folder outside a git checkout).
    static var top: String {
        let (rc, out) = capture("/usr/bin/env", ["git", "rev-parse", "--show-toplevel"])
        let t = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return rc == 0 && !t.isEmpty ? t : FileManager.default.currentDirectoryPath
    }

    static func savedPath(_ name: String) -> String { "\(top)/.build-ab/\(name)/bench" }

    /// Copies this executable to `.build-ab/NAME/bench` and records its build beside it.
    static func save(name: String) throws -> (String, BuildProvenance) {
        let path = savedPath(name)
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent()
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            if fm.fileExists(atPath: path) { try fm.removeItem(atPath: path) }
            try fm.copyItem(atPath: ChildProcess.executablePath(), toPath: path)
            let provenance = runningProvenance()
            try provenance.record(beside: path)
            return (path, provenance)
        } catch {
            throw UsageError("--save: cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// The running executable's build: this checkout's HEAD, working tree and Package.resolved.
    static func runningProvenance() -> BuildProvenance {
        let machine = MachineInfo.current(allocator: "system")
        return BuildProvenance.running(repositoryRoot: top, buildCommand: "swift build -c \(machine.buildConfiguration) (extra flags not recorded)")
    }

    /// What an executable was built from: its `build.json`, or nil when none was recorded.
    static func provenance(of executable: String) -> BuildProvenance? {
        BuildProvenance.recorded(beside: executable)
    }

    /// Seconds `--help` may take before a `--baseline` or `--current` executable is refused.
    static let helpTimeout: Double = 30

    /// A path must be an executable file whose `--help` names bench's `ab` or `run` command.
    static func checkedExecutable(_ path: String, flag: String) throws -> String {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
            throw UsageError("\(flag): '\(path)' is not a file; expected a git ref or the path of a bench executable")
        }
        guard fm.isExecutableFile(atPath: path) else {
            throw UsageError("\(flag): '\(path)' is not executable; expected a git ref or the path of a bench executable")
        }
        // Bounded: a build that never answers, or leaves a process holding its output, is
        // refused rather than waited on.
        let (status, output) = capture(path, ["--help"], timeout: helpTimeout)
        guard status == 0, output.contains("USAGE: bench"), output.contains("_case") || output.contains("run") else {
            throw UsageError("\(flag): '\(path)' is not a bench executable (its --help does not describe bench)")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Builds `ref` in release into `.build-ab-<short sha>` (reused when already built).
    static func build(ref: String, flag: String) throws -> String {
        let (rc, shaOut) = capture("/usr/bin/env", ["git", "rev-parse", "--verify", "--quiet", "\(ref)^{commit}"])
        let sha = shaOut.trimmingCharacters(in: .whitespacesAndNewlines)
        guard rc == 0, !sha.isEmpty else {
            throw UsageError("\(flag): '\(ref)' is neither a bench executable nor a git ref of this repository")
        }
        let short = String(sha.prefix(12))
        let scratch = "\(top)/.build-ab-\(short)"
        let exe = "\(scratch)/release/bench"
        if FileManager.default.isExecutableFile(atPath: exe) { return exe }
        let tree = NSTemporaryDirectory() + "signals-ab-\(short)-\(getpid())"
        FileHandle.standardError.write(Data("bench ab: building \(ref) (\(short)) in \(scratch) …\n".utf8))
        let (addRC, addOut) = capture("/usr/bin/env", ["git", "worktree", "add", "--detach", "--force", tree, sha])
        guard addRC == 0 else {
            FileHandle.standardError.write(Data("\(flag): cannot check out '\(ref)': \(addOut)\n".utf8))
            throw ExitCode(BenchExitCode.couldNotRun.rawValue)
        }
        defer { _ = capture("/usr/bin/env", ["git", "worktree", "remove", "--force", tree]) }
        let command = ["swift", "build", "-c", "release", "--product", "bench", "--package-path", tree, "--scratch-path", scratch]
        let (buildRC, buildOut) = capture("/usr/bin/env", command)
        if buildRC == 0 {
            let machine = MachineInfo.current(allocator: "system")
            try? BuildProvenance(commit: sha, uncommittedChanges: false, configuration: "release",
                                 buildCommand: "swift build -c release --product bench", toolchain: machine.toolchain,
                                 dependencies: BuildProvenance.resolvedDependencies(packageRoot: tree)).record(beside: exe)
        }
        guard buildRC == 0, FileManager.default.isExecutableFile(atPath: exe) else {
            FileHandle.standardError.write(Data("\(flag): building '\(ref)' failed:\n\(buildOut.suffix(2000))\n".utf8))
            throw ExitCode(BenchExitCode.couldNotRun.rawValue)
        }
        return exe
    }

    /// Runs a command, returning its status and its standard output and error together. The
    /// command runs in a process group of its own; after `timeout` seconds (none: no limit),
    /// or once it exited while something it started still holds its output, the group is
    /// killed: a build under test that forks cannot keep `bench ab` waiting.
    static func capture(_ executable: String, _ arguments: [String], timeout: Double? = nil) -> (Int32, String) {
        let deadline = timeout.map { Date().addingTimeInterval($0) } ?? .distantFuture
        let process: GroupProcess
        switch GroupProcess.spawn(executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                                  pipeInput: false, errors: .merged) {
        case .success(let p): process = p
        case .failure(let why): return (-1, why.description)
        }
        var output: [UInt8] = []
        var exitedAt: Date?
        reading: while true {
            switch process.read(until: min(deadline, Date().addingTimeInterval(1))) {
            case .data(let d): output += d
            case .end: break reading
            case .timedOut:
                if Date() >= deadline {
                    process.killGroup()
                    process.wait(until: Date())
                    return (-1, String(decoding: output, as: UTF8.self) + "\n(no end after \(Int(timeout ?? 0)) s: stopped)")
                }
                // Exited, but a process it started holds the output open: a second's grace.
                if !process.isRunning {
                    if let at = exitedAt, Date().timeIntervalSince(at) >= 1 { break reading }
                    if exitedAt == nil { exitedAt = Date() }
                }
            }
        }
        let status = process.wait(until: Date().addingTimeInterval(5))
        process.closeStreams()
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), String(decoding: output, as: UTF8.self))
    }
}
