import Signals
import Testing

struct Point: Sendable, Equatable {
    var x: Int
    var y: Int
}

@Suite struct TransformOperatorTests {
    static let variants = DeliveryVariant.allCases

    // MARK: scan / reduce

    @Test(arguments: variants) func scan(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3]) { $0.scan(initialValue: 0) { $0 + $1 } }
        #expect(r.values == [1, 3, 6])
        #expect(r.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.scan(initialValue: 0) { $0 + $1 } }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [3]) { $0.scan(initialValue: 0) { $0 + $1 } }
        #expect(reset.first == [1, 3])
        #expect(reset.second == [3])
    }

    @Test(arguments: variants) func reduce(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3]) { $0.reduce(initialValue: 0) { $0 + $1 } }
        #expect(r.values == [6])
        #expect(r.end == .complete)
        let e = run(v, [1, 2], end: .other(TestError.boom)) { $0.reduce(initialValue: 0) { $0 + $1 } }
        #expect(e.values == [])
        #expect(e.end == .boom)
        let c = run(v, [1, 2], end: .cancelled) { $0.reduce(initialValue: 0) { $0 + $1 } }
        #expect(c.values == [])
        #expect(c.end == .cancelled)
        let reset = reactivate(v, first: [1, 2], second: [3], endSecond: .complete) { $0.reduce(initialValue: 0) { $0 + $1 } }
        #expect(reset.first == [])
        #expect(reset.second == [3])
    }

    // MARK: flattening

    @Test(arguments: variants) func flatMapSynchronousInners(_ v: DeliveryVariant) {
        let r = run(v, [1, 2]) { $0.flatMap { Signal.just($0, $0 * 10, delivery: v) } }
        #expect(r.values == [1, 10, 2, 20])
        #expect(r.end == .complete)
        let c = run(v, [1, 2]) { $0.concatMap { Signal.just($0, $0 * 10, delivery: v) } }
        #expect(c.values == [1, 10, 2, 20])
        #expect(c.end == .complete)
    }

    @Test(arguments: variants) func flatMapMerges(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (i2, s2) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMap { $0 == 1 ? s1 : s2 })
        outer.send(value: 1)
        outer.send(value: 2)
        i1.send(value: 10)
        i2.send(value: 20)
        i1.send(value: 11)
        #expect(rec.values == [10, 20, 11])
        outer.complete()
        i1.complete()
        #expect(rec.end == nil, "an inner signal is still running")
        i2.complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func flatMapInnerErrorEndsResult(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMap { _ in s1 })
        outer.send(value: 1)
        i1.send(value: 5)
        i1.send(end: .other(TestError.boom))
        #expect(rec.values == [5])
        #expect(rec.end == .boom)
        let e = run(v, [], end: .other(TestError.boom)) { $0.flatMap { Signal.just($0, delivery: v) } }
        #expect(e.end == .boom)
    }

    @Test(arguments: variants) func flatMapTreatsCancelledAsAnOrdinaryEnd(_ v: DeliveryVariant) {
        // An inner signal whose input is released ends with `.cancelled`: it is simply done.
        let released = run(v, [1, 2]) { $0.flatMap { n in Signal<Int>.generate(delivery: v) { $0?.send(value: n) } } }
        #expect(released.values == [1, 2])
        #expect(released.end == .complete)
        // The outer signal's `.cancelled` waits for running inner signals, then is passed on.
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMap { _ in s1 })
        outer.send(value: 1)
        outer.send(end: .cancelled)
        i1.send(value: 10)
        #expect(rec.end == nil)
        i1.complete()
        #expect(rec.values == [10])
        #expect(rec.end == .cancelled)
    }

    @Test(arguments: variants) func flatMapLatestCancelsPrevious(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (i2, s2) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMapLatest { $0 == 1 ? s1 : s2 })
        outer.send(value: 1)
        i1.send(value: 10)
        outer.send(value: 2)
        #expect(i1.send(value: 11) != nil, "the first inner signal was cancelled")
        i2.send(value: 20)
        #expect(rec.values == [10, 20])
        outer.complete()
        #expect(rec.end == nil)
        i2.complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func flatMapFirstIgnoresWhileBusy(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (i3, s3) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMapFirst { n in n == 1 ? s1 : n == 3 ? s3 : Signal.just(99, delivery: v) })
        outer.send(value: 1)
        outer.send(value: 2)  // ignored: 1 is running
        i1.send(value: 10)
        i1.complete()
        outer.send(value: 3)  // taken: nothing is running
        i3.send(value: 30)
        #expect(rec.values == [10, 30])
        outer.complete()
        i3.complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func concatMapRunsInOrder(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (i2, s2) = Signal<Int>.create(delivery: v)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.concatMap { $0 == 1 ? s1 : s2 })
        outer.send(value: 1)
        outer.send(value: 2)
        i1.send(value: 10)
        #expect(i2.send(value: 20) == .inactive, "the second inner signal waits its turn, unsubscribed")
        #expect(rec.values == [10])
        outer.complete()
        i1.complete()
        i2.send(value: 21)
        #expect(rec.values == [10, 21])
        #expect(rec.end == nil)
        i2.complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func flatMapMaxConcurrent(_ v: DeliveryVariant) {
        let inputs = (0..<3).map { _ in Signal<Int>.create(delivery: v) }
        let signals = inputs.map(\.signal)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.flatMap(maxConcurrent: 2) { signals[$0] })
        for i in 0..<3 { outer.send(value: i) }
        inputs[0].input.send(value: 0)
        inputs[1].input.send(value: 1)
        #expect(inputs[2].input.send(value: 99) == .inactive, "the third waits for a free slot, unsubscribed")
        inputs[0].input.complete()
        inputs[2].input.send(value: 2)
        inputs[1].input.send(value: 11)
        outer.complete()
        inputs[1].input.complete()
        #expect(rec.end == nil)
        inputs[2].input.complete()
        #expect(rec.values == [0, 1, 2, 11])
        #expect(rec.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.flatMap(maxConcurrent: 1) { _ in Signal<Int>.never(delivery: v) } }
        #expect(e.end == .boom)
        // reset: the waiting queue and the running inner signals of the first activation go
        let never: @Sendable (Int) -> Signal<Int> = { n in n < 3 ? Signal.never(delivery: v) : Signal.just(n, delivery: v) }
        let reset = reactivate(v, first: [1, 2], second: [3]) { $0.flatMap(maxConcurrent: 2, never) }
        #expect(reset.second == [3])
    }

    @Test(arguments: variants) func flatteningStateResets(_ v: DeliveryVariant) {
        // concatMap / flatMapFirst: an inner signal that never ends must not block the next
        // activation.
        let never: @Sendable (Int) -> Signal<Int> = { n in n == 1 ? Signal.never(delivery: v) : Signal.just(n, delivery: v) }
        let c = reactivate(v, first: [1], second: [2]) { $0.concatMap(never) }
        #expect(c.second == [2])
        let f = reactivate(v, first: [1], second: [2]) { $0.flatMapFirst(never) }
        #expect(f.second == [2])
        // flatMap / flatMapLatest: the first activation's inner subscription ends with it.
        for latest in [false, true] {
            let (i1, s1) = Signal<Int>.create(delivery: v)
            let r = reactivate(v, first: [1], second: [2]) { s in
                let f: @Sendable (Int) -> Signal<Int> = { n in n == 1 ? s1 : Signal.just(n, delivery: v) }
                return latest ? s.flatMapLatest(f) : s.flatMap(f)
            }
            #expect(r.second == [2])
            #expect(i1.send(value: 99) != nil, "inner subscription of the old activation is gone")
        }
    }

    @Test(arguments: variants) func switchLatest(_ v: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: v)
        let (i2, s2) = Signal<Int>.create(delivery: v)
        let (outer, signals) = Signal<Signal<Int>>.create(delivery: v)
        let rec = Recorder(signals.switchLatest())
        outer.send(value: s1)
        i1.send(value: 1)
        outer.send(value: s2)
        i1.send(value: 2)
        i2.send(value: 3)
        #expect(rec.values == [1, 3])
        outer.complete()
        i2.send(end: .other(TestError.boom))
        #expect(rec.end == .boom)
        // state reset
        let (j1, t1) = Signal<Int>.create(delivery: v)
        let (outer2, signals2) = Signal<Signal<Int>>.create(delivery: v)
        let shared = signals2.switchLatest().multicast()
        let a = Recorder(shared)
        outer2.send(value: t1)
        j1.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        #expect(j1.send(value: 2) != nil)
        outer2.send(value: Signal.just(7, delivery: v))
        #expect(a.values == [1])
        #expect(b.values == [7])
    }

    // MARK: ends as values

    @Test(arguments: variants) func materializeAndDematerialize(_ v: DeliveryVariant) {
        let m = run(v, [1, 2], end: .other(TestError.boom)) { $0.materialize() }
        #expect(m.values.count == 3)
        #expect(m.values.prefix(2).map(\.value) == [1, 2])
        #expect(m.values.last?.end.map(End.init) == .boom)
        #expect(m.end == .complete)
        let round = run(v, [1, 2], end: .other(TestError.boom)) { $0.materialize().dematerialize() }
        #expect(round.values == [1, 2])
        #expect(round.end == .boom)
        let c = run(v, [3]) { $0.materialize().dematerialize() }
        #expect(c.values == [3])
        #expect(c.end == .complete)
        // Stateless: a second activation behaves like the first.
        let reset = reactivate(v, first: [1], second: [2]) { $0.materialize().dematerialize() }
        #expect(reset.first == [1])
        #expect(reset.second == [2])
    }

    @Test(arguments: variants) func mapErrors(_ v: DeliveryVariant) {
        let r = run(v, [1], end: .other(TestError.boom)) { $0.mapErrors { _ in TestError.other } }
        #expect(r.values == [1])
        #expect(r.end == .error(String(describing: TestError.other)))
        let c = run(v, [1]) { $0.mapErrors { _ in TestError.other } }
        #expect(c.end == .complete)
        let x = run(v, [], end: .cancelled) { $0.mapErrors { _ in TestError.other } }
        #expect(x.end == .cancelled)
        let reset = reactivate(v, first: [1], second: [2]) { $0.mapErrors { _ in TestError.other } }
        #expect(reset.second == [2])
    }

    @Test(arguments: variants) func keyPath(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Point>.create(delivery: v)
        let rec = Recorder(signal.map(\.y))
        input.send(value: Point(x: 1, y: 2))
        input.send(value: Point(x: 3, y: 4))
        input.send(end: .other(TestError.boom))
        #expect(rec.values == [2, 4])
        #expect(rec.end == .boom)
        let (input2, signal2) = Signal<Point>.create(delivery: v)
        let shared = signal2.map(\.x).multicast()
        let a = Recorder(shared)
        input2.send(value: Point(x: 1, y: 0))
        a.cancel()
        let b = Recorder(shared)
        input2.send(value: Point(x: 5, y: 0))
        input2.complete()
        #expect(b.values == [5])
        #expect(b.end == .complete)
    }

    // MARK: dropping repeats

    @Test(arguments: variants) func distinctUntilChanged(_ v: DeliveryVariant) {
        let r = run(v, [1, 1, 2, 2, 1, 3, 3]) { $0.distinctUntilChanged() }
        #expect(r.values == [1, 2, 1, 3])
        #expect(r.end == .complete)
        let by = run(v, [1, 3, 2, 4, 7]) { $0.distinctUntilChanged { $0 % 2 == $1 % 2 } }
        #expect(by.values == [1, 2, 7])
        let e = run(v, [1, 1], end: .other(TestError.boom)) { $0.distinctUntilChanged() }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [1, 2]) { $0.distinctUntilChanged() }
        #expect(reset.second == [1, 2], "the last value is forgotten on deactivation")
    }

    @Test(arguments: variants) func distinct(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 1, 3, 2, 4]) { $0.distinct() }
        #expect(r.values == [1, 2, 3, 4])
        #expect(r.end == .complete)
        let e = run(v, [1, 1], end: .other(TestError.boom)) { $0.distinct() }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [2, 1, 2]) { $0.distinct() }
        #expect(reset.second == [2, 1])
    }

    // MARK: grouping

    @Test(arguments: variants) func bufferCount(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3, 4, 5]) { $0.buffer(count: 2) }
        #expect(r.values == [[1, 2], [3, 4], [5]])
        #expect(r.end == .complete)
        let e = run(v, [1, 2, 3], end: .other(TestError.boom)) { $0.buffer(count: 2) }
        #expect(e.values == [[1, 2]])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2, 3]) { $0.buffer(count: 2) }
        #expect(reset.second == [[2, 3]])
    }

    @Test(arguments: variants) func bufferBoundary(_ v: DeliveryVariant) {
        let (values, boundary, rec) = graph2(v, Int.self, Void.self) { $0.buffer(boundary: $1) }
        values.send(value: 1)
        values.send(value: 2)
        boundary.send(value: ())
        boundary.send(value: ())
        values.send(value: 3)
        boundary.complete()  // ignored
        values.complete()
        #expect(rec.values == [[1, 2], [], [3]])
        #expect(rec.end == .complete)
        let (values2, boundary2, rec2) = graph2(v, Int.self, Void.self) { $0.buffer(boundary: $1) }
        values2.send(value: 1)
        boundary2.send(end: .other(TestError.boom))
        #expect(rec2.values == [])
        #expect(rec2.end == .boom)
        let (vi, vs) = Signal<Int>.create(delivery: v)
        let (bi, bs) = Signal<Void>.create(delivery: v)
        let shared = vs.buffer(boundary: bs).multicast()
        let a = Recorder(shared)
        vi.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vi.send(value: 2)
        bi.send(value: ())
        #expect(b.values == [[2]])
    }

    @Test(arguments: variants) func windowCount(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let windows = Collected<Recorder<Int>>()
        let outer = Recorder(signal.window(count: 2).onValue { windows.append(Recorder($0)) })
        for i in 1...5 { input.send(value: i) }
        input.send(end: .other(TestError.boom))
        #expect(windows.all.map(\.values) == [[1, 2], [3, 4], [5]])
        #expect(windows.all.map(\.end) == [.complete, .complete, .boom])
        #expect(outer.end == .boom)
        let reset = reactivate(v, first: [1], second: [2, 3, 4]) { s in
            s.window(count: 2).flatMap { $0.toArray() }
        }
        #expect(reset.second == [[2, 3]], "the half-full window of the first activation is dropped")
    }

    @Test(arguments: variants) func groupBy(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let groups = Collected<(Int, Recorder<Int>)>()
        let outer = Recorder(signal.groupBy { $0 % 3 }.onValue { groups.append(($0.key, Recorder($0.signal))) })
        for i in [1, 2, 4, 3, 5, 7] { input.send(value: i) }
        input.complete()
        #expect(groups.all.map(\.0) == [1, 2, 0])
        #expect(groups.all.map(\.1.values) == [[1, 4, 7], [2, 5], [3]])
        #expect(groups.all.map(\.1.end) == [.complete, .complete, .complete])
        #expect(outer.end == .complete)
        let reset = reactivate(v, first: [1], second: [4, 2]) { s in s.groupBy { $0 % 3 }.map(\.key) }
        #expect(reset.second == [1, 2], "groups are forgotten on deactivation")
    }

    @Test(arguments: variants) func enumerated(_ v: DeliveryVariant) {
        let r = run(v, [5, 6, 7]) { $0.enumerated().map { "\($0.index):\($0.element)" } }
        #expect(r.values == ["0:5", "1:6", "2:7"])
        #expect(r.end == .complete)
        let e = run(v, [5], end: .other(TestError.boom)) { $0.enumerated().map(\.index) }
        #expect(e.values == [0])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [3]) { $0.enumerated().map(\.index) }
        #expect(reset.second == [0])
    }
}
