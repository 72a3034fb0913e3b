import Signals
import SignalsStress
import Testing

// The real-time order check must be able to fail: a synthetic stream where a value whose send
// returned is overtaken by a later-started send, and a live run of the scenario with a send
// path that reports values accepted before they are in the queue.
//
// The live runs start threads (the stress runner's actors) and carry `.startsThreads`, so CI
// runs them under ThreadSanitizer. The broken send path lies about order (it reports values
// accepted before they are queued) through the scenario's own synchronized stamps, which TSan
// does not see as a data race (none was reported when these tests joined the TSan run).
@Suite struct RealTimeOrderCheckTests {
    /// A sender with stamps for `count` values, all accepted.
    func sender(_ id: Int, started: [Int], returned: [Int]) -> StressSender {
        let s = StressSender(id: id, capacity: started.count)
        s.startedAt = started
        s.returnedAt = returned
        for q in 0..<started.count { s.record(seq: q, accepted: true) }
        return s
    }

    @Test func overtakingAReturnedSendIsForbidden() {
        // 0:0 ran from tick 0 to 1; 1:0 started at tick 2, after 0:0 returned, yet came first.
        let a = sender(0, started: [0], returned: [1])
        let b = sender(1, started: [2], returned: [3])
        let findings = stressCheckRealTimeOrder("s", [.value(sender: 1, seq: 0, tag: 0), .value(sender: 0, seq: 0, tag: 0)], senders: [a, b])
        #expect(findings.map(\.name) == [StressCheck.realTimeOrder])
    }

    @Test func overlappingSendsMayComeInEitherOrder() {
        // 0:0 ran from 0 to 3 and 1:0 from 1 to 2: concurrent, so either order is linearizable.
        let a = sender(0, started: [0], returned: [3])
        let b = sender(1, started: [1], returned: [2])
        #expect(stressCheckRealTimeOrder("s", [.value(sender: 1, seq: 0, tag: 0), .value(sender: 0, seq: 0, tag: 0)], senders: [a, b]).isEmpty)
        #expect(stressCheckRealTimeOrder("s", [.value(sender: 0, seq: 0, tag: 0), .value(sender: 1, seq: 0, tag: 0)], senders: [a, b]).isEmpty)
    }

    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func sendPathThatReturnsEarlyIsCaught(_ variant: DeliveryVariant) {
        var options = StressOptions(seed: 7, secondsPerRun: 20, iterations: 200, threads: 3, operations: 400,
                                    leakGraceSeconds: 0.2, log: { _ in })
        options.stopOnForbidden = true
        let result = StressRunner(options: options).run(RealTimeOrderScenario(returnsEarly: true), delivery: variant)
        #expect(result.saw(.forbidden, StressCheck.realTimeOrder), "\(result.outcomes.map { "\($0.grade.rawValue) \($0.name)" })")
    }

    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func libraryKeepsRealTimeOrder(_ variant: DeliveryVariant) {
        let options = StressOptions(seed: 11, secondsPerRun: 20, iterations: 30, threads: 3, operations: 400,
                                    leakGraceSeconds: 0.2, log: { _ in })
        let result = StressRunner(options: options).run(RealTimeOrderScenario(), delivery: variant)
        #expect(result.passed, "\(result.outcomes.map { "\($0.grade.rawValue) \($0.name)" })")
    }
}
