#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/sampleTime-spec.ts (packages/rxjs/test/ported/cold/operators/sample-time.spec.ts), ported.
//
// Signals has no periodic `sample`; RxJS's `sampleTime(period)` is what RxJS documents it
// to be, `sample(interval(period))`: here `sample(Signal.interval(period))` on the test's
// clock (`sampleTime` below).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("sample(Signal.interval(_:)) — rxjs spec/operators/sampleTime-spec.ts")
struct SampleTimeConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// RxJS's `sampleTime(period)`: the latest new value at every `period`, from activation.
    static func sampleTime(_ source: Signal<String>, _ period: Duration, _ m: MarbleTest) -> Signal<String> {
        source.sample(Signal<Int>.interval(period, context: m.context, delivery: m.variant))
    }

    @Test("should get samples on a delay", arguments: variants) func shouldGetSamplesOnADelay(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("     a---b-c---------d--e---f-g-h--|")
            let e1subs = "     ^-----------------------------!"
            let expected = "   -------c-------------e------h-|"
            // period            -------!------!------!------!--
            let period = m.time("-------|                       ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should sample nothing if new value has not arrived", arguments: variants) func shouldSampleNothingIfNewValueHasNotArrived(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^--b----c--------------f----|")
            let e1subs = "        ^---------------------------!"
            let expected = "      -----------c----------------|"
            // period               -----------!----------!---------
            let period = m.time("   -----------|                 ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should sample if new value has arrived, even if it is the same value", arguments: variants) func shouldSampleIfNewValueHasArrivedEvenIfItIsTheSameValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^--b----c----------c---f----|")
            let e1subs = "      ^---------------------------!"
            let expected = "    -----------c----------c-----|"
            // period             -----------!----------!---------
            let period = m.time(" -----------|                 ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should sample nothing if source has not nexted by time of sample", arguments: variants) func shouldSampleNothingIfSourceHasNotNextedByTimeOfSample(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^-------------b-------------|")
            let e1subs = "      ^---------------------------!"
            let expected = "    ----------------------b-----|"
            // period             -----------!----------!---------
            let period = m.time(" -----------|                 ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^--b----c----d----#")
            let e1subs = "      ^-----------------!"
            let expected = "    -----------c------#"
            // period             -----------!----------!---------
            let period = m.time(" -----------|       ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^--b----c----d----e----f----|")
            let unsub = "       ----------------!            "
            let e1subs = "      ^---------------!            "
            let expected = "    -----------c-----            "
            // period             -----------!----------!---------
            let period = m.time(" -----------|                 ")
            m.expectSignal(Self.sampleTime(e1.signal, period, m), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^--b----c----d----e----f----|")
            let e1subs = "      ^---------------!            "
            // period             -----------!----------!---------
            let period = m.time(" -----------|                 ")
            let expected = "    -----------c-----            "
            let unsub = "       ----------------!            "
            let result = Self.sampleTime(e1.signal.flatMap { Signal.just($0, delivery: variant) }, period, m)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should completes if source does not emits", arguments: variants) func shouldCompletesIfSourceDoesNotEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("    |     ")
            let e1subs = "     (^!)  "
            let expected = "   |     "
            let period = m.time("-----|")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if source throws immediately", arguments: variants) func shouldRaiseErrorIfSourceThrowsImmediately(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("    #     ")
            let e1subs = "     (^!)  "
            let expected = "   #     "
            let period = m.time("-----|")
            m.expectSignal(Self.sampleTime(e1.signal, period, m)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete if source does not complete", arguments: variants) func shouldNotCompleteIfSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("    --------")
            let e1subs = "     ^------!"
            let expected = "   --------"
            let period = m.time("-----|  ")
            let e1unsbs = "    -------!"
            m.expectSignal(Self.sampleTime(e1.signal, period, m), unsubscription: e1unsbs).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
