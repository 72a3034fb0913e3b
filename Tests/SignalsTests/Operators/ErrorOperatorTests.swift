import Signals
import Synchronization
import Testing

/// A factory of attempts: attempt n (from 1) sends n, then fails while n < `succeedAt`.
final class Attempts: Sendable {
    let made = Atomic<Int>(0)
    let succeedAt: Int
    let delivery: DeliveryVariant
    init(succeedAt: Int, delivery: DeliveryVariant) {
        self.succeedAt = succeedAt
        self.delivery = delivery
    }
    var count: Int { made.load(ordering: .relaxed) }
    func make() -> Signal<Int> {
        let n = made.wrappingAdd(1, ordering: .relaxed).newValue
        let succeed = n >= succeedAt
        return Signal<Int>.generate(delivery: delivery) { input in
            guard let input else { return }
            input.send(value: n)
            input.send(end: succeed ? .complete : .other(TestError.boom))
        }
    }
}

@Suite struct ErrorOperatorTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func catchError(_ v: DeliveryVariant) {
        let r = run(v, [1], end: .other(TestError.boom)) { $0.catchError { _ in Signal.just(8, 9, delivery: v) } }
        #expect(r.values == [1, 8, 9])
        #expect(r.end == .complete)
        let c = run(v, [1], end: .cancelled) { $0.catchError { _ in Signal.just(8, delivery: v) } }
        #expect(c.values == [1])
        #expect(c.end == .cancelled, "only errors are caught")
        let again = run(v, [], end: .other(TestError.boom)) { $0.catchError { _ in Signal.failing(TestError.other, delivery: v) } }
        #expect(again.end == .error(String(describing: TestError.other)))
        // reset: the recovery subscription ends with the activation
        let (ri, rs) = Signal<Int>.create(delivery: v)
        let (input, signal) = Signal<Int>.create(delivery: v)
        let shared = signal.catchError { _ in rs }.multicast()
        let a = Recorder(shared)
        input.send(end: .other(TestError.boom))
        ri.send(value: 1)
        a.cancel()
        #expect(a.values == [1])
        #expect(ri.send(value: 2) != nil, "the recovery signal was cancelled on deactivation")
    }

    @Test(arguments: variants) func catchErrorReturning(_ v: DeliveryVariant) {
        let r = run(v, [1], end: .other(TestError.boom)) { $0.catchError(returning: 0) }
        #expect(r.values == [1, 0])
        #expect(r.end == .complete)
        let c = run(v, [1]) { $0.catchError(returning: 0) }
        #expect(c.values == [1])
        let reset = reactivate(v, first: [1], second: [2]) { $0.catchError(returning: 0) }
        #expect(reset.second == [2])
    }

    @Test(arguments: variants) func retryCount(_ v: DeliveryVariant) {
        let ok = Attempts(succeedAt: 3, delivery: v)
        let r = Recorder(Signal.retry(count: 2) { ok.make() })
        #expect(r.values == [1, 2, 3])
        #expect(r.end == .complete)
        #expect(ok.count == 3)

        let failing = Attempts(succeedAt: 10, delivery: v)
        let f = Recorder(Signal.retry(count: 2) { failing.make() })
        #expect(f.values == [1, 2, 3])
        #expect(f.end == .boom, "the error passes once the retries are used up")
        #expect(failing.count == 3)
    }

    @Test(arguments: variants) func retryCountResetsPerActivation(_ v: DeliveryVariant) {
        // Attempts that fail, then wait for a gate: the first activation uses its one retry,
        // the second must get a fresh one.
        let made = Atomic<Int>(0)
        let gates = Collected<SignalInput<Int>>()
        let shared = Signal<Int>.retry(count: 1) {
            let n = made.wrappingAdd(1, ordering: .relaxed).newValue
            let (input, signal) = Signal<Int>.create(delivery: v)
            gates.append(input)
            return signal.startWith(n)
        }.multicast()
        let a = Recorder(shared)
        gates.all[0].send(end: .other(TestError.boom))  // uses the retry
        #expect(a.values == [1, 2])
        a.cancel()
        let b = Recorder(shared)
        #expect(b.values == [3])
        gates.all[2].send(end: .other(TestError.boom))  // a fresh retry is available
        #expect(b.values == [3, 4])
        #expect(b.end == nil)
        gates.all[3].send(end: .other(TestError.boom))
        #expect(b.end == .boom)
    }

    @Test(arguments: variants) func retryWhenBacksOff(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let attempts = Attempts(succeedAt: 3, delivery: v)
        let rec = Recorder(Signal.retry(when: { _, n in
            Signal<Void>.timer(interval: .seconds(Int64(n)), context: .custom(vt), delivery: v)
        }) { attempts.make() })
        #expect(rec.values == [1])
        vt.advance(by: .milliseconds(999))
        #expect(rec.values == [1])
        vt.advance(by: .milliseconds(1))
        #expect(rec.values == [1, 2])
        vt.advance(by: .seconds(2))
        #expect(rec.values == [1, 2, 3])
        #expect(rec.end == .complete)

        let never = Attempts(succeedAt: 100, delivery: v)
        let giveUp = Recorder(Signal.retry(when: { _, n in n < 2 ? Signal<Void>.just((), delivery: v) : nil }) { never.make() })
        #expect(giveUp.values == [1, 2])
        #expect(giveUp.end == .boom)

        let empty = Attempts(succeedAt: 100, delivery: v)
        let emptyTrigger = Recorder(Signal.retry(when: { _, _ in Signal<Void>.empty(delivery: v) }) { empty.make() })
        #expect(emptyTrigger.values == [1])
        #expect(emptyTrigger.end == .boom, "a trigger that ends without a value passes the error on")

        // reset: a pending back-off of the first activation is cancelled with it
        let later = Attempts(succeedAt: 100, delivery: v)
        let shared = Signal.retry(when: { _, _ in
            Signal<Void>.timer(interval: .seconds(1), context: .custom(vt), delivery: v)
        }) { later.make() }.multicast()
        let a = Recorder(shared)
        a.cancel()
        #expect(vt.pendingCount == 0)
        let b = Recorder(shared)
        #expect(b.values == [2])
        vt.advance(by: .seconds(1))
        #expect(b.values == [2, 3])
    }

    @Test(arguments: variants) func timeout(_ v: DeliveryVariant) {
        let timedOut = SignalOperatorError.timeout
        marbleTest(v) { m in
            // Each value restarts the timer; without reset the deadline counts from activation.
            let e1 = m.hot("---------1")
            m.expectSignal(e1.signal.timeout(interval: m.duration(10), context: m.context)).toBe("---------1---------#", error: timedOut)
            m.expectSignal(e1.signal.timeout(interval: m.duration(10), resetOnValue: false, context: m.context)).toBe("---------1#", error: timedOut)
            m.expectSignal(m.hot("(1|)").signal.timeout(interval: m.duration(10), context: m.context)).toBe("(1|)")
            m.expectSignal(m.hot("#").signal.timeout(interval: m.duration(10), context: m.context)).toBe("#")
            // The timer restarts with the activation.
            let shared = m.hot("-").signal.timeout(interval: m.duration(10), context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^--------!").toBe("-")
            m.expectSignal(shared, unsubscription: "---------^").toBe("-------------------#", error: timedOut)
        }
        // The end cancels the timer.
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.timeout(interval: .seconds(1), context: .custom(vt)))
        input.send(value: 1)
        input.complete()
        #expect(rec.end == .complete)
        #expect(vt.pendingCount == 0)
    }
}
