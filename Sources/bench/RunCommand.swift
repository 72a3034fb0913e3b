import ArgumentParser
import Foundation
import SignalsReports
import SignalsWorkloads

/// The default subcommand: runs the suite and prints the report.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the benchmark suite (the default when no subcommand is given)."
    )

    enum Allocator: String, ExpressibleByArgument, CaseIterable {
        /// jemalloc when libjemalloc.so.2 is installed, else the system allocator.
        case auto, jemalloc, system
    }

    @Option(name: .long, help: "Workloads to run, comma-separated (default: all). See `bench list`.")
    var workload: [NameList<WorkloadID>] = []

    @Option(name: .long, help: "Subjects to run, comma-separated (default: all). See `bench list`.")
    var subject: [NameList<SubjectID>] = []

    @Option(help: "map stages in `chain` (default: 10).")
    var stages: Int?

    @Option(help: "Subscribers in `fanout` (default: 100).")
    var subscribers: Int?

    @Option(help: "Sender threads for `contended` and `mutation`, comma-separated, 1–64 (default: 2; try 1,2,4,8,16).",
            transform: { (text: String) throws -> ThreadCountList in
                do throws(ArgumentError) { return try ThreadCountList(parsing: text) } catch { throw ValidationError(error.message) }
            })
    var threads: [ThreadCountList] = []

    @Option(help: "Re-entrant depth (default: 1000000).")
    var depth: Int?

    @Option(help: "Timed rounds per launch (default: 5; 3 with --quick); each round runs every subject once, in shuffled order.")
    var repetitions: Int?

    @Option(help: "Fresh process launches per case 1–100 (default: 6, also with --quick: six is the fewest a 95% signed-rank interval needs).")
    var launches: Int?

    @Option(help: "Busy threads running beside every case, 0–64: a busy machine, reproducibly (default: 0).")
    var load: Int?

    @Option(help: "Seed of the round order and the bootstrap (default: fixed, printed in the report).")
    var seed: UInt64?

    @Option(name: .customLong("smallest-effect"), help: "Smallest change a verdict counts, in percent (default: 3%).")
    var smallestEffect: String?

    @Option(name: .customLong("sample-every"), help: "Time one send in N for latency (a power of two; default: 64).")
    var sampleEvery: Int?

    @Flag(help: "A CI-sized run: 3 shorter rounds per launch (about 20 s with --subject lockfree,mutex on 2 cores; the peers' re-entrant cases, depth 1,000,000, add over a minute).")
    var quick = false

    @OptionGroup var report: ReportOutput

    @OptionGroup var progressOptions: ProgressOptions

    @Option(help: "The allocator (auto: jemalloc when installed). Allocations are counted by jemalloc's statistics on jemalloc, by a malloc interposer on the system allocator.")
    var allocator: Allocator = .auto

    @Flag(help: "Print the full latency percentile distribution of every case.")
    var percentiles = false

    @Flag(help: "Text with every column (launch spread, throughput, ×fastest, bytes, p90, p99.99, samples) and the full method; wider than 120 columns.")
    var wide = false

    var options: RunOptions {
        var options = RunOptions()
        options.workloads = workload.flatMap(\.names)
        options.subjects = subject.flatMap(\.names)
        options.stages = stages
        options.subscribers = subscribers
        options.threads = threads.flatMap(\.counts)
        options.depth = depth
        options.repetitions = repetitions
        options.sampleEvery = sampleEvery
        options.quick = quick
        options.launches = launches
        options.load = load
        options.seed = seed
        options.smallestEffect = smallestEffect
        return options
    }

    /// Ranges and combinations; ArgumentParser calls it after parsing, and `main` turns its
    /// error into exit status 2 with the message (which names the flag and what it accepts).
    func validate() throws {
        do {
            _ = try options.parameters()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The finished case in a few words for its progress line: each subject's figure, or its
    /// status when it has none.
    static func progressNote(_ results: [CaseResult]) -> String {
        results.map { r in
            guard r.status == .ok, let figure = r.interval?.estimate ?? r.throughput?.medianNsPerOp else {
                return "\(r.subject.rawValue) \(r.status.rawValue)"
            }
            return "\(r.subject.rawValue) " + (figure < 10 ? String(format: "%.2f", figure) : String(format: "%.0f", figure)) + " ns"
        }.joined(separator: ", ")
    }

    func run() throws {
        let parameters: Parameters
        do {
            parameters = try options.parameters()
        } catch {
            throw UsageError(error.description)
        }

        // jemalloc must be the allocator from the start, so preload it and start over.
        if AllocationMeter.shared?.method != .jemalloc && allocator != .system
            && ProcessInfo.processInfo.environment["SIGNALS_BENCH_REEXEC"] == nil {
            if let lib = AllocationFigures.jemallocLibraryPath() {
                let failure = ChildProcess.reexecWithJemalloc(library: lib)
                FileHandle.standardError.write(Data("warning: could not restart with jemalloc (\(failure)); continuing on the system allocator\n".utf8))
            } else if allocator == .jemalloc {
                throw UsageError("--allocator jemalloc: libjemalloc.so.2 is not installed; install it (`apt-get install libjemalloc-dev`), or use --allocator auto|system")
            }
        }
        let allocatorName = AllocationMeter.shared?.method == .jemalloc ? "jemalloc" : "system"
        let allocationCounting = AllocationMeter.shared?.method.rawValue

        let meter = progressOptions.meter("bench run")
        let cases = parameters.cases()
        meter.start(total: cases.count, what: "\(cases.count) case(s) × \(parameters.launchCount) launch(es) of \(parameters.repetitions) rounds, subjects \(parameters.subjects.map(\.rawValue).joined(separator: ","))")
        let progress: @Sendable (RunProgress) -> Void = { event in
            switch event {
            case .caseStarted(_, _, let key): meter.begin(key)
            case .launchStarted(let launch, let launches): meter.update("launch \(launch)/\(launches)")
            case .caseFinished(_, _, let results): meter.finish(note: RunCommand.progressNote(results))
            }
        }
        let isolate: @Sendable (CaseSpec, SubjectID) -> CaseResult = { spec, subject in
            ChildProcess.runCase(spec: spec, subject: subject, parameters: parameters)
        }
        var runner = Runner(parameters: parameters, subjects: SubjectRegistry.all(), isolate: isolate, progress: progress)
        if parameters.launchCount > 1 {
            runner.launcher = { spec, subjects, seed in
                ChildProcess.runRounds(spec: spec, subjects: subjects, parameters: parameters, seed: seed)
            }
        }
        let load = BusyLoad(threads: parameters.loadThreads)
        let results = runner.runAll()
        load.stop()
        meter.end()

        let result = BenchReport(machine: .current(allocator: allocatorName, allocationCounting: allocationCounting), parameters: parameters,
                                 results: results, targets: Targets.evaluate(results))
        try report.emit(RunReport(report: result, percentiles: percentiles, wide: wide))
        if !result.passed { throw ExitCode(BenchExitCode.finding.rawValue) }
    }
}

/// Typed parsing of the name lists: an unknown name fails while parsing, and ArgumentParser's
/// message names the flag and lists `allValueStrings`.
extension NameList: ExpressibleByArgument {
    package init?(argument: String) {
        guard let list = try? NameList(parsing: argument, flag: "") else { return nil }
        self = list
    }

    package static var allValueStrings: [String] { allowed }
}

/// The hidden child-process entry of one launch: several subjects on one case in paired rounds;
/// prints their results as a JSON array.
struct RoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: ChildProcess.roundsSubcommand, shouldDisplay: false)

    @Option var subjects: String
    @Option var spec: String
    @Option var parameters: String
    @Option var seed: UInt64

    func run() throws {
        let decoder = JSONDecoder()
        var chosen: [any BenchSubject] = []
        for name in subjects.split(separator: ",") {
            guard let id = SubjectID(rawValue: String(name)), let s = SubjectRegistry.subject(id) else {
                throw UsageError("--subjects: unknown subject '\(name)'")
            }
            chosen.append(s)
        }
        let caseSpec = try decoder.decode(CaseSpec.self, from: Data(spec.utf8))
        let params = try decoder.decode(Parameters.self, from: Data(parameters.utf8))
        let results = Runner(parameters: params, subjects: chosen).measurePaired(chosen, caseSpec, seed: seed)
        FileHandle.standardOutput.write(try JSONEncoder().encode(results))
        Foundation.exit(0)
    }
}

/// The hidden child-process entry: runs one case in process and prints its result as JSON.
struct CaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: ChildProcess.subcommand, shouldDisplay: false)

    @OptionGroup var request: ChildRequest

    func run() throws {
        let (s, caseSpec, params) = try request.decode()
        let result = Runner(parameters: params, subjects: [s]).measure(s, caseSpec)
        let data = try JSONEncoder().encode(result)
        FileHandle.standardOutput.write(data)
        // Tasks a deadlocked peer left blocked must not keep the child alive.
        Foundation.exit(0)
    }
}

/// The hidden child-process entry of served rounds (`bench ab`): one subject on one case,
/// calibrated and warm, running one repetition per request (Sources/SignalsWorkloads/AB/RoundServer.swift).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: RoundServer.subcommand, shouldDisplay: false)

    @OptionGroup var request: ChildRequest

    func run() throws {
        let (s, caseSpec, params) = try request.decode()
        RoundServer.serve(subject: s, spec: caseSpec, parameters: params)
        // Tasks a deadlocked peer left blocked must not keep the child alive.
        Foundation.exit(0)
    }
}

/// What a one-subject child command (`_case`, `_serve`) is asked: the subject by name, the case
/// and the parameters as the JSON the parent encoded (the same flags in both, so a parent
/// builds one argument list).
struct ChildRequest: ParsableArguments {
    @Option var subject: String
    @Option var spec: String
    @Option var parameters: String

    func decode() throws -> (any BenchSubject, CaseSpec, Parameters) {
        guard let id = SubjectID(rawValue: subject), let s = SubjectRegistry.subject(id) else {
            throw UsageError("--subject: unknown subject '\(subject)'")
        }
        let decoder = JSONDecoder()
        return (s, try decoder.decode(CaseSpec.self, from: Data(spec.utf8)), try decoder.decode(Parameters.self, from: Data(parameters.utf8)))
    }
}
