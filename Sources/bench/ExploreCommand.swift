import ArgumentParser
import Foundation
import Signals
import SignalsReports
import SignalsStress

/// `bench explore`: small scenarios run under a controlled scheduler, one thread at a time,
/// switching threads at the library's schedule points by a strategy (PCT or bounded DFS), so
/// a race is found by exploring schedules rather than by luck, and a failing schedule replays.
/// The scenarios, the scheduler and the strategies live in Sources/SignalsStress/Explore/.
///
/// Exit status: 0 when no schedule failed, 1 on a forbidden outcome, a deadlock or a livelock
/// (the schedule is printed, with the command that replays it), 2 for bad arguments and in a
/// release build, 4 when a thread stayed blocked after its schedule was abandoned.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Explores thread schedules of small scenarios under a controlled scheduler (debug builds).",
        discussion: """
        Each scenario's threads (2–3) run one at a time; at every schedule point of the \
        library (atomic operations and lock acquisitions of the delivery queues, a node's \
        claim, hand-over, deferral and release, graph changes) the scheduler picks who runs \
        next: --strategy pct (seeded random priorities with --depth − 1 change points) or dfs \
        (every schedule with at most --preemptions preemptions). A failing schedule prints its \
        seed and its choices; --replay runs exactly that schedule again.

        Needs a debug build (`swift build`, then .build/debug/bench explore): the schedule \
        points are compiled only in debug builds, so release builds keep their instruction \
        counts. A release build exits 2. One thread at a time is sequentially consistent: \
        memory-ordering bugs stay with ThreadSanitizer (docs/stress.md).
        """
    )

    @Option(help: "pct or dfs.")
    var strategy: String = "pct"

    @Option(help: "PCT's bug depth d (d − 1 priority change points), 1–20.")
    var depth: Int = 4

    @Option(help: "DFS: the most preemptions per schedule, 0–10.")
    var preemptions: Int = 2

    @Option(help: "Schedules per scenario × variant at most, 1–10000000 (DFS stops sooner when it has run them all).")
    var schedules: Int = 500

    @Option(help: "Seconds per scenario × variant at most (above 0, at most 604800; default: no limit).")
    var seconds: Double?

    @Option(help: "PCT seed of the first schedule; schedule i uses seed + i (default: from the clock; printed).")
    var seed: UInt64?

    @Option(help: "Runs one recorded schedule again: its choices, comma-separated (0,1,1,0…; t*n for a run of n), or a file holding them. Needs one --scenario and one --variant.")
    var replay: String?

    @Option(help: "Scenarios to run (repeat or comma-separate; default: all). `--list` shows them.")
    var scenario: [String] = []

    @Option(name: .customLong("case"), help: "generated only: the case to explore, as printed (a seed, or seed~i.j… for a shrunk case). Default: cases from --seed on.")
    var generatedCase: String?

    @Option(help: "lockfree, mutex or both (or a comma list).")
    var variant: String = "both"

    @Flag(help: "List the scenarios and exit.")
    var list = false

    @OptionGroup var progressOptions: ProgressOptions

    var scenarioNames: [String] {
        scenario.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    var variants: [DeliveryVariant] {
        variant == "both" ? [.lockFree, .mutex] : ((try? DeliveryVariant.parseList(variant)) ?? [])
    }

    /// Ranges, checked after parsing; `main` exits 2 with the message.
    func validate() throws {
        do throws(ArgumentError) {
            if strategy != "pct" && strategy != "dfs" {
                throw ArgumentError(flag: "--strategy", message: "expected pct or dfs (got '\(strategy)')")
            }
            _ = try ArgumentCheck.whole(depth, flag: "--depth", in: 1...20)
            _ = try ArgumentCheck.whole(preemptions, flag: "--preemptions", in: 0...10)
            _ = try ArgumentCheck.whole(schedules, flag: "--schedules", in: 1...10_000_000)
            if let s = seconds { _ = try ArgumentCheck.positiveSeconds(s, flag: "--seconds") }
            for s in scenario {
                _ = try ArgumentCheck.listItems(s, flag: "--scenario", what: "scenarios", allowed: "`bench explore --list` shows them")
            }
            _ = try ArgumentCheck.distinct(scenarioNames, flag: "--scenario")
            if case .failure(let e) = ExploreRegistry.select(scenarioNames) {
                throw ArgumentError(flag: "--scenario", message: e.description)
            }
            if variant != "both" {
                _ = try ArgumentCheck.listItems(variant, flag: "--variant", what: "variants", allowed: "lockfree, mutex or both")
                _ = try DeliveryVariant.parseList(variant)
            }
            if let generatedCase {
                guard let named = GeneratedShrinker.parseCaseName(generatedCase) else {
                    throw ArgumentError(flag: "--case", message: "expected a case as printed: a seed (0–18446744073709551615), or seed~i.j… for a shrunk case (got '\(generatedCase)')")
                }
                guard GeneratedShrinker.replay(seed: named.seed, path: named.path, maxThreads: GeneratedExplorer.maxThreads) != nil else {
                    throw ArgumentError(flag: "--case", message: "the shrink path of '\(generatedCase)' does not fit the case of seed \(named.seed): give a case as a failure printed it")
                }
                guard scenarioNames == ["generated"] else {
                    throw ArgumentError(flag: "--case", message: "names a generated case: give --scenario generated alone")
                }
            }
            if let replay {
                _ = try Self.parseChoices(replay)
                if scenarioNames.count != 1 || variants.count != 1 {
                    throw ArgumentError(flag: "--replay", message: "replays one schedule: give exactly one --scenario and one --variant (lockfree or mutex)")
                }
            }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A replay's choices: a comma list of thread numbers (0–15; `t*n` a run of n), or a file
    /// holding one.
    static func parseChoices(_ text: String) throws(ArgumentError) -> [Int] {
        var list = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !list.isEmpty && !list.allSatisfy({ $0.isNumber || $0 == "," || $0 == " " || $0 == "*" }) {
            guard let contents = try? String(contentsOfFile: list, encoding: .utf8) else {
                throw ArgumentError(flag: "--replay", message: "expected choices (0,1,1,0…) or a readable file of them (got '\(text)')")
            }
            list = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        switch ExploreChoices.parse(list) {
        case .success(let choices): return choices
        case .failure(let e): throw ArgumentError(flag: "--replay", message: e.description)
        }
    }

    func run() throws {
        if list {
            for s in ExploreRegistry.all { print("\(s.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(s.summary)") }
            return
        }
        guard ExploreRunner.available else {
            throw UsageError("bench explore needs a debug build: the library's schedule points are empty in release builds, so release instruction counts stay unchanged. Run `swift build --product bench` and `.build/debug/bench explore`.")
        }
        guard case .success(let scenarios) = ExploreRegistry.select(scenarioNames) else { return }
        let runSeed = seed ?? (UInt64(Date().timeIntervalSince1970 * 1e6) ^ UInt64(getpid()))
        let choice: ExploreStrategyChoice = strategy == "dfs" ? .dfs(preemptions: preemptions) : .pct(depth: depth)
        var options = ExploreOptions(strategy: choice, schedules: schedules, seed: runSeed, secondsPerRun: seconds)
        if let replay { options.replay = try? Self.parseChoices(replay) }
        let how = options.replay != nil ? "replay" : (strategy == "dfs" ? "dfs, at most \(preemptions) preemptions" : "pct, depth \(depth), seed \(runSeed)")
        let meter = progressOptions.meter("bench explore")
        meter.start(total: scenarios.count * variants.count, what: "bench explore: \(how)")
        var results: [ExploreResult] = []
        #if DEBUG
        for s in scenarios {
            for v in variants {
                meter.begin("\(s.name) / \(v.commandLineName)")
                let r = s is ExploreGenerated
                    ? GeneratedExplorer.explore(delivery: v, options: options, caseName: generatedCase.flatMap(GeneratedShrinker.parseCaseName))
                    : ExploreRunner.explore(s, delivery: v, options: options)
                results.append(r)
                meter.finish(note: Self.note(r))
                if r.hung { break }
            }
            if results.last?.hung == true { break }
        }
        #endif
        meter.end()
        let failures = results.filter { $0.failure != nil }
        for r in failures { print(failureReport(r)) }
        for r in results where r.divergedAt != nil {
            print("note: \(r.scenario) / \(r.variant.commandLineName): the replay went another way at decision \(r.divergedAt!) (the recorded thread could not run there)")
        }
        let total = results.reduce(0) { $0 + $1.schedules }
        let distinct = results.reduce(0) { $0 + $1.distinct }
        let stalled = results.reduce(0) { $0 + $1.stalled }
        var summary = "bench explore: \(results.count) scenario × variant run(s), \(total) schedules, \(distinct) distinct interleavings, \(failures.count) forbidden outcome(s) (\(how))"
        if stalled > 0 { summary += ", \(stalled) schedule(s) stalled (a thread blocked outside the schedule points; run freely)" }
        print(summary)
        print(failures.isEmpty ? "PASS" : "FAIL")
        if results.contains(where: \.hung) { throw ExitCode(BenchExitCode.deadlock.rawValue) }
        if !failures.isEmpty { throw ExitCode(BenchExitCode.finding.rawValue) }
    }

    static func note(_ r: ExploreResult) -> String {
        var s = "\(r.schedules) schedules, \(r.distinct) distinct"
        if r.cases > 0 { s += ", \(r.cases) generated cases" }
        if r.exhausted { s += ", all within the bound" }
        if r.stalled > 0 { s += ", \(r.stalled) stalled" }
        s += String(format: ", %.1f s", r.seconds)
        if let f = r.failure { s += ", FAIL at schedule \(f.schedule)" } else { s += ", pass" }
        return s
    }

    func failureReport(_ r: ExploreResult) -> String {
        guard let f = r.failure else { return "" }
        let v = r.variant.commandLineName
        var lines = ["FORBIDDEN \(r.scenario) / \(v), schedule \(f.schedule)\(f.seed.map { " (seed \($0))" } ?? ""):"]
        lines += f.problems.map { "  \($0)" }
        let choices = ExploreChoices.format(f.choices)
        lines.append("  choices: \(choices.isEmpty ? "(none)" : choices)")
        if !f.choices.isEmpty {
            lines.append("  replay: bench explore --scenario \(r.scenario) \(r.arguments.map { $0 + " " } ?? "")--variant \(v) --replay \(choices)")
        }
        if let seed = f.seed {
            lines.append("  or: bench explore --scenario \(r.scenario) \(r.arguments.map { $0 + " " } ?? "")--variant \(v) --strategy pct --depth \(depth) --seed \(seed) --schedules 1")
        }
        return lines.joined(separator: "\n")
    }
}
