import Signals
import SignalsStress
import Testing

/// The delivery-queue scenarios again, longer and with more threads than
/// `StressConcurrencyTests`, for ThreadSanitizer: CI runs every test tagged `.startsThreads`
/// under `--sanitize=thread` (scripts/tsan-tests). x86 orders stores and loads whatever the
/// code asks for, so a release/acquire pair of the delivery path weakened to relaxed (a
/// slot's ready flag, the claim word's hand-over) passes every test here; ThreadSanitizer
/// models the orderings as written and reports the missing happens-before edge as a data race
/// on the element or on holder-only state. These runs put enough values through the shared
/// queue (several threads, blocks crossed, re-entrant sends, handoffs, ends racing sends) for
/// every publication path to be taken.
@Suite(.tags(.startsThreads), .serialized)
struct DeliveryQueueTSanConcurrencyTests {
    static let seed: UInt64 = 0x5EED_0019

    /// The scenarios that drive the delivery queues hardest.
    static let scenarios = ["delivery-queue", "send-concurrent", "reentrant-order", "end-race-rounds"]

    @Test(arguments: scenarios, DeliveryVariant.allCases)
    func deliveryQueueScenarioUnderLoad(_ name: String, _ variant: DeliveryVariant) throws {
        let scenario = try #require(StressRegistry.all.first { $0.name == name })
        let runner = StressRunner(options: StressOptions(
            seed: Self.seed, secondsPerRun: 0.6, iterations: 60, threads: 4, operations: 300,
            watchdogSeconds: 60, leakGraceSeconds: 3, exitOnDeadlock: false))
        let result = runner.run(scenario, delivery: variant)
        let report = StressReport(seed: Self.seed, threads: 4, operations: 300, secondsPerRun: 0.6, iterationCap: 60, results: [result])
        print(report.table())
        #expect(result.iterations > 0)
        #expect(result.passed, "\(report.table())\n\(report.failureSummary())")
    }
}
