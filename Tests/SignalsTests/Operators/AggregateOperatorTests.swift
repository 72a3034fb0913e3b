import Signals
import Testing

@Suite struct AggregateOperatorTests {
    static let variants = DeliveryVariant.allCases

    /// The common checks for an aggregate: the result on completion, nothing on error, and a
    /// second activation that starts from scratch.
    func check<U: Equatable & Sendable>(
        _ v: DeliveryVariant, _ values: [Int], expect: [U], second: [Int], expectSecond: [U],
        _ op: (Signal<Int>) -> Signal<U>
    ) {
        let r = run(v, values, op)
        #expect(r.values == expect)
        #expect(r.end == .complete)
        let e = run(v, values, end: .other(TestError.boom), op)
        #expect(e.end == .boom)
        let reset = reactivate(v, first: values, second: second, endSecond: .complete, op)
        #expect(reset.second == expectSecond)
        #expect(reset.secondEnd == .complete)
    }

    @Test(arguments: variants) func count(_ v: DeliveryVariant) {
        check(v, [1, 2, 3], expect: [3], second: [4], expectSecond: [1]) { $0.count() }
        check(v, [], expect: [0], second: [], expectSecond: [0]) { $0.count() }
    }

    @Test(arguments: variants) func minAndMax(_ v: DeliveryVariant) {
        check(v, [3, 1, 2], expect: [1], second: [5], expectSecond: [5]) { $0.min() }
        check(v, [3, 1, 2], expect: [3], second: [2], expectSecond: [2]) { $0.max() }
        check(v, [], expect: [], second: [], expectSecond: []) { $0.min() }
        check(v, [-3, 1, 2], expect: [1], second: [-5], expectSecond: [-5]) { $0.min { abs($0) < abs($1) } }
        check(v, [-3, 1, 2], expect: [-3], second: [1], expectSecond: [1]) { $0.max { abs($0) < abs($1) } }
    }

    @Test(arguments: variants) func sum(_ v: DeliveryVariant) {
        check(v, [1, 2, 3], expect: [6], second: [4], expectSecond: [4]) { $0.sum() }
        check(v, [], expect: [0], second: [], expectSecond: [0]) { $0.sum() }
    }

    @Test(arguments: variants) func average(_ v: DeliveryVariant) {
        check(v, [1, 2, 4], expect: [7.0 / 3], second: [4], expectSecond: [4.0]) { $0.map(Double.init).average() }
        check(v, [], expect: [Double](), second: [], expectSecond: []) { $0.map(Double.init).average() }
    }

    @Test(arguments: variants) func all(_ v: DeliveryVariant) {
        check(v, [2, 4], expect: [true], second: [6], expectSecond: [true]) { $0.all { $0 % 2 == 0 } }
        check(v, [], expect: [true], second: [], expectSecond: [true]) { $0.all { $0 % 2 == 0 } }
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.all { $0 % 2 == 0 })
        input.send(value: 3)
        #expect(rec.values == [false])
        #expect(rec.end == .complete, "decided at the first counter-example")
    }

    @Test(arguments: variants) func contains(_ v: DeliveryVariant) {
        check(v, [1, 2], expect: [false], second: [1], expectSecond: [false]) { $0.contains(3) }
        check(v, [1, 2], expect: [false], second: [5], expectSecond: [false]) { $0.contains { $0 > 5 } }
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.contains(3))
        input.send(value: 3)
        #expect(rec.values == [true])
        #expect(rec.end == .complete, "decided at the first match")
    }

    @Test(arguments: variants) func find(_ v: DeliveryVariant) {
        check(v, [1, 2], expect: [Int?.none], second: [7], expectSecond: [7]) { $0.find { $0 > 5 } }
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.find { $0 > 5 })
        input.send(value: 1)
        input.send(value: 6)
        #expect(rec.values == [6])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func sequenceEqual(_ v: DeliveryVariant) {
        func compare(_ a: [Int], _ b: [Int], interleave: Bool) -> ([Bool], End?) {
            let (ia, ib, rec) = graph2(v, Int.self, Int.self) { $0.sequenceEqual($1) }
            if interleave {
                for i in 0..<Swift.max(a.count, b.count) {
                    if i < a.count { ia.send(value: a[i]) }
                    if i < b.count { ib.send(value: b[i]) }
                }
            } else {
                for x in a { ia.send(value: x) }
                for x in b { ib.send(value: x) }
            }
            ia.complete()
            ib.complete()
            return (rec.values, rec.end)
        }
        for interleave in [false, true] {
            #expect(compare([1, 2, 3], [1, 2, 3], interleave: interleave) == ([true], .complete))
            #expect(compare([1, 2, 3], [1, 2], interleave: interleave) == ([false], .complete))
            #expect(compare([1, 2], [1, 2, 3], interleave: interleave) == ([false], .complete))
            #expect(compare([1, 5, 3], [1, 2, 3], interleave: interleave) == ([false], .complete))
            #expect(compare([], [], interleave: interleave) == ([true], .complete))
        }
        let (ia, ib, rec) = graph2(v, Int.self, Int.self) { $0.sequenceEqual($1) }
        ia.send(value: 1)
        ib.send(value: 2)
        #expect(rec.values == [false], "decided at the first difference")
        #expect(rec.end == .complete)
        let (ja, jb, rec2) = graph2(v, Int.self, Int.self) { $0.sequenceEqual($1) }
        ja.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        withExtendedLifetime(jb) {}
        // reset: unmatched values of the first activation are forgotten
        let (ka, kas) = Signal<Int>.create(delivery: v)
        let (kb, kbs) = Signal<Int>.create(delivery: v)
        let shared = kas.sequenceEqual(kbs).multicast()
        let a = Recorder(shared)
        ka.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        ka.send(value: 2)
        kb.send(value: 2)
        ka.complete()
        kb.complete()
        #expect(b.values == [true])
    }

    @Test(arguments: variants) func toArray(_ v: DeliveryVariant) {
        check(v, [1, 2, 3], expect: [[1, 2, 3]], second: [4], expectSecond: [[4]]) { $0.toArray() }
        check(v, [], expect: [[Int]()], second: [], expectSecond: [[]]) { $0.toArray() }
    }

    // MARK: taps

    @Test(arguments: variants) func onValueAndOnEnd(_ v: DeliveryVariant) {
        let seen = Collected<String>()
        let r = run(v, [1, 2], end: .other(TestError.boom)) { s in
            s.onValue { seen.append("v\($0)") }.onEnd { seen.append("end \(End($0))") }
        }
        #expect(r.values == [1, 2])
        #expect(r.end == .boom)
        #expect(seen.all == ["v1", "v2", "end error(boom)"])
        let seen2 = Collected<String>()
        let reset = reactivate(v, first: [1], second: [2], endSecond: .complete) { s in
            s.onValue { seen2.append("v\($0)") }.onEnd { seen2.append("end \(End($0))") }
        }
        #expect(reset.second == [2])
        #expect(seen2.all == ["v1", "v2", "end complete"])
    }

    @Test(arguments: variants) func onActivateAndOnDeactivate(_ v: DeliveryVariant) {
        // The core's hooks, checked here alongside the other taps.
        let seen = Collected<String>()
        let reset = reactivate(v, first: [1], second: [2]) { s in
            s.onActivate { seen.append("on") }.onDeactivate { seen.append("off") }
        }
        #expect(reset.first == [1])
        #expect(reset.second == [2])
        #expect(seen.all == ["on", "off", "on", "off"], "the last off: the helper's second subscriber goes away")
    }

    @Test(arguments: variants) func debug(_ v: DeliveryVariant) {
        let lines = Collected<String>()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.debug("x") { lines.append($0) })
        input.send(value: 1)
        input.send(end: .other(TestError.boom))
        #expect(rec.values == [1])
        #expect(rec.end == .boom)
        #expect(lines.all.prefix(3) == ["x -> activated", "x -> value(1)", "x -> end(\(SignalEnd.other(TestError.boom)))"])
        let lines2 = Collected<String>()
        let reset = reactivate(v, first: [1], second: [2]) { $0.debug("y") { lines2.append($0) } }
        #expect(reset.second == [2])
        #expect(lines2.all == ["y -> activated", "y -> value(1)", "y -> deactivated", "y -> activated", "y -> value(2)", "y -> deactivated"])
    }
}
