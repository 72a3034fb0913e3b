import Foundation
import Synchronization
import Signals

/// Runs `bench explore`: each scenario's threads under the controlled scheduler, one schedule
/// after another, until a schedule fails, the schedules or the seconds run out, or (DFS) every
/// schedule within the bound has run.
package enum ExploreRunner {
    /// Whether this build has the library's schedule points (debug builds only).
    package static var available: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    #if DEBUG
    /// Explores `scenario` on `variant`. `progress` is called after each schedule with the
    /// result so far.
    package static func explore(_ scenario: any ExploreScenario, delivery variant: DeliveryVariant, options: ExploreOptions,
                                progress: (ExploreResult) -> Void = { _ in }) -> ExploreResult {
        var result = ExploreResult(scenario: scenario.name, delivery: variant)
        let started = Date()
        var seenChoices = Set<[Int]>()
        func record(_ run: ScheduleRun, seed: UInt64?) -> Bool {
            result.schedules += 1
            if !run.stalled { seenChoices.insert(run.choices) }
            result.distinct = seenChoices.count
            if run.stalled { result.stalled += 1 }
            result.hung = run.hung
            if !run.problems.isEmpty {
                result.failure = ExploreFailure(schedule: result.schedules, seed: seed, choices: run.choices, problems: run.problems)
            }
            result.seconds = Date().timeIntervalSince(started)
            progress(result)
            return result.failure == nil && !run.hung
        }
        func timeLeft() -> Bool {
            guard let limit = options.secondsPerRun else { return true }
            return Date().timeIntervalSince(started) < limit
        }

        if let replay = options.replay {
            let run = runSchedule(scenario, delivery: variant, strategy: ReplayStrategy(choices: replay), options: options)
            result.divergedAt = (run.strategy as? ReplayStrategy)?.divergedAt
            _ = record(run, seed: nil)
            return result
        }
        switch options.strategy {
        case .dfs(let bound):
            var strategy = DFSStrategy(bound: bound)
            while result.schedules < options.schedules && timeLeft() {
                let run = runSchedule(scenario, delivery: variant, strategy: strategy, options: options)
                guard record(run, seed: nil) else { break }
                strategy = run.strategy as! DFSStrategy
                if !strategy.advance() { result.exhausted = true; break }
            }
        case .pct(let depth):
            // k, the steps PCT spreads its change points over: the schedule points of a
            // schedule that preempts nobody (not counted as one of the run's schedules), which
            // bounds the decisions of any schedule that does not wait longer.
            let probe = runSchedule(scenario, delivery: variant, strategy: DFSStrategy(bound: 0), options: options)
            let steps = max(1, probe.points)
            let threads = scenario.make(variant).threads.count
            for i in 0..<options.schedules where timeLeft() {
                let seed = options.seed &+ UInt64(i)
                let strategy = PCTStrategy(depth: depth, steps: steps, threads: threads, seed: seed)
                let run = runSchedule(scenario, delivery: variant, strategy: strategy, options: options)
                guard record(run, seed: seed) else { break }
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// What one schedule did.
    package struct ScheduleRun {
        /// The thread chosen at each decision.
        package var choices: [Int]
        /// Schedule points reached by the scheduled threads.
        package var points: Int
        /// Forbidden outcomes, a deadlock or a livelock; empty when the schedule passed.
        package var problems: [String]
        /// Abandoned: a thread blocked outside the schedule points (then run freely).
        package var stalled: Bool
        /// A thread never finished.
        package var hung: Bool
        /// The strategy after the schedule (DFS learns the schedule's decisions).
        package var strategy: any ScheduleStrategy
    }

    /// One schedule: a fresh graph, its threads under a scheduler following `strategy`, the check.
    package static func runSchedule(_ scenario: any ExploreScenario, delivery variant: DeliveryVariant, strategy: any ScheduleStrategy,
                            options: ExploreOptions) -> ScheduleRun {
        var problems: [String] = []
        let (choices, points, stalled, finished, failure, after): ([Int], Int, Bool, Bool, String?, any ScheduleStrategy) = {
            let c = scenario.make(variant)
            let scheduler = ControlledScheduler(threads: c.threads.count, strategy: strategy, maxSteps: options.maxSteps)
            SchedulePoint.install(scheduler)
            for (i, body) in c.threads.enumerated() {
                let thread = Thread {
                    scheduler.enter(i)
                    body()
                    scheduler.exit(i)
                }
                thread.stackSize = 4 << 20
                thread.start()
            }
            scheduler.start()
            let (finished, stalled) = scheduler.awaitEnd(stallSeconds: options.stallSeconds, drainSeconds: 10)
            SchedulePoint.install(nil)
            if ControlledScheduler.tracing {
                FileHandle.standardError.write(Data(("schedule points:\n" + scheduler.trace.joined(separator: "\n") + "\n").utf8))
            }
            // The check and the graph's release run here, on the runner's thread, outside the
            // schedule: a library bug can hang them (a cancel waiting for a hand-over this
            // thread deferred), and that is reported with the schedule, not left as a silent hang.
            ExploreTeardownWatch.shared.arm(scenario: scenario.name, delivery: variant, choices: scheduler.choices,
                                            seconds: options.teardownSeconds)
            if finished { problems = c.check() }
            return (scheduler.choices, scheduler.steps, stalled, finished, scheduler.failure, scheduler.finalStrategy)
        }()
        ExploreTeardownWatch.shared.disarm()
        if let failure { problems.insert(failure, at: 0) }
        if !finished { problems.append("hang: a thread was still blocked 10 s after the schedule was abandoned") }
        return ScheduleRun(choices: choices, points: points, problems: problems, stalled: stalled && failure == nil, hung: !finished, strategy: after)
    }
    #endif
}

#if DEBUG
/// Ends the process with a report when a schedule's check and teardown (on the runner's
/// thread, outside the controlled schedule) do not return within their time: a hang there is a
/// failure of the schedule that led to it, and the runner cannot go on past a blocked thread.
///
/// One watcher thread for the process, armed and disarmed around each schedule's teardown: a
/// run makes thousands of schedules a second, so a timer per schedule would leave tens of
/// thousands pending. The report is written only if it fires.
final class ExploreTeardownWatch: Sendable {
    static let shared = ExploreTeardownWatch()

    private struct Armed {
        let scenario: String
        let variant: DeliveryVariant
        let choices: [Int]
        let seconds: Double
        let deadline: ContinuousClock.Instant
    }
    private let armed = Mutex<Armed?>(nil)

    private init() {
        let watcher = Thread { [self] in watch() }
        watcher.name = "explore teardown watch"
        watcher.start()
    }

    func arm(scenario: String, delivery variant: DeliveryVariant, choices: [Int], seconds: Double) {
        let a = Armed(scenario: scenario, variant: variant, choices: choices, seconds: seconds,
                      deadline: .now + .milliseconds(Int64(seconds * 1000)))
        armed.withLock { $0 = a }
    }

    func disarm() { armed.withLock { $0 = nil } }

    private func watch() {
        while true {
            Thread.sleep(forTimeInterval: 0.5)
            guard let a = armed.withLock({ $0 }), ContinuousClock.now >= a.deadline else { continue }
            let list = ExploreChoices.format(a.choices)
            let report = """
                FORBIDDEN \(a.scenario) / \(a.variant.commandLineName): hang: the check and release of the graph (outside the schedule, on the runner's thread) did not return within \(Int(a.seconds)) s
                  choices: \(list.isEmpty ? "(none)" : list)
                  replay: bench explore --scenario \(a.scenario) --variant \(a.variant.commandLineName) --replay \(list)
                FAIL

                """
            FileHandle.standardError.write(Data(report.utf8))
            print(report, terminator: "")
            exit(1)
        }
    }
}
#endif
