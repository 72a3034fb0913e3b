import Dispatch
import Signals
import Testing

/// `transform`, `map`, `filter`, `compactMap` (stateless and stateful), `SignalNext`, and
/// per-activation state.
@Suite struct TransformTests {
    /// map, filter and compactMap produce exactly the expected values, and pass ends through.
    @Test(arguments: DeliveryVariant.allCases)
    func mapFilterCompactMap(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal
            .map { $0 * 3 }
            .filter { $0 % 2 == 0 }
            .compactMap { $0 % 4 == 0 ? "x\($0)" : nil }
            .collect()
        for i in 0..<10 { input.send(value: i) }
        input.send(end: .other(CoreError.boom))
        #expect(c.events == [.value("x0"), .value("x12"), .value("x24"), .boom])
        out.cancel()
    }

    /// Ten fused `.direct` maps compose in order.
    @Test(arguments: DeliveryVariant.allCases)
    func tenFusedMaps(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        var s = signal
        for k in 1...10 { s = s.map { $0 * 2 + k } }
        let (c, out) = s.collect()
        input.send(value: 0)
        input.send(value: 1)
        func expected(_ x: Int) -> Int { (1...10).reduce(x) { $0 * 2 + $1 } }
        #expect(c.events == [.value(expected(0)), .value(expected(1))])
        out.cancel()
    }

    /// A processor may emit several results per input, and sees the upstream end as a result
    /// it can replace.
    @Test(arguments: DeliveryVariant.allCases)
    func transformEmitsManyAndSeesEnd(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.transform { (r: Result<Int, SignalEnd>, next: SignalNext<String>) in
            switch r {
            case .success(let v):
                for i in 0..<v { next.send(value: "\(v).\(i)") }
            case .failure(let e):
                next.send(value: "end:\(e)")
                next.send(result: .failure(.complete))
            }
        }.collect()
        input.send(value: 2)
        input.send(value: 0)
        input.send(value: 1)
        input.cancel()
        #expect(c.events == [.value("2.0"), .value("2.1"), .value("1.0"), .value("end:cancelled"), .complete])
        out.cancel()
    }

    /// After a stage emits an end, anything it emits later is dropped, the subscriber sees
    /// exactly one end, and the upstream input is refused from then on.
    @Test(arguments: DeliveryVariant.allCases)
    func emissionsAfterEndAreDropped(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let calls = Shared(0)
        let (c, out) = signal.transform { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
            calls.update { $0 += 1 }
            guard let v = r.value else { return }
            next.send(value: v)
            if v == 3 {
                next.complete()
                next.send(value: 99)
                next.send(end: .other(CoreError.boom))
                next.complete()
            }
        }.collect()
        for i in 1...3 { #expect(input.send(value: i) == nil) }
        #expect(c.events == [.value(1), .value(2), .value(3), .complete])
        #expect(input.send(value: 4) != nil)
        #expect(c.events == [.value(1), .value(2), .value(3), .complete])
        #expect(calls.value == 3)
        out.cancel()
    }

    /// `transform(initialState:)` keeps its state across values within one activation.
    @Test(arguments: DeliveryVariant.allCases)
    func statefulTransformAccumulates(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.transform(initialState: 0) { (sum: inout Int, r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
            switch r {
            case .success(let v):
                sum += v
                next.send(value: sum)
            case .failure(let e):
                next.send(value: -sum)
                next.send(end: e)
            }
        }.collect()
        for v in [1, 2, 3, 4] { input.send(value: v) }
        input.complete()
        #expect(c.events == [.value(1), .value(3), .value(6), .value(10), .value(-10), .complete])
        out.cancel()
    }

    /// The state of `transform(initialState:)` is created afresh on each activation: through a
    /// `continuousWhileActive()` that deactivates (last branch cancelled) and reactivates,
    /// counting starts again at 1 (and the cache of the earlier activation is not replayed).
    @Test(arguments: DeliveryVariant.allCases)
    func transformStateResetsOnReactivation(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) {
            $0.transform(initialState: 0) { (count: inout Int, r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
                count += 1
                if let v = r.value { next.send(value: v * 100 + count) } else { next.send(result: .failure(r.end!)) }
            }.continuousWhileActive()
        }
        let (a, outA) = multi.collect()
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(a.events == [.value(101), .value(202), .value(303)])
        outA.cancel()
        #expect(input.send(value: 4) == .inactive)
        let (b, outB) = multi.collect()
        input.send(value: 5)
        input.send(value: 6)
        #expect(b.events == [.value(501), .value(602)])
        outB.cancel()
    }

    /// The state of `map(initialState:)` is also per activation (here through a multicast).
    @Test(arguments: DeliveryVariant.allCases)
    func mapStateResetsOnReactivation(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<String>.create(delivery: variant) {
            $0.map(initialState: [String]()) { (seen: inout [String], v: String) -> String in
                seen.append(v)
                return seen.joined(separator: ",")
            }.multicast()
        }
        let (a, outA) = multi.collect()
        input.send(value: "a")
        input.send(value: "b")
        outA.cancel()
        let (b, outB) = multi.collect()
        input.send(value: "c")
        input.complete()
        #expect(a.events == [.value("a"), .value("a,b")])
        #expect(b.events == [.value("c"), .complete])
        outB.cancel()
    }

    /// A processor on a `.queue` context runs there, in order, never concurrently with itself,
    /// and its results reach a `.direct` subscriber downstream.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func transformOnQueueContext(_ variant: DeliveryVariant) {
        let (queue, mark) = QueueMark.serialQueue("transform.queue", id: 11)
        let offQueue = Shared(0)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.transform(context: .queue(queue)) { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
            if !mark.isCurrent { offQueue.update { $0 += 1 } }
            next.send(result: r.map { $0 * 2 })
        }.collect()
        for i in 0..<500 { #expect(input.send(value: i) == nil) }
        input.complete()
        c.expectEnd()
        #expect(c.events == (0..<500).map { .value($0 * 2) } + [.complete])
        #expect(c.overlaps == 0)
        #expect(offQueue.value == 0)
        out.cancel()
    }

    /// map/filter/compactMap on a context run there too (each through its own node).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func mapFilterCompactMapOnContexts(_ variant: DeliveryVariant) {
        let (q1, m1) = QueueMark.serialQueue("map.queue", id: 12)
        let (q2, m2) = QueueMark.serialQueue("filter.queue", id: 13)
        let (q3, m3) = QueueMark.serialQueue("compact.queue", id: 14)
        let wrong = Shared(0)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal
            .map(context: .queue(q1)) { v -> Int in
                if !m1.isCurrent { wrong.update { $0 += 1 } }
                return v + 1
            }
            .filter(context: .queue(q2)) { v in
                if !m2.isCurrent { wrong.update { $0 += 1 } }
                return v % 3 != 0
            }
            .compactMap(context: .queue(q3)) { v -> Int? in
                if !m3.isCurrent { wrong.update { $0 += 1 } }
                return v % 5 == 0 ? nil : v
            }
            .collect()
        for i in 0..<30 { input.send(value: i) }
        input.complete()
        c.expectEnd()
        let expected = (0..<30).map { $0 + 1 }.filter { $0 % 3 != 0 && $0 % 5 != 0 }
        #expect(c.events == expected.map { .value($0) } + [.complete])
        #expect(wrong.value == 0)
        out.cancel()
    }

    /// `hop(to:)` moves delivery onto a context; `.direct` returns the same signal.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func hop(_ variant: DeliveryVariant) {
        let (queue, mark) = QueueMark.serialQueue("hop.queue", id: 15)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        #expect(signal.hop(to: .direct) === signal)
        let onQueue = Shared<[Bool]>([])
        let c = Recorder<Int> { _ in onQueue.update { $0.append(mark.isCurrent) } }
        let out = signal.hop(to: .queue(queue)).subscribe(c.handler)
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        c.expectEnd()
        #expect(c.events == [.value(1), .value(2), .complete])
        #expect(onQueue.value == [true, true, true])
        out.cancel()
    }
}
