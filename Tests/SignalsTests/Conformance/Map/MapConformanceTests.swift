#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/map-spec.ts, ported.
//
// Not ported (JavaScript only):
// - "should map with index", "should map with index until completed", "should map with index
//   until an error occurs": the projector's `index` argument (Signals: `enumerated()`).
// - "should map using a bound projector": `thisArg`.
// Not written (a form Signals lacks): none.

@Suite("map — rxjs spec/operators/map-spec.ts")
struct MapConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should map multiple values", arguments: variants) func shouldMapMultipleValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs = "    ^----------!"
            let expected = "  --x--y--z--|"
            m.expectSignal(e1.signal.map { 10 * Int($0)! }).toBe(expected, values: ["x": 10, "y": 20, "z": 30])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should map one value", arguments: variants) func shouldMapOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --x--|", values: ["x": 42])
            let e1subs = "    ^----!"
            let expected = "  --y--|"
            m.expectSignal(e1.signal.map { "\($0)!" }).toBe(expected, values: ["y": "42!"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should map multiple values (second case, to strings)", arguments: variants) func shouldMapMultipleValuesSecondCaseToStrings(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs = "    ^----------!"
            let expected = "  --x--y--z--|"
            m.expectSignal(e1.signal.map { $0 + "!" }).toBe(expected, values: ["x": "1!", "y": "2!", "z": "3!"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors from observable that emits only errors", arguments: variants) func shouldPropagateErrorsFromObservableThatEmitsOnlyErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.map { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors from observable that emit values", arguments: variants) func shouldPropagateErrorsFromObservableThatEmitValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--#", values: ["a": 1, "b": 2], error: MarbleError("too bad"))
            let e1subs = "    ^-------!"
            let expected = "  --x--y--#"
            m.expectSignal(e1.signal.map { "\($0)!" })
                .toBe(expected, values: ["x": "1!", "y": "2!"], error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not map an empty observable", arguments: variants) func shouldNotMapAnEmptyObservable(_ variant: DeliveryVariant) {
        let invoked = Collected<String>()
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let expected = "  |   "
            m.expectSignal(e1.signal.map { x -> String in invoked.append(x); return x }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
        #expect(invoked.all.isEmpty)
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs = "    ^-----!     "
            let expected = "  --x--y-     "
            let unsub = "     ------!     "
            m.expectSignal(e1.signal.map { $0 + "!" }, unsubscription: unsub).toBe(expected, values: ["x": "1!", "y": "2!"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should map twice", arguments: variants) func shouldMapTwice(_ variant: DeliveryVariant) {
        let invoked = Collected<Int>()
        marbleTest(variant) { m in
            let e1 = m.hot("-0----1-^-2---3--4-5--6--7-8-|")
            let e1subs = "          ^--------------------!"
            let expected = "        --a---b--c-d--e--f-g-|"
            let values: [Character: Int] = ["a": 2, "b": 3, "c": 4, "d": 5, "e": 6, "f": 7, "g": 8]
            let result = e1.signal
                .map { x -> Int in invoked.append(1); return Int(x)! * 2 }
                .map { x -> Int in invoked.append(2); return x / 2 }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
        #expect(invoked.all.filter { $0 == 1 }.count == 7)
        #expect(invoked.all.filter { $0 == 2 }.count == 7)
    }

    @Test("should do multiple maps using closed-over projectors", arguments: variants) func shouldDoMultipleMapsUsingClosedOverProjectors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --1--2--3--4--|")
            let e1subs = "    ^-------------!"
            let expected = "  --a--b--c--d--|"
            let values: [Character: Int] = ["a": 11, "b": 14, "c": 17, "d": 20]
            struct Projectors {
                let selector1: @Sendable (Int) -> Int = { $0 + 2 }
                let selector2: @Sendable (Int) -> Int = { $0 * 3 }
            }
            let p = Projectors()
            let result = e1.signal.map { Int($0)! }.map(p.selector1).map(p.selector2).map(p.selector1)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1--2--3--|")
            let e1subs = "    ^-----!     "
            let expected = "  --x--y-     "
            let unsub = "     ------!     "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .map { $0 + "!" }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: ["x": "1!", "y": "2!"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors from map function", arguments: variants) func shouldPropagateErrorsFromMapFunction(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --x--|", values: ["x": 42])
            let e1subs =   "  ^-!   "
            let expected =   "--#   "
            let result = e1.signal.map { (_: Int) throws -> String in throw MarbleError("too bad") }
            m.expectSignal(result).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
