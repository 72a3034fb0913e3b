import Signals
import Testing

@Suite struct FilteringOperatorTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func first(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.first { $0 > 1 })
        input.send(value: 1)
        input.send(value: 2)
        #expect(rec.values == [2])
        #expect(rec.end == .complete, "completes at the first match, before the source ends")
        let empty = run(v, []) { $0.first() }
        #expect(empty.values == [])
        #expect(empty.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.first { $0 > 5 } }
        #expect(e.end == .boom)
        // Stateless apart from ending: a fresh activation finds a fresh first value.
        let reset = reactivate(v, first: [1], second: [2, 3]) { $0.first { $0 > 1 } }
        #expect(reset.second == [2])
    }

    @Test(arguments: variants) func last(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3]) { $0.last() }
        #expect(r.values == [3])
        #expect(r.end == .complete)
        let w = run(v, [1, 2, 3, 4]) { $0.last { $0 % 2 == 1 } }
        #expect(w.values == [3])
        let e = run(v, [1, 2], end: .other(TestError.boom)) { $0.last() }
        #expect(e.values == [])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [], endSecond: .complete) { $0.last() }
        #expect(reset.second == [], "the first activation's value is forgotten")
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func single(_ v: DeliveryVariant) {
        let r = run(v, [7]) { $0.single() }
        #expect(r.values == [7])
        #expect(r.end == .complete)
        let none = run(v, []) { $0.single() }
        #expect(none.end == .error(String(describing: SignalOperatorError.noElements)))
        let many = run(v, [1, 2], end: nil) { $0.single() }
        #expect(many.values == [])
        #expect(many.end == .error(String(describing: SignalOperatorError.moreThanOneElement)))
        let w = run(v, [1, 2, 3]) { $0.single { $0 == 2 } }
        #expect(w.values == [2])
        let e = run(v, [1], end: .other(TestError.boom)) { $0.single() }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2], endSecond: .complete) { $0.single() }
        #expect(reset.second == [2])
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func elementAt(_ v: DeliveryVariant) {
        let r = run(v, [5, 6, 7, 8], end: nil) { $0.elementAt(2) }
        #expect(r.values == [7])
        #expect(r.end == .complete)
        let short = run(v, [5]) { $0.elementAt(2) }
        #expect(short.values == [])
        #expect(short.end == .complete)
        let e = run(v, [5], end: .other(TestError.boom)) { $0.elementAt(2) }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [3, 4]) { $0.elementAt(2) }
        #expect(reset.second == [], "the count restarts on activation")
    }

    @Test(arguments: variants) func skip(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3, 4]) { $0.skip(2) }
        #expect(r.values == [3, 4])
        #expect(r.end == .complete)
        let e = run(v, [1, 2, 3], end: .other(TestError.boom)) { $0.skip(2) }
        #expect(e.values == [3])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2, 3], second: [4, 5, 6]) { $0.skip(2) }
        #expect(reset.first == [3])
        #expect(reset.second == [6])
    }

    @Test(arguments: variants) func skipLast(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3, 4, 5]) { $0.skipLast(2) }
        #expect(r.values == [1, 2, 3])
        #expect(r.end == .complete)
        let e = run(v, [1, 2, 3], end: .other(TestError.boom)) { $0.skipLast(2) }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let zero = run(v, [1, 2]) { $0.skipLast(0) }
        #expect(zero.values == [1, 2])
        let reset = reactivate(v, first: [1, 2], second: [3, 4, 5]) { $0.skipLast(2) }
        #expect(reset.first == [])
        #expect(reset.second == [3], "held values of the first activation are dropped")
    }

    @Test(arguments: variants) func skipWhile(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 5, 1, 6]) { $0.skipWhile { $0 < 3 } }
        #expect(r.values == [5, 1, 6])
        #expect(r.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.skipWhile { $0 < 3 } }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [5], second: [1, 5]) { $0.skipWhile { $0 < 3 } }
        #expect(reset.second == [5], "the gate closes again on a new activation")
    }

    @Test(arguments: variants) func skipUntil(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.skipUntil($1) }
        values.send(value: 1)
        trigger.send(value: ())
        values.send(value: 2)
        trigger.complete()
        values.send(value: 3)
        values.send(end: .other(TestError.boom))
        #expect(rec.values == [2, 3])
        #expect(rec.end == .boom)
        // reset: the trigger must fire again in a new activation
        let (vi, vs) = Signal<Int>.create(delivery: v)
        let (ti, ts) = Signal<Void>.create(delivery: v)
        let shared = vs.skipUntil(ts).multicast()
        let a = Recorder(shared)
        ti.send(value: ())
        vi.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vi.send(value: 2)
        ti.send(value: ())
        vi.send(value: 3)
        #expect(a.values == [1])
        #expect(b.values == [3])
    }

    @Test(arguments: variants) func take(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.take(2))
        input.send(value: 1)
        input.send(value: 2)
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete, "completes after the second value, before the source ends")
        #expect(input.send(value: 3) != nil, "the source is disconnected once the result ends")
        let short = run(v, [1]) { $0.take(3) }
        #expect(short.values == [1])
        #expect(short.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.take(3) }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2, 3, 4]) { $0.take(2) }
        #expect(reset.second == [2, 3])
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func takeLast(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3, 4, 5]) { $0.takeLast(2) }
        #expect(r.values == [4, 5])
        #expect(r.end == .complete)
        let short = run(v, [1]) { $0.takeLast(3) }
        #expect(short.values == [1])
        let e = run(v, [1, 2], end: .other(TestError.boom)) { $0.takeLast(2) }
        #expect(e.values == [])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [3], endSecond: .complete) { $0.takeLast(2) }
        #expect(reset.second == [3])
    }

    @Test(arguments: variants) func takeWhile(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 5, 1], end: nil) { $0.takeWhile { $0 < 3 } }
        #expect(r.values == [1, 2])
        #expect(r.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.takeWhile { $0 < 3 } }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2, 4]) { $0.takeWhile { $0 < 3 } }
        #expect(reset.second == [2])
    }

    @Test(arguments: variants) func takeUntil(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.takeUntil($1) }
        values.send(value: 1)
        values.send(value: 2)
        trigger.send(value: ())
        values.send(value: 3)
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete)
        let (values2, trigger2, rec2) = graph2(v, Int.self, Void.self) { $0.takeUntil($1) }
        trigger2.complete()  // ignored
        values2.send(value: 1)
        trigger2.send(end: .other(TestError.boom))  // refused: the trigger already ended
        values2.send(end: .other(TestError.boom))
        #expect(rec2.values == [1])
        #expect(rec2.end == .boom)
        let (values3, trigger3, rec3) = graph2(v, Int.self, Void.self) { $0.takeUntil($1) }
        trigger3.send(end: .other(TestError.boom))
        values3.send(value: 1)
        #expect(rec3.values == [])
        #expect(rec3.end == .boom, "a trigger's error ends the result")
        // Stateless: a new activation mirrors again until the trigger fires.
        let (vi, vs) = Signal<Int>.create(delivery: v)
        let (_, ts) = Signal<Void>.create(delivery: v)
        let shared = vs.takeUntil(ts).multicast()
        let a = Recorder(shared)
        vi.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vi.send(value: 2)
        #expect(b.values == [2])
    }

    /// `takeUntil` connects its trigger before its source, as RxJS and RxSwift subscribe the
    /// notifier first: a trigger that sends as it is connected ends the result before
    /// anything of the source (a cold source's own activation values included) passes, and a
    /// delivery that reaches both (a multicast's value) reaches the trigger first.
    @Test(arguments: variants) func takeUntilConnectsTheTriggerFirst(_ v: DeliveryVariant) {
        let activations = Collected<Bool>()
        let source = Signal<Int>.generate(delivery: v) { input in
            activations.append(input != nil)
            _ = input?.send(value: 1)
        }
        let rec = Recorder(source.takeUntil(Signal.just((), delivery: v)))
        #expect(rec.values == [])
        #expect(rec.end == .complete)
        // The trigger ended the result as it was connected: the source is never connected.
        #expect(activations.all == [])

        let (input, signal) = Signal<Int>.create(delivery: v)
        let shared = signal.multicast()
        let rec2 = Recorder(shared.takeUntil(shared.filter { $0 == 2 }))
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(rec2.values == [1], "the trigger sees 2 before the source does")
        #expect(rec2.end == .complete)
    }

    @Test(arguments: variants) func ignoreElements(_ v: DeliveryVariant) {
        let r = run(v, [1, 2]) { $0.ignoreElements() }
        #expect(r.values == [])
        #expect(r.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.ignoreElements() }
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2], endSecond: .complete) { $0.ignoreElements() }
        #expect(reset.second == [])
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func sample(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        trigger.send(value: ())  // nothing yet
        values.send(value: 1)
        values.send(value: 2)
        trigger.send(value: ())
        trigger.send(value: ())  // nothing new
        values.send(value: 3)
        trigger.send(value: ())
        values.complete()
        #expect(rec.values == [2, 3])
        #expect(rec.end == .complete)
        let (values2, trigger2, rec2) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        values2.send(value: 1)
        trigger2.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        // reset: an unsampled value of the first activation is forgotten
        let (vi, vs) = Signal<Int>.create(delivery: v)
        let (ti, ts) = Signal<Void>.create(delivery: v)
        let shared = vs.sample(ts).multicast()
        let a = Recorder(shared)
        vi.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        ti.send(value: ())
        vi.send(value: 2)
        ti.send(value: ())
        #expect(b.values == [2])
    }

    @Test(arguments: variants) func withLatestFrom(_ v: DeliveryVariant) {
        let (values, other, rec) = graph2(v, Int.self, String.self) { $0.withLatestFrom($1) { "\($0)\($1)" } }
        values.send(value: 1)  // dropped: no latest yet
        other.send(value: "a")
        values.send(value: 2)
        other.send(value: "b")
        other.complete()  // keeps "b"
        values.send(value: 3)
        values.complete()
        #expect(rec.values == ["2a", "3b"])
        #expect(rec.end == .complete)
        let (values2, other2, rec2) = graph2(v, Int.self, String.self) { $0.withLatestFrom($1) }
        other2.send(value: "x")
        values2.send(value: 1)
        other2.send(end: .other(TestError.boom))
        #expect(rec2.values == ["x"])
        #expect(rec2.end == .boom)
        // reset: the latest value of the first activation is forgotten
        let (vi, vs) = Signal<Int>.create(delivery: v)
        let (oi, os) = Signal<String>.create(delivery: v)
        let shared = vs.withLatestFrom(os).multicast()
        let a = Recorder(shared)
        oi.send(value: "old")
        vi.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vi.send(value: 2)
        oi.send(value: "new")
        vi.send(value: 3)
        #expect(a.values == ["old"])
        #expect(b.values == ["new"])
    }
}
