import Signals
import Synchronization
import Testing

/// A node that stops wanting its sources (its downstream ended, or was cancelled) stops all of
/// them before any of them runs user code on its way out: a source's deactivation can run a
/// user closure (`onDeactivate`) or the handlers of a multi it leaves (the branch removal
/// delivers what others queued there meanwhile: `bench stress --scenario deep-take-refusal`,
/// whose direct sender makes that happen), and a send from there into another source of the
/// same node must be refused, not accepted and then dropped by the ended chain below.
@Suite(.tags(.startsThreads)) struct DeactivationRefusalTests {
    /// `a.onDeactivate { … }.merge(with: b).take(1)`: the value sent into `b` ends the take;
    /// the merge then stops `a` (running its `onDeactivate`) and `b`. A send into `b` from that
    /// closure comes after the end and must be refused, whether `b` is stopped before or after
    /// `a` (both orders), at any depth below the take.
    @Test(arguments: DeliveryVariant.allCases, [0, 3, 9, 100])
    func sendIntoASourceFromAnotherSourcesDeactivationIsRefused(_ variant: DeliveryVariant, below: Int) {
        onThread {
            for bFirst in [false, true] {
                let (aIn, a) = Signal<Int>.create(delivery: variant)
                let (bIn, b) = Signal<Int>.create(delivery: variant)
                let answers = Mutex<[SignalSendError?]>([])
                let stopping = a.onDeactivate { answers.withLock { $0.append(bIn.send(value: 99)) } }
                var x = (bFirst ? b.merge(with: stopping) : stopping.merge(with: b)).take(1)
                for _ in 0..<below { x = x.multicast() }
                let seen = Recorder<Int>()
                let out = x.subscribe(seen.handler)
                #expect(bIn.send(value: 1) == nil)
                let got = answers.withLock { $0 }
                #expect(got.count == 1, "onDeactivate ran \(got.count) times (b first: \(bFirst))")
                #expect(got.allSatisfy { $0 != nil }, "a send after take's end was accepted: \(got) (b first: \(bFirst))")
                #expect(seen.values == [1])
                #expect(seen.ends.count == 1)
                #expect(aIn.send(value: 2) != nil)
                withExtendedLifetime((out, aIn)) {}
            }
        }
    }
}
