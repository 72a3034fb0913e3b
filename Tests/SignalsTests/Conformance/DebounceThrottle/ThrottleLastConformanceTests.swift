#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/auditTime-spec.ts, ported: `auditTime(t)` (in this copy of the spec,
// `throttle(t, { leading: false, trailing: true, restartOnTrailing: false })`) is
// `throttleLast(interval: t, context: m.context)`.

@Suite("throttleLast — rxjs spec/operators/auditTime-spec.ts")
struct ThrottleLastConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit the last value in each time window", arguments: variants) func shouldEmitTheLastValueInEachTimeWindow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-x-y----b---x-cx---|")
            let e1subs = "    ^--------------------!"
            let t = m.time("   -----|               ")
            //                          -----|
            //                                -----|
            let expected = "  ------y--------x-----(x|)"
            let result = e1.signal.throttleLast(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should auditTime events multiple times", arguments: variants) func shouldAuditTimeEventsMultipleTimes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -012-----01234---|")
            let e1subs = "    ^----------------!"
            let t = m.time("   -----|           ")
            //                         -----|
            let expected = "  ------2-------4--|"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay the source if values are not emitted often enough", arguments: variants) func shouldDelayTheSourceIfValuesAreNotEmittedOftenEnough(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------b-----c----|")
            let e1subs = "    ^--------------------!"
            let t = m.time("   -----|               ")
            //                          -----|
            //                                -----|
            let expected = "  ------a--------b-----(c|)"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a busy producer emitting a regular repeating sequence", arguments: variants) func shouldHandleABusyProducerEmittingARegularRepeatingSequence(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  abcdefabcdefabcdefabcdefa|")
            let e1subs = "    ^------------------------!"
            let t = m.time("  -----|                    ")
            //                      -----|
            //                            -----|
            //                                  -----|
            //                                        -----|
            let expected = "  -----f-----f-----f-----f-----(a|)"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----|")
            let e1subs = "    ^----!"
            let t = m.time("  --|   ")
            let expected = "  -----|"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source does not emit and raises error", arguments: variants) func shouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----#")
            let e1subs = "    ^----!"
            let t = m.time("  --|   ")
            let expected = "  -----#"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an empty source", arguments: variants) func shouldHandleAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let t = m.time("  ---|")
            let expected = "  |   "
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a never source", arguments: variants) func shouldHandleANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -  ")
            let e1subs = "  ^!"
            let t = m.time("  --|")
            let expected = "  -  "
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a throw source", arguments: variants) func shouldHandleAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let t = m.time("  ---|")
            let expected = "  #   "
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete when source does not complete", arguments: variants) func shouldNotCompleteWhenSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let e1subs = "    ^------------------------------!"
            let t = m.time("   -----|                         ")
            //                               -----|
            let expected = "  ------c-------------d-----------"
            let unsub = "     -------------------------------!"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d----------------")
            let e1subs = "    ^------------------------------!"
            let t = m.time("   -----|                         ")
            //                               -----|
            let expected = "  ------c-------------d-----------"
            let unsub = "     -------------------------------!"
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .throttleLast(interval: t, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should auditTime values until source raises error", arguments: variants) func shouldAuditTimeValuesUntilSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-------d---------------#")
            let e1subs = "    ^------------------------------!"
            let t = m.time("   -----|                         ")
            //                               -----|
            let expected = "  ------c-------------d----------#"
            m.expectSignal(e1.signal.throttleLast(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
