import Signals
import Synchronization
import Testing

/// The throwing selectors of `combineLatest` and `withLatestFrom`, the throwing flatMap
/// family, `catchError` with a throwing recovery, and the throwing factories of
/// `Signal.retry(count:_:)` and `Signal.deferred`.
@Suite struct ThrowingCombiningTests {
    static let variants = DeliveryVariant.allCases

    // MARK: - Selectors

    @Test(arguments: variants) func combineLatestSelectorThrowEndsAndReleasesTheInputs(_ v: DeliveryVariant) {
        let probe = ThrowingProbe(throwAt: 3)
        let vt = VirtualTimeContext()
        let (a, b, r) = graph2(v, Int.self, Int.self) { sa, sb in
            sa.combineLatest(sb) { x, y in try probe.check(x); return x * 10 + y }.hop(to: .custom(vt))
        }
        a.send(value: 1)
        b.send(value: 1)
        a.send(value: 2)
        b.send(value: 2)
        a.send(value: 3)  // throws
        // The end waits behind the hop: the combine stage is still attached and gets these.
        b.send(value: 3)
        a.send(value: 4)
        vt.runUntilIdle()
        #expect(r.values == [11, 21, 22])
        #expect(r.end == .boom)
        #expect(r.count == 4)
        #expect(probe.seen == [1, 2, 2, 3])
        // Both inputs were released with the graph.
        #expect(a.send(value: 5) != nil)
        #expect(b.send(value: 5) != nil)
    }

    @Test(arguments: variants) func combineLatestWithoutAThrowMatchesThePlainForm(_ v: DeliveryVariant) {
        for throwing in [false, true] {
            let (a, b, r) = graph2(v, Int.self, String.self) { sa, sb in
                throwing ? sa.combineLatest(sb) { (x: Int, y: String) throws -> String in "\(x)\(y)" }
                    : sa.combineLatest(sb) { "\($0)\($1)" }
            }
            a.send(value: 1)
            b.send(value: "a")
            a.send(value: 2)
            a.complete()
            b.send(value: "b")
            b.complete()
            #expect(r.values == ["1a", "2a", "2b"])
            #expect(r.end == .complete)
        }
    }

    @Test(arguments: variants) func combineLatestOfThreeToFiveInputsEndsAtAThrow(_ v: DeliveryVariant) {
        let inputs = (0..<3).map { _ in Signal<Int>.create(delivery: v) }
        let s = inputs.map(\.signal)
        let three = Recorder(s[0].combineLatest(s[1], s[2]) { (x: Int, y: Int, z: Int) throws -> Int in
            if x + y + z > 3 { throw TestError.boom }
            return x + y + z
        })
        let p = (0..<4).map { _ in Signal<Int>.create(delivery: v) }
        let four = Recorder(p[0].signal.combineLatest(p[1].signal, p[2].signal, p[3].signal) {
            (a: Int, b: Int, c: Int, d: Int) throws -> Int in
            if a + b + c + d > 4 { throw TestError.boom }
            return a + b + c + d
        })
        let q = (0..<5).map { _ in Signal<Int>.create(delivery: v) }
        let five = Recorder(q[0].signal.combineLatest(q[1].signal, q[2].signal, q[3].signal, q[4].signal) {
            (a: Int, b: Int, c: Int, d: Int, e: Int) throws -> Int in
            if a + b + c + d + e > 5 { throw TestError.boom }
            return a + b + c + d + e
        })
        for i in inputs { i.input.send(value: 1) }
        inputs[0].input.send(value: 2)
        for i in p { i.input.send(value: 1) }
        p[3].input.send(value: 2)
        for i in q { i.input.send(value: 1) }
        q[4].input.send(value: 2)
        #expect(three.values == [3])
        #expect(three.end == .boom)
        #expect(four.values == [4])
        #expect(four.end == .boom)
        #expect(five.values == [5])
        #expect(five.end == .boom)
        withExtendedLifetime((inputs, p, q)) {}
    }

    @Test(arguments: variants) func withLatestFromSelectorThrowEndsAndReleasesTheInputs(_ v: DeliveryVariant) {
        let probe = ThrowingProbe(throwAt: 2)
        let vt = VirtualTimeContext()
        let (a, b, r) = graph2(v, Int.self, String.self) { sa, sb in
            sa.withLatestFrom(sb) { x, y in try probe.check(x); return "\(x)\(y)" }.hop(to: .custom(vt))
        }
        a.send(value: 0)  // no latest yet: dropped without a call
        b.send(value: "a")
        a.send(value: 1)
        a.send(value: 2)  // throws
        a.send(value: 3)
        vt.runUntilIdle()
        #expect(r.values == ["1a"])
        #expect(r.end == .boom)
        #expect(r.count == 2)
        #expect(probe.seen == [1, 2])
        #expect(a.send(value: 4) != nil)
        #expect(b.send(value: "b") != nil)
    }

    @Test(arguments: variants) func withLatestFromWithoutAThrowMatchesThePlainForm(_ v: DeliveryVariant) {
        for throwing in [false, true] {
            let (a, b, r) = graph2(v, Int.self, String.self) { sa, sb in
                throwing ? sa.withLatestFrom(sb) { (x: Int, y: String) throws -> String in "\(x)\(y)" }
                    : sa.withLatestFrom(sb) { "\($0)\($1)" }
            }
            b.send(value: "a")
            a.send(value: 1)
            b.send(value: "b")
            a.send(value: 2)
            a.complete()
            #expect(r.values == ["1a", "2b"])
            #expect(r.end == .complete)
            withExtendedLifetime(b) {}
        }
    }

    // MARK: - Flattening

    typealias Flattener = @Sendable (Signal<Int>, @escaping @Sendable (Int) throws -> Signal<Int>) -> Signal<Int>

    static let flatteners: [(String, Flattener)] = [
        ("flatMap", { s, f in s.flatMap(f) }),
        ("flatMap(maxConcurrent:)", { s, f in s.flatMap(maxConcurrent: 1, f) }),
        ("flatMapLatest", { s, f in s.flatMapLatest(f) }),
        ("concatMap", { s, f in s.concatMap(f) }),
        ("flatMapFirst", { s, f in s.flatMapFirst(f) }),
    ]

    /// Inner signals that stay open, each holding a canary; their inputs are kept so the test
    /// can see whether the inner subscriptions are still there.
    final class Inners: Sendable {
        let inputs = Collected<SignalInput<Int>>()
        let released = Collected<Flagged>()
        let variant: DeliveryVariant
        init(_ variant: DeliveryVariant) { self.variant = variant }

        func make(_ n: Int) -> Signal<Int> {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            inputs.append(input)
            let flag = Flagged()
            released.append(flag)
            let canary = Canary(flag)
            return signal.map { v in withExtendedLifetime(canary) { v + n * 100 } }
        }
    }

    @Test(arguments: variants) func flatMapFamilyThrowEndsAtOnceAndReleasesTheInnerSignals(_ v: DeliveryVariant) {
        // flatMapFirst is left out: it calls its closure only while no inner signal runs, so
        // a throw never finds one to release (flatMapFirstCallsItsClosureOnlyForTheValuesItTakes).
        for (name, flatten) in Self.flatteners where name != "flatMapFirst" {
            let inners = Inners(v)
            let probe = ThrowingProbe(throwAt: 2)
            let (outer, signal) = Signal<Int>.create(delivery: v)
            let r = Recorder(flatten(signal) { n in
                try probe.check(n)
                return inners.make(n)
            })
            outer.send(value: 1)
            inners.inputs.all[0].send(value: 1)
            #expect(r.values == [101], "\(name)")
            outer.send(value: 2)  // throws
            #expect(r.end == .boom, "\(name)")
            #expect(r.values == [101], "\(name)")
            // The inner subscription was released at the throw, while the result's output is
            // still held: its input is disconnected and nothing holds its canary.
            #expect(inners.inputs.all[0].send(value: 2) != nil, "\(name): the inner signal is still subscribed")
            #expect(inners.released.all.allSatisfy { $0.isSet }, "\(name): an inner signal outlived the throw")
            #expect(outer.send(value: 3) != nil, "\(name)")
            #expect(probe.seen == [1, 2], "\(name)")
            withExtendedLifetime(r) {}
        }
    }

    @Test(arguments: variants) func concatMapThrowReleasesTheWaitingInnerSignals(_ v: DeliveryVariant) {
        let inners = Inners(v)
        let probe = ThrowingProbe(throwAt: 3)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.concatMap { n in
            try probe.check(n)
            return inners.make(n)
        })
        outer.send(value: 1)
        outer.send(value: 2)  // waits its turn
        inners.inputs.all[0].send(value: 1)
        outer.send(value: 3)  // throws
        #expect(r.values == [101])
        #expect(r.end == .boom)
        #expect(probe.seen == [1, 2, 3])
        #expect(inners.released.all.count == 2)
        #expect(inners.released.all.allSatisfy { $0.isSet })
        withExtendedLifetime(r) {}
    }

    @Test(arguments: variants) func flatMapFirstCallsItsClosureOnlyForTheValuesItTakes(_ v: DeliveryVariant) {
        let inners = Inners(v)
        let probe = ThrowingProbe(throwAt: 3)
        let (outer, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.flatMapFirst { n in
            try probe.check(n)
            return inners.make(n)
        })
        outer.send(value: 1)
        outer.send(value: 2)  // ignored while 1 runs: no call
        inners.inputs.all[0].send(value: 5)
        inners.inputs.all[0].complete()
        outer.send(value: 3)  // throws
        outer.send(value: 4)
        #expect(r.values == [105])
        #expect(r.end == .boom)
        #expect(probe.seen == [1, 3])
    }

    @Test(arguments: variants) func flatMapFamilyWithoutAThrowMatchesThePlainForms(_ v: DeliveryVariant) {
        let plain: [(String, @Sendable (Signal<Int>) -> Signal<Int>)] = [
            ("flatMap", { $0.flatMap { Signal.just($0, $0 * 10, delivery: v) } }),
            ("flatMap(maxConcurrent:)", { $0.flatMap(maxConcurrent: 1) { Signal.just($0, $0 * 10, delivery: v) } }),
            ("flatMapLatest", { $0.flatMapLatest { Signal.just($0, $0 * 10, delivery: v) } }),
            ("concatMap", { $0.concatMap { Signal.just($0, $0 * 10, delivery: v) } }),
            ("flatMapFirst", { $0.flatMapFirst { Signal.just($0, $0 * 10, delivery: v) } }),
        ]
        for ((name, flatten), (_, plainForm)) in zip(Self.flatteners, plain) {
            let thrown = run(v, [1, 2, 3]) { s in flatten(s) { (n: Int) throws -> Signal<Int> in Signal.just(n, n * 10, delivery: v) } }
            let expected = run(v, [1, 2, 3], plainForm)
            #expect(thrown.values == expected.values, "\(name)")
            #expect(thrown.end == expected.end, "\(name)")
            #expect(thrown.values.count == 6, "\(name)")
        }
    }

    @Test(arguments: variants) func flatMapStartsAfreshAfterAThrow(_ v: DeliveryVariant) {
        for (name, flatten) in Self.flatteners {
            let again = throwThenReactivate(v, first: [1, 2, 3], second: [4, 5], throwAt: 2) { s, p in
                flatten(s) { n in try p.check(n); return Signal.just(n, delivery: v) }
            }
            #expect(again.first == [1], "\(name)")
            #expect(again.firstEnd == .boom, "\(name)")
            #expect(again.second == [4, 5], "\(name)")
            #expect(again.secondEnd == nil, "\(name)")
        }
    }

    @Test(arguments: variants) func flatMapMaxConcurrentKeepsItsArgumentRule(_ v: DeliveryVariant) {
        let r = run(v, [1]) { s in s.flatMap(maxConcurrent: 0) { (n: Int) throws -> Signal<Int> in Signal.just(n, delivery: v) } }
        #expect(r.values.isEmpty)
        #expect(r.end.map { "\($0)".contains("maxConcurrent") } == true)
    }

    // MARK: - Recovering and factories

    @Test(arguments: variants) func catchErrorRecoveryThatThrowsEndsWithTheThrownError(_ v: DeliveryVariant) {
        let seen = Collected<String>()
        let thrown = run(v, [1, 2], end: .other(TestError.other)) { s in
            s.catchError { (error: any Error) throws -> Signal<Int> in
                seen.append("\(error)")
                throw TestError.boom
            }
        }
        #expect(thrown.values == [1, 2])
        #expect(thrown.end == .boom)
        #expect(seen.all == ["\(TestError.other)"])

        let recovered = run(v, [1], end: .other(TestError.other)) { s in
            s.catchError { (error: any Error) throws -> Signal<Int> in
                guard error is TestError else { throw TestError.boom }
                return Signal.just(7, delivery: v)
            }
        }
        #expect(recovered.values == [1, 7])
        #expect(recovered.end == .complete)
    }

    @Test(arguments: variants) func retryCountsAThrowingAttemptAsAFailedOne(_ v: DeliveryVariant) {
        let attempts = Collected<Int>()
        let recovered = Recorder(Signal<Int>.retry(count: 2) { () throws -> Signal<Int> in
            attempts.append(1)
            let n = attempts.all.count
            if n < 3 { throw TestError.boom }
            return Signal.just(n, delivery: v)
        })
        #expect(recovered.values == [3])
        #expect(recovered.end == .complete)

        let calls = Collected<Int>()
        let failed = Recorder(Signal<Int>.retry(count: 2) { () throws -> Signal<Int> in
            calls.append(1)
            throw TestError.boom
        })
        #expect(failed.values.isEmpty)
        #expect(failed.end == .boom)
        #expect(calls.all.count == 3)
    }

    @Test(arguments: variants) func deferredThatThrowsEndsThatActivation(_ v: DeliveryVariant) {
        let calls = Collected<Int>()
        let signal = Signal<Int>.deferred { () throws -> Signal<Int> in
            calls.append(1)
            let n = calls.all.count
            if n == 1 { throw TestError.boom }
            return Signal.just(n, delivery: v)
        }
        let first = Recorder(signal)
        #expect(first.values.isEmpty)
        #expect(first.end == .boom)
        first.cancel()
        let second = Recorder(signal)
        #expect(second.values == [2])
        #expect(second.end == .complete)
    }
}
