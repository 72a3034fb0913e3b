import Signals
import Testing

/// The seedless `scan` and `reduce`, `distinct` with a key and with a flush signal, and
/// `sequenceEqual` with a comparator (RxJS's forms): results, per-activation state, ends,
/// their throwing overloads and what they release.
@Suite struct SeedlessKeyedFormTests {
    static let variants = DeliveryVariant.allCases

    // MARK: - Seedless scan and reduce

    @Test(arguments: variants) func seedlessScanStartsFromTheFirstValue(_ v: DeliveryVariant) {
        let calls = Collected<(Int, Int)>()
        let r = run(v, [1, 2, 3]) { $0.scan { a, x in calls.append((a, x)); return a + x } }
        #expect(r.values == [1, 3, 6])
        #expect(r.end == .complete)
        #expect(calls.all.map(\.0) == [1, 3], "the first value is the seed: no call for it")
        #expect(run(v, []) { $0.scan(+) }.values == [])
        let failed = run(v, [4, 5], end: .other(TestError.boom)) { $0.scan(+) }
        #expect(failed.values == [4, 9])
        #expect(failed.end == .boom)
        let reset = reactivate(v, first: [1, 2], second: [3, 4]) { $0.scan(+) }
        #expect(reset.second == [3, 7], "a new activation starts without a seed")
    }

    @Test(arguments: variants) func seedlessReduceOfAnEmptySignalCompletesWithoutAValue(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3]) { $0.reduce(+) }
        #expect(r.values == [6])
        #expect(r.end == .complete)
        let one = run(v, [7]) { $0.reduce { _, _ in Issue.record("called for one value"); return 0 } }
        #expect(one.values == [7])
        let empty = run(v, []) { $0.reduce(+) }
        #expect(empty.values == [])
        #expect(empty.end == .complete)
        let failed = run(v, [1, 2], end: .other(TestError.boom)) { $0.reduce(+) }
        #expect(failed.values == [])
        #expect(failed.end == .boom)
        let cancelled = run(v, [1, 2], end: .cancelled) { $0.reduce(+) }
        #expect(cancelled.values == [])
        #expect(cancelled.end == .cancelled)
        let reset = reactivate(v, first: [1, 2], second: [3, 4], endSecond: .complete) { $0.reduce(+) }
        #expect(reset.second == [7], "a new activation starts without a seed")
    }

    // MARK: - distinct

    @Test(arguments: variants) func distinctByKeyDropsRepeatedKeys(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3, 4, 5, 6]) { $0.distinct { $0 % 3 } }
        #expect(r.values == [1, 2, 3])
        #expect(r.end == .complete)
        let reset = reactivate(v, first: [1, 4], second: [4, 7, 5]) { $0.distinct { $0 % 3 } }
        #expect(reset.first == [1])
        #expect(reset.second == [4, 5], "the keys seen are per activation")
    }

    @Test(arguments: variants) func distinctFlushesForgetTheValuesSeen(_ v: DeliveryVariant) {
        let (values, flushes, r) = graph2(v, Int.self, Void.self) { $0.distinct(flushes: $1) }
        values.send(value: 1)
        values.send(value: 2)
        values.send(value: 1)
        flushes.send(value: ())
        values.send(value: 1)
        values.send(value: 2)
        flushes.complete()
        values.send(value: 1)
        values.send(value: 3)
        #expect(r.values == [1, 2, 1, 2, 3], "the flushes' completion is ignored")
        values.complete()
        #expect(r.end == .complete)

        let (keyed, keyFlushes, k) = graph2(v, Int.self, Int.self) { $0.distinct(flushes: $1) { $0 % 2 } }
        keyed.send(value: 1)
        keyed.send(value: 3)
        keyFlushes.send(value: 0)
        keyed.send(value: 5)
        keyed.send(value: 7)
        #expect(k.values == [1, 5])
        withExtendedLifetime((keyed, keyFlushes)) {}
    }

    @Test(arguments: variants) func distinctFlushesErrorEndsTheResultAndReleasesBoth(_ v: DeliveryVariant) {
        let (values, flushes, r) = graph2(v, Int.self, Void.self) { $0.distinct(flushes: $1) }
        values.send(value: 1)
        flushes.send(end: .other(TestError.boom))
        #expect(r.values == [1])
        #expect(r.end == .boom)
        #expect(values.send(value: 2) != nil, "the source is released with the graph")
    }

    // MARK: - sequenceEqual with a comparator

    @Test(arguments: variants) func sequenceEqualByComparesWithTheClosureInArgumentOrder(_ v: DeliveryVariant) {
        let pairs = Collected<String>()
        let (a, b, r) = graph2(v, String.self, String.self) {
            $0.sequenceEqual($1) { x, y in pairs.append("\(x)/\(y)"); return x.lowercased() == y.lowercased() }
        }
        b.send(value: "A")
        a.send(value: "a")
        a.send(value: "b")
        b.send(value: "B")
        a.complete()
        b.complete()
        #expect(r.values == [true])
        #expect(r.end == .complete)
        #expect(pairs.all == ["a/A", "b/B"], "this signal's value first, whichever arrived first")

        let (c, d, unequal) = graph2(v, String.self, String.self) { $0.sequenceEqual($1) { $0.count == $1.count } }
        c.send(value: "xx")
        d.send(value: "y")
        #expect(unequal.values == [false])
        #expect(unequal.end == .complete)
        withExtendedLifetime((c, d)) {}
    }

    @Test(arguments: variants) func sequenceEqualByThrowEndsWithTheErrorAndReleasesBoth(_ v: DeliveryVariant) {
        let probe = ThrowingProbe(throwAt: 2)
        let (a, b, r) = graph2(v, Int.self, Int.self) {
            $0.sequenceEqual($1) { x, y in try probe.check(x); return x == y }
        }
        a.send(value: 1)
        b.send(value: 1)
        a.send(value: 2)
        b.send(value: 2)  // throws
        b.send(value: 3)
        a.send(value: 3)
        #expect(r.values == [])
        #expect(r.end == .boom)
        #expect(r.count == 1)
        #expect(probe.seen == [1, 2])
        #expect(a.send(value: 4) != nil)
        #expect(b.send(value: 4) != nil)
    }

    // MARK: - Throwing overloads

    static let throwingCases: [ThrowingCase] = [
        ThrowingCase(
            // The first value is the seed: the closure is first called with the second.
            name: "scan (seedless)",
            plain: { $0.scan { $0 + $1 }.map { "\($0)" } },
            throwing: { s, p in s.scan { a, x in try p.check(x); return a + x }.map { "\($0)" } },
            throwAt: [2, 4]),
        ThrowingCase(
            name: "reduce (seedless)",
            plain: { $0.reduce { $0 + $1 }.map { "\($0)" } },
            throwing: { s, p in s.reduce { a, x in try p.check(x); return a + x }.map { "\($0)" } },
            throwAt: [2, 4]),
        ThrowingCase(
            name: "distinct(by:)",
            plain: { $0.distinct { $0 % 3 }.map { "\($0)" } },
            throwing: { s, p in s.distinct { x in try p.check(x); return x % 3 }.map { "\($0)" } },
            throwAt: [1, 4]),
        ThrowingCase(
            name: "distinct(flushes:by:)",
            plain: { $0.distinct(flushes: Signal<Int>.never(delivery: $0.delivery)) { $0 % 3 }.map { "\($0)" } },
            throwing: { s, p in
                s.distinct(flushes: Signal<Int>.never(delivery: s.delivery)) { x in try p.check(x); return x % 3 }.map { "\($0)" }
            },
            throwAt: [1, 4]),
    ]

    @Test(arguments: variants) func throwingFormsEndAtTheThrowAndStartAfresh(_ v: DeliveryVariant) {
        for c in Self.throwingCases { checkThrowingForm(c, v) }
    }

    @Test(arguments: variants) func nonThrowingSpellingsPickThePlainForms(_ v: DeliveryVariant) {
        #expect(run(v, [1, 2, 3]) { $0.scan(+) }.values == [1, 3, 6])
        #expect(run(v, [1, 2, 3]) { $0.scan { $0 * $1 } }.values == [1, 2, 6])
        #expect(run(v, [1, 2, 3]) { $0.reduce(max) }.values == [3])
        #expect(run(v, [1, 2, 3]) { $0.distinct(by: { $0 / 2 }) }.values == [1, 2])
        #expect(run(v, [1, 2, 1]) { $0.distinct(flushes: Signal<Void>.never(delivery: v)) }.values == [1, 2])
    }

    // MARK: - Lifetimes

    @Test(arguments: variants) func closuresAndStateAreReleasedAfterAnEndOrACancel(_ v: DeliveryVariant) {
        typealias Op = @Sendable (Signal<Int>, DeinitCounter.Token, DeliveryVariant) -> Signal<Int>
        let ops: [(String, Op)] = [
            ("scan", { s, t, _ in s.scan { t.touch(); return $0 + $1 } }),
            ("reduce", { s, t, _ in s.reduce { t.touch(); return $0 + $1 } }),
            ("distinct(by:)", { s, t, _ in s.distinct { t.touch(); return $0 } }),
            ("distinct(flushes:by:)", { s, t, v in s.distinct(flushes: Signal<Void>.never(delivery: v)) { t.touch(); return $0 } }),
            ("sequenceEqual(by:)", { s, t, v in
                s.sequenceEqual(Signal<Int>.never(delivery: v)) { t.touch(); return $0 == $1 }.map { $0 ? 1 : 0 }
            }),
        ]
        for (name, op) in ops {
            for cancel in [false, true] {
                let counter = DeinitCounter()
                let (input, signal) = Signal<Int>.create(delivery: v)
                let recorder = Recorder(op(signal, counter.token(), v))
                input.send(value: 1)
                input.send(value: 2)
                if cancel { recorder.cancel() } else { input.send(end: .other(TestError.boom)) }
                #expect(counter.freed == 1, "\(name) (\(cancel ? "cancelled" : "ended")): its closure is still held")
                withExtendedLifetime(input) {}
            }
        }
    }
}
