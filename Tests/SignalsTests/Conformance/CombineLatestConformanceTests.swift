#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/combineLatest-spec.ts (packages/rxjs/test/ported/cold/operators/combine-latest.spec.ts), ported.
//
// The case runs on both forms that take three inputs and a projection: the instance
// `a.combineLatest(b, c) { … }` and `Signal.combineLatest([a, b, c])` (arrays, mapped).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("combineLatest, three inputs — rxjs spec/operators/combineLatest-spec.ts")
struct CombineLatestConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = CombineLatestForm.allCases

    @Test("should accept array of observables", arguments: variants, forms) func shouldAcceptArrayOfObservables(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--|")
            let e1subs = "     ^--------!"
            let e2 = m.hot("---e-^---f--g--|")
            let e2subs = "     ^---------!"
            let e3 = m.hot("---h-^----i--j-|")
            let e3subs = "     ^---------!"
            let expected = "   -----wxyz-|"
            let result = form.triple(e1.signal, e2.signal, e3.signal) { x, y, z in x + y + z }
            m.expectSignal(result).toBe(expected, values: ["w": "bfi", "x": "cfi", "y": "cgi", "z": "cgj"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }
}

#endif
