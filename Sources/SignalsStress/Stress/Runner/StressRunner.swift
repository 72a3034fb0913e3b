import Dispatch
import Foundation
import Signals
import SignalsReports
import Synchronization

/// A stress scenario: a small graph, actors (threads) that race on it, and an arbiter.
///
/// `run` builds the graph, starts the actors with `iteration.runActors`, tears the graph down,
/// releases every reference it holds and returns what its arbiter found. The runner then
/// checks for leaks (the iteration's `StressLedger`) and, around all of it, for deadlock.
package protocol StressScenario: Sendable {
    /// The name used with `--scenario` and in the table.
    var name: String { get }
    /// One line: what races with what.
    var summary: String { get }
    /// The name of the outcome where nothing noteworthy happened.
    var acceptableName: String { get }
    /// The fewest actors the scenario needs (it uses `max(minimumThreads, --threads)`).
    var minimumThreads: Int { get }
    /// Runs one iteration.
    func run(_ iteration: StressIteration) -> [StressFinding]
}

extension StressScenario {
    package var acceptableName: String { "all promises kept" }
    package var minimumThreads: Int { 2 }
}

/// How the runner runs.
package struct StressOptions: Sendable {
    /// The seed; iteration `i` uses `stressMix(seed ^ i…)`.
    package var seed: UInt64
    /// Wall-clock budget per scenario and variant, in seconds (nil: iterations only).
    package var secondsPerRun: Double?
    /// Iteration cap per scenario and variant (nil: duration only).
    package var iterations: Int?
    /// Actor threads per iteration (scenarios may use more, see `minimumThreads`).
    package var threads: Int
    /// Operations per actor per iteration (values sent, subscriptions made…).
    package var operations: Int
    /// The watchdog's deadline per iteration, in seconds.
    package var watchdogSeconds: Double
    /// How long freed objects may take to go after an iteration (asynchronous contexts drain
    /// a little after the last handler ran), in seconds.
    package var leakGraceSeconds: Double
    /// On deadlock: print and exit with `BenchExitCode.deadlock` (the command line), or record it and carry on with a
    /// fresh set of threads (the tests).
    package var exitOnDeadlock: Bool
    /// Receives diagnostic lines (the deadlock report).
    package var log: @Sendable (String) -> Void
    /// Stop a run at its first forbidden outcome (the tests of broken subjects).
    package var stopOnForbidden = false
    /// Called just before the deadlock exit (the command prints the table so far).
    package var beforeDeadlockExit: (@Sendable () -> Void)?

    /// Options.
    package init(seed: UInt64, secondsPerRun: Double? = nil, iterations: Int? = nil, threads: Int = 3,
                operations: Int = 200, watchdogSeconds: Double = 20, leakGraceSeconds: Double = 2,
                exitOnDeadlock: Bool = false, log: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.seed = seed
        self.secondsPerRun = secondsPerRun
        self.iterations = iterations
        self.threads = threads
        self.operations = operations
        self.watchdogSeconds = watchdogSeconds
        self.leakGraceSeconds = leakGraceSeconds
        self.exitOnDeadlock = exitOnDeadlock
        self.log = log
    }
}

/// One iteration as a scenario sees it.
package final class StressIteration: @unchecked Sendable {
    /// The delivery variant under test.
    package let variant: DeliveryVariant
    /// The iteration's index and seed.
    package let index: Int
    package let seed: UInt64
    /// Actors to start.
    package let threads: Int
    /// Operations per actor.
    package let operations: Int
    /// The coordinator's random stream (the thread that calls `run`).
    package var random: StressRandom
    /// A stream for handlers.
    package let shared: StressSharedRandom
    /// Leak accounting.
    package let ledger = StressLedger()

    let pool: StressPool
    let phase = StressLock<String>("setup")
    let actorStates: [StressActorState]

    init(delivery variant: DeliveryVariant, index: Int, seed: UInt64, threads: Int, operations: Int, pool: StressPool) {
        self.variant = variant
        self.index = index
        self.seed = seed
        self.threads = threads
        self.operations = operations
        self.pool = pool
        random = StressRandom(seed: seed)
        shared = StressSharedRandom(seed: seed ^ 0x5151)
        actorStates = (0..<max(threads, 8)).map { _ in StressActorState() }
    }

    /// Names what the coordinator is doing (printed by the watchdog).
    package func setPhase(_ p: String) { phase.withLock { $0 = p } }

    /// Watches `object`: it must be freed after the iteration.
    package func track(_ object: AnyObject, _ name: String) { ledger.track(object, name) }

    /// Runs `count` actors on the pool's threads, started together (each spins on a start flag
    /// so they collide), and returns when all have finished. Actor `a` gets a random stream
    /// seeded from the iteration's seed and `a`; it may report progress with `progress(a, n)`.
    package func runActors(_ count: Int, _ body: @escaping @Sendable (_ actor: Int, _ random: inout StressRandom) -> Void) {
        setPhase("actors")
        let start = StressStartFlag()
        let done = DispatchSemaphore(value: 0)
        let states = actorStates
        let seed = self.seed
        for a in 0..<count {
            let state = a < states.count ? states[a] : StressActorState()
            state.state.store(0, ordering: .relaxed)
            state.progress.store(0, ordering: .relaxed)
            pool.worker(1 + a).submit {
                var rng = StressRandom(seed: seed ^ UInt64(a + 1) &* 0xA24B_AED4_963E_E407)
                start.ready.wrappingAdd(1, ordering: .relaxed)
                var spins = 0
                while !start.go.load(ordering: .acquiring) {
                    spins += 1
                    if spins > 200 { sched_yield() }
                }
                state.state.store(1, ordering: .relaxed)
                body(a, &rng)
                state.state.store(2, ordering: .relaxed)
                done.signal()
            }
        }
        while start.ready.load(ordering: .relaxed) < count { sched_yield() }
        start.go.store(true, ordering: .releasing)
        for _ in 0..<count { done.wait() }
        setPhase("teardown")
    }

    /// Reports actor `a`'s progress (printed by the watchdog).
    package func progress(_ a: Int, _ n: Int) {
        if a < actorStates.count { actorStates[a].progress.store(n, ordering: .relaxed) }
    }

    /// Waits until `condition` holds, or `timeoutSeconds` pass (nil: the watchdog bounds the
    /// wait). Returns whether it holds.
    @discardableResult
    package func waitUntil(_ what: String, timeoutSeconds: Double? = nil, _ condition: () -> Bool) -> Bool {
        setPhase("waiting for \(what)")
        let deadline = timeoutSeconds.map { monotonicNanos() + UInt64($0 * 1e9) }
        var n = 0
        while !condition() {
            if let d = deadline, monotonicNanos() > d { return false }
            n += 1
            if n < 100 { sched_yield() } else { usleep(100) }
        }
        return true
    }

    func describeState(actors: Int) -> String {
        var lines = ["  coordinator: \(phase.withLock { $0 })"]
        for a in 0..<min(actors, actorStates.count) {
            let s = actorStates[a]
            let names = ["waiting to start", "running", "finished"]
            let st = names[min(2, max(0, s.state.load(ordering: .relaxed)))]
            lines.append("  actor \(a): \(st), progress \(s.progress.load(ordering: .relaxed))")
        }
        return lines.joined(separator: "\n")
    }
}

final class StressActorState: Sendable {
    let state = Atomic<Int>(0)
    let progress = Atomic<Int>(0)
}

final class StressStartFlag: Sendable {
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
}

// MARK: - Threads

/// A thread that runs submitted jobs one at a time.
final class StressWorker: @unchecked Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let job = StressLock<(@Sendable () -> Void)?>(nil)
    private let stopping = Atomic<Bool>(false)

    init(name: String) {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
    }

    private func loop() {
        StressCrashReporter.addAlternateStack()
        while true {
            wake.wait()
            if stopping.load(ordering: .acquiring) { return }
            let j = job.withLock { j -> (@Sendable () -> Void)? in
                let taken = j
                j = nil
                return taken
            }
            j?()
        }
    }

    func submit(_ work: @escaping @Sendable () -> Void) {
        job.withLock { $0 = work }
        wake.signal()
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }
}

/// The runner's threads: worker 0 coordinates an iteration, the others are its actors. Kept
/// across iterations (creating threads costs more than most iterations).
final class StressPool: @unchecked Sendable {
    private var workers: [StressWorker] = []
    private let lock = StressLock<Void>(())
    private let generation: Int
    private static let counter = Atomic<Int>(0)

    init() { generation = StressPool.counter.wrappingAdd(1, ordering: .relaxed).newValue }

    func worker(_ i: Int) -> StressWorker {
        lock.withLock { _ in
            while workers.count <= i {
                workers.append(StressWorker(name: "stress-\(generation)-\(workers.count == 0 ? "coordinator" : "actor\(workers.count - 1)")"))
            }
            return workers[i]
        }
    }

    func stop() {
        lock.withLock { _ in for w in workers { w.stop() } }
    }
}

// MARK: - Results

/// One row of the table: how often each outcome was seen.
package struct StressOutcomeCount: Codable, Sendable {
    package var grade: StressGrade
    package var name: String
    package var count: Int
}

/// The first occurrence of a forbidden outcome, for replay.
package struct StressFailure: Codable, Sendable {
    package var outcome: String
    package var iteration: Int
    package var iterationSeed: UInt64
    package var detail: String
    package var replay: String
}

/// The result of one scenario on one variant.
package struct StressRunResult: Codable, Sendable {
    package var scenario: String
    package var variant: String
    package var iterations: Int
    package var seconds: Double
    package var iterationsPerSecond: Double
    package var outcomes: [StressOutcomeCount]
    package var failures: [StressFailure]
    package var deadlocked: Bool

    /// PASS, or FAIL when anything forbidden (a leak and a deadlock included) was seen.
    package var verdict: String { passed ? "PASS" : "FAIL" }
    package var passed: Bool { !deadlocked && !outcomes.contains { $0.grade == .forbidden } }

    /// Whether an outcome with this grade and name (or containing it) was seen.
    package func saw(_ grade: StressGrade, _ name: String) -> Bool {
        outcomes.contains { $0.grade == grade && $0.name.contains(name) }
    }
}

/// Runs scenarios.
package final class StressRunner: @unchecked Sendable {
    let options: StressOptions
    private var pool = StressPool()

    /// A runner.
    package init(options: StressOptions) { self.options = options }

    deinit { pool.stop() }

    /// The seed of iteration `index` of a run with `seed`.
    package static func iterationSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        stressMix(seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Runs `scenario` on `variant` until the iteration cap or the time budget is reached.
    package func run(_ scenario: any StressScenario, delivery variant: DeliveryVariant) -> StressRunResult {
        var counts: [String: (StressGrade, Int)] = [:]
        var order: [String] = []
        var failures: [StressFailure] = []
        var deadlocked = false
        let threads = max(scenario.minimumThreads, options.threads)
        let started = monotonicNanos()
        let budget = options.secondsPerRun.map { UInt64($0 * 1e9) }
        var index = 0
        while true {
            if let cap = options.iterations, index >= cap { break }
            if let b = budget, monotonicNanos() - started >= b, index > 0 { break }
            if options.iterations == nil && budget == nil && index >= 1 { break }
            let seed = StressRunner.iterationSeed(options.seed, index)
            let findings = runIteration(scenario, delivery: variant, index: index, seed: seed, threads: threads)
            let (grade, name): (StressGrade, String)
            if findings.isEmpty {
                (grade, name) = (.acceptable, scenario.acceptableName)
            } else {
                let worst = findings.map(\.grade).max()!
                let names = Set(findings.filter { $0.grade == worst }.map(\.name)).sorted()
                (grade, name) = (worst, names.joined(separator: " + "))
            }
            if counts[name] == nil { order.append(name); counts[name] = (grade, 0) }
            counts[name]!.1 += 1
            if grade == .forbidden && !failures.contains(where: { $0.outcome == name }) {
                let detail = findings.filter { $0.grade == .forbidden }.map(\.description).joined(separator: "; ")
                failures.append(StressFailure(
                    outcome: name, iteration: index, iterationSeed: seed, detail: detail,
                    replay: "swift run -c release bench stress --scenario \(scenario.name) --variant \(variant.commandLineName) --seed \(options.seed) --iterations \(index + 1) --threads \(options.threads) --ops \(options.operations)"))
            }
            index += 1
            if findings.contains(where: { $0.name == StressCheck.deadlock }) {
                deadlocked = true
                break
            }
            if grade == .forbidden && options.stopOnForbidden { break }
        }
        let seconds = Double(monotonicNanos() - started) / 1e9
        let outcomes = order.map { StressOutcomeCount(grade: counts[$0]!.0, name: $0, count: counts[$0]!.1) }
            .sorted { ($0.grade.rank, $0.count) > ($1.grade.rank, $1.count) }
        return StressRunResult(
            scenario: scenario.name, variant: variant.commandLineName, iterations: index, seconds: seconds,
            iterationsPerSecond: seconds > 0 ? Double(index) / seconds : 0,
            outcomes: outcomes, failures: failures, deadlocked: deadlocked)
    }

    /// One iteration on the coordinator thread, under the watchdog.
    func runIteration(_ scenario: any StressScenario, delivery variant: DeliveryVariant, index: Int, seed: UInt64, threads: Int) -> [StressFinding] {
        let iteration = StressIteration(delivery: variant, index: index, seed: seed, threads: threads,
                                        operations: options.operations, pool: pool)
        StressCrashReporter.setBanner("""

            FATAL SIGNAL during scenario \(scenario.name), variant \(variant.commandLineName), iteration \(index) (iteration seed \(seed), run seed \(options.seed))
              replay: swift run -c release bench stress --scenario \(scenario.name) --variant \(variant.commandLineName) --seed \(options.seed) --iterations \(index + 1) --threads \(options.threads) --ops \(options.operations)

            """)
        let box = StressFindingsBox()
        let done = DispatchSemaphore(value: 0)
        let grace = options.leakGraceSeconds
        pool.worker(0).submit {
            var findings = scenario.run(iteration)
            iteration.setPhase("leak check")
            findings += StressRunner.leakFindings(iteration.ledger, graceSeconds: grace)
            box.findings.withLock { $0 = findings }
            done.signal()
        }
        let deadline = DispatchTime.now() + .nanoseconds(Int(options.watchdogSeconds * 1e9))
        if done.wait(timeout: deadline) == .success {
            return box.findings.withLock { $0 }
        }
        // The watchdog fired.
        let report = """
            WATCHDOG: no progress for \(options.watchdogSeconds)s: deadlock or livelock.
              scenario \(scenario.name), variant \(variant.commandLineName), iteration \(index), iteration seed \(seed), run seed \(options.seed)
            \(iteration.describeState(actors: threads))
              replay: swift run -c release bench stress --scenario \(scenario.name) --variant \(variant.commandLineName) --seed \(options.seed) --iterations \(index + 1) --threads \(options.threads) --ops \(options.operations)
            """
        options.log(report)
        if options.exitOnDeadlock {
            options.beforeDeadlockExit?()
            fflush(nil)
            exit(BenchExitCode.deadlock.rawValue)
        }
        // Abandon the stuck threads; later iterations get new ones.
        pool = StressPool()
        return [.forbidden(StressCheck.deadlock, "iteration \(index), seed \(seed): \(iteration.describeState(actors: threads))")]
    }

    /// Waits up to `graceSeconds` for every token and watched object of `ledger` to be freed.
    static func leakFindings(_ ledger: StressLedger, graceSeconds: Double) -> [StressFinding] {
        let deadline = monotonicNanos() + UInt64(graceSeconds * 1e9)
        var delay: UInt32 = 20
        while true {
            let live = ledger.liveTokens
            let survivors = ledger.survivors()
            if live == 0 && survivors.isEmpty { return [] }
            if monotonicNanos() >= deadline {
                var parts: [String] = []
                if live != 0 { parts.append("\(live) of \(ledger.madeTokens) counted values/handlers alive") }
                if !survivors.isEmpty { parts.append("alive: \(survivors.joined(separator: ", "))") }
                return [.forbidden(StressCheck.leak, parts.joined(separator: "; "))]
            }
            usleep(delay)
            delay = min(delay * 2, 5_000)
        }
    }
}

final class StressFindingsBox: Sendable {
    let findings = StressLock<[StressFinding]>([])
}
