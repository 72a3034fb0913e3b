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

    @Option(help: "Total wall-clock budget in seconds, shared evenly by the scenario × variant runs, each of which still gets --min-seconds (default: scenarios × variants × --min-seconds; the total is printed first). Above 0, at most 604800.")
    var duration: Double?

    @Option(name: .customLong("min-seconds"), help: "Least time each scenario × variant run gets, however many runs share --duration, so a scenario is tried as hard in a full run as alone. Above 0, at most 604800.")
    var minSeconds: Double = StressCommand.defaultMinSeconds

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

    /// The least seconds a scenario × variant run gets by default (`--min-seconds`).
    static let defaultMinSeconds = 1.0

    /// Ranges, checked after parsing; `main` exits 2 with the message.
    func validate() throws {
        if json != nil { throw ValidationError("--json: replaced by --format json --output FILE (the same on every subcommand)") }
        do throws(ArgumentError) {
            _ = try ArgumentCheck.whole(threads, flag: "--threads", in: 1...64)
            _ = try ArgumentCheck.whole(ops, flag: "--ops", in: 1...1_000_000)
            if let d = duration { _ = try ArgumentCheck.positiveSeconds(d, flag: "--duration") }
            _ = try ArgumentCheck.positiveSeconds(minSeconds, flag: "--min-seconds")
            if let i = iterations { _ = try ArgumentCheck.whole(i, flag: "--iterations", in: 1...1_000_000_000) }
            _ = try ArgumentCheck.positiveSeconds(watchdog, flag: "--watchdog", upTo: 86_400)
            _ = try ArgumentCheck.whole(load, flag: "--load", in: 0...RunOptions.maxThreads)
            for s in scenario {
                _ = try ArgumentCheck.listItems(s, flag: "--scenario", what: "scenarios", allowed: "`bench stress --list` shows them")
            }
            _ = try ArgumentCheck.distinct(scenario.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
                                           flag: "--scenario")
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Seconds each scenario × variant run gets: its share of `duration`, at least
    /// `minSeconds`; with neither a duration nor an iteration cap, `minSeconds`. Nil (iterations
    /// only) when only `--iterations` is given.
    static func secondsPerRun(duration: Double?, minSeconds: Double, iterations: Int?, runs: Int) -> Double? {
        if let duration { return max(duration / Double(max(1, runs)), minSeconds) }
        return iterations == nil ? minSeconds : nil
    }

    func run() throws {
        if list {
            for s in StressRegistry.all { print("\(s.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(s.summary)") }
            return
        }
        let scenarios: [any StressScenario]
        do {
            scenarios = try StressSelection.scenarios(scenario.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        } catch let e as StressSelectionError {
            throw UsageError("--scenario: \(e.description)")
        }
        let variants = variant.variants
        let runSeed = seed ?? (UInt64(Date().timeIntervalSince1970 * 1e6) ^ UInt64(getpid()))
        let runs = scenarios.count * variants.count
        // Each run gets at least --min-seconds, however many runs share --duration: a scenario's
        // power does not shrink as scenarios are added (docs/stress.md, "Power per scenario").
        let perRun = Self.secondsPerRun(duration: duration, minSeconds: minSeconds, iterations: iterations, runs: runs)
        var options = StressOptions(
            seed: runSeed, secondsPerRun: perRun, iterations: iterations, threads: threads,
            operations: ops, watchdogSeconds: watchdog, exitOnDeadlock: true,
            log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
        var opening = StressReport(seed: runSeed, threads: threads, operations: ops, secondsPerRun: perRun,
                                   iterationCap: iterations, results: [])
        opening.load = load
        let meter = progressOptions.meter("bench stress")
        meter.start(total: runs, what: opening.headline)
        if let perRun, !progressOptions.quiet {
            let total = perRun * Double(runs)
            var note = "bench stress: \(scenarios.count) scenario(s) × \(variants.count) variant(s) × \(ProgressMeter.duration(perRun)) = about \(ProgressMeter.duration(total))"
            if let duration, total > duration * 1.001 {
                note += " (longer than --duration \(ProgressMeter.duration(duration)): every run gets at least --min-seconds \(ProgressMeter.duration(minSeconds)))"
            }
            FileHandle.standardError.write(Data((note + "\n").utf8))
        }
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
                let r = runner.run(s, delivery: v)
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
