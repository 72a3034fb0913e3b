#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/throttleTime-spec.ts (packages/rxjs/test/ported/cold/operators/throttle-time.spec.ts), ported.
//
// `throttleTime(t)` (leading only, RxJS's default) is `throttle(interval: t, latest: false,
// context: m.context)`; `throttleTime(t, { trailing: true })` (leading and trailing) is
// `throttle(interval: t, latest: true, context: m.context)`. ThrottleFirstConformanceTests
// ports the leading-only cases on `throttleFirst` as well.
//
// `throttleTime(t, { leading: false, trailing: true })` (trailing only) is `throttle(interval: t,
// leading: false, latest: true, context: m.context)`.
//
// Not ported (JavaScript only): none.
// Not written: none.

@Suite("throttle(interval:latest:) — rxjs spec/operators/throttleTime-spec.ts")
struct ThrottleConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should immediately emit the first value in each time window", arguments: variants) func shouldImmediatelyEmitTheFirstValueInEachTimeWindow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-x-y----b---x-cx---|")
            //                 ----|    ----| ----|
            let expected =   "-a--------b-----c----|"
            let subs =   "    ^--------------------!"
            let result = e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should simply mirror the source if values are not emitted often enough", arguments: variants) func shouldSimplyMirrorTheSourceIfValuesAreNotEmittedOftenEnough(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------b-----c----|")
            let subs =   "    ^--------------------!"
            let expected =   "-a--------b-----c----|"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a busy producer emitting a regular repeating sequence", arguments: variants) func shouldHandleABusyProducerEmittingARegularRepeatingSequence(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  abcdefabcdefabcdefabcdefa|")
            let subs =   "    ^------------------------!"
            let expected =   "a-----a-----a-----a-----a|"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----|")
            let subs =   "    ^----!"
            let expected =   "-----|"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error when source does not emit and raises error", arguments: variants) func shouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----#")
            let subs =   "    ^----!"
            let expected =   "-----#"
            m.expectSignal(e1.signal.throttle(interval: m.duration(10), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle an empty source", arguments: variants) func shouldHandleAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let subs =   "    (^!)"
            let expected =   "|"
            m.expectSignal(e1.signal.throttle(interval: m.duration(30), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a never source", arguments: variants) func shouldHandleANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.throttle(interval: m.duration(30), latest: false, context: m.context), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a throw source", arguments: variants) func shouldHandleAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let subs =   "    (^!)"
            let expected =   "#"
            m.expectSignal(e1.signal.throttle(interval: m.duration(30), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should throttle and does not complete when source does not completes", arguments: variants) func shouldThrottleAndDoesNotCompleteWhenSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let unsub =   "   -------------------------------!"
            let subs =   "    ^------------------------------!"
            let expected =   "-a-------------d----------------"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let subs =   "    ^------------------------------!"
            let expected =   "-a-------------d----------------"
            let unsub =   "   -------------------------------!"
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .throttle(interval: m.duration(5), latest: false, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should throttle values until source raises error", arguments: variants) func shouldThrottleValuesUntilSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d---------------#")
            let subs =   "    ^------------------------------!"
            let expected =   "-a-------------d---------------#"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should immediately emit the first and last values in each time window", arguments: variants) func shouldImmediatelyEmitTheFirstAndLastValuesInEachTimeWindow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-xy-----b--x--cxxx--|")
            let e1subs =   "  ^---------------------!"
            let t = m.time("   ----|                 ")
            //                     ----|----|---|---|
            let expected =   "-a---y----b---x---x---(x|)"
            let result = e1.signal.throttle(interval: t, latest: true, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit the value if only a single one is given", arguments: variants) func shouldEmitTheValueIfOnlyASingleOneIsGiven(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------------------|")
            let t = m.time("   ----|                 ")
            let expected =   "-a--------------------|"
            let result = e1.signal.throttle(interval: t, latest: true, context: m.context)
            m.expectSignal(result).toBe(expected)
        }
    }

    @Test("should immediately emit the last value in each time window", arguments: variants) func shouldImmediatelyEmitTheLastValueInEachTimeWindow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-xy-----b--x--cxxx--|")
            let e1subs = "    ^---------------------!"
            let t = m.time("   ----|                 ")
            //                 ----|---|----|---|---|
            let expected = "  -----y--------x---x---(x|)"
            let result = e1.signal.throttle(interval: t, leading: false, latest: true, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit the last throttled value when complete", arguments: variants) func shouldEmitTheLastThrottledValueWhenComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-xy-----b--x--cxx-|")
            let e1subs = "    ^-------------------!"
            let t = m.time("   ----|               ")
            //                 ----|---|----|---|---|
            let expected = "  -----y--------x---x-|"
            let result = e1.signal.throttle(interval: t, leading: false, latest: true, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit the value if only a single one is given (second case)", arguments: variants) func shouldEmitTheValueIfOnlyASingleOneIsGivenSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------------------|")
            let t = m.time("   ----|                 ")
            let expected = "  -----a----------------|"
            let result = e1.signal.throttle(interval: t, leading: false, latest: true, context: m.context)
            m.expectSignal(result).toBe(expected)
        }
    }
}

#endif
