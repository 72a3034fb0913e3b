import Signals
import Synchronization
import Testing

/// `groupBy`'s element and duration forms (`groupBy(_:element:)`, `groupBy(_:duration:)`,
/// `groupBy(_:element:duration:)`) and their throwing overloads: what ends a group, the
/// duration signal's error, a key opening a fresh group, the order of ends, the release of a
/// closed group's state, and the state per activation.
@Suite struct GroupByFormTests {
    static let variants = DeliveryVariant.allCases

    /// Subscribes to each group as it arrives; `groups` are in arrival order.
    final class Groups<K: Sendable, E: Sendable>: Sendable {
        let groups = Collected<(key: K, recorder: Recorder<E>)>()
        let log = Collected<String>()
        var keys: [K] { groups.all.map(\.key) }
        var values: [[E]] { groups.all.map(\.recorder.values) }
        var ends: [End?] { groups.all.map(\.recorder.end) }

        func take(_ group: SignalGroup<K, E>) -> K {
            let log = self.log
            let index = groups.all.count
            groups.append((group.key, Recorder(group.signal.onEnd { _ in log.append("end \(index)") })))
            return group.key
        }
    }

    @Test(arguments: variants) func elementMapsEachGroupsValues(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, String>()
        let outer = Recorder(signal.groupBy({ $0 % 3 }, element: { "v\($0)" }).map { g.take($0) })
        for i in [1, 2, 4, 3, 5, 7] { input.send(value: i) }
        input.send(end: .other(TestError.boom))
        #expect(outer.values == [1, 2, 0])
        #expect(g.values == [["v1", "v4", "v7"], ["v2", "v5"], ["v3"]])
        #expect(g.ends == [.boom, .boom, .boom])
        #expect(g.log.all == ["end 0", "end 1", "end 2"], "groups end oldest first")
        #expect(outer.end == .boom)
        let reset = reactivate(v, first: [1], second: [4, 2]) { s in s.groupBy({ $0 % 3 }, element: { $0 }).map(\.key) }
        #expect(reset.second == [1, 2], "groups are forgotten on deactivation")
    }

    @Test(arguments: variants) func durationClosesAGroupAndTheKeyOpensAFreshOne(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let calls = Collected<Int>()
        // Each group holds two values: its duration sees them after the group does.
        let outer = Recorder(signal.groupBy({ $0 % 2 }, duration: { group in
            calls.append(group.key)
            return group.signal.skip(1)
        }).map { g.take($0) })
        for i in [1, 3, 5, 2, 7, 4, 9] { input.send(value: i) }
        input.complete()
        #expect(outer.values == [1, 1, 0, 1])
        #expect(calls.all == [1, 1, 0, 1], "duration is called once per group")
        #expect(g.values == [[1, 3], [5, 7], [2, 4], [9]])
        #expect(g.ends == [.complete, .complete, .complete, .complete])
        #expect(outer.end == .complete)
    }

    @Test(arguments: variants) func elementAndDurationTogether(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Bool, String>()
        // The duration counts elements, not source values.
        let outer = Recorder(signal.groupBy({ $0 > 0 }, element: { "\($0 * 10)" }, duration: { group in
            group.signal.filter { $0.count > 2 }
        }).map { g.take($0) })
        for i in [1, 5, 20, 2] { input.send(value: i) }
        input.complete()
        #expect(outer.values == [true, true])
        #expect(g.values == [["10", "50", "200"], ["20"]])
        #expect(g.ends == [.complete, .complete])
        #expect(outer.end == .complete)
    }

    @Test(arguments: variants) func eachEndOfTheDurationSignal(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let durations = Mutex<[Int: SignalInput<Void>]>([:])
        let outer = Recorder(signal.groupBy({ $0 }, duration: { group in
            let (i, s) = Signal<Void>.create(delivery: v)
            durations.withLock { $0[group.key] = i }
            return s
        }).map { g.take($0) })
        for k in [1, 2, 3, 4] { input.send(value: k) }
        let d = durations.withLock { $0 }
        d[1]!.send(end: .other(TestError.boom))
        d[2]!.complete()
        d[3]!.send(end: .cancelled)
        d[4]!.send(value: ())
        #expect(g.ends == [.boom, .complete, .complete, .complete], "an error fails its group; any other end or a value completes it")
        #expect(outer.end == nil, "a duration's error ends its group only")
        input.send(value: 1)
        #expect(outer.values == [1, 2, 3, 4, 1])
        #expect(g.values.last == [1])
        #expect(g.ends.last == .some(nil), "the fresh group is open")
        withExtendedLifetime(durations) {}
    }

    @Test(arguments: variants) func aDurationSignalAlreadySubscribedFailsItsGroup(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (sharedInput, shared) = Signal<Void>.create(delivery: v)
        let g = Groups<Int, Int>()
        let outer = Recorder(signal.groupBy({ $0 }, duration: { _ in shared }).map { g.take($0) })
        input.send(value: 1)
        input.send(value: 2)
        #expect(g.ends == [nil, .error(String(describing: SignalBindError.duplicate))])
        #expect(outer.end == nil)
        withExtendedLifetime((input, sharedInput)) {}
    }

    @Test(arguments: variants) func aClosedGroupsStateIsReleased(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let flags = Mutex<[Flagged]>([])
        let g = Groups<Int, Int>()
        // Each group's duration chain holds a canary: it goes when the group's state does.
        let outer = Recorder(signal.groupBy({ $0 % 2 }, duration: { group in
            let flag = Flagged()
            let canary = Canary(flag)
            flags.withLock { $0.append(flag) }
            return group.signal.skip(1).onValue { _ in withExtendedLifetime(canary) {} }
        }).map { g.take($0) })
        input.send(value: 1)
        input.send(value: 2)
        var released = flags.withLock { $0.map(\.isSet) }
        #expect(released == [false, false], "open groups keep their duration")
        input.send(value: 3)
        released = flags.withLock { $0.map(\.isSet) }
        #expect(released == [true, false], "the closed group's duration is released at once")
        #expect(g.ends == [.complete, nil])
        outer.cancel()
        released = flags.withLock { $0.map(\.isSet) }
        #expect(released == [true, true], "cancelling the result releases every open group")
        #expect(g.ends == [.complete, .cancelled])
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func upstreamEndCancelsDurationsAndEndsGroupsOldestFirst(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let durationEnds = Collected<End>()
        let outer = Recorder(signal.groupBy({ $0 }, duration: { group in
            Signal<Void>.never(delivery: v).onEnd { durationEnds.append(End($0)) }
        }).map { g.take($0) })
        for k in [3, 1, 2] { input.send(value: k) }
        input.complete()
        #expect(g.log.all == ["end 0", "end 1", "end 2"])
        #expect(g.ends == [.complete, .complete, .complete])
        #expect(durationEnds.all.isEmpty, "duration subscriptions are cancelled, not ended")
        #expect(outer.end == .complete)
    }

    @Test(arguments: variants) func durationStateIsPerActivation(_ v: DeliveryVariant) {
        let reset = reactivate(v, first: [1], second: [1, 3, 1]) { s in
            s.groupBy({ $0 % 2 }, duration: { $0.signal.skip(1) }).map(\.key)
        }
        #expect(reset.first == [1])
        #expect(reset.second == [1, 1], "the first activation's open group is forgotten")
    }

    // MARK: throwing overloads

    @Test(arguments: variants) func throwingElementEndsEveryGroup(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let probe = ThrowingProbe(throwAt: 4)
        let outer = Recorder(signal.groupBy({ $0 % 3 }, element: { (n: Int) throws -> Int in
            try probe.check(n)
            return n * 10
        }).map { g.take($0) })
        for n in [1, 2, 4, 5] { input.send(value: n) }
        #expect(outer.values == [1, 2])
        #expect(outer.end == .boom)
        #expect(g.values == [[10], [20]])
        #expect(g.ends == [.boom, .boom])
        #expect(probe.seen == [1, 2, 4], "not called after the throw")
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func throwingElementForANewKeyDeliversTheGroupFirst(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let probe = ThrowingProbe(throwAt: 2)
        let outer = Recorder(signal.groupBy({ $0 }, element: { (n: Int) throws -> Int in
            try probe.check(n)
            return n
        }, duration: { _ in Signal<Void>.never(delivery: v) }).map { g.take($0) })
        input.send(value: 1)
        input.send(value: 2)
        #expect(outer.values == [1, 2])
        #expect(g.values == [[1], []])
        #expect(g.ends == [.boom, .boom])
        #expect(outer.end == .boom)
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func throwingDurationEndsEveryGroupAndTheResult(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let probe = ThrowingProbe(throwAt: 3)
        let outer = Recorder(signal.groupBy({ $0 }, duration: { (group: SignalGroup<Int, Int>) throws -> Signal<Int> in
            try probe.check(group.key)
            return group.signal.skip(5)
        }).map { g.take($0) })
        for n in [1, 2, 1, 3, 4] { input.send(value: n) }
        #expect(outer.values == [1, 2, 3])
        #expect(g.values == [[1, 1], [2], []], "the group it threw for gets no value")
        #expect(g.ends == [.boom, .boom, .boom])
        #expect(outer.end == .boom)
        #expect(probe.seen == [1, 2, 3])
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func throwingKeyWithDurationEndsEveryGroup(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let g = Groups<Int, Int>()
        let probe = ThrowingProbe(throwAt: 5)
        let outer = Recorder(signal.groupBy({ (n: Int) throws -> Int in
            try probe.check(n)
            return n % 2
        }, duration: { $0.signal.skip(1) }).map { g.take($0) })
        for n in [1, 3, 2, 5, 7] { input.send(value: n) }
        #expect(outer.values == [1, 0])
        #expect(g.values == [[1, 3], [2]])
        #expect(g.ends == [.complete, .boom], "a group its duration closed keeps its completion")
        #expect(outer.end == .boom)
        #expect(probe.seen == [1, 3, 2, 5])
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func throwingFormsWithoutAThrowMatchThePlainForms(_ v: DeliveryVariant) {
        let plain = run(v, [1, 3, 5, 2, 7]) { s in
            s.groupBy({ $0 % 2 }, element: { $0 * 2 }, duration: { $0.signal.skip(1) }).flatMap { $0.signal.toArray() }
        }
        let throwing = run(v, [1, 3, 5, 2, 7]) { s in
            s.groupBy({ (n: Int) throws -> Int in n % 2 }, element: { $0 * 2 }, duration: { $0.signal.skip(1) }).flatMap { $0.signal.toArray() }
        }
        #expect(plain.values == [[2, 6], [10, 14], [4]])
        #expect(throwing.values == plain.values)
        #expect(throwing.end == .complete)
    }
}
