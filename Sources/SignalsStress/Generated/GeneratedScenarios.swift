import Foundation
import Signals
import Synchronization

// The generated scenarios in both runners: `bench explore --scenario generated` (cases from the
// seed, each explored for a few schedules, a failing one shrunk and printed with the schedule
// that replays it) and `bench stress --scenario generated` (a case per iteration on free
// threads, a failing one shrunk by re-running its candidates).

/// One generated case as a `bench explore` scenario: a fresh graph per schedule.
package struct ExploreGeneratedCase: ExploreScenario {
    package let spec: GeneratedCase
    package let name = "generated"
    package var summary: String { spec.description }

    package init(_ spec: GeneratedCase) { self.spec = spec }

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let run = GeneratedRun(spec, delivery: variant, mode: .explore)
        return ExploreCase(threads: run.threadBodies) {
            let problems = run.check()
            _ = run.tearDown()
            return problems
        }
    }
}

/// Explores generated cases: case `seed + k` for k = 0, 1, … with `schedulesPerCase`
/// schedules each, until the run's schedules or seconds are spent; a failing case is shrunk
/// (each candidate explored the same way) and reported with its listing and its replay.
package enum GeneratedExplorer {
    /// Operation threads per case under the scheduler (a hop adds the worker thread).
    package static let maxThreads = 3

    #if DEBUG
    /// Explores generated cases on `variant`. With `caseName`, only that case (a replay too).
    package static func explore(delivery variant: DeliveryVariant, options: ExploreOptions, caseName: (seed: UInt64, path: [Int])?,
                                schedulesPerCase: Int = 40, progress: (ExploreResult) -> Void = { _ in }) -> ExploreResult {
        let started = Date()
        var total = ExploreResult(scenario: "generated", delivery: variant)
        // Each case gets what is left of the run's time (a stalled schedule costs seconds), and
        // at most `schedulesPerCase` schedules unless one case was named.
        func perCase(_ seed: UInt64) -> ExploreOptions {
            var o = options
            o.seed = seed
            o.schedules = caseName != nil ? options.schedules : min(options.schedules, schedulesPerCase)
            o.secondsPerRun = options.secondsPerRun.map { max(0.05, $0 - Date().timeIntervalSince(started)) }
            return o
        }
        func timeLeft() -> Bool {
            guard let limit = options.secondsPerRun else { return true }
            return Date().timeIntervalSince(started) < limit
        }
        if let caseName {
            guard let spec = GeneratedShrinker.replay(seed: caseName.seed, path: caseName.path, maxThreads: maxThreads) else {
                total.failure = ExploreFailure(schedule: 0, seed: nil, choices: [], problems: ["--case \(GeneratedShrinker.caseName(seed: caseName.seed, path: caseName.path)): the shrink path does not fit the case of that seed"])
                return total
            }
            var r = ExploreRunner.explore(ExploreGeneratedCase(spec), delivery: variant, options: perCase(options.seed), progress: progress)
            r.arguments = "--case \(GeneratedShrinker.caseName(seed: caseName.seed, path: caseName.path))"
            if r.failure != nil { r.failure!.problems += ["case \(r.arguments!.dropFirst(7)):"] + spec.swiftListing.split(separator: "\n").map(String.init) }
            return r
        }
        var k: UInt64 = 0
        while total.schedules < options.schedules && timeLeft() {
            let seed = options.seed &+ k
            k += 1
            let spec = GeneratedCaseGenerator.make(seed: seed, maxThreads: maxThreads)
            let r = ExploreRunner.explore(ExploreGeneratedCase(spec), delivery: variant, options: perCase(seed))
            total.schedules += r.schedules
            total.distinct += r.distinct
            total.stalled += r.stalled
            total.hung = r.hung
            total.seconds = Date().timeIntervalSince(started)
            total.cases += 1
            progress(total)
            if r.hung { return total }
            guard var failure = r.failure else { continue }
            // Shrink: a candidate still fails if exploring it the same way finds a failing schedule.
            // Shrinking has its own time (60 s at most, 3 s a candidate), past the run's.
            let shrinkStart = Date()
            var shrinkOptions = perCase(seed)
            shrinkOptions.secondsPerRun = 3
            let (small, path) = GeneratedShrinker.shrink(spec, budget: 150) { candidate in
                guard Date().timeIntervalSince(shrinkStart) < 60 else { return false }
                return ExploreRunner.explore(ExploreGeneratedCase(candidate), delivery: variant, options: shrinkOptions).failure != nil
            }
            let name = GeneratedShrinker.caseName(seed: seed, path: path)
            if !path.isEmpty, let f = ExploreRunner.explore(ExploreGeneratedCase(small), delivery: variant, options: shrinkOptions).failure {
                failure = f
            }
            failure.problems += [
                "case \(name) (found after \(total.cases) case(s), \(String(format: "%.1f", total.seconds)) s; shrunk from size \(spec.size) to \(small.size) in \(String(format: "%.1f", Date().timeIntervalSince(shrinkStart))) s):",
            ] + small.swiftListing.split(separator: "\n").map(String.init)
            total.failure = failure
            total.arguments = "--case \(name)"
            total.seconds = Date().timeIntervalSince(started)
            return total
        }
        total.seconds = Date().timeIntervalSince(started)
        return total
    }
    #endif
}

/// `bench stress --scenario generated`: each iteration runs the case of its seed on free
/// threads with real contexts; a failing case is shrunk (a candidate fails if any of a few
/// runs of it fails) within a few seconds, and reported with its listing.
package struct GeneratedStressScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "generated", "a random graph and random operations per iteration (GeneratedCaseGenerator), checked for every universal promise",
        acceptable: "all promises kept", minimumThreads: 1)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let spec = GeneratedCaseGenerator.make(seed: it.seed, maxThreads: 4)
        it.setPhase("generated case \(it.seed): \(spec)")
        let run = GeneratedRun(spec, delivery: it.variant, mode: .free)
        it.runActors(spec.threads.count) { a, _ in run.runThread(a) }
        run.settle()
        let problems = run.check()
        for (object, name) in run.tearDown() { it.track(object, name) }
        guard !problems.isEmpty else { return [] }
        it.setPhase("shrinking generated case \(it.seed)")
        let started = Date()
        let (small, path) = GeneratedShrinker.shrink(spec, budget: 120) { candidate in
            guard Date().timeIntervalSince(started) < 8 else { return false }
            return GeneratedRun.runFree(candidate, delivery: it.variant, rounds: 40, seconds: 0.3) != nil
        }
        let name = GeneratedShrinker.caseName(seed: it.seed, path: path)
        let detail = problems.joined(separator: "; ")
            + "\ncase \(name) (shrunk from size \(spec.size) to \(small.size)):\n" + small.swiftListing
        return [.forbidden("a universal promise broken", detail)]
    }
}

extension GeneratedRun {
    /// Runs `spec` on free threads up to `rounds` times or `seconds`, a fresh graph each round;
    /// the problems of the first failing round, or nil. For shrinking and for tests.
    package static func runFree(_ spec: GeneratedCase, delivery variant: DeliveryVariant, rounds: Int, seconds: Double = .infinity) -> [String]? {
        let started = Date()
        for _ in 0..<max(1, rounds) {
            if Date().timeIntervalSince(started) > seconds { break }
            let run = GeneratedRun(spec, delivery: variant, mode: .free)
            let go = Atomic<Bool>(false)
            let group = DispatchGroup()
            for t in spec.threads.indices {
                group.enter()
                let thread = Thread {
                    while !go.load(ordering: .acquiring) { sched_yield() }
                    run.runThread(t)
                    group.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            go.store(true, ordering: .releasing)
            group.wait()
            run.settle()
            let problems = run.check()
            _ = run.tearDown()
            if !problems.isEmpty { return problems }
        }
        return nil
    }
}
