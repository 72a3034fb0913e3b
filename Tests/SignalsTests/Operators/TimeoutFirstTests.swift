import Signals
import Testing

/// `timeout(first:each:context:)` and `timeout(firstBy:each:context:)`: a wait for the first
/// value (relative to activation, or a reading of the clock) and, optionally, for each next one.
@Suite struct TimeoutFirstTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func firstOnlyLimitsTheFirstValue(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.timeout(first: .seconds(1), context: .custom(vt)))
        vt.advance(by: .milliseconds(900))
        input.send(value: 1)
        vt.advance(by: .seconds(100))
        #expect(rec.end == nil, "after the first value nothing times out")
        #expect(vt.pendingCount == 0, "the first value cancels the timer and starts none")
        input.send(value: 2)
        input.complete()
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete)

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.timeout(first: .seconds(1), context: .custom(vt)))
        vt.advance(by: .milliseconds(999))
        #expect(rec2.end == nil)
        vt.advance(by: .milliseconds(1))
        #expect(rec2.end == .timeout)
        withExtendedLifetime(input2) {}
    }

    @Test(arguments: variants) func firstThenEachLimitsEveryGap(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.timeout(first: .seconds(5), each: .seconds(1), context: .custom(vt)))
        vt.advance(by: .seconds(4))
        #expect(rec.end == nil, "the first wait is `first`, not `each`")
        input.send(value: 1)
        vt.advance(by: .milliseconds(900))
        input.send(value: 2)
        vt.advance(by: .milliseconds(900))
        #expect(rec.end == nil, "each value restarts the `each` wait")
        vt.advance(by: .milliseconds(100))
        #expect(rec.values == [1, 2])
        #expect(rec.end == .timeout)
    }

    @Test(arguments: variants) func firstByIsAReadingOfTheClockTakenAtEachActivation(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        vt.advance(to: .seconds(4))
        let (input, signal) = Signal<Int>.create(delivery: v)
        let shared = signal.timeout(firstBy: .seconds(10), each: .seconds(3), context: .custom(vt)).multicast()
        let a = Recorder(shared)
        vt.advance(to: .seconds(9))
        #expect(a.end == nil)
        a.cancel()
        let b = Recorder(shared)
        vt.advance(to: .milliseconds(9_999))
        #expect(b.end == nil, "a new activation waits for the same deadline")
        vt.advance(to: .seconds(10))
        #expect(b.end == .timeout)
        #expect(a.end == nil)

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.timeout(firstBy: .seconds(20), each: .seconds(3), context: .custom(vt)))
        vt.advance(to: .seconds(19))
        input2.send(value: 1)
        vt.advance(to: .seconds(21))
        #expect(rec2.end == nil, "after a value the wait is `each`, not the deadline")
        vt.advance(to: .seconds(22))
        #expect(rec2.values == [1])
        #expect(rec2.end == .timeout)
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func durationsAtTheirLimits(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        vt.advance(to: .seconds(5))
        for first in [Duration.zero, .seconds(-100)] {
            let (input, signal) = Signal<Int>.create(delivery: v)
            let late = Recorder(signal.timeout(first: first, context: .custom(vt)))
            #expect(late.end == nil, "zero or less times out on the context, not in line")
            vt.runUntilIdle()
            #expect(late.end == .timeout)

            let (input2, signal2) = Signal<Int>.create(delivery: v)
            let won = Recorder(signal2.timeout(first: first, context: .custom(vt)))
            input2.send(value: 1)
            vt.runUntilIdle()
            #expect(won.values == [1])
            #expect(won.end == nil, "a value before the timer runs wins")
            withExtendedLifetime((input, input2)) {}
        }
        let (pastInput, pastSignal) = Signal<Int>.create(delivery: v)
        let past = Recorder(pastSignal.timeout(firstBy: .seconds(-100), context: .custom(vt)))
        #expect(past.end == nil)
        vt.runUntilIdle()
        #expect(past.end == .timeout, "a past deadline times out at once")
        #expect(vt.now() == .seconds(5))

        let (zeroInput, zeroSignal) = Signal<Int>.create(delivery: v)
        let zeroEach = Recorder(zeroSignal.timeout(first: .seconds(1), each: .zero, context: .custom(vt)))
        zeroInput.send(value: 1)
        #expect(zeroEach.end == nil)
        vt.runUntilIdle()
        #expect(zeroEach.end == .timeout, "an `each` of zero times out at once after a value")

        let (neverInput, neverSignal) = Signal<Int>.create(delivery: v)
        let never = Recorder(neverSignal.timeout(first: Exec.neverDelay, each: .seconds(Int64.max), context: .custom(vt)))
        let (neverByInput, neverBySignal) = Signal<Int>.create(delivery: v)
        let neverBy = Recorder(neverBySignal.timeout(firstBy: vt.now() + Exec.neverDelay, context: .custom(vt)))
        let (maxInput, maxSignal) = Signal<Int>.create(delivery: v)
        let maxBy = Recorder(maxSignal.timeout(firstBy: .seconds(Int64.max), context: .custom(vt)))
        #expect(vt.pendingCount == 0, "nothing is queued for a wait that never ends")
        neverInput.send(value: 1)
        #expect(vt.pendingCount == 0)
        vt.advance(by: .seconds(1_000_000))
        #expect(never.end == nil)
        #expect(neverBy.end == nil)
        #expect(maxBy.end == nil)
        #expect(never.values == [1])
        withExtendedLifetime((pastInput, zeroInput, neverByInput, maxInput)) {}
    }

    @Test(arguments: variants) func anEndPassesAndCancelsTheTimer(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let e = run(v, [1], end: .other(TestError.boom)) { $0.timeout(first: .seconds(1), each: .seconds(1), context: .custom(vt)) }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let c = run(v, [], end: .complete) { $0.timeout(firstBy: .seconds(1), context: .custom(vt)) }
        #expect(c.end == .complete)
        #expect(vt.pendingCount == 0, "the end cancels the timer")
    }

    @Test(arguments: variants) func nothingIsKeptAfterCancelOrTimeout(_ v: DeliveryVariant) {
        let forms: [(String, @Sendable (Signal<Int>, VirtualTimeContext) -> Signal<Int>)] = [
            ("first", { $0.timeout(first: .seconds(1), each: .seconds(1), context: .custom($1)) }),
            ("firstBy", { $0.timeout(firstBy: .seconds(1), each: .seconds(1), context: .custom($1)) }),
        ]
        for (name, form) in forms {
            for cancel in [true, false] {
                let vt = VirtualTimeContext()
                let released = Flagged()
                let (input, signal) = Signal<Int>.create(delivery: v)
                do {
                    let canary = Canary(released)
                    let output = form(signal, vt).onValue { _ in withExtendedLifetime(canary) {} }.subscribe { _ in }
                    input.send(value: 1)
                    if cancel { output.cancel() } else { vt.advance(by: .seconds(2)) }
                    withExtendedLifetime(output) {}
                }
                vt.runAll()
                #expect(released.isSet, "\(name), cancel \(cancel): the graph was not released")
                #expect(vt.pendingCount == 0, "\(name), cancel \(cancel): a timer outlived its graph")
                withExtendedLifetime(input) {}
            }
        }
    }
}
