#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/sample-spec.ts (packages/rxjs/test/ported/cold/operators/sample.spec.ts), ported.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("sample — rxjs spec/operators/sample-spec.ts")
struct SampleConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should get samples when the notifier emits", arguments: variants) func shouldGetSamplesWhenTheNotifierEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a----b---c----------d-----|   ")
            let e1subs =   "  ^----------------------------!   "
            let e2 = m.hot("  -----x----------x---x------x---| ")
            let e2subs =   "  ^----------------------------!   "
            let expected =   "-----a----------c----------d-|   "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should sample nothing if source has not nexted at all", arguments: variants) func shouldSampleNothingIfSourceHasNotNextedAtAll(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----a-^------------|")
            let e1subs =   "      ^------------!"
            let e2 = m.hot("      -----x-------|")
            let e2subs =   "      ^------------!"
            let expected =   "    -------------|"
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should sample nothing if source has nexted after all notifications, but notifier does not complete", arguments: variants) func shouldSampleNothingIfSourceHasNextedAfterAllNotificationsButNotifierDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^------b-----|")
            let e1subs =   "        ^------------!"
            let e2 = m.hot("        -----x--------")
            let e2subs =   "        ^------------!"
            let expected =   "      -------------|"
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not sample when the notifier completes", arguments: variants) func shouldNotSampleWhenTheNotifierCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^------b----------|")
            let e1subs =   "        ^-----------------!"
            let e2 = m.hot("        -----x-----|       ")
            let e2subs =   "        ^----------!       "
            let expected =   "      ------------------|"
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete when the notifier completes, nor should it emit", arguments: variants) func shouldNotCompleteWhenTheNotifierCompletesNorShouldItEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a----b----c----d----e----f----")
            let e1subs =   "^---------------------------------!"
            let e2 = m.hot("  ------x-|                         ")
            let e2subs =   "  ^-------!                         "
            let expected =   "------a---------------------------"
            m.expectSignal(e1.signal.sample(e2.signal), unsubscription: "^---------------------------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should complete only when the source completes, if notifier completes early", arguments: variants) func shouldCompleteOnlyWhenTheSourceCompletesIfNotifierCompletesEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a----b----c----d----e----f---|")
            let e1subs =   "  ^--------------------------------!"
            let e2 = m.hot("  ------x-|                         ")
            let e2subs =   "  ^-------!                         "
            let expected =   "------a--------------------------|"
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^--b----c----d----e----f----|          ")
            let unsub =   "         --------------!                        "
            let e1subs =   "        ^-------------!                        "
            let e2 = m.hot("        -----x----------x----------x----------|")
            let e2subs =   "        ^-------------!                        "
            let expected =   "      -----b---------                        "
            m.expectSignal(e1.signal.sample(e2.signal), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^--b----c----d----e----f----|          ")
            let e1subs =   "        ^-------------!                        "
            let e2 = m.hot("        -----x----------x----------x----------|")
            let e2subs =   "        ^-------------!                        "
            let expected =   "      -----b---------                        "
            let unsub =   "         --------------!                        "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .sample(e2.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should only sample when a new value arrives, even if it is the same value", arguments: variants) func shouldOnlySampleWhenANewValueArrivesEvenIfItIsTheSameValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a----b----c----c----e----f----|  ")
            let e1subs =   "  ^---------------------------------!  "
            let e2 = m.hot("  ------x-x------xx-x---x----x--------|")
            let e2subs =   "  ^---------------------------------!  "
            let expected =   "------a--------c------c----e------|  "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a-^--b----c----d----#                    ")
            let e1subs =   "        ^-----------------!                    "
            let e2 = m.hot("        -----x----------x----------x----------|")
            let e2subs =   "        ^-----------------!                    "
            let expected =   "      -----b----------d-#                    "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should completes if source does not emits", arguments: variants) func shouldCompletesIfSourceDoesNotEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  |              ")
            let e2 = m.hot("  ------x-------|")
            let expected =   "|              "
            let e1subs =   "  (^!)           "
            let e2subs =   "  (^!)           "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if source throws immediately", arguments: variants) func shouldRaiseErrorIfSourceThrowsImmediately(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  #              ")
            let e2 = m.hot("  ------x-------|")
            let expected =   "#              "
            let e1subs =   "  (^!)           "
            let e2subs =   "  (^!)           "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if notification raises error", arguments: variants) func shouldRaiseErrorIfNotificationRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a-----|")
            let e2 = m.hot("  ----#    ")
            let expected =   "----#    "
            let e1subs =   "  ^---!    "
            let e2subs =   "  ^---!    "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not completes if source does not complete", arguments: variants) func shouldNotCompletesIfSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---------------")
            let e1subs =   "^--------------!"
            let e2 = m.hot("  ------x-------|")
            let e2subs =   "  ^-------------!"
            let expected =   "---------------"
            m.expectSignal(e1.signal.sample(e2.signal), unsubscription: "^--------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should sample only until source completes", arguments: variants) func shouldSampleOnlyUntilSourceCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a----b----c----d-|              ")
            let e1subs =   "  ^--------------------!              "
            let e2 = m.hot("  -----------x----------x------------|")
            let e2subs =   "  ^--------------------!              "
            let expected =   "-----------b---------|              "
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should complete sampling if sample observable completes", arguments: variants) func shouldCompleteSamplingIfSampleObservableCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a----b----c----d-|")
            let e1subs =   "  ^--------------------!"
            let e2 = m.hot("  |                     ")
            let e2subs =   "  (^!)                  "
            let expected =   "---------------------|"
            m.expectSignal(e1.signal.sample(e2.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }
}

#endif
