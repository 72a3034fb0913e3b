import Signals
import Testing

/// The throwing forms of `min(by:)`, `max(by:)`, `all`, `contains(where:)`, `find` and the
/// taps `onValue`, `onEnd`, `onResult`.
@Suite struct ThrowingAggregateTests {
    static let variants = DeliveryVariant.allCases

    static let cases: [ThrowingCase] = [
        ThrowingCase(
            // Called with the new value first; the first value is kept without a call.
            name: "min(by:)",
            plain: { $0.min { $0 % 3 < $1 % 3 }.map { "\($0)" } },
            throwing: { s, p in s.min { a, b in try p.check(a); return a % 3 < b % 3 }.map { "\($0)" } },
            throwAt: [2, 3]),
        ThrowingCase(
            // Called with the kept value first.
            name: "max(by:)",
            plain: { $0.max { $0 % 3 < $1 % 3 }.map { "\($0)" } },
            throwing: { s, p in s.max { a, b in try p.check(b); return a % 3 < b % 3 }.map { "\($0)" } },
            throwAt: [2, 3]),
        ThrowingCase(
            name: "all",
            plain: { $0.all { $0 < 10 }.map { "\($0)" } },
            throwing: { s, p in s.all { v in try p.check(v); return v < 10 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "contains(where:)",
            plain: { $0.contains { $0 == 4 }.map { "\($0)" } },
            throwing: { s, p in s.contains { v in try p.check(v); return v == 4 }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "find",
            plain: { $0.find { $0 == 4 }.map { "\(String(describing: $0))" } },
            throwing: { s, p in s.find { v in try p.check(v); return v == 4 }.map { "\(String(describing: $0))" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "onValue",
            plain: { $0.onValue { _ in }.map { "\($0)" } },
            throwing: { s, p in s.onValue { v in try p.check(v) }.map { "\($0)" } },
            throwAt: [1, 3]),
        ThrowingCase(
            name: "onResult",
            plain: { $0.onResult { _ in }.map { "\($0)" } },
            throwing: { s, p in s.onResult { r in if case .success(let v) = r { try p.check(v) } }.map { "\($0)" } },
            throwAt: [1, 3]),
    ]

    @Test(arguments: variants) func throwingFormsEndAtTheThrowAndStartAfresh(_ v: DeliveryVariant) {
        for c in Self.cases { checkThrowingForm(c, v) }
    }

    @Test(arguments: variants) func minAndMaxPickTheSameValueAsThePlainForms(_ v: DeliveryVariant) {
        let values = [5, 3, 8, 1, 9, 2]
        let min = runThrowing(v, values, throwAt: nil) { s, p in s.min { a, b in try p.check(a); return a < b } }
        let max = runThrowing(v, values, throwAt: nil) { s, p in s.max { a, b in try p.check(b); return a < b } }
        #expect(min.values == [1])
        #expect(max.values == [9])
        #expect(min.calls == [3, 8, 1, 9, 2])
    }

    @Test(arguments: variants) func onEndReplacesTheEndWithTheThrownError(_ v: DeliveryVariant) {
        for end in [SignalEnd.complete, .cancelled, .other(TestError.other)] {
            let seen = Collected<End>()
            let thrown = run(v, [1, 2], end: end) { s in
                s.onEnd { (e: SignalEnd) throws in
                    seen.append(End(e))
                    throw TestError.boom
                }
            }
            #expect(thrown.values == [1, 2])
            #expect(thrown.end == .boom)
            #expect(seen.all == [End(end)])

            let passed = run(v, [1, 2], end: end) { s in s.onEnd { (e: SignalEnd) throws in seen.append(End(e)) } }
            #expect(passed.values == [1, 2])
            #expect(passed.end == End(end))
        }
    }

    @Test(arguments: variants) func onResultIsNotCalledWithTheErrorItThrew(_ v: DeliveryVariant) {
        let seen = Collected<String>()
        let thrown = runThrowing(v, [1, 2, 3], throwAt: 2) { s, p in
            s.onResult { r in
                seen.append("\(r)")
                if case .success(let v) = r { try p.check(v) }
            }
        }
        #expect(thrown.values == [1])
        #expect(thrown.end == .boom)
        #expect(seen.all.count == 2)

        // A throw at the end replaces it.
        let atEnd = run(v, [1], end: .complete) { s in
            s.onResult { (r: Result<Int, SignalEnd>) throws in if case .failure = r { throw TestError.boom } }
        }
        #expect(atEnd.values == [1])
        #expect(atEnd.end == .boom)
    }
}
