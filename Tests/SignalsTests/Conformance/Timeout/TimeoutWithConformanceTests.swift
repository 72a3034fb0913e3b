#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/timeoutWith-spec.ts (packages/rxjs/test/ported/cold/operators/timeout-with.spec.ts), ported.
//
// `timeout({ each: t, with: () => other })` is `timeout(interval: t)` followed by a
// `catchError` that continues with `other` on `SignalOperatorError.timeout` only
// (`timeout(_:_:with:)` below), as in timeout-spec.ts's port; with a `Date` for `first` (frames
// counted from zero) it is `timeout(firstBy: t)`, a reading of the virtual clock
// (`timeout(_:firstBy:with:)`).
//
// Not ported (JavaScript only): none.
// Not written: none.

private extension Signal {
    /// RxJS's `timeout({ each: interval, with: () => other })`: on timeout, continues with a
    /// new signal of `other` (read only then, so `other`'s log shows no subscription otherwise).
    func timeout(_ m: MarbleTest, _ interval: Duration, with other: ColdMarbles<T>) -> Signal<T> {
        timeout(interval: interval, context: m.context).catchError { error in
            if let e = error as? SignalOperatorError, e == .timeout { return other.signal }
            return Signal<T>.failing(error, delivery: m.variant)
        }
    }

    /// RxJS's `timeout({ first: new Date(deadline), with: () => other })`.
    func timeout(_ m: MarbleTest, firstBy deadline: Duration, with other: ColdMarbles<T>) -> Signal<T> {
        timeout(firstBy: deadline, context: m.context).catchError { error in
            if let e = error as? SignalOperatorError, e == .timeout { return other.signal }
            return Signal<T>.failing(error, delivery: m.variant)
        }
    }
}

@Suite("timeout, continuing with another signal — rxjs spec/operators/timeoutWith-spec.ts")
struct TimeoutWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should timeout after a specified period then subscribe to the passed observable", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  -------a--b--|")
            let sourceSubs = "   ^----!        "
            let t = m.time("       -----|")
            let switchTo = m.cold("     x-y-z-|  ")
            let switchToSubs = " -----^-----!  "
            let expected = "     -----x-y-z-|  "
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should timeout after a specified period between emit then subscribe to the passed observable when source emits", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenSubscribeToThePassedObservableWhenSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b------c---|")
            let t = m.time("             ----|       ")
            let sourceSubs = "  ^----------!       "
            let switchTo = m.cold("          -x-y-|  ")
            let switchToSubs = "-----------^----!  "
            let expected = "    ---a---b----x-y-|  "
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b-----c----|")
            let t = m.time("             ----|       ")
            let sourceSubs = "  ^----------!       "
            let switchTo = m.cold("          -x---y| ")
            let switchToSubs = "-----------^--!    "
            let expected = "    ---a---b----x--    "
            let unsub = "       --------------!    "
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b-----c----|")
            let t = m.time("      ----|              ")
            let sourceSubs = "  ^----------!       "
            let switchTo = m.cold("          -x---y| ")
            let switchToSubs = "-----------^--!    "
            let expected = "    ---a---b----x--    "
            let unsub = "       --------------!    "
            let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(m, t, with: switchTo)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should not subscribe to withObservable after explicit unsubscription", arguments: variants) func shouldNotSubscribeToWithObservableAfterExplicitUnsubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a------b------")
            let t = m.time("     -----|           ")
            let sourceSubs = " ^----!           "
            let switchTo = m.cold("   i---j---|   ")
            let expected = "   ---a--           "
            let unsub = "      -----!           "
            let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(m, t, with: switchTo)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }

    @Test("should timeout after a specified period then subscribe to the passed observable when source is empty", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservableWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------|      ")
            let t = m.time("      ----------|         ")
            let sourceSubs = "  ^---------!         "
            let switchTo = m.cold("         ----x----|")
            let switchToSubs = "----------^--------!"
            let expected = "    --------------x----|"
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should timeout after a specified period between emit then never completes if other source does not complete", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenNeverCompletesIfOtherSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  --a--b--------c--d--|")
            let t = m.time("           ----|           ")
            let sourceSubs = "  ^--------!           "
            let switchTo = m.cold("        ------------")
            let switchToSubs = "---------^-----------!"
            let expected = "    --a--b---------------"
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result, unsubscription: "^--------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should timeout after a specified period then subscribe to the passed observable when source raises error after timeout", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservableWhenSourceRaisesErrorAfterTimeout(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------#      ")
            let t = m.time("      ----------|         ")
            let sourceSubs = "  ^---------!         "
            let switchTo = m.cold("         ----x----|")
            let switchToSubs = "----------^--------!"
            let expected = "    --------------x----|"
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should timeout after a specified period between emit then never completes if other source emits but not complete", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenNeverCompletesIfOtherSourceEmitsButNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------|      ")
            let t = m.time("      -----------|        ")
            let sourceSubs = "  ^----------!        "
            let switchTo = m.cold("          ----x----")
            let switchToSubs = "-----------^--------!"
            let expected = "    ---------------x----"
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result, unsubscription: "^-------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should not timeout if source completes within timeout period", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -----|        ")
            let t = m.time("      ----------|   ")
            let sourceSubs = "  ^----!        "
            let switchTo = m.cold("    ----x----")
            let expected = "    -----|        "
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source raises error within timeout period", arguments: variants) func shouldNotTimeoutIfSourceRaisesErrorWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-----#              ")
            let t = m.time("    ----------|         ")
            let sourceSubs = "^----!              "
            let switchTo = m.cold("       ----x----|")
            let expected = "  -----#              "
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source emits within timeout period", arguments: variants) func shouldNotTimeoutIfSourceEmitsWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("   --a--b--c--d--e--|")
            let t = m.time("       -----|            ")
            let sourceSubs = "   ^----------------!"
            let switchTo = m.cold("----x----|        ")
            let expected = "     --a--b--c--d--e--|"
            let result = source.signal.timeout(m, t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }

    @Test("should timeout at a specified date then subscribe to the passed observable", arguments: variants) func shouldTimeoutAtASpecifiedDateThenSubscribeToThePassedObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  -")
            let sourceSubs = "     ^---------!           "
            let t = m.time("       ----------|")
            let switchTo = m.cold("          --x--y--z--|")
            let switchToSubs = "   ----------^----------!"
            let expected = "       ------------x--y--z--|"
            let result = source.signal.timeout(m, firstBy: t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe(switchToSubs)
        }
    }

    @Test("should not timeout if source completes within specified Date", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinSpecifiedDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|   ")
            let t = m.time("    --------------------|")
            let sourceSubs = "  ^----------------!   "
            let switchTo = m.cold("--x--|            ")
            let expected = "    --a--b--c--d--e--|   "
            let result = source.signal.timeout(m, firstBy: t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source raises error within specified Date", arguments: variants) func shouldNotTimeoutIfSourceRaisesErrorWithinSpecifiedDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("---a---#           ")
            let t = m.time("       ----------|     ")
            let sourceSubs = "  ^------!           "
            let switchTo = m.cold("          --x--|")
            let expected = "    ---a---#           "
            let result = source.signal.timeout(m, firstBy: t, with: switchTo)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(switchTo.subscriptions).toBe([])
        }
    }
}

#endif
