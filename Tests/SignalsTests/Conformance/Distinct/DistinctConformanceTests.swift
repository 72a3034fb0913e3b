#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/distinct-spec.ts, ported.

// RxJS's `distinct(keySelector)` is `distinct(by:)`, `distinct(undefined, flushes)`
// `distinct(flushes:)`.

@Suite("distinct — rxjs spec/operators/distinct-spec.ts")
struct DistinctConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should distinguish between values", arguments: variants) func shouldDistinguishBetweenValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--b--b--a--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--------b--------|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should distinguish between values and does not complete", arguments: variants) func shouldDistinguishBetweenValuesAndDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--b--b--a-")
            let e1subs =   "^------------------!"
            let expected =   "--a--------b-------"
            m.expectSignal(e1.signal.distinct(), unsubscription: "^------------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source never completes", arguments: variants) func shouldNotCompleteIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.distinct(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source does not complete", arguments: variants) func shouldNotCompleteIfSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.distinct(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete if source is empty", arguments: variants) func shouldCompleteIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs =   "  (^!)"
            let expected =   "|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete if source does not emit", arguments: variants) func shouldCompleteIfSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ------|")
            let e1subs =   "  ^-----!"
            let expected =   "------|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit if source emits single element only", arguments: variants) func shouldEmitIfSourceEmitsSingleElementOnly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^----!"
            let expected =   "--a--|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit if source is scalar", arguments: variants) func shouldEmitIfSourceIsScalar(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.just("a", delivery: variant)
            let expected =   "(a|)"
            m.expectSignal(e1.distinct()).toBe(expected)
        }
    }

    @Test("should raises error if source raises error", arguments: variants) func shouldRaisesErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--#")
            let e1subs =   "  ^-------!"
            let expected =   "--a-----#"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raises error if source throws", arguments: variants) func shouldRaisesErrorIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not omit if source elements are all different", arguments: variants) func shouldNotOmitIfSourceElementsAreAllDifferent(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--b--c--d--e--f--|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--b--d--a--f--|")
            let e1subs =   "  ^---------!          "
            let expected =   "--a--b-----          "
            let unsub =   "   ----------!          "
            let result = e1.signal.distinct()
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--b--d--a--f--|")
            let e1subs =   "  ^---------!          "
            let expected =   "--a--b-----          "
            let unsub =   "   ----------!          "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.distinct().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit once if source elements are all same", arguments: variants) func shouldEmitOnceIfSourceElementsAreAllSame(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--a--a--a--a--a--|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--a-----------------|"
            m.expectSignal(e1.signal.distinct()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }


    @Test("should distinguish values by key", arguments: variants) func shouldDistinguishValuesByKey(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6]
            let e1 = m.hot("  --a--b--c--d--e--f--|", values: values)
            let e1subs =   "  ^-------------------!"
            let expected =   "--a--b--c-----------|"
            m.expectSignal(e1.signal.distinct { $0 % 3 }).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raises error when selector throws", arguments: variants) func shouldRaisesErrorWhenSelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let e1subs =   "  ^----------!         "
            let expected =   "--a--b--c--#         "
            let result = e1.signal.distinct { (value: String) throws -> String in
                if value == "d" { throw MarbleError("d is for dumb") }
                return value
            }
            m.expectSignal(result).toBe(expected, error: MarbleError("d is for dumb"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should support a flushing stream", arguments: variants) func shouldSupportAFlushingStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--a--b--|")
            let e1subs =   "  ^-------------------!"
            let e2 = m.hot("  -----------x--------|")
            let e2subs =   "  ^-------------------!"
            let expected =   "--a--b--------a--b--|"
            m.expectSignal(e1.signal.distinct(flushes: e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if flush raises error", arguments: variants) func shouldRaiseErrorIfFlushRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--a--b--|")
            let e1subs =   "  ^------------!       "
            let e2 = m.hot("  -----------x-#       ")
            let e2subs =   "  ^------------!       "
            let expected =   "--a--b-------#       "
            m.expectSignal(e1.signal.distinct(flushes: e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should unsubscribe from the flushing stream when the main stream is unsubbed", arguments: variants) func shouldUnsubscribeFromTheFlushingStreamWhenTheMainStreamIsUnsubbed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--a--b--|")
            let e1subs =   "  ^----------!         "
            let e2 = m.hot("  -----------x--------|")
            let e2subs =   "  ^----------!         "
            let unsub =   "   -----------!         "
            let expected =   "--a--b------         "
            m.expectSignal(e1.signal.distinct(flushes: e2.signal), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should allow opting in to default comparator with flush", arguments: variants) func shouldAllowOptingInToDefaultComparatorWithFlush(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--a--b--a--b--|")
            let e1subs =   "  ^-------------------!"
            let e2 = m.hot("  -----------x--------|")
            let e2subs =   "  ^-------------------!"
            let expected =   "--a--b--------a--b--|"
            m.expectSignal(e1.signal.distinct(flushes: e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }
}

#endif
