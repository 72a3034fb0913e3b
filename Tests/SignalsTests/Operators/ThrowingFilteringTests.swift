import Signals
import Testing

/// The throwing forms of `first(where:)`, `last(where:)`, `single(where:)`, `skipWhile` and
/// `takeWhile`.
@Suite struct ThrowingFilteringTests {
    static let variants = DeliveryVariant.allCases

    static let cases: [ThrowingCase] = [
        ThrowingCase(
            name: "first(where:)",
            plain: { $0.first { $0 == 3 }.map { "\($0)" } },
            throwing: { s, p in s.first { v in try p.check(v); return v == 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "last(where:)",
            plain: { $0.last { $0 % 2 == 1 }.map { "\($0)" } },
            throwing: { s, p in s.last { v in try p.check(v); return v % 2 == 1 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "single(where:)",
            plain: { $0.single { $0 == 2 }.map { "\($0)" } },
            throwing: { s, p in s.single { v in try p.check(v); return v == 2 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "single(where:) with two matches",
            plain: { $0.single { $0 > 1 }.map { "\($0)" } },
            throwing: { s, p in s.single { v in try p.check(v); return v > 1 }.map { "\($0)" } },
            throwAt: [1, 2]),
        ThrowingCase(
            name: "skipWhile",
            plain: { $0.skipWhile { $0 < 3 }.map { "\($0)" } },
            throwing: { s, p in s.skipWhile { v in try p.check(v); return v < 3 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "takeWhile",
            plain: { $0.takeWhile { $0 < 4 }.map { "\($0)" } },
            throwing: { s, p in s.takeWhile { v in try p.check(v); return v < 4 }.map { "\($0)" } },
            throwAt: [1, 3]),
    ]

    @Test(arguments: variants) func throwingFormsEndAtTheThrowAndStartAfresh(_ v: DeliveryVariant) {
        for c in Self.cases { checkThrowingForm(c, v) }
    }

    @Test(arguments: variants) func predicatesAreNotCalledOnceTheyHaveDecided(_ v: DeliveryVariant) {
        // first(where:) and takeWhile end the stage themselves; skipWhile stops asking once
        // its gate is open. Behind the hop the stage still sees every later value.
        let first = runThrowing(v, [1, 2, 3, 4], throwAt: nil) { s, p in s.first { v in try p.check(v); return v == 2 } }
        #expect(first.values == [2])
        #expect(first.end == .complete)
        #expect(first.calls == [1, 2])
        #expect(first.resultCount == 2)

        let take = runThrowing(v, [1, 2, 3, 4], throwAt: nil) { s, p in s.takeWhile { v in try p.check(v); return v < 2 } }
        #expect(take.values == [1])
        #expect(take.end == .complete)
        #expect(take.calls == [1, 2])

        let skip = runThrowing(v, [1, 2, 3, 4], throwAt: 4) { s, p in s.skipWhile { v in try p.check(v); return v < 2 } }
        #expect(skip.values == [2, 3, 4])
        #expect(skip.end == .complete)
        #expect(skip.calls == [1, 2])
    }
}
