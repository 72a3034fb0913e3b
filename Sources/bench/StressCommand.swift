import ArgumentParser
import Foundation
import Signals
import SignalsReports
import SignalsStress
import SignalsWorkloads

/// `bench stress`: jcstress-style scenarios that try to break the library's concurrency
/// promises on both delivery variants. The scenarios live in Sources/SignalsStress/.
///
/// Exit status (the table in `bench --help`): 0 when nothing forbidden was seen, 1 on a
/// FORBIDDEN outcome or a leak (the seed to replay is printed), 2 for bad arguments, 4 when the
/// watchdog caught a deadlock; a crash (fatal signal) prints the scenario, iteration and seed,
/// then dies of the signal.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Races actors against small graphs and classifies every outcome (jcstress-style).",
        discussion: """
        Each scenario is a small graph, actor threads that race on it and an arbiter that \
        classifies each iteration as ACCEPTABLE, INTERESTING (allowed, worth seeing) or \
        FORBIDDEN. Every iteration also checks for leaks; a watchdog reports deadlocks \
        (exit 4). Random yields and spins, driven by --seed, perturb the actors and handlers; \
        a failure prints the command that replays it.
        """
    )

    @Option(help: "Total wall-clock budget in seconds, shared evenly by the scenario × variant runs.")
    var duration: Double?

    @Option(help: "Iterations per scenario and variant (with --duration: whichever comes first).")
    var iterations: Int?

    @Option(help: "Scenarios to run (repeat or comma-separate; default: all). `--list` shows them.")
    var scenario: [String] = []

    @Option(help: "Delivery variants, comma-separated.")
    var variant: VariantList = VariantList(argument: "lockfree,mutex")!

    @Option(help: "Actor threads per iteration (a scenario may need more).")
    var threads: Int = 3

    @Option(help: "Operations per actor per iteration (values sent, subscriptions made…).")
    var ops: Int = 200

    @Option(help: "Seed for the perturbation schedule (default: from the clock; printed).")
    var seed: UInt64?

    @Option(help: "Watchdog deadline per iteration, in seconds.")
    var watchdog: Double = 20

    @OptionGroup var report: ReportOutput

    @OptionGroup var progressOptions: ProgressOptions

    /// The old spelling of `--format json --output FILE`: an error that says so.
    @Option(help: .hidden)
    var json: String?

    @Option(help: "Busy threads running beside the scenarios, 0–64.")
    var load: Int = 0

    @Flag(help: "List the scenarios and exit.")
    var list = false

    /// Ranges, checked after parsing; `main` exits 2 with the message.
    func validate() throws {
        if json != nil { throw ValidationError("--json: replaced by --format json --output FILE (the same on every subcommand)") }
        guard threads >= 1, threads <= 64 else { throw ValidationError("--threads must be in 1...64 (got \(threads))") }
        guard ops >= 1, ops <= 1_000_000 else { throw ValidationError("--ops must be in 1...1000000 (got \(ops))") }
        if let d = duration, !(d > 0) { throw ValidationError("--duration must be a positive number of seconds (got \(d))") }
        if let i = iterations, i <= 0 { throw ValidationError("--iterations must be positive (got \(i))") }
        guard watchdog > 0 else { throw ValidationError("--watchdog must be a positive number of seconds (got \(watchdog))") }
    }

    func run() throws {
        if list {
            for s in StressCatalogue.all { print("\(s.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(s.summary)") }
            return
        }
        let scenarios: [any StressScenario]
        do {
            scenarios = try StressSelection.scenarios(splitList(scenario))
        } catch let e as StressSelectionError {
            throw UsageError("--scenario: \(e.description)")
        }
        guard (0...RunOptions.maxThreads).contains(load) else {
            throw UsageError("--load: must be a whole number of busy threads from 0 to \(RunOptions.maxThreads) (got \(load))")
        }
        let variants = variant.variants
        let runSeed = seed ?? (UInt64(Date().timeIntervalSince1970 * 1e6) ^ UInt64(getpid()))
        let runs = scenarios.count * variants.count
        // Without a duration or an iteration cap, each run gets 1 second.
        let perRun: Double? = duration.map { $0 / Double(runs) } ?? (iterations == nil ? 1 : nil)
        var options = StressOptions(
            seed: runSeed, secondsPerRun: perRun, iterations: iterations, threads: threads,
            operations: ops, watchdogSeconds: watchdog, exitOnDeadlock: true,
            log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
        var opening = StressReport(seed: runSeed, threads: threads, operations: ops, secondsPerRun: perRun,
                                   iterationCap: iterations, results: [])
        opening.load = load
        let meter = progressOptions.meter("bench stress")
        meter.start(total: runs, what: opening.headline)
        let busy = BusyLoad(threads: load)
        defer { busy.stop() }
        let finished = StressLock<[StressRunResult]>([])
        let threads = self.threads, ops = self.ops, iterations = self.iterations
        options.beforeDeadlockExit = {
            let partial = StressReport(seed: runSeed, threads: threads, operations: ops, secondsPerRun: perRun,
                                       iterationCap: iterations, results: finished.withLock { $0 })
            print("Results before the deadlock:\n\(partial.table())\n\(partial.failureSummary())")
            print("FAIL: deadlock (exit \(BenchExitCode.deadlock.rawValue)), seed \(runSeed); replay with the command printed by the watchdog.")
        }
        StressCrashReporter.install()
        let runner = StressRunner(options: options)
        var results: [StressRunResult] = []
        for s in scenarios {
            for v in variants {
                meter.begin("\(s.name) / \(v.commandLineName)")
                let r = runner.run(s, variant: v)
                results.append(r)
                finished.withLock { $0.append(r) }
                let worst = r.outcomes.map(\.grade).max() ?? .acceptable
                meter.finish(note: String(format: "%d iterations, %.0f it/s, %@", r.iterations, r.iterationsPerSecond,
                                          r.passed ? worst.rawValue : "FAIL"))
            }
        }
        meter.end()
        var result = StressReport(seed: runSeed, threads: threads, operations: ops, secondsPerRun: perRun,
                                  iterationCap: iterations, results: results)
        result.load = load
        try report.emit(result)
        if !result.passed {
            throw ExitCode(BenchExitCode.finding.rawValue)
        }
    }
}
