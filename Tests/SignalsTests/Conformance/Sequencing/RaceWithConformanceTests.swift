#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/raceWith-spec.ts (packages/rxjs/test/ported/cold/operators/race-with.spec.ts), ported.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("race — rxjs spec/operators/raceWith-spec.ts")
struct RaceWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should race cold and cold", arguments: variants) func shouldRaceColdAndCold(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a-----b-----c----|   ")
                let e1subs =   "  ^-------------------!   "
                let e2 = m.cold(" ------x-----y-----z----|")
                let e2subs =   "  ^--!                    "
                let expected =   "---a-----b-----c----|   "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should race hot and hot", arguments: variants) func shouldRaceHotAndHot(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  ---a-----b-----c----|   ")
                let e1subs =   "  ^-------------------!   "
                let e2 = m.hot("  ------x-----y-----z----|")
                let e2subs =   "  ^--!                    "
                let expected =   "---a-----b-----c----|   "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should race hot and cold", arguments: variants) func shouldRaceHotAndCold(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a-----b-----c----|   ")
                let e1subs =   "  ^-------------------!   "
                let e2 = m.hot("  ------x-----y-----z----|")
                let e2subs =   "  ^--!                    "
                let expected =   "---a-----b-----c----|   "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should race 2nd and 1st", arguments: variants) func shouldRace2ndAnd1st(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ------x-----y-----z----|")
                let e1subs =   "  ^--!                    "
                let e2 = m.cold(" ---a-----b-----c----|   ")
                let e2subs =   "  ^-------------------!   "
                let expected =   "---a-----b-----c----|   "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should race emit and complete", arguments: variants) func shouldRaceEmitAndComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -----|                  ")
            let e1subs =   "  ^----!                  "
            let e2 = m.hot("  ------x-----y-----z----|")
            let e2subs =   "  ^----!                  "
            let expected =   "-----|                  "
            let result = e1.signal.race(e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a-----b-----c----|   ")
                let e1subs =   "  ^-----------!           "
                let e2 = m.hot("  ------x-----y-----z----|")
                let e2subs =   "  ^--!                    "
                let expected =   "---a-----b---           "
                let unsub =   "   ------------!           "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--^--b--c---d-| ")
                let e1subs =   "       ^--------!    "
                let e2 = m.hot("  ---e-^---f--g---h-|")
                let e2subs =   "       ^--!          "
                let expected =   "     ---b--c---    "
                let unsub =   "        ---------!    "
                let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                    .race(e2.signal)
                    .flatMap { Signal.just($0, delivery: variant) }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should never emit when given non emitting sources", arguments: variants) func shouldNeverEmitWhenGivenNonEmittingSources(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---|")
            let e2 = m.cold(" ---|")
            let e1subs =   "  ^--!"
            let expected =   "---|"
            let source = e1.signal.race(e2.signal)
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should throw when error occurs mid stream", arguments: variants) func shouldThrowWhenErrorOccursMidStream(_ variant: DeliveryVariant) {
        withKnownDifference(.inputsHeldUntilEnd, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a-----#              ")
                let e1subs =   "  ^--------!              "
                let e2 = m.cold(" ------x-----y-----z----|")
                let e2subs =   "  ^--!                    "
                let expected =   "---a-----#              "
                let result = e1.signal.race(e2.signal)
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should throw when error occurs before a winner is found", arguments: variants) func shouldThrowWhenErrorOccursBeforeAWinnerIsFound(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---#                    ")
            let e1subs =   "  ^--!                    "
            let e2 = m.cold(" ------x-----y-----z----|")
            let e2subs =   "  ^--!                    "
            let expected =   "---#                    "
            let result = e1.signal.race(e2.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }
}

#endif
