import Signals
import Testing

/// Every test here runs in virtual time: nothing sleeps, and each result is read right after
/// the `advance` that must produce it.
@Suite struct TimeOperatorTests {
    static let variants = DeliveryVariant.allCases

    // MARK: the virtual-time context itself

    @Test func virtualTimeRunsWorkInTimeOrder() {
        let vt = VirtualTimeContext()
        let log = Collected<String>()
        let a = vt.schedule(after: .seconds(2)) { log.append("b@\(vt.now())") }
        let b = vt.schedule(after: .seconds(1)) { log.append("a@\(vt.now())") }
        let c = vt.schedule(after: .seconds(1)) { log.append("a2") }
        let cancelled = vt.schedule(after: .seconds(1)) { log.append("never") }
        cancelled.cancel()
        vt.invoke { log.append("now") }
        #expect(log.all == [], "nothing runs inside the call that queued it")
        vt.advance(by: .milliseconds(999))
        #expect(log.all == ["now"])
        vt.advance(by: .milliseconds(1))
        #expect(log.all == ["now", "a@1.0 seconds", "a2"])
        vt.advance(to: .seconds(5))
        #expect(log.all == ["now", "a@1.0 seconds", "a2", "b@2.0 seconds"])
        #expect(vt.now() == .seconds(5))
        #expect(vt.pendingCount == 0)
        withExtendedLifetime((a, b, c)) {}
    }

    @Test func virtualTimeReleasedLifetimeCancels() {
        let vt = VirtualTimeContext()
        let log = Collected<Int>()
        do { _ = vt.schedule(after: .seconds(1)) { log.append(1) } }
        let kept = vt.schedule(after: .seconds(1)) { log.append(2) }
        // Work queued by running work runs in the same advance when it falls due within it.
        let chain = vt.schedule(after: .seconds(1)) {
            let inner = vt.schedule(after: .seconds(1)) { log.append(3) }
            vt.invoke { withExtendedLifetime(inner) {} }  // released after running at t=1
        }
        let chain2 = vt.schedule(after: .seconds(1)) {
            vt.invoke { log.append(4) }
        }
        vt.advance(by: .seconds(3))
        #expect(log.all == [2, 4])
        withExtendedLifetime((kept, chain, chain2)) {}
        #expect(vt.pendingCount == 0)
    }

    // MARK: sources

    @Test(arguments: variants) func timer(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let rec = Recorder(Signal<Void>.timer(interval: .seconds(1), context: .custom(vt), delivery: v).map { vt.now() })
        vt.advance(by: .milliseconds(999))
        #expect(rec.values == [])
        vt.advance(by: .milliseconds(1))
        #expect(rec.values == [.seconds(1)])
        #expect(rec.end == .complete)
        // reset: a new activation restarts the timer; deactivation cancels it
        let shared = Signal.timer(interval: .seconds(1), value: 7, context: .custom(vt), delivery: v).multicast()
        let a = Recorder(shared)
        vt.advance(by: .milliseconds(500))
        a.cancel()
        #expect(vt.pendingCount == 0, "deactivation cancelled the timer")
        let b = Recorder(shared)
        vt.advance(by: .milliseconds(600))
        #expect(b.values == [])
        vt.advance(by: .milliseconds(400))
        #expect(b.values == [7])
        #expect(b.end == .complete)
        #expect(a.values == [])
    }

    @Test(arguments: variants) func interval(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let shared = Signal<Int>.interval(.seconds(1), context: .custom(vt), delivery: v).multicast()
        let a = Recorder(shared)
        vt.advance(by: .milliseconds(3500))
        #expect(a.values == [0, 1, 2])
        #expect(a.end == nil)
        a.cancel()
        #expect(vt.pendingCount == 0)
        let b = Recorder(shared)
        vt.advance(by: .seconds(2))
        #expect(b.values == [0, 1], "the count restarts on a new activation")
        let limited = Recorder(Signal<Int>.interval(.seconds(1), context: .custom(vt), delivery: v).take(2))
        vt.advance(by: .seconds(5))
        #expect(limited.values == [0, 1])
        #expect(limited.end == .complete)
    }

    // MARK: rate limiting

    @Test(arguments: variants) func debounce(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.debounce(interval: .milliseconds(300), context: .custom(vt)))
        input.send(value: 1)
        vt.advance(by: .milliseconds(100))
        input.send(value: 2)
        vt.advance(by: .milliseconds(299))
        #expect(rec.values == [])
        vt.advance(by: .milliseconds(1))
        #expect(rec.values == [2])
        input.send(value: 3)
        input.complete()
        #expect(rec.values == [2, 3], "a waiting value is flushed on completion")
        #expect(rec.end == .complete)

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.debounce(interval: .milliseconds(300), context: .custom(vt)))
        input2.send(value: 1)
        input2.send(end: .other(TestError.boom))
        vt.advance(by: .seconds(1))
        #expect(rec2.values == [])
        #expect(rec2.end == .boom)

        let reset = Signal<Int>.create(delivery: v)
        let shared = reset.signal.debounce(interval: .milliseconds(300), context: .custom(vt)).multicast()
        let a = Recorder(shared)
        reset.input.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vt.advance(by: .seconds(1))
        #expect(a.values == [])
        #expect(b.values == [], "the waiting value of the first activation is dropped")
        reset.input.send(value: 2)
        vt.advance(by: .seconds(1))
        #expect(b.values == [2])
    }

    @Test(arguments: variants) func throttleFirst(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.throttleFirst(interval: .seconds(1), context: .custom(vt)))
        input.send(value: 1)
        vt.advance(by: .milliseconds(500))
        input.send(value: 2)
        vt.advance(by: .milliseconds(500))
        input.send(value: 3)  // the window's last instant: still in it
        vt.advance(by: .milliseconds(1))
        input.send(value: 4)
        input.send(value: 5)
        input.send(end: .other(TestError.boom))
        #expect(rec.values == [1, 4])
        #expect(rec.end == .boom)
        let c = run(v, [1, 2]) { $0.throttleFirst(interval: .seconds(1), context: .custom(vt)) }
        #expect(c.values == [1])
        #expect(c.end == .complete)
        let reset = reactivate(v, first: [1], second: [2]) { $0.throttleFirst(interval: .seconds(1), context: .custom(vt)) }
        #expect(reset.second == [2], "the window of the first activation is forgotten")
    }

    @Test(arguments: variants) func throttleLast(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.throttleLast(interval: .seconds(1), context: .custom(vt)))
        input.send(value: 1)
        vt.advance(by: .milliseconds(500))
        input.send(value: 2)
        #expect(rec.values == [])
        vt.advance(by: .milliseconds(500))
        #expect(rec.values == [2])
        vt.advance(by: .seconds(3))
        #expect(rec.values == [2], "no value, no window")
        input.send(value: 3)
        input.complete()
        #expect(rec.values == [2, 3])
        #expect(rec.end == .complete)
        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.throttleLast(interval: .seconds(1), context: .custom(vt)))
        input2.send(value: 1)
        input2.send(end: .other(TestError.boom))
        vt.advance(by: .seconds(2))
        #expect(rec2.values == [])
        #expect(rec2.end == .boom)
        let reset = Signal<Int>.create(delivery: v)
        let shared = reset.signal.throttleLast(interval: .seconds(1), context: .custom(vt)).multicast()
        let a = Recorder(shared)
        reset.input.send(value: 1)
        a.cancel()
        #expect(vt.pendingCount == 0)
        let b = Recorder(shared)
        vt.advance(by: .seconds(2))
        reset.input.send(value: 2)
        vt.advance(by: .seconds(1))
        #expect(a.values == [])
        #expect(b.values == [2])
    }

    @Test(arguments: variants) func delay(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.delay(interval: .seconds(1), context: .custom(vt)).map { [$0, Int(vt.now().components.seconds)] })
        input.send(value: 1)
        vt.advance(by: .milliseconds(500))
        input.send(value: 2)
        input.complete()
        #expect(rec.values == [])
        vt.advance(by: .milliseconds(500))
        #expect(rec.values == [[1, 1]])
        #expect(rec.end == nil)
        vt.advance(by: .milliseconds(500))
        #expect(rec.values.count == 2)
        #expect(rec.end == .complete, "completion is delayed like the values")

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.delay(interval: .seconds(1), context: .custom(vt)))
        input2.send(value: 1)
        input2.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom, "errors are not delayed")
        vt.advance(by: .seconds(2))
        #expect(rec2.values == [])

        let reset = Signal<Int>.create(delivery: v)
        let shared = reset.signal.delay(interval: .seconds(1), context: .custom(vt)).multicast()
        let a = Recorder(shared)
        reset.input.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        reset.input.send(value: 2)
        vt.advance(by: .seconds(2))
        #expect(a.values == [])
        #expect(b.values == [2])
    }

    // MARK: time stamps

    @Test(arguments: variants) func timestamp(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext(start: .seconds(10))
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.timestamp(context: .custom(vt)))
        input.send(value: 1)
        vt.advance(by: .seconds(2))
        input.send(value: 2)
        input.send(end: .other(TestError.boom))
        #expect(rec.values == [Timestamped(value: 1, time: .seconds(10)), Timestamped(value: 2, time: .seconds(12))])
        #expect(rec.end == .boom)
        let reset = reactivate(v, first: [1], second: [2], endSecond: .complete) { $0.timestamp(context: .custom(vt)).map(\.value) }
        #expect(reset.second == [2])
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func timeInterval(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let shared = signal.timeInterval(context: .custom(vt)).multicast()
        let a = Recorder(shared)
        vt.advance(by: .seconds(1))
        input.send(value: 1)
        vt.advance(by: .milliseconds(500))
        input.send(value: 2)
        #expect(a.values == [TimeIntervalled(value: 1, interval: .seconds(1)), TimeIntervalled(value: 2, interval: .milliseconds(500))])
        a.cancel()
        vt.advance(by: .seconds(5))
        let b = Recorder(shared)
        vt.advance(by: .seconds(2))
        input.send(value: 3)
        #expect(b.values == [TimeIntervalled(value: 3, interval: .seconds(2))], "measured from the new activation")
        input.send(end: .other(TestError.boom))
        #expect(b.end == .boom)
        let c = run(v, [1]) { $0.timeInterval(context: .custom(vt)) }
        #expect(c.end == .complete)
    }

    // MARK: time-based grouping

    @Test(arguments: variants) func bufferTimeSpan(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.buffer(timeSpan: .seconds(1), count: 3, context: .custom(vt)))
        input.send(value: 1)
        input.send(value: 2)
        vt.advance(by: .seconds(1))
        #expect(rec.values == [[1, 2]])
        vt.advance(by: .seconds(1))
        #expect(rec.values == [[1, 2], []], "an empty span gives an empty array")
        for i in 3...5 { input.send(value: i) }
        #expect(rec.values == [[1, 2], [], [3, 4, 5]], "a full buffer is emitted at once")
        input.send(value: 6)
        input.complete()
        #expect(rec.values == [[1, 2], [], [3, 4, 5], [6]])
        #expect(rec.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.buffer(timeSpan: .seconds(1), context: .custom(vt)) }
        #expect(e.values == [])
        #expect(e.end == .boom)
        let reset = Signal<Int>.create(delivery: v)
        let shared = reset.signal.buffer(timeSpan: .seconds(1), context: .custom(vt)).multicast()
        let a = Recorder(shared)
        reset.input.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        reset.input.send(value: 2)
        vt.advance(by: .seconds(1))
        #expect(b.values == [[2]])
    }

    @Test(arguments: variants) func windowTimeSpan(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let windows = Collected<Recorder<Int>>()
        let outer = Recorder(signal.window(timeSpan: .seconds(1), count: 2, context: .custom(vt)).onValue { windows.append(Recorder($0)) })
        input.send(value: 1)
        vt.advance(by: .seconds(1))
        input.send(value: 2)
        input.send(value: 3)
        input.send(value: 4)
        input.send(end: .other(TestError.boom))
        #expect(windows.all.map(\.values) == [[1], [2, 3], [4]])
        #expect(windows.all.map(\.end) == [.complete, .complete, .boom])
        #expect(outer.end == .boom)
        let reset = Signal<Int>.create(delivery: v)
        let shared = reset.signal.window(timeSpan: .seconds(1), context: .custom(vt)).flatMap { $0.toArray() }.multicast()
        let a = Recorder(shared)
        reset.input.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        reset.input.send(value: 2)
        vt.advance(by: .seconds(1))
        #expect(b.values == [[2]])
    }
}
