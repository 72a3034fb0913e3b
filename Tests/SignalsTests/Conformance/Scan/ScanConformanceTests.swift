#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/scan-spec.ts, ported.
//
// Not ported (JavaScript only):
// - "should pass current index to accumulator": the accumulator's `index` argument.

@Suite("scan — rxjs spec/operators/scan-spec.ts")
struct ScanConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// The running arrays of the spec's "scan things" cases.
    static let arrays: [Character: [String]] = [
        "u": ["b"],
        "v": ["b", "c"],
        "w": ["b", "c", "d"],
        "x": ["b", "c", "d", "e"],
        "y": ["b", "c", "d", "e", "f"],
        "z": ["b", "c", "d", "e", "f", "g"],
    ]

    @Test("should scan", arguments: variants) func shouldScan(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 3, "c": 5, "x": 1, "y": 4, "z": 9]
            let e1 = m.hot("  --a--b--c--|", values: values)
            let e1subs = "    ^----------!"
            let expected = "  --x--y--z--|"
            m.expectSignal(e1.signal.scan(initialValue: 0) { $0 + $1 }).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should scan things", arguments: variants) func shouldScanThings(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|")
            let e1subs = "       ^--------------------!"
            let expected = "     ---u--v--w--x--y--z--|"
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }).toBe(expected, values: Self.arrays)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should scan with a seed of undefined", arguments: variants) func shouldScanWithASeedOfUndefined(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|")
            let e1subs = "       ^--------------------!"
            let expected = "     ---u--v--w--x--y--z--|"
            let values: [Character: String?] = [
                "u": "undefined b",
                "v": "undefined b c",
                "w": "undefined b c d",
                "x": "undefined b c d e",
                "y": "undefined b c d e f",
                "z": "undefined b c d e f g",
            ]
            // A nil seed is still a seed: the first value is combined with it.
            let result = e1.signal.scan(initialValue: String?.none) { acc, x in (acc ?? "undefined") + " " + x }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle errors", arguments: variants) func shouldHandleErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--#")
            let e1subs = "       ^-----------!"
            let expected = "     ---u--v--w--#"
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }).toBe(expected, values: Self.arrays)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("handle empty", arguments: variants) func handleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let expected = "  |   "
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("handle never", arguments: variants) func handleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("handle throw", arguments: variants) func handleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|")
            let unsub = "        --------------!       "
            let e1subs = "       ^-------------!       "
            let expected = "     ---u--v--w--x--       "
            m.expectSignal(e1.signal.scan(initialValue: [String]()) { $0 + [$1] }, unsubscription: unsub)
                .toBe(expected, values: Self.arrays)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|")
            let e1subs = "       ^-------------!       "
            let expected = "     ---u--v--w--x--       "
            let unsub = "        --------------!       "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .scan(initialValue: [String]()) { $0 + [$1] }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: Self.arrays)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle errors in the projection function", arguments: variants) func shouldHandleErrorsInTheProjectionFunction(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|")
            let e1subs =   "     ^--------!            "
            let expected =   "   ---u--v--#            "
            let source = e1.signal.scan(initialValue: [String]()) { (acc: [String], x: String) throws -> [String] in
                if x == "d" { throw MarbleError("bad!") }
                return acc + [x]
            }
            m.expectSignal(source).toBe(expected, values: Self.arrays, error: MarbleError("bad!"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should scan without seed", arguments: variants) func shouldScanWithoutSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--|")
            let e1subs =   "     ^-----------!"
            let expected =   "   ---x--y--z--|"
            let source = e1.signal.scan { acc, x in acc + x }
            m.expectSignal(source).toBe(expected, values: ["x": "b", "y": "bc", "z": "bcd"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
