import Signals
import Synchronization
import Testing

/// The throwing forms of `retry(_:context:shouldRetry:)`, `Signal.retry(when:_:)`, `join`,
/// `groupJoin`, the per-value `delay(…offset:)` forms, `takeWhile(inclusive:)` and
/// `takeUntil(inclusive:)`: a throw ends the result with `.other(error)` and nothing follows.
/// A thread-safe count, for closures that count their calls.
final class Tally: Sendable {
    let count = Atomic<Int>(0)
    init() {}
    /// Counts one more and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    func bump() { _ = next() }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite struct ThrowingRetryJoinDelayTests {
    static let variants = DeliveryVariant.allCases

    // MARK: - takeWhile / takeUntil (inclusive)

    static let cases: [ThrowingCase] = [
        ThrowingCase(
            name: "takeWhile(inclusive: true)",
            plain: { $0.takeWhile(inclusive: true) { $0 < 3 }.map { "\($0)" } },
            throwing: { s, p in s.takeWhile(inclusive: true) { v in try p.check(v); return v < 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "takeWhile(inclusive: false)",
            plain: { $0.takeWhile(inclusive: false) { $0 < 3 }.map { "\($0)" } },
            throwing: { s, p in s.takeWhile(inclusive: false) { v in try p.check(v); return v < 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "takeUntil(inclusive: true)",
            plain: { $0.takeUntil(inclusive: true) { $0 >= 3 }.map { "\($0)" } },
            throwing: { s, p in s.takeUntil(inclusive: true) { v in try p.check(v); return v >= 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "takeUntil(inclusive: false)",
            plain: { $0.takeUntil(inclusive: false) { $0 >= 3 }.map { "\($0)" } },
            throwing: { s, p in s.takeUntil(inclusive: false) { v in try p.check(v); return v >= 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
    ]

    @Test(arguments: variants) func inclusiveTakeFormsEndAtTheThrowAndStartAfresh(_ v: DeliveryVariant) {
        for c in Self.cases { checkThrowingForm(c, v) }
    }

    // MARK: - retry

    /// A source that sends its activation number, then fails with `TestError.boom`.
    static func failingSource(_ v: DeliveryVariant, _ activations: Tally) -> Signal<Int> {
        Signal<Int>.generate(delivery: v) { input in
            guard let input else { return }
            let n = activations.next()
            input.send(value: n)
            input.send(end: .other(TestError.boom))
        }
    }

    @Test(arguments: variants) func retryShouldRetryThrowEndsWithTheThrownError(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let activations = Tally()
        let calls = Tally()
        let rec = Recorder(Self.failingSource(v, activations).retry(0, context: .custom(vt)) { (n: inout Int, _: SignalEnd) throws -> Duration? in
            calls.bump()
            n += 1
            if n == 2 { throw TestError.other }
            return .seconds(1)
        })
        vt.advance(by: .seconds(10))
        #expect(rec.values == [1, 2], "one retry, then the throw")
        #expect(rec.end == .error(String(describing: TestError.other)))
        #expect(rec.count == 3)
        #expect(calls.value == 2, "not called again after the throw")
        #expect(activations.value == 2, "the source is not bound again")
        #expect(vt.pendingCount == 0)
    }

    @Test(arguments: variants) func retryWhenShouldRetryThrowEndsWithTheThrownError(_ v: DeliveryVariant) {
        let attempts = Tally()
        let rec = Recorder(Signal<Int>.retry(when: { (_: any Error, n: Int) throws -> Signal<Void>? in
            if n == 2 { throw TestError.other }
            return Signal<Void>.just((), delivery: v)
        }, {
            let n = attempts.next()
            return Signal<Int>.generate(delivery: v) { input in
                input?.send(value: n)
                input?.send(end: .other(TestError.boom))
            }
        }))
        #expect(rec.values == [1, 2])
        #expect(rec.end == .error(String(describing: TestError.other)))
        #expect(rec.count == 3)
        #expect(attempts.value == 2)
    }

    @Test(arguments: variants) func retryWhenAThrowingAttemptIsAFailedAttempt(_ v: DeliveryVariant) {
        let attempts = Tally()
        let seen = Collected<String>()
        let rec = Recorder(Signal<Int>.retry(when: { (error: any Error, n: Int) -> Signal<Void>? in
            seen.append("\(error)")
            return n < 3 ? Signal<Void>.just((), delivery: v) : nil
        }, { () throws -> Signal<Int> in
            let n = attempts.next()
            if n < 3 { throw TestError.other }
            return Signal<Int>.just(n, delivery: v)
        }))
        #expect(rec.values == [3])
        #expect(rec.end == .complete)
        #expect(seen.all == ["\(TestError.other)", "\(TestError.other)"])
    }

    // MARK: - join and groupJoin

    @Test(arguments: variants) func joinWindowThrowEndsAndReleasesTheRightSignal(_ v: DeliveryVariant) {
        let probe = ThrowingProbe(throwAt: 3)
        let (left, right, r) = graph2(v, Int.self, Int.self) { l, rt in
            l.join(withRight: rt, leftEnd: { (x: Int) throws -> Signal<Void> in
                try probe.check(x)
                return Signal<Void>.never(delivery: v)
            }, rightEnd: { _ in Signal<Void>.never(delivery: v) }) { "\($0.0)\($0.1)" }
        }
        left.send(value: 1)
        right.send(value: 10)
        left.send(value: 2)
        left.send(value: 3)  // throws
        right.send(value: 20)
        left.send(value: 4)
        #expect(r.values == ["110", "210"], "no pair for the value whose window threw")
        #expect(r.end == .boom)
        #expect(r.count == 3)
        #expect(probe.seen == [1, 2, 3])
        #expect(right.send(value: 30) != nil, "the right signal is released with the graph")
        #expect(left.send(value: 5) != nil)
    }

    @Test(arguments: variants) func joinProcessorThrowEndsTheResult(_ v: DeliveryVariant) {
        let (left, right, r) = graph2(v, Int.self, Int.self) { l, rt in
            l.join(withRight: rt, leftEnd: { _ in Signal<Void>.never(delivery: v) }, rightEnd: { _ in Signal<Void>.never(delivery: v) }) {
                (pair: (Int, Int)) throws -> Int in
                if pair.0 == 2 { throw TestError.boom }
                return pair.0 + pair.1
            }
        }
        left.send(value: 1)
        right.send(value: 10)
        left.send(value: 2)
        right.send(value: 20)
        #expect(r.values == [11])
        #expect(r.end == .boom)
        #expect(r.count == 2)
        withExtendedLifetime((left, right)) {}
    }

    @Test(arguments: variants) func groupJoinWindowThrowEndsTheOpenGroupsWithTheError(_ v: DeliveryVariant) {
        let groups = Collected<Recorder<Int>>()
        let (left, right, r) = graph2(v, Int.self, Int.self) { l, rt in
            l.groupJoin(withRight: rt, leftEnd: { _ in Signal<Void>.never(delivery: v) }, rightEnd: { (x: Int) throws -> Signal<Void> in
                if x == 20 { throw TestError.boom }
                return Signal<Void>.never(delivery: v)
            }) { (pair: (Int, Signal<Int>)) -> Int in
                groups.append(Recorder(pair.1))
                return pair.0
            }
        }
        left.send(value: 1)
        right.send(value: 10)
        right.send(value: 20)  // throws
        #expect(r.values == [1])
        #expect(r.end == .boom)
        #expect(groups.all.map(\.values) == [[10]], "the value whose window threw is not delivered")
        #expect(groups.all.map(\.end) == [.boom])
        #expect(left.send(value: 2) != nil)
        withExtendedLifetime(right) {}
    }

    // MARK: - Per-value delays

    @Test(arguments: variants) func delaySignalOffsetThrowDropsTheWaitingValues(_ v: DeliveryVariant) {
        let triggers = Collected<SignalInput<Void>>()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.delay { (x: Int) throws -> Signal<Void> in
            if x == 3 { throw TestError.boom }
            let (i, s) = Signal<Void>.create(delivery: v)
            triggers.append(i)
            return s
        })
        input.send(value: 1)
        input.send(value: 2)
        triggers.all[0].send(value: ())
        input.send(value: 3)  // throws while 2 waits
        #expect(triggers.all[1].send(value: ()) != nil, "the waiting value's trigger is released")
        input.send(value: 4)
        #expect(rec.values == [1])
        #expect(rec.end == .boom)
        #expect(rec.count == 2)
        #expect(triggers.all.count == 2, "offset is not called after the throw")
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func delayIntervalOffsetThrowEndsAtOnce(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let calls = Tally()
        let rec = Recorder(signal.delay(initialState: 0, context: .custom(vt)) { (n: inout Int, x: Int) throws -> Duration in
            calls.bump()
            n += 1
            if n == 2 { throw TestError.boom }
            return .seconds(x)
        })
        input.send(value: 5)
        input.send(value: 1)  // throws while 5 waits
        input.send(value: 1)
        vt.advance(by: .seconds(10))
        #expect(rec.values == [])
        #expect(rec.end == .boom)
        #expect(calls.value == 2)
        #expect(vt.pendingCount == 0, "the waiting value's timer is cancelled")
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func delayStatefulSignalOffsetThrowEnds(_ v: DeliveryVariant) {
        let rec = run(v, [1, 2, 3]) {
            $0.delay(initialState: 0) { (n: inout Int, _: Int) throws -> Signal<Void> in
                n += 1
                if n == 3 { throw TestError.boom }
                return Signal<Void>.just((), delivery: v)
            }
        }
        #expect(rec.values == [1, 2])
        #expect(rec.end == .boom)
    }
}
