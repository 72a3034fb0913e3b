#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/debounceTime-spec.ts, ported: `debounceTime(t)` is
// `debounce(interval: t, context: m.context)`. Both flush a waiting value on completion.

@Suite("debounce — rxjs spec/operators/debounceTime-spec.ts")
struct DebounceConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should debounce values by 2 time units", arguments: variants) func shouldDebounceValuesBy2TimeUnits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--bc--d---|")
            let e1subs = "    ^-----------!"
            let expected = "  ---a---c--d-|"
            let t = m.time("  --|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay all elements by the specified time", arguments: variants) func shouldDelayAllElementsByTheSpecifiedTime(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------b------c----|")
            let e1subs = "    ^---------------------!"
            let expected = "  ------a--------b------(c|)"
            let t = m.time("  -----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should debounce and delay element by the specified time", arguments: variants) func shouldDebounceAndDelayElementByTheSpecifiedTime(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-----------d-------|")
            let e1subs = "    ^--------------------------!"
            let expected = "  ---------c--------------d--|"
            let t = m.time("  -----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----|")
            let e1subs = "    ^----!"
            let expected = "  -----|"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source is empty", arguments: variants) func shouldCompleteWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs = "    (^!)"
            let expected = "  |"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source does not emit and raises error", arguments: variants) func shouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----#")
            let e1subs = "    ^----!"
            let expected = "  -----#"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source throws", arguments: variants) func shouldRaiseErrorWhenSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e1subs = "    (^!)"
            let expected = "  #"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--bc--d----|")
            let e1subs = "    ^------!       "
            let expected = "  ----a---       "
            let unsub = "     -------!       "
            let t = m.time("  --|")
            let result = e1.signal.debounce(interval: t, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--bc--d----|")
            let e1subs = "    ^------!       "
            let expected = "  ----a---       "
            let unsub = "     -------!       "
            let t = m.time("  --|")
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .debounce(interval: t, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should debounce and does not complete when source does not completes", arguments: variants) func shouldDebounceAndDoesNotCompleteWhenSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--(bc)-----------d-------")
            let e1subs = "  ^--------------------------!"
            let expected = "  ---------c--------------d--"
            let t = m.time("  -----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context), unsubscription: "^--------------------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not completes when source does not completes", arguments: variants) func shouldNotCompletesWhenSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs = "  ^!"
            let expected = "  -"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not completes when source never completes", arguments: variants) func shouldNotCompletesWhenSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "  ^!"
            let expected = "  -"
            let t = m.time("  -|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should delay all elements until source raises error", arguments: variants) func shouldDelayAllElementsUntilSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--------b------c----#")
            let e1subs = "    ^---------------------!"
            let expected = "  ------a--------b------#"
            let t = m.time("  -----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should debounce all elements while source emits within given time", arguments: variants) func shouldDebounceAllElementsWhileSourceEmitsWithinGivenTime(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--h-|")
            let e1subs = "    ^------------------------!"
            let expected = "  -------------------------(h|)"
            let t = m.time("  ----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should debounce all element while source emits within given time until raises error", arguments: variants) func shouldDebounceAllElementWhileSourceEmitsWithinGivenTimeUntilRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--f--g--h-#")
            let e1subs = "    ^------------------------!"
            let expected = "  -------------------------#"
            let t = m.time("  ----|")
            m.expectSignal(e1.signal.debounce(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
