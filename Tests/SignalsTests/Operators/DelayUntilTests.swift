import Signals
import Testing

/// `delay(until:context:)`: values wait for a reading of the context's clock (timelines as
/// marble diagrams: one frame is one millisecond).
@Suite struct DelayUntilTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func valuesWaitForTheDeadlineThenPassAtOnce(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  1---2----------3|")
            let expected =   "----------(12)-3|"
            m.expectSignal(e1.signal.delay(until: m.duration(10), context: m.context)).toBe(expected)
        }
    }

    @Test(arguments: variants) func completionWaitsForTheWaitingValuesAndAnErrorDropsThem(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("(1|)")
            m.expectSignal(e1.signal.delay(until: m.duration(10), context: m.context)).toBe("----------(1|)")
            let e2 = m.hot("(1#)")
            m.expectSignal(e2.signal.delay(until: m.duration(30), context: m.context)).toBe("#")
        }
        // The error cancels the waiting value's timer.
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.delay(until: .seconds(30), context: .custom(vt)))
        input.send(value: 1)
        input.send(end: .other(TestError.boom))
        #expect(rec.end == .boom)
        #expect(vt.pendingCount == 0)
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
