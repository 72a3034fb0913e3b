#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/timeInterval-spec.ts, ported: `timeInterval({ now })` is
// `timeInterval(context: m.context)`; each `TimeIntervalled` is compared as its value and its
// interval in frames (RxJS's `TimeInterval(value, interval)`).

/// A `TimeIntervalled<String>` as RxJS's expected values spell it: the value and its interval
/// in frames.
private struct Interval: Equatable, Sendable {
    var value: String
    var interval: Int
}

private extension Signal where T == String {
    func intervals(_ m: MarbleTest) -> Signal<Interval> {
        timeInterval(context: m.context).map { Interval(value: $0.value, interval: MarbleTest.frame(of: $0.interval)) }
    }
}

@Suite("timeInterval — rxjs spec/operators/timeInterval-spec.ts")
struct TimeIntervalConformanceTests {
    static let variants = DeliveryVariant.allCases
    fileprivate static let ab: [Character: Interval] = ["y": Interval(value: "a", interval: 1), "z": Interval(value: "b", interval: 3)]

    @Test("should record the time interval between source elements", arguments: variants) func shouldRecordTheTimeIntervalBetweenSourceElements(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^b-c-----d--e--|")
            let e1subs = "       ^--------------!"
            let expected = "     -w-x-----y--z--|"
            let expectedValue: [Character: Int] = ["w": 1, "x": 2, "y": 6, "z": 3]
            let result = e1.signal.intervals(m).map { $0.interval }
            m.expectSignal(result).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record interval if source emit elements", arguments: variants) func shouldRecordIntervalIfSourceEmitElements(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^b--c----d---e--|")
            let e1subs = "       ^---------------!"
            let expected = "     -w--x----y---z--|"
            let expectedValue: [Character: Interval] = [
                "w": Interval(value: "b", interval: 1),
                "x": Interval(value: "c", interval: 3),
                "y": Interval(value: "d", interval: 5),
                "z": Interval(value: "e", interval: 4),
            ]
            m.expectSignal(e1.signal.intervals(m)).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should completes without record interval if source does not emits", arguments: variants) func shouldCompletesWithoutRecordIntervalIfSourceDoesNotEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---------|")
            let e1subs = "    ^--------!"
            let expected = "  ---------|"
            m.expectSignal(e1.signal.intervals(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete immediately if source is empty", arguments: variants) func shouldCompleteImmediatelyIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let expected = "  |   "
            m.expectSignal(e1.signal.intervals(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record interval then does not completes if source emits but not completes", arguments: variants) func shouldRecordIntervalThenDoesNotCompletesIfSourceEmitsButNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b--")
            let e1subs = "  ^------!"
            let expected = "  -y--z--"
            m.expectSignal(e1.signal.intervals(m), unsubscription: "^------!").toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b-----c---d---|")
            let unsub = "     -------!           "
            let e1subs = "    ^------!           "
            let expected = "  -y--z---           "
            let result = e1.signal.intervals(m)
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b-----c---d---|")
            let e1subs = "    ^------!           "
            let expected = "  -y--z---           "
            let unsub = "     -------!           "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .intervals(m)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not completes if source never completes", arguments: variants) func shouldNotCompletesIfSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.intervals(m), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("raise error if source raises error", arguments: variants) func raiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---#")
            let e1subs = "    ^--!"
            let expected = "  ---#"
            m.expectSignal(e1.signal.intervals(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record interval then raise error if source raises error after emit", arguments: variants) func shouldRecordIntervalThenRaiseErrorIfSourceRaisesErrorAfterEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b--#")
            let e1subs = "    ^------!"
            let expected = "  -y--z--#"
            m.expectSignal(e1.signal.intervals(m)).toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source immediately throws", arguments: variants) func shouldRaiseErrorIfSourceImmediatelyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.intervals(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
