#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/toArray-spec.ts, ported.

@Suite("toArray — rxjs spec/operators/toArray-spec.ts")
struct ToArrayConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should reduce the values of an observable into an array", arguments: variants) func shouldReduceTheValuesOfAnObservableIntoAnArray(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b--|   ")
            let e1subs =   "  ^--------!   "
            let expected =   "---------(w|)"
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": ["a", "b"]])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be never when source is never", arguments: variants) func shouldBeNeverWhenSourceIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.toArray(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be empty when source is empty", arguments: variants) func shouldBeEmptyWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(w|)"
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": [String]()])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be never when source doesn't complete", arguments: variants) func shouldBeNeverWhenSourceDoesnTComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--x--^--y--")
            let e1subs =   "^-----!"
            let expected =   "   ------"
            m.expectSignal(e1.signal.toArray(), unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce observable without values into an array of length zero", arguments: variants) func shouldReduceObservableWithoutValuesIntoAnArrayOfLengthZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^---|   ")
            let e1subs =   "   ^---!   "
            let expected =   " ----(w|)"
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": [String]()])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce the a single value of an observable into an array", arguments: variants) func shouldReduceTheASingleValueOfAnObservableIntoAnArray(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--|  ")
            let e1subs =   "   ^-----!  "
            let expected =   " ------(w|)"
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": ["y"]])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow multiple subscriptions", arguments: variants) func shouldAllowMultipleSubscriptions(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--|   ")
            let e1subs =   "   ^-----!   "
            let expected =   " ------(w|)"
            // A Signals signal has one output: each subscription is its own chain from the hot.
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": ["y"]])
            m.expectSignal(e1.signal.toArray()).toBe(expected, values: ["w": ["y"]])
            // Two subscriptions, as in the original spec/operators/toArray-spec.ts (the ported copy
            // lists one).
            m.expectSubscriptions(e1.subscriptions).toBe([e1subs, e1subs])
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b----c-----d----e---|")
            let e1subs =   "  ^-------!                 "
            let expected =   "---------                 "
            let unsub =   "   --------!                 "
            m.expectSignal(e1.signal.toArray(), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b----c-----d----e---|")
            let e1subs =   "  ^-------!                 "
            let expected =   "---------                 "
            let unsub =   "   --------!                 "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.toArray().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with error", arguments: variants) func shouldWorkWithError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-x-^--y--z--#", values: ["x": 1, "y": 2, "z": 3], error: MarbleError("too bad"))
            let e1subs =   "   ^--------!"
            let expected =   " ---------#"
            m.expectSignal(e1.signal.toArray()).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with throw", arguments: variants) func shouldWorkWithThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.toArray()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
