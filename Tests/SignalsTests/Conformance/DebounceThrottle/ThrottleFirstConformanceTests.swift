#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/throttleTime-spec.ts, ported: `throttleTime(t)` (leading only, RxJS's
// default) is `throttleFirst(interval: t, context: m.context)`.
//
// The `{ leading, trailing }` config cases are not `throttleFirst`'s: the leading-and-trailing
// ones are ported on `throttle(interval:latest:context:)` in ThrottleConformanceTests.swift,
// which also lists the `{ leading: false }` ones (a form Signals lacks):
// - "should immediately emit the first and last values in each time window" ({ trailing: true })
// - "should emit the value if only a single one is given" ({ trailing: true })
// - "should immediately emit the last value in each time window" ({ leading: false, trailing: true })
// - "should emit the last throttled value when complete" ({ leading: false, trailing: true })
// - "should emit the value if only a single one is given" (second case, { leading: false, trailing: true })

@Suite("throttleFirst — rxjs spec/operators/throttleTime-spec.ts")
struct ThrottleFirstConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should immediately emit the first value in each time window", arguments: variants) func shouldImmediatelyEmitTheFirstValueInEachTimeWindow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-x-y----b---x-cx---|")
            //                 ----|    ----| ----|
            let expected = "  -a--------b-----c----|"
            let subs = "      ^--------------------!"
            let result = e1.signal.throttleFirst(interval: m.duration(5), context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should simply mirror the source if values are not emitted often enough", arguments: variants) func shouldSimplyMirrorTheSourceIfValuesAreNotEmittedOftenEnough(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------b-----c----|")
            let subs = "      ^--------------------!"
            let expected = "  -a--------b-----c----|"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a busy producer emitting a regular repeating sequence", arguments: variants) func shouldHandleABusyProducerEmittingARegularRepeatingSequence(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  abcdefabcdefabcdefabcdefa|")
            let subs = "      ^------------------------!"
            let expected = "  a-----a-----a-----a-----a|"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----|")
            let subs = "      ^----!"
            let expected = "  -----|"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error when source does not emit and raises error", arguments: variants) func shouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----#")
            let subs = "      ^----!"
            let expected = "  -----#"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(10), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle an empty source", arguments: variants) func shouldHandleAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let subs = "      (^!)"
            let expected = "  |"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(30), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a never source", arguments: variants) func shouldHandleANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(30), context: m.context), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a throw source", arguments: variants) func shouldHandleAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let subs = "      (^!)"
            let expected = "  #"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(30), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should throttle and does not complete when source does not completes", arguments: variants) func shouldThrottleAndDoesNotCompleteWhenSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let unsub = "     -------------------------------!"
            let subs = "      ^------------------------------!"
            let expected = "  -a-------------d----------------"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let subs = "      ^------------------------------!"
            let expected = "  -a-------------d----------------"
            let unsub = "     -------------------------------!"
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .throttleFirst(interval: m.duration(5), context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should throttle values until source raises error", arguments: variants) func shouldThrottleValuesUntilSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d---------------#")
            let subs = "      ^------------------------------!"
            let expected = "  -a-------------d---------------#"
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }
}

#endif
