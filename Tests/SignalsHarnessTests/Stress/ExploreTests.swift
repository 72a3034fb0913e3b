#if DEBUG
import Foundation
import Signals
import SignalsStress
import Synchronization
import Testing

/// `bench explore` in `swift test` (debug builds, where the library has its schedule points):
/// every scenario on both variants for a few PCT and DFS schedules, and a failing or passing
/// schedule replayed from its choices. Serialized: a controlled scheduler is installed for the
/// whole process while a scenario runs.
@Suite(.serialized)
struct ExploreTests {
    @Test(arguments: ExploreRegistry.all.map(\.name), DeliveryVariant.allCases)
    func scenarioPassesAFewSchedules(_ name: String, _ variant: DeliveryVariant) throws {
        let scenario = try #require(ExploreRegistry.all.first { $0.name == name })
        for strategy in [ExploreStrategyChoice.pct(depth: 3), .dfs(preemptions: 1)] {
            let options = ExploreOptions(strategy: strategy, schedules: 4, seed: 0x5EED_E4, secondsPerRun: 5)
            let r = ExploreRunner.explore(scenario, delivery: variant, options: options)
            #expect(r.schedules > 0)
            #expect(r.failure == nil, "\(name) / \(variant): \(r.failure.map { "\($0.problems) at \($0.choices)" } ?? "")")
            // A stalled schedule (a thread blocked outside the points: another suite's debug
            // hook firing on a scenario thread, in this shared process) is still checked.
        }
    }

    /// The same seed gives the same choices, and a replay of those choices follows them.
    @Test(arguments: DeliveryVariant.allCases)
    func replayedScheduleMakesTheSameChoices(_ variant: DeliveryVariant) throws {
        let scenario = ExploreSendPair()
        let strategy = PCTStrategy(depth: 3, steps: 40, threads: 2, seed: 42)
        let options = ExploreOptions(strategy: .pct(depth: 3), schedules: 1, seed: 42)
        let first = ExploreRunner.runSchedule(scenario, delivery: variant, strategy: strategy, options: options)
        let again = ExploreRunner.runSchedule(scenario, delivery: variant, strategy: strategy, options: options)
        #expect(first.choices == again.choices)
        #expect(first.choices.count > 1)
        let replayed = ExploreRunner.runSchedule(scenario, delivery: variant, strategy: ReplayStrategy(choices: first.choices), options: options)
        #expect(replayed.choices == first.choices)
        #expect((replayed.strategy as? ReplayStrategy)?.divergedAt == nil)
    }

    /// The schedules on which a `generate` source's end, racing its junction's disconnect and
    /// bind, left the source without its next activation (the old chain's detach finished
    /// after the new attach and stopped the node, or left its feeders running for the ended
    /// generation; the first two), or closed the reopened queue (a stale end delivered into
    /// the next generation; the last two): replayed, the new activation's input is accepted
    /// and delivers.
    @Test(arguments: [(DeliveryVariant.lockFree, "0*22,1*9,0*4"), (.mutex, "0*25,1*8"),
                      (.lockFree, "0,0,1*10"), (.mutex, "0,0,1*18")])
    func staleGenerateEndSchedulesPass(_ variant: DeliveryVariant, _ recorded: String) throws {
        let choices = try ExploreChoices.parse(recorded).get()
        let options = ExploreOptions(strategy: .pct(depth: 3), schedules: 1, seed: 0)
        let r = ExploreRunner.runSchedule(ExploreGenerateStaleEnd(), delivery: variant,
                                          strategy: ReplayStrategy(choices: choices), options: options)
        #expect(r.problems.isEmpty, "\(variant): \(r.problems)")
        #expect((r.strategy as? ReplayStrategy)?.divergedAt == nil)
    }

    /// Every scenario type in Explore/Scenarios/ is in the registry (a scenario is one type in
    /// a file there and its line in `ExploreRegistry`: one forgotten would never run), and the
    /// names are unique.
    @Test func everyScenarioTypeIsRegistered() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/SignalsStress/Explore/Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var declared: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": ExploreScenario") {
                guard let r = line.range(of: "struct ") else { continue }
                declared.insert(String(line[r.upperBound...].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        let registered = Set(ExploreRegistry.all.map { String(describing: type(of: $0)) })
        #expect(declared.count > 10)
        #expect(declared == registered, "not registered: \(declared.subtracting(registered).sorted())")
        let names = ExploreRegistry.all.map(\.name)
        #expect(Set(names).count == names.count)
    }

    /// DFS runs every schedule within its bound once, and more of them with a larger bound
    /// (with none it still varies the free choices: who starts, who runs after a thread ends).
    @Test func dfsEnumeratesWithinItsBound() {
        let none = ExploreRunner.explore(ExploreSendPair(), delivery: .lockFree,
                                         options: ExploreOptions(strategy: .dfs(preemptions: 0), schedules: 100, seed: 0))
        let one = ExploreRunner.explore(ExploreSendPair(), delivery: .lockFree,
                                        options: ExploreOptions(strategy: .dfs(preemptions: 1), schedules: 10_000, seed: 0))
        #expect(none.exhausted && one.exhausted)
        #expect(none.schedules < one.schedules)
        #expect(none.distinct == none.schedules && one.distinct == one.schedules)
    }

    /// Two threads each waiting for the other (through the waits the library uses) are
    /// reported as a deadlock with their schedule, and a thread that never stops reaching
    /// points as a livelock; neither hangs the run.
    @Test func deadlockAndLivelockAreFailures() {
        let deadlock = ExploreRunner.explore(MutualWait(), delivery: .lockFree,
                                             options: ExploreOptions(strategy: .pct(depth: 2), schedules: 1, seed: 1))
        #expect(deadlock.failure?.problems.first?.hasPrefix("deadlock") == true, "\(String(describing: deadlock.failure))")
        var options = ExploreOptions(strategy: .dfs(preemptions: 0), schedules: 1, seed: 1)
        options.maxSteps = 500
        let livelock = ExploreRunner.explore(EndlessSpin(), delivery: .lockFree, options: options)
        #expect(livelock.failure?.problems.first?.hasPrefix("livelock") == true, "\(String(describing: livelock.failure))")
    }
}

/// Each thread waits for a flag that only the other sets after its own wait: a deadlock.
struct MutualWait: ExploreScenario {
    let name = "mutual-wait"
    let summary = "two threads wait for each other"
    func make(_ variant: DeliveryVariant) -> ExploreCase {
        let flags = Mutex<[Bool]>([false, false])
        let threads: [@Sendable () -> Void] = (0..<2).map { i in
            {
                // Past the schedule (a waitingTurn of false), the thread gives up.
                while !flags.withLock({ $0[1 - i] }) {
                    if !SchedulePoint.waitingTurn(.spinWait) { return }
                }
                flags.withLock { $0[i] = true }
            }
        }
        return ExploreCase(threads: threads) { [] }
    }
}

/// One thread reaches 10,000 points, far past the livelock bound the test sets.
struct EndlessSpin: ExploreScenario {
    let name = "endless-spin"
    let summary = "a thread that reaches points for a long time"
    func make(_ variant: DeliveryVariant) -> ExploreCase {
        let threads: [@Sendable () -> Void] = [
            { for _ in 0..<10_000 { SchedulePoint.here(.claim) } },
            { SchedulePoint.here(.claim) },
        ]
        return ExploreCase(threads: threads) { [] }
    }
}
#endif
