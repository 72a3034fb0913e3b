import Signals
import Synchronization
import Testing

/// The throwing forms of `map`, `map(initialState:)`, `filter`, `compactMap`, `scan`,
/// `reduce`, `distinctUntilChanged(by:)`, `mapErrors` and `groupBy`.
@Suite struct ThrowingTransformTests {
    static let variants = DeliveryVariant.allCases

    static let cases: [ThrowingCase] = [
        ThrowingCase(
            name: "map",
            plain: { $0.map { $0 * 10 }.map { "\($0)" } },
            throwing: { s, p in s.map { v in try p.check(v); return v * 10 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "map(initialState:)",
            plain: { $0.map(initialState: 0) { (sum: inout Int, v: Int) in sum += v; return sum }.map { "\($0)" } },
            throwing: { s, p in
                s.map(initialState: 0) { (sum: inout Int, v: Int) in
                    sum += v
                    try p.check(v)
                    return sum
                }.map { "\($0)" }
            },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "filter",
            plain: { $0.filter { $0 % 2 == 0 }.map { "\($0)" } },
            throwing: { s, p in s.filter { v in try p.check(v); return v % 2 == 0 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "compactMap",
            plain: { $0.compactMap { $0 % 2 == 0 ? $0 * 10 : nil }.map { "\($0)" } },
            throwing: { s, p in s.compactMap { v in try p.check(v); return v % 2 == 0 ? v * 10 : nil }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "scan",
            plain: { $0.scan(initialValue: 100) { $0 + $1 }.map { "\($0)" } },
            throwing: { s, p in s.scan(initialValue: 100) { a, v in try p.check(v); return a + v }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "reduce",
            plain: { $0.reduce(initialValue: 100) { $0 + $1 }.map { "\($0)" } },
            throwing: { s, p in s.reduce(initialValue: 100) { a, v in try p.check(v); return a + v }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            // 1 and 2, 3 and 4 count as the same; the first value of an activation is let
            // through without a call.
            name: "distinctUntilChanged(by:)",
            plain: { $0.distinctUntilChanged { ($0 + 1) / 2 == ($1 + 1) / 2 }.map { "\($0)" } },
            throwing: { s, p in
                s.distinctUntilChanged { a, b in try p.check(b); return (a + 1) / 2 == (b + 1) / 2 }.map { "\($0)" }
            },
            throwAt: [2, 3]),
    ]

    @Test(arguments: variants) func throwingFormsEndAtTheThrowAndStartAfresh(_ v: DeliveryVariant) {
        for c in Self.cases { checkThrowingForm(c, v) }
    }

    @Test(arguments: variants) func scanStartsFromItsInitialValueAfterAThrow(_ v: DeliveryVariant) {
        let again = throwThenReactivate(v, first: [1, 2, 3], second: [4, 5], throwAt: 3) { s, p in
            s.scan(initialValue: 0) { a, v in try p.check(v); return a + v }
        }
        #expect(again.first == [1, 3])
        #expect(again.firstEnd == .boom)
        #expect(again.second == [4, 9])
        #expect(again.secondEnd == nil)
    }

    @Test(arguments: variants) func aThrowReleasesTheStateTheStageHeld(_ v: DeliveryVariant) {
        // reduce keeps every value in its state; behind the hop the stage stays attached after
        // the throw, so only the throw itself can have let the state go.
        let vt = VirtualTimeContext()
        let flags = [Flagged(), Flagged()]
        let (input, signal) = Signal<Canary?>.create(delivery: v)
        let r = Recorder(signal.reduce(initialValue: [Canary]()) { (kept: [Canary], c: Canary?) throws -> [Canary] in
            guard let c else { throw TestError.boom }
            return kept + [c]
        }.map(\.count).hop(to: .custom(vt)))
        for flag in flags { input.send(value: Canary(flag)) }
        #expect(!flags.contains { $0.isSet })
        input.send(value: nil)  // throws
        #expect(flags.allSatisfy { $0.isSet }, "the stage kept its state after the throw")
        vt.runUntilIdle()
        #expect(r.values.isEmpty)
        #expect(r.end == .boom)
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func mapErrorsEndsWithTheThrownError(_ v: DeliveryVariant) {
        let probe = ThrowingProbe(throwAt: nil)
        let thrown = run(v, [1, 2], end: .other(TestError.other)) { s in
            s.mapErrors { (error: any Error) throws -> any Error in
                try probe.check(0)
                throw TestError.boom
            }
        }
        #expect(thrown.values == [1, 2])
        #expect(thrown.end == .boom)
        #expect(probe.seen == [0])

        let returned = run(v, [1], end: .other(TestError.other)) { s in
            s.mapErrors { (error: any Error) throws -> any Error in
                if error is SignalOperatorError { throw TestError.other }
                return TestError.boom
            }
        }
        #expect(returned.values == [1])
        #expect(returned.end == .boom)

        // Completion and cancellation pass through without a call.
        for end in [SignalEnd.complete, .cancelled] {
            let passed = run(v, [1], end: end) { s in
                s.mapErrors { (error: any Error) throws -> any Error in
                    try probe.check(1)
                    return error
                }
            }
            #expect(passed.values == [1])
            #expect(passed.end == End(end))
        }
        #expect(probe.seen == [0])
    }

    @Test(arguments: variants) func groupByKeyThrowEndsEveryGroupAndTheResult(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let groups = Collected<Recorder<Int>>()
        let probe = ThrowingProbe(throwAt: 5)
        let outer = Recorder(signal.groupBy { (n: Int) throws -> Int in
            try probe.check(n)
            return n % 2
        }.map { (g: SignalGroup<Int, Int>) -> Int in
            groups.append(Recorder(g.signal))
            return g.key
        })
        for n in [1, 2, 3, 5, 7] { input.send(value: n) }
        #expect(outer.values == [1, 0])
        #expect(outer.end == .boom)
        #expect(groups.all.map(\.values) == [[1, 3], [2]])
        #expect(groups.all.map(\.end) == [.boom, .boom])
        #expect(probe.seen == [1, 2, 3, 5])
        withExtendedLifetime(input) {}
    }

    @Test(arguments: variants) func groupByWithoutAThrowMatchesThePlainForm(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let groups = Collected<Recorder<Int>>()
        let outer = Recorder(signal.groupBy { (n: Int) throws -> Int in n % 3 }.map { (g: SignalGroup<Int, Int>) -> Int in
            groups.append(Recorder(g.signal))
            return g.key
        })
        for n in 1...6 { input.send(value: n) }
        input.complete()
        #expect(outer.values == [1, 2, 0])
        #expect(outer.end == .complete)
        #expect(groups.all.map(\.values) == [[1, 4], [2, 5], [3, 6]])
        #expect(groups.all.map(\.end) == [.complete, .complete, .complete])
    }

    @Test(arguments: variants) func groupByStartsWithNoGroupsAfterAThrow(_ v: DeliveryVariant) {
        let again = throwThenReactivate(v, first: [1, 2, 3], second: [4, 5, 6], throwAt: 2) { s, p in
            s.groupBy { (n: Int) throws -> Int in try p.check(n); return n % 2 }.map(\.key)
        }
        #expect(again.first == [1])
        #expect(again.firstEnd == .boom)
        #expect(again.second == [0, 1])
    }
}
