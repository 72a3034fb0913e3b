#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/reduce-spec.ts, ported.

// RxJS's `reduce` without a seed is `reduce(context:_:)`, with one `reduce(initialValue:context:_:)`.

@Suite("reduce — rxjs spec/operators/reduce-spec.ts")
struct ReduceConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should reduce", arguments: variants) func shouldReduce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 3, "c": 5, "x": 9]
            let e1 = m.hot("  --a--b--c--|   ", values: values)
            let e1subs =   "  ^----------!   "
            let expected =   "-----------(x|)"
            let result = e1.signal.reduce(initialValue: 0) { o, x in o + x }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce with seed", arguments: variants) func shouldReduceWithSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|   ")
            let e1subs =   "  ^-------!   "
            let expected =   "--------(x|)"
            let result = e1.signal.reduce(initialValue: "n") { o, x in o + " " + x }
            m.expectSignal(result).toBe(expected, values: ["x": "n a b"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce with a seed of undefined", arguments: variants) func shouldReduceWithASeedOfUndefined(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|   ")
            let e1subs =   "     ^--------------------!   "
            let expected =   "   ---------------------(x|)"
            let result = e1.signal.reduce(initialValue: String?.none) { o, x in (o ?? "undefined") + " " + x }
            m.expectSignal(result).toBe(expected, values: ["x": String?.some("undefined b c d e f g")])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce with seed if source is empty", arguments: variants) func shouldReduceWithSeedIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^-------|   ")
            let e1subs =   "     ^-------!   "
            let expected =   "   --------(x|)"
            let result = e1.signal.reduce(initialValue: "42") { o, x in o + x }
            m.expectSignal(result).toBe(expected, values: ["x": "42"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^-----!  "
            let expected =   "-------  "
            let unsub =   "   ------!  "
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^-----!  "
            let expected =   "-------  "
            let unsub =   "   ------!  "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.reduce { o, x in o + x }.flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source emits and raises error with seed", arguments: variants) func shouldRaiseErrorIfSourceEmitsAndRaisesErrorWithSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let expected =   "--------#"
            let result = e1.signal.reduce(initialValue: "42") { o, x in o + x }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source raises error with seed", arguments: variants) func shouldRaiseErrorIfSourceRaisesErrorWithSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----#")
            let e1subs =   "  ^---!"
            let expected =   "----#"
            let result = e1.signal.reduce(initialValue: "42") { o, x in o + x }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete with seed if source emits but does not complete", arguments: variants) func shouldNotCompleteWithSeedIfSourceEmitsButDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--")
            let e1subs =   "^----!"
            let expected =   "-----"
            let result = e1.signal.reduce(initialValue: "n") { o, x in o + x }
            m.expectSignal(result, unsubscription: "^----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete with seed if source never completes", arguments: variants) func shouldNotCompleteWithSeedIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.reduce(initialValue: "n") { o, x in o + x }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if reduce function throws with seed", arguments: variants) func shouldRaiseErrorIfReduceFunctionThrowsWithSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^-!      "
            let expected =   "--#      "
            let result = e1.signal.reduce(initialValue: "n") { (_: String, _: String) throws -> String in throw MarbleError("error") }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce without a seed", arguments: variants) func shouldReduceWithoutASeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--d--e--f--g--|   ")
            let e1subs =   "     ^--------------------!   "
            let expected =   "   ---------------------(x|)"
            let result = e1.signal.reduce { o, x in o + " " + x }
            m.expectSignal(result).toBe(expected, values: ["x": "b c d e f g"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if reduce function throws without seed", arguments: variants) func shouldRaiseErrorIfReduceFunctionThrowsWithoutSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--|")
            let e1subs =   "  ^----!   "
            let expected =   "-----#   "
            let result = e1.signal.reduce { (_: String, _: String) throws -> String in throw MarbleError("error") }
            m.expectSignal(result).toBe(expected, error: MarbleError("error"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete without seed if source emits but does not completes", arguments: variants) func shouldNotCompleteWithoutSeedIfSourceEmitsButDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--")
            let e1subs =   "^-------!"
            let expected =   "--------"
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result, unsubscription: "^-------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete without seed if source never completes", arguments: variants) func shouldNotCompleteWithoutSeedIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should reduce if source does not emit without seed", arguments: variants) func shouldReduceIfSourceDoesNotEmitWithoutSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^-------|")
            let e1subs =   "     ^-------!"
            let expected =   "   --------|"
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source emits and raises error without seed", arguments: variants) func shouldRaiseErrorIfSourceEmitsAndRaisesErrorWithoutSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let expected =   "--------#"
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source raises error without seed", arguments: variants) func shouldRaiseErrorIfSourceRaisesErrorWithoutSeed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----#")
            let e1subs =   "  ^---!"
            let expected =   "----#"
            let result = e1.signal.reduce { o, x in o + x }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
