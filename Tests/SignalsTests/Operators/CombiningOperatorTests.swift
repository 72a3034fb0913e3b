import Signals
import Testing

/// Five inputs of one variant, and their signals.
struct Five {
    let inputs: [SignalInput<Int>]
    let signals: [Signal<Int>]
    init(_ v: DeliveryVariant) {
        let made = (0..<5).map { _ in Signal<Int>.create(delivery: v) }
        inputs = made.map(\.input)
        signals = made.map(\.signal)
    }
}

@Suite struct CombiningOperatorTests {
    static let variants = DeliveryVariant.allCases

    // MARK: combineLatest

    @Test(arguments: variants) func combineLatest3(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].combineLatest(f.signals[1], f.signals[2]) { "\($0)\($1)\($2)" })
        f.inputs[0].send(value: 1)
        f.inputs[1].send(value: 2)
        #expect(rec.values == [], "waits until every input has a value")
        f.inputs[2].send(value: 3)
        f.inputs[0].send(value: 4)
        #expect(rec.values == ["123", "423"])
        f.inputs[0].complete()
        f.inputs[1].complete()
        #expect(rec.end == nil)
        f.inputs[2].send(value: 5)
        f.inputs[2].complete()
        #expect(rec.values == ["123", "423", "425"])
        #expect(rec.end == .complete)

        let g = Five(v)
        let rec2 = Recorder(g.signals[0].combineLatest(g.signals[1], g.signals[2]) { $0 + $1 + $2 })
        g.inputs[1].complete()
        g.inputs[0].send(value: 1)
        #expect(rec2.end == nil, "an input that completes without a value does not end the result (RxJS)")
        g.inputs[0].complete()
        g.inputs[2].send(end: .cancelled)
        #expect(rec2.values == [])
        #expect(rec2.end == .cancelled, "ends when every input has ended, with the last input's end")
        let h = Five(v)
        let rec3 = Recorder(h.signals[0].combineLatest(h.signals[1], h.signals[2]) { $0 + $1 + $2 })
        h.inputs[2].send(end: .other(TestError.boom))
        #expect(rec3.end == .boom)
        let m = Five(v)
        let rec4 = Recorder(m.signals[0].combineLatest(m.signals[1], m.signals[2]) { $0 + $1 + $2 })
        for i in 0..<3 { m.inputs[i].send(value: 1) }
        m.inputs[0].send(end: .cancelled)
        m.inputs[1].send(value: 2)
        #expect(rec4.values == [3, 4], "a cancelled input keeps its latest value, as in the core's combineLatest")
        m.inputs[1].complete()
        m.inputs[2].complete()
        #expect(rec4.end == .complete, "the last input's end")

        // reset: latest values are forgotten on deactivation
        let k = Five(v)
        let shared = k.signals[0].combineLatest(k.signals[1], k.signals[2]) { $0 + $1 + $2 }.multicast()
        let a = Recorder(shared)
        for i in 0..<3 { k.inputs[i].send(value: 1) }
        a.cancel()
        let b = Recorder(shared)
        k.inputs[0].send(value: 10)
        #expect(b.values == [], "the other inputs' old values are gone")
        k.inputs[1].send(value: 10)
        k.inputs[2].send(value: 10)
        #expect(a.values == [3])
        #expect(b.values == [30])
    }

    @Test(arguments: variants) func combineLatest4And5(_ v: DeliveryVariant) {
        let f = Five(v)
        let s = f.signals
        let rec4 = Recorder(s[0].combineLatest(s[1], s[2], s[3]) { [$0, $1, $2, $3] })
        for i in 0..<4 { f.inputs[i].send(value: i) }
        f.inputs[3].send(value: 9)
        for i in 0..<4 { f.inputs[i].complete() }
        #expect(rec4.values == [[0, 1, 2, 3], [0, 1, 2, 9]])
        #expect(rec4.end == .complete)

        // An input ending without a value: the result waits for every input (RxJS).
        let e = Five(v)
        let empty4 = Recorder(e.signals[0].combineLatest(e.signals[1], e.signals[2], e.signals[3]) { [$0, $1, $2, $3] })
        let empty5 = Recorder(e.signals[4].combineLatest(Signal<Int>.empty(delivery: v), Signal<Int>.never(delivery: v), Signal<Int>.never(delivery: v), Signal<Int>.never(delivery: v)) { [$0, $1, $2, $3, $4] })
        e.inputs[0].complete()
        for i in 1..<3 { e.inputs[i].complete() }
        e.inputs[4].send(value: 1)
        #expect(empty4.end == nil)
        #expect(empty5.end == nil, "an empty input and nevers: never ends")
        e.inputs[3].complete()
        #expect(empty4.values == [])
        #expect(empty4.end == .complete)

        let g = Five(v)
        let t = g.signals
        let rec5 = Recorder(t[0].combineLatest(t[1], t[2], t[3], t[4]) { [$0, $1, $2, $3, $4] })
        for i in 0..<5 { g.inputs[i].send(value: i) }
        g.inputs[0].send(value: 7)
        g.inputs[4].send(end: .other(TestError.boom))
        #expect(rec5.values == [[0, 1, 2, 3, 4], [7, 1, 2, 3, 4]])
        #expect(rec5.end == .boom)

        let k = Five(v)
        let u = k.signals
        let shared = u[0].combineLatest(u[1], u[2], u[3], u[4]) { $0 + $1 + $2 + $3 + $4 }.multicast()
        let a = Recorder(shared)
        for i in 0..<5 { k.inputs[i].send(value: 1) }
        a.cancel()
        let b = Recorder(shared)
        k.inputs[0].send(value: 2)
        #expect(a.values == [5])
        #expect(b.values == [])
    }

    // MARK: zip

    @Test(arguments: variants) func zip3(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].zip(f.signals[1], f.signals[2]).map { [$0.0, $0.1, $0.2] })
        f.inputs[0].send(value: 1)
        f.inputs[0].send(value: 2)
        f.inputs[1].send(value: 10)
        f.inputs[2].send(value: 100)
        f.inputs[1].send(value: 20)
        f.inputs[1].complete()
        #expect(rec.end == nil, "input 1 still has a queued value")
        f.inputs[2].send(value: 200)
        #expect(rec.values == [[1, 10, 100], [2, 20, 200]])
        #expect(rec.end == .complete)

        let g = Five(v)
        let rec2 = Recorder(g.signals[0].zip(g.signals[1], g.signals[2]).map { $0.0 })
        g.inputs[0].send(value: 1)
        g.inputs[2].send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        let m = Five(v)
        let rec3 = Recorder(m.signals[0].zip(m.signals[1], m.signals[2]).map { $0.0 })
        m.inputs[0].send(value: 1)
        m.inputs[0].send(value: 2)
        m.inputs[0].send(end: .cancelled)
        m.inputs[1].send(value: 1)
        m.inputs[2].send(value: 1)
        #expect(rec3.end == nil, "input 0 still has a queued value")
        m.inputs[1].send(value: 2)
        m.inputs[2].send(value: 2)
        #expect(rec3.values == [1, 2])
        #expect(rec3.end == .cancelled, "ends with the drained input's end")

        let k = Five(v)
        let shared = k.signals[0].zip(k.signals[1], k.signals[2]).map { $0.0 + $0.1 + $0.2 }.multicast()
        let a = Recorder(shared)
        k.inputs[0].send(value: 1)
        k.inputs[1].send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        k.inputs[2].send(value: 1)
        #expect(b.values == [], "queued values of the first activation are dropped")
        k.inputs[0].send(value: 2)
        k.inputs[1].send(value: 2)
        #expect(b.values == [5])
    }

    @Test(arguments: variants) func zip4And5(_ v: DeliveryVariant) {
        let f = Five(v)
        let s = f.signals
        let rec4 = Recorder(s[0].zip(s[1], s[2], s[3]).map { [$0.0, $0.1, $0.2, $0.3] })
        for i in 0..<4 { f.inputs[i].send(value: i) }
        f.inputs[0].complete()
        #expect(rec4.values == [[0, 1, 2, 3]])
        #expect(rec4.end == .complete)

        let g = Five(v)
        let t = g.signals
        let rec5 = Recorder(t[0].zip(t[1], t[2], t[3], t[4]).map { [$0.0, $0.1, $0.2, $0.3, $0.4] })
        for round in 0..<2 { for i in 0..<5 { g.inputs[i].send(value: i + round * 10) } }
        g.inputs[3].send(end: .other(TestError.boom))
        #expect(rec5.values == [[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])
        #expect(rec5.end == .boom)

        let k = Five(v)
        let u = k.signals
        let shared = u[0].zip(u[1], u[2], u[3], u[4]).map { $0.0 }.multicast()
        let a = Recorder(shared)
        for i in 0..<4 { k.inputs[i].send(value: 1) }
        a.cancel()
        let b = Recorder(shared)
        k.inputs[4].send(value: 1)
        #expect(b.values == [])
    }

    // MARK: merge (the core's variadic merge, up to five inputs)

    @Test(arguments: variants) func mergeFive(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].merge(with: f.signals[1], f.signals[2], f.signals[3], f.signals[4]))
        for i in 0..<5 { f.inputs[i].send(value: i) }
        for i in 0..<4 { f.inputs[i].complete() }
        #expect(rec.end == nil)
        f.inputs[4].send(value: 5)
        f.inputs[4].complete()
        #expect(rec.values == [0, 1, 2, 3, 4, 5])
        #expect(rec.end == .complete)
        let g = Five(v)
        let rec2 = Recorder(g.signals[0].merge(with: g.signals[1], g.signals[2]))
        g.inputs[1].send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        // reset: completions counted in the first activation are forgotten
        let k = Five(v)
        let shared = k.signals[0].merge(with: k.signals[1]).multicast()
        let a = Recorder(shared)
        k.inputs[0].send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        k.inputs[1].send(value: 2)
        #expect(a.values == [1])
        #expect(b.values == [2])
    }

    // MARK: sequencing

    @Test(arguments: variants) func startWith(_ v: DeliveryVariant) {
        let r = run(v, [3, 4]) { $0.startWith(1, 2) }
        #expect(r.values == [1, 2, 3, 4])
        #expect(r.end == .complete)
        let e = run(v, [], end: .other(TestError.boom)) { $0.startWith(1) }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [3], second: [4]) { $0.startWith(0) }
        #expect(reset.first == [0, 3])
        #expect(reset.second == [0, 4], "the start values come again on each activation")
        let cold = run(v, [], end: nil) { _ in Signal.just(5, 6, delivery: v).startWith(1) }
        #expect(cold.values == [1, 5, 6], "start values precede values sent during activation")
        #expect(cold.end == .complete)
    }

    @Test(arguments: variants) func endWith(_ v: DeliveryVariant) {
        let r = run(v, [1]) { $0.endWith(8, 9) }
        #expect(r.values == [1, 8, 9])
        #expect(r.end == .complete)
        let e = run(v, [1], end: .other(TestError.boom)) { $0.endWith(9) }
        #expect(e.values == [1])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [2], endSecond: .complete) { $0.endWith(9) }
        #expect(reset.second == [2, 9])
    }

    @Test(arguments: variants) func concat(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].concat(f.signals[1], f.signals[2]))
        f.inputs[0].send(value: 1)
        f.inputs[1].send(value: 2)  // buffered until input 0 completes
        f.inputs[2].send(value: 3)
        f.inputs[2].complete()
        #expect(rec.values == [1])
        f.inputs[0].complete()
        #expect(rec.values == [1, 2])
        f.inputs[1].send(value: 4)
        f.inputs[1].complete()
        #expect(rec.values == [1, 2, 4, 3])
        #expect(rec.end == .complete)
        let g = Five(v)
        let rec2 = Recorder(g.signals[0].concat(g.signals[1]))
        g.inputs[1].send(value: 2)
        g.inputs[0].send(end: .other(TestError.boom))
        #expect(rec2.values == [])
        #expect(rec2.end == .boom)
        let cold = run(v, [], end: nil) { _ in Signal.just(1, delivery: v).concat(Signal.just(2, 3, delivery: v)) }
        #expect(cold.values == [1, 2, 3])
        #expect(cold.end == .complete)
        // reset: the buffer of the first activation is dropped
        let k = Five(v)
        let shared = k.signals[0].concat(k.signals[1]).multicast()
        let a = Recorder(shared)
        k.inputs[1].send(value: 9)
        a.cancel()
        let b = Recorder(shared)
        k.inputs[0].complete()
        #expect(b.values == [])
        k.inputs[1].send(value: 10)
        #expect(b.values == [10])
    }

    @Test(arguments: variants) func raceAndAmb(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].race(f.signals[1], f.signals[2]))
        f.inputs[1].send(value: 1)
        f.inputs[0].send(value: 2)
        f.inputs[2].send(value: 3)
        f.inputs[1].send(value: 4)
        f.inputs[0].complete()
        #expect(rec.end == nil, "the losers' ends are ignored")
        f.inputs[1].complete()
        #expect(rec.values == [1, 4])
        #expect(rec.end == .complete)
        let g = Five(v)
        let rec2 = Recorder(g.signals[0].race(g.signals[1]))
        g.inputs[1].send(end: .other(TestError.boom))
        g.inputs[0].send(value: 1)
        #expect(rec2.values == [])
        #expect(rec2.end == .boom, "an end can win the race")
        // reset: the winner is chosen afresh
        let k = Five(v)
        let shared = k.signals[0].race(k.signals[1]).multicast()
        let a = Recorder(shared)
        k.inputs[0].send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        k.inputs[1].send(value: 2)
        k.inputs[0].send(value: 3)
        #expect(a.values == [1])
        #expect(b.values == [2])
    }

    @Test(arguments: variants) func switchIfEmpty(_ v: DeliveryVariant) {
        let f = Five(v)
        let rec = Recorder(f.signals[0].switchIfEmpty(f.signals[1]))
        f.inputs[1].send(value: 1)  // buffered
        f.inputs[0].complete()
        f.inputs[1].send(value: 2)
        f.inputs[1].complete()
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete)
        let g = Five(v)
        let rec2 = Recorder(g.signals[0].switchIfEmpty(g.signals[1]))
        g.inputs[1].send(value: 1)
        g.inputs[0].send(value: 5)
        g.inputs[0].complete()
        #expect(rec2.values == [5])
        #expect(rec2.end == .complete)
        let e = run(v, [], end: .other(TestError.boom)) { $0.switchIfEmpty(Signal.just(1, delivery: v)) }
        #expect(e.values == [])
        #expect(e.end == .boom)
        // reset: "saw a value" is forgotten
        let k = Five(v)
        let shared = k.signals[0].switchIfEmpty(k.signals[1]).multicast()
        let a = Recorder(shared)
        k.inputs[0].send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        k.inputs[1].send(value: 7)
        k.inputs[0].complete()
        #expect(b.values == [7])
    }

    @Test(arguments: variants) func defaultIfEmpty(_ v: DeliveryVariant) {
        let r = run(v, []) { $0.defaultIfEmpty(42) }
        #expect(r.values == [42])
        #expect(r.end == .complete)
        let full = run(v, [1]) { $0.defaultIfEmpty(42) }
        #expect(full.values == [1])
        let e = run(v, [], end: .other(TestError.boom)) { $0.defaultIfEmpty(42) }
        #expect(e.values == [])
        #expect(e.end == .boom)
        let reset = reactivate(v, first: [1], second: [], endSecond: .complete) { $0.defaultIfEmpty(42) }
        #expect(reset.second == [42])
    }
}
