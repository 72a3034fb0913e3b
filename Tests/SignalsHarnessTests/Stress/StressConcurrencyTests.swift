import Foundation
import Signals
import SignalsStress
import Testing

/// The bounded version of `bench stress`: every scenario on both delivery variants, under one
/// total time budget shared by what each scenario has caught (docs/stress.md, "The bounded
/// scenarios in `swift test`"). `SIGNALS_STRESS_SECONDS` sets the budget (default
/// `StressBudget.defaultSeconds`); `.ci/run` raises it. CI runs this suite in the debug and the
/// release tests, and again under ThreadSanitizer (scripts/tsan-tests: it carries `.startsThreads`).
@Suite(.tags(.startsThreads), .serialized)
struct StressConcurrencyTests {
    static let seed: UInt64 = 0x5EED_0004
    static let budget = StressBudget(
        totalSeconds: StressBudget.seconds(fromEnvironment: "SIGNALS_STRESS_SECONDS"),
        scenarios: StressRegistry.all.map(\.name), variants: DeliveryVariant.allCases.count)

    @Test(arguments: StressRegistry.all.map(\.name), DeliveryVariant.allCases)
    func scenarioKeepsEveryPromise(_ name: String, _ variant: DeliveryVariant) throws {
        let scenario = try #require(StressRegistry.all.first { $0.name == name })
        let seconds = Self.budget.seconds(for: name)
        let runner = StressRunner(options: StressOptions(
            seed: Self.seed, secondsPerRun: seconds, iterations: nil, threads: 3, operations: 64,
            watchdogSeconds: 30, leakGraceSeconds: 3, exitOnDeadlock: false))
        let result = runner.run(scenario, delivery: variant)
        let report = StressReport(seed: Self.seed, threads: 3, operations: 64, secondsPerRun: seconds, iterationCap: nil, results: [result])
        print(report.table())
        #expect(result.iterations > 0)
        #expect(result.passed, "\(report.table())\n\(report.failureSummary())")
    }
}

/// One time budget for every scenario × variant run of `StressConcurrencyTests`, shared by
/// weight. A scenario's weight is what its seeded bugs needed (docs/stress.md, the kill table
/// and the seeded-defect tables): a bug that shows once in a hundred or a thousand iterations
/// needs many iterations, one that shows in every iteration needs one. A run stops at the end
/// of its share, but its first iteration always runs, so on a loaded machine (or under
/// ThreadSanitizer) the suite takes the budget plus the first iterations that outlast their share.
struct StressBudget: Sendable {
    /// `swift test`'s budget without `SIGNALS_STRESS_SECONDS`: about what the suite's runs took
    /// when each was capped at 0.12 s or 40 iterations.
    static let defaultSeconds = 15.0

    /// Weights above 1, by what catches the seeded bug of each scenario (iterations to a catch).
    /// Every scenario not listed weighs 1: its seeded bugs failed on the first iteration, or it
    /// has not caught one, or a deterministic test covers it and its rate (1 in 2,000 for
    /// `generate-end-rebind`, whose two failing schedules `ExploreTests` replays) is past what
    /// this budget can buy.
    static let weights: [String: Double] = [
        // Rarer than 1 iteration in 40: 1 in 120 (lock-free) and 1 in 1,200 (mutex) for a stale
        // generation end; 1 in 160 for a branch removal that left its gate open (mutex); 1 in
        // 77 for a value lost to `complete()`; 1 in 41 for racing rebinds (lock-free).
        "rebind-generation": 8, "inner-cancel": 8, "send-complete-race": 4, "junction-rebind-race": 4,
        // 1 in 2 to 1 in 10: the mutex end race (1 in 7, 16 rounds per iteration), the
        // re-entrant fast path (1 in 2 at 1,200 values), retry's stored state (1 in 4), a capture's
        // activation value (1 in 9), the reconnector (1 in 2), the depth bound's drain (1 in 2).
        "end-race-rounds": 3, "reentrant-order": 3, "junction-end-rebind": 3, "capture-activation": 3,
        "reconnector-race": 2, "deep-chain": 2,
        // Races of the delivery queues and of ends that the deterministic hook tests cover in a
        // debug build only: the release and ThreadSanitizer runs depend on these scenarios.
        "send-concurrent": 2, "delivery-queue": 2, "cancel-end-race": 2, "generate-reactivate": 2,
        "multicast-ended-branches": 2, "repeat-race": 2,
    ]

    let totalSeconds: Double
    let totalWeight: Double

    init(totalSeconds: Double, scenarios: [String], variants: Int) {
        self.totalSeconds = totalSeconds
        totalWeight = scenarios.reduce(0) { $0 + Self.weight($1) } * Double(variants)
    }

    static func weight(_ scenario: String) -> Double { weights[scenario] ?? 1 }

    /// The budget variable in seconds, or `defaultSeconds` when it is unset or not a number ≥ 0.
    static func seconds(fromEnvironment name: String) -> Double {
        guard let text = ProcessInfo.processInfo.environment[name], let s = Double(text), s >= 0 else { return defaultSeconds }
        return s
    }

    /// The seconds of one run of `scenario` (on one variant).
    func seconds(for scenario: String) -> Double {
        totalWeight > 0 ? totalSeconds * Self.weight(scenario) / totalWeight : 0
    }
}
