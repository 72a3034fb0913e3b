#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/timestamp-spec.ts, ported: `timestamp({ now })` is
// `timestamp(context: m.context)`; each `Timestamped` is compared as its value and its frame
// on the virtual clock (RxJS's `{ value, timestamp }`).

/// A `Timestamped<String>` as RxJS's expected values spell it: the value and its frame.
private struct Stamp: Equatable, Sendable {
    var value: String
    var timestamp: Int
}

private extension Signal where T == String {
    func stamped(_ m: MarbleTest) -> Signal<Stamp> {
        timestamp(context: m.context).map { Stamp(value: $0.value, timestamp: MarbleTest.frame(of: $0.time)) }
    }
}

@Suite("timestamp — rxjs spec/operators/timestamp-spec.ts")
struct TimestampConformanceTests {
    static let variants = DeliveryVariant.allCases
    fileprivate static let ab: [Character: Stamp] = ["y": Stamp(value: "a", timestamp: 1), "z": Stamp(value: "b", timestamp: 4)]

    @Test("should record the time stamp per each source elements", arguments: variants) func shouldRecordTheTimeStampPerEachSourceElements(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -b-c-----d--e--|")
            let e1subs = "    ^--------------!"
            let expected = "  -w-x-----y--z--|"
            let expectedValue: [Character: Int] = ["w": 1, "x": 3, "y": 9, "z": 12]
            let result = e1.signal.stamped(m).map { $0.timestamp }
            m.expectSignal(result).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record stamp if source emit elements", arguments: variants) func shouldRecordStampIfSourceEmitElements(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^b--c----d---e--|")
            let e1subs = "       ^---------------!"
            let expected = "     -w--x----y---z--|"
            let expectedValue: [Character: Stamp] = [
                "w": Stamp(value: "b", timestamp: 1),
                "x": Stamp(value: "c", timestamp: 4),
                "y": Stamp(value: "d", timestamp: 9),
                "z": Stamp(value: "e", timestamp: 13),
            ]
            m.expectSignal(e1.signal.stamped(m)).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should completes without record stamp if source does not emits", arguments: variants) func shouldCompletesWithoutRecordStampIfSourceDoesNotEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---------|")
            let e1subs = "    ^--------!"
            let expected = "  ---------|"
            m.expectSignal(e1.signal.stamped(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete immediately if source is empty", arguments: variants) func shouldCompleteImmediatelyIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let expected = "  |   "
            m.expectSignal(e1.signal.stamped(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record stamp then does not completes if source emits but not completes", arguments: variants) func shouldRecordStampThenDoesNotCompletesIfSourceEmitsButNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b--")
            let e1subs = "  ^------!"
            let expected = "  -y--z--"
            m.expectSignal(e1.signal.stamped(m), unsubscription: "^------!").toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b-----c---d---|")
            let unsub = "     -------!           "
            let e1subs = "    ^------!           "
            let expected = "  -y--z---           "
            let result = e1.signal.stamped(m)
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
                .stamped(m)
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
            m.expectSignal(e1.signal.stamped(m), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("raise error if source raises error", arguments: variants) func raiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---#")
            let e1subs = "    ^--!"
            let expected = "  ---#"
            m.expectSignal(e1.signal.stamped(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should record stamp then raise error if source raises error after emit", arguments: variants) func shouldRecordStampThenRaiseErrorIfSourceRaisesErrorAfterEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b--#")
            let e1subs = "    ^------!"
            let expected = "  -y--z--#"
            m.expectSignal(e1.signal.stamped(m)).toBe(expected, values: Self.ab)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source immediately throws", arguments: variants) func shouldRaiseErrorIfSourceImmediatelyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.stamped(m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
