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
        marbleTest(v) { m in
            m.expectSignal(Signal.timer(interval: m.duration(10), value: "a", context: m.context, delivery: v)).toBe("----------(a|)")
            // A new activation restarts the timer.
            let shared = Signal.timer(interval: m.duration(10), value: "a", context: m.context, delivery: v).multicast()
            m.expectSignal(shared, unsubscription: "^----!").toBe("-")
            m.expectSignal(shared, unsubscription: "-----^").toBe("---------------(a|)")
        }
        #expect(leavesNothingQueued(v) { _, c in Signal.timer(interval: .seconds(1), value: 0, context: c, delivery: v) })
    }

    @Test(arguments: variants) func interval(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let shared = Signal<Int>.interval(m.duration(3), context: m.context, delivery: v).multicast()
            m.expectSignal(shared, unsubscription: "^----------!").toBe("---0--1--2", values: digits)
            // The count restarts on a new activation.
            m.expectSignal(shared, unsubscription: "-----------^-------!").toBe("--------------0--1", values: digits)
            let limited = Signal<Int>.interval(m.duration(3), context: m.context, delivery: v).take(2)
            m.expectSignal(limited).toBe("---0--(1|)", values: digits)
        }
        #expect(leavesNothingQueued(v) { _, c in Signal<Int>.interval(.seconds(1), context: c, delivery: v) })
    }

    // MARK: rate limiting

    @Test(arguments: variants) func debounce(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            // A waiting value is flushed on completion; an error drops it.
            let e1 = m.hot("12---(3|)")
            m.expectSignal(e1.signal.debounce(interval: m.duration(3), context: m.context)).toBe("----2(3|)")
            let e2 = m.hot("(1#)")
            m.expectSignal(e2.signal.debounce(interval: m.duration(3), context: m.context)).toBe("#")
            // The waiting value of the first activation is dropped.
            let e3 = m.hot("1-2")
            let shared = e3.signal.debounce(interval: m.duration(3), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("-")
            m.expectSignal(shared, unsubscription: "-^").toBe("-----2")
        }
    }

    @Test(arguments: variants) func throttleFirst(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            // 3 comes at the window's last instant: still in it.
            let e1 = m.hot("1----2----3(45#)")
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(10), context: m.context)).toBe("1----------(4#)")
            let e2 = m.hot("(12|)")
            m.expectSignal(e2.signal.throttleFirst(interval: m.duration(10), context: m.context)).toBe("(1|)")
            // The window of the first activation is forgotten.
            let e3 = m.hot("1-2")
            let shared = e3.signal.throttleFirst(interval: m.duration(10), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("1")
            m.expectSignal(shared, unsubscription: "-^").toBe("--2")
        }
    }

    @Test(arguments: variants) func throttleLast(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            // No value, no window: 3 opens a new one; the completion waits for 4's window to
            // end, which sends 4, then completes (RxJS audit, RxSwift throttle(latest: true)).
            let e1 = m.hot("1-2----------3------4|")
            m.expectSignal(e1.signal.throttleLast(interval: m.duration(4), context: m.context)).toBe("----2------------3------(4|)")
            // With no value waiting, the completion passes at once.
            let e4 = m.hot("1-----|")
            m.expectSignal(e4.signal.throttleLast(interval: m.duration(4), context: m.context)).toBe("----1-|")
            let e2 = m.hot("(1#)")
            m.expectSignal(e2.signal.throttleLast(interval: m.duration(4), context: m.context)).toBe("#")
            // The window and value of the first activation are dropped.
            let e3 = m.hot("1-2")
            let shared = e3.signal.throttleLast(interval: m.duration(4), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("-")
            m.expectSignal(shared, unsubscription: "-^").toBe("------2")
        }
        #expect(leavesNothingQueued(v, sending: [1]) { s, c in s.throttleLast(interval: .seconds(1), context: c) })
    }

    @Test(arguments: variants) func delay(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            // The completion is delayed like the values; an error is not.
            let e1 = m.hot("1----(2|)")
            m.expectSignal(e1.signal.delay(interval: m.duration(10), context: m.context)).toBe("----------1----(2|)")
            let e2 = m.hot("(1#)")
            m.expectSignal(e2.signal.delay(interval: m.duration(10), context: m.context)).toBe("#")
            // The waiting value of the first activation is dropped.
            let e3 = m.hot("12")
            let shared = e3.signal.delay(interval: m.duration(10), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("-")
            m.expectSignal(shared, unsubscription: "-^").toBe("-----------2")
        }
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
        marbleTest(v) { m in
            // An empty span gives an empty array; a full buffer is emitted at once; the
            // completion emits the open one.
            let e1 = m.hot("(12)-------(3456|)")
            let buffers: [Character: [String]] = ["x": ["1", "2"], "e": [], "y": ["3", "4", "5"], "z": ["6"], "b": ["2"]]
            m.expectSignal(e1.signal.buffer(timeSpan: m.duration(5), count: 3, context: m.context)).toBe("-----x----e(yz|)", values: buffers)
            let e2 = m.hot("(1#)")
            m.expectSignal(e2.signal.buffer(timeSpan: m.duration(5), context: m.context)).toBe("#", values: buffers)
            // The open buffer of the first activation is dropped.
            let e3 = m.hot("12")
            let shared = e3.signal.buffer(timeSpan: m.duration(10), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("-", values: buffers)
            m.expectSignal(shared, unsubscription: "-^-----------!").toBe("-----------b", values: buffers)
        }
    }

    @Test(arguments: variants) func windowTimeSpan(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            // A window closes at its span's end or when full, whichever comes first; an error
            // ends the open window and the outer signal.
            let e1 = m.hot("   1-----(234#)")
            let expected = "   x----y(z#)"
            let x = m.cold("   1----|")
            let y = m.cold("        -(23|)")
            let z = m.cold("         (4#)")
            let windows = e1.signal.window(timeSpan: m.duration(5), count: 2, context: m.context)
            m.expectInnerSignals(windows).toBe(expected, values: ["x": x, "y": y, "z": z])
            // The open window of the first activation is dropped.
            let e2 = m.hot("12")
            let shared = e2.signal.window(timeSpan: m.duration(10), context: m.context).flatMap { $0.toArray() }.multicast()
            m.expectSignal(shared, unsubscription: "^!").toBe("-", values: ["b": ["2"]])
            m.expectSignal(shared, unsubscription: "-^-----------!").toBe("-----------b", values: ["b": ["2"]])
        }
    }

    /// Subscribes to `op` of a source that sends `values`, cancels, and says whether the clock
    /// has nothing left queued: deactivation cancels the operator's timers.
    func leavesNothingQueued<U: Sendable>(
        _ v: DeliveryVariant, sending values: [Int] = [], _ op: (Signal<Int>, Exec) -> Signal<U>
    ) -> Bool {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let output = Recorder(op(signal, .custom(vt)))
        for x in values { input.send(value: x) }
        output.cancel()
        withExtendedLifetime(input) {}
        return vt.pendingCount == 0
    }
}
