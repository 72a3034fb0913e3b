#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/zip-spec.ts (packages/rxjs/test/ported/cold/operators/zip.spec.ts), ported.
//
// The case runs on both zip forms (`ZipForm`, in ZipWithConformanceTests.swift: rows as the
// arrays of their values' descriptions); the selector that throws is `map`'s overload on
// `throws`, and RxJS's iterable is `Signal.from(_:)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("zip, with a selector — rxjs spec/operators/zip-spec.ts")
struct ZipConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = ZipForm.allCases

    @Test("should work with non-empty observable and non-empty iterable selector that throws", arguments: variants, forms) func shouldWorkWithNonEmptyObservableAndNonEmptyIterableSelectorThatThrows(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---^--1--2--3--|")
            let asubs = "   ^-----!"
            let expected = "---x--#"
            let b = Signal.from([4, 5, 6], delivery: variant)
            let selector = { @Sendable (x: String, y: String) throws -> String in
                if y == "5" {
                    throw MarbleError("too bad")
                } else {
                    return x + y
                }
            }
            let result = form.pair(a.signal, b).map { (values: [String]) throws -> String in try selector(values[0], values[1]) }
            m.expectSignal(result).toBe(expected, values: ["x": "14"], error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }
}

#endif
