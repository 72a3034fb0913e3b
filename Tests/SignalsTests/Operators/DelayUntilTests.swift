import Signals
import Testing

/// `delay(until:context:)`: values wait for a reading of the context's clock.
@Suite struct DelayUntilTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func valuesWaitForTheDeadlineThenPassAtOnce(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let log = Collected<String>()
        let output = signal.delay(until: .seconds(10), context: .custom(vt)).subscribe { r in
            let t = vt.now().components.seconds
            switch r {
            case .success(let x): log.append("\(x)@\(t)")
            case .failure(let e): log.append("\(End(e))@\(t)")
            }
        }
        input.send(value: 1)
        vt.advance(to: .seconds(4))
        input.send(value: 2)
        vt.advance(to: .seconds(12))
        input.send(value: 3)
        vt.advance(to: .seconds(13))
        input.complete()
        vt.advance(to: .seconds(20))
        #expect(log.all == ["1@10", "2@10", "3@12", "complete@13"])
        withExtendedLifetime(output) {}
    }

    @Test(arguments: variants) func completionWaitsForTheWaitingValuesAndAnErrorDropsThem(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.delay(until: .seconds(10), context: .custom(vt)))
        input.send(value: 1)
        input.complete()
        #expect(rec.end == nil)
        vt.advance(to: .seconds(10))
        #expect(rec.values == [1])
        #expect(rec.end == .complete)

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.delay(until: .seconds(30), context: .custom(vt)))
        input2.send(value: 1)
        input2.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        #expect(vt.pendingCount == 0, "the waiting value's timer is cancelled")
        vt.advance(to: .seconds(40))
        #expect(rec2.values == [])
    }

    @Test(arguments: variants) func deadlinesAtTheirLimits(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        vt.advance(to: .seconds(5))
        let (pastInput, pastSignal) = Signal<Int>.create(delivery: v)
        let past = Recorder(pastSignal.delay(until: .seconds(-100), context: .custom(vt)))
        pastInput.send(value: 1)
        pastInput.send(value: 2)
        #expect(past.values == [], "a past deadline still delivers on the context")
        vt.runUntilIdle()
        #expect(past.values == [1, 2])
        #expect(vt.now() == .seconds(5), "without waiting")
        let (input, signal) = Signal<Int>.create(delivery: v)
        let never = Recorder(signal.delay(until: Duration.seconds(5) + Exec.neverDelay, context: .custom(vt)))
        input.send(value: 1)
        input.complete()
        vt.advance(by: .seconds(1_000_000))
        #expect(never.values == [])
        #expect(never.end == nil, "the completion waits for a value that never leaves")
        #expect(vt.pendingCount == 0, "nothing is queued for a deadline that never comes")
        never.cancel()
        withExtendedLifetime((input, pastInput)) {}
    }

    @Test(arguments: variants) func cancellingReleasesTheWaitingValues(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let released = Flagged()
        do {
            let (input, signal) = Signal<Canary>.create(delivery: v)
            let output = signal.delay(until: .seconds(10), context: .custom(vt)).subscribe { _ in }
            input.send(value: Canary(released))
            output.cancel()
        }
        #expect(released.isSet, "the waiting value is released with the graph")
        #expect(vt.pendingCount == 0)
    }
}
