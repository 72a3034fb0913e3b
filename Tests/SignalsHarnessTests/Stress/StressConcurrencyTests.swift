import Signals
import SignalsStress
import Testing

/// The bounded version of `bench stress`: every scenario on both delivery variants, a
/// fraction of a second each. CI runs this suite a second time under ThreadSanitizer
/// (`--filter Concurrency`).
@Suite(.serialized)
struct StressConcurrencyTests {
    static let seed: UInt64 = 0x5EED_0004

    @Test(arguments: StressCatalogue.all.map(\.name), DeliveryVariant.allCases)
    func scenarioKeepsEveryPromise(_ name: String, _ variant: DeliveryVariant) throws {
        let scenario = try #require(StressCatalogue.all.first { $0.name == name })
        let runner = StressRunner(options: StressOptions(
            seed: Self.seed, secondsPerRun: 0.12, iterations: 40, threads: 3, operations: 64,
            watchdogSeconds: 30, leakGraceSeconds: 3, exitOnDeadlock: false))
        let result = runner.run(scenario, variant: variant)
        let report = StressReport(seed: Self.seed, threads: 3, operations: 64, secondsPerRun: 0.12, iterationCap: 40, results: [result])
        print(report.table())
        #expect(result.iterations > 0)
        #expect(result.passed, "\(report.table())\n\(report.failureSummary())")
    }
}
