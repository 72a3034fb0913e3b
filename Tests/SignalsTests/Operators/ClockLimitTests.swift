import Signals
import Testing

/// Clocks and durations at the top of their range: a virtual clock advanced by huge amounts
/// saturates instead of trapping, and a duration of `Exec.neverDelay` or more never elapses,
/// however far a (virtual) clock moves.
@Suite struct ClockLimitTests {
    static let variants = DeliveryVariant.allCases

    /// `advance(by:)` the largest number of seconds, many times: the clock stops at the top
    /// of the range (it trapped with "Overflow in +" on the 19th call), and everything queued
    /// runs.
    @Test func virtualClockSaturatesAtTheTopOfItsRange() {
        let vt = VirtualTimeContext()
        let ran = Collected<Int>()
        let keep = vt.schedule(after: .seconds(3)) { ran.append(1) }
        for _ in 0..<40 { vt.advance(by: .seconds(Int64.max)) }
        #expect(ran.all == [1])
        let top = vt.now()
        #expect(top > .seconds(Int64.max))
        // Work queued at the top of the range is due there, and the next advance runs it.
        vt.invoke { ran.append(2) }
        let later = vt.schedule(after: .seconds(5)) { ran.append(3) }
        vt.advance(by: .seconds(1))
        #expect(ran.all == [1, 2, 3])
        #expect(vt.now() == top)
        vt.advance(to: .seconds(Int64.min))
        #expect(vt.now() == top)
        withExtendedLifetime((keep, later)) {}
    }

    /// A clock that starts at the top of the range runs `delay`, `interval` and
    /// `timeInterval` without trapping.
    @Test(arguments: variants) func timeOperatorsAtTheTopOfTheClock(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        for _ in 0..<20 { vt.advance(by: .seconds(Int64.max)) }
        let (input, signal) = Signal<Int>.create(delivery: v)
        let delayed = Recorder(signal.delay(interval: .seconds(1), context: .custom(vt)))
        input.send(value: 1)
        vt.advance(by: .seconds(2))
        #expect(delayed.values == [1])
        // At the top of the clock every later tick would fall due at the same instant: the
        // first comes, and the advance returns.
        let ticks = Recorder(Signal<Int>.interval(.seconds(1), context: .custom(vt), delivery: v))
        vt.advance(by: .seconds(3))
        vt.advance(by: .seconds(3))
        #expect(ticks.values == [0])
        ticks.cancel()
        let (i2, s2) = Signal<Int>.create(delivery: v)
        let intervals = Recorder(s2.timeInterval(context: .custom(vt)))
        i2.send(value: 1)
        #expect(intervals.values.map(\.value) == [1])
    }

    /// `throttleFirst(interval: Exec.neverDelay)` lets the first value through and no other,
    /// even two centuries of virtual time later (it compared clock readings, and let one
    /// through once `neverDelay` had passed).
    @Test(arguments: variants) func throttleFirstOfNeverDelayLetsOneValueThrough(_ v: DeliveryVariant) {
        for interval in [Exec.neverDelay, Exec.neverDelay * 3, Duration.seconds(Int64.max)] {
            let vt = VirtualTimeContext()
            let (input, signal) = Signal<Int>.create(delivery: v)
            let rec = Recorder(signal.throttleFirst(interval: interval, context: .custom(vt)))
            input.send(value: 1)
            vt.advance(by: Exec.neverDelay * 2)
            input.send(value: 2)
            for _ in 0..<20 { vt.advance(by: .seconds(Int64.max)) }
            input.send(value: 3)
            #expect(rec.values == [1], "\(interval)")
        }
    }

    /// The other time operators given `Exec.neverDelay`: nothing of theirs fires, however far
    /// the clock moves.
    @Test(arguments: variants) func timeOperatorsOfNeverDelayNeverFire(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let multi = signal.multicast()
        let debounced = Recorder(multi.debounce(interval: Exec.neverDelay, context: .custom(vt)))
        let throttled = Recorder(multi.throttleLast(interval: Exec.neverDelay, context: .custom(vt)))
        let delayed = Recorder(multi.delay(interval: Exec.neverDelay, context: .custom(vt)))
        let timedOut = Recorder(multi.timeout(interval: Exec.neverDelay, context: .custom(vt)))
        let buffered = Recorder(multi.buffer(timeSpan: Exec.neverDelay, context: .custom(vt)))
        input.send(value: 1)
        for _ in 0..<20 { vt.advance(by: .seconds(Int64.max)) }
        input.send(value: 2)
        vt.advance(by: Exec.neverDelay * 2)
        #expect(debounced.values == [])
        #expect(throttled.values == [])
        #expect(delayed.values == [])
        #expect(timedOut.values == [1, 2])
        #expect(timedOut.end == nil)
        #expect(buffered.values == [])
    }

    /// `throttleLast` of `Exec.neverDelay`: the window never ends, so a completion with a
    /// value waiting drops the value and passes at once (held, it would never come); of
    /// zero, the completion follows the waiting value, sent when the zero window ends.
    @Test(arguments: variants) func throttleLastCompletionAtTheIntervalLimits(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let multi = signal.multicast()
        let never = Recorder(multi.throttleLast(interval: Exec.neverDelay, context: .custom(vt)))
        let zero = Recorder(multi.throttleLast(interval: .zero, context: .custom(vt)))
        input.send(value: 1)
        input.complete()
        #expect(never.values == [])
        #expect(never.end == .complete)
        #expect(zero.values == [])
        #expect(zero.end == nil, "held until the window ends")
        vt.advance(by: .zero)
        #expect(zero.values == [1])
        #expect(zero.end == .complete)
    }
}
