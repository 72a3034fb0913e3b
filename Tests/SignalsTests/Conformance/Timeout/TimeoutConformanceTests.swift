#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/timeout-spec.ts, ported: `timeout({ each: t })` is
// `timeout(interval: t, context: m.context)`, RxJS's `TimeoutError` is
// `SignalOperatorError.timeout`; `timeout({ each: t, with: () => inner })` is that followed by
// a `catchError` that continues with `inner` on `.timeout` only (`timeout(_:switchingTo:)` below).
//
// `timeout({ first: t })` is `timeout(first: t, context: m.context)`, and a `Date` for `first`
// (the test scheduler's frames counted from zero) is `timeout(firstBy: t, context:
// m.context)`, a reading of the virtual clock, whose origin is frame zero.
//
// RxJS's `TimeoutError.info` (`seen`, `lastValue`) is `TimeoutInfo`, handed to the timeout
// forms' `error:` closure; `{ SignalTimeoutError(info: $0) }` makes RxJS's error with it
// (without `error:` the forms fail with `SignalOperatorError.timeout`). The "appropriate due"
// cases subscribe by hand, as the spec does, and check the error's type and info.
//
// Not ported (JavaScript only): `info.meta` (the config's `meta`, handed back in the error):
// a Swift `error:` closure captures what it needs instead, so the cases that pass
// `meta: null` are ported without it, the same as their "(second case, without meta)" twins.
// Not written (a form Signals lacks): none.

private extension Signal {
    /// RxJS's `timeout({ each: interval, with: () => other })`: on timeout, continues with `other`.
    func timeout(_ m: MarbleTest, _ interval: Duration, switchingTo other: Signal<T>) -> Signal<T> {
        timeout(interval: interval, context: m.context).catchError { error in
            if let e = error as? SignalOperatorError, e == .timeout { return other }
            return Signal<T>.failing(error, delivery: m.variant)
        }
    }

    /// RxJS's `timeout({ first: new Date(deadline), with: () => other })`.
    func timeout(_ m: MarbleTest, firstBy deadline: Duration, switchingTo other: Signal<T>) -> Signal<T> {
        timeout(firstBy: deadline, context: m.context).catchError { error in
            if let e = error as? SignalOperatorError, e == .timeout { return other }
            return Signal<T>.failing(error, delivery: m.variant)
        }
    }
}

@Suite("timeout — rxjs spec/operators/timeout-spec.ts")
struct TimeoutConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let timeoutError = SignalOperatorError.timeout

    /// RxJS's hand-written check: subscribes to `result` (made by `makeResult` from the cold
    /// source) at frame 0, runs the clock, and expects no value, no completion, and a
    /// `SignalTimeoutError` whose info is `seen: 0, lastValue: nil`.
    static func expectTimeoutErrorWithInfo(
        _ variant: DeliveryVariant, sourceLocation: SourceLocation = #_sourceLocation,
        _ makeResult: (MarbleTest) -> Signal<String>
    ) {
        let received = Mutex<(values: [String], ends: [SignalEnd])>(([], []))
        marbleTest(variant) { m in
            let output = makeResult(m).subscribe { r in
                received.withLock {
                    switch r {
                    case .success(let v): $0.values.append(v)
                    case .failure(let e): $0.ends.append(e)
                    }
                }
            }
            m.hold(output)
        }
        let (values, ends) = received.withLock { $0 }
        #expect(values.isEmpty, "this should not send a value", sourceLocation: sourceLocation)
        #expect(ends.count == 1, sourceLocation: sourceLocation)
        let error = ends.first?.otherError
        #expect(error is SignalTimeoutError<String>, "not a SignalTimeoutError: \(String(describing: error))", sourceLocation: sourceLocation)
        #expect((error as? SignalTimeoutError<String>)?.info == TimeoutInfo(seen: 0, lastValue: nil), sourceLocation: sourceLocation)
    }

    @Test("should timeout after a specified timeout period", arguments: variants) func shouldTimeoutAfterASpecifiedTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -------a--b--|")
            let t = m.time("  -----|        ")
            let e1subs = "    ^----!        "
            let expected = "  -----#        "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit and TimeoutError on timeout with appropriate due as number", arguments: variants) func shouldEmitAndTimeoutErrorOnTimeoutWithAppropriateDueAsNumber(_ variant: DeliveryVariant) {
        Self.expectTimeoutErrorWithInfo(variant) { m in
            let e1 = m.cold("-------a--b--|")
            let t = m.time(" -----|")
            return e1.signal.timeout(interval: t, context: m.context, error: { SignalTimeoutError(info: $0) })
        }
    }

    @Test("should emit and TimeoutError on timeout with appropriate due as Date", arguments: variants) func shouldEmitAndTimeoutErrorOnTimeoutWithAppropriateDueAsDate(_ variant: DeliveryVariant) {
        Self.expectTimeoutErrorWithInfo(variant) { m in
            let e1 = m.cold("-------a--b--|")
            let t = m.time(" ----|")
            // 4 frames from "now": the virtual clock reads frame 0 as zero.
            return e1.signal.timeout(firstBy: t, context: m.context, error: { SignalTimeoutError(info: $0) })
        }
    }

    @Test("should not timeout if source emits within timeout period", arguments: variants) func shouldNotTimeoutIfSourceEmitsWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let t = m.time("  -----|            ")
            let e1subs = "    ^----------------!"
            let expected = "  --a--b--c--d--e--|"
            m.expectSignal(e1.signal.timeout(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c---d--e--|")
            let t = m.time("  -----|             ")
            let unsub = "     ----------!        "
            let e1subs = "    ^---------!        "
            let expected = "  --a--b--c--        "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c---d--e--|")
            let t = m.time("  -----|             ")
            let e1subs = "    ^---------!        "
            let expected = "  --a--b--c--        "
            let unsub = "     ----------!        "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(interval: t, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout after a specified timeout period between emit with default error while source emits", arguments: variants) func shouldTimeoutAfterASpecifiedTimeoutPeriodBetweenEmitWithDefaultErrorWhileSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c------d---e---|")
            let t = m.time("             -----|")
            let e1subs = "    ^---------------!          "
            let expected = "  ---a---b---c----#          "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout after a specified timeout period (second case, without meta)", arguments: variants) func shouldTimeoutAfterASpecifiedTimeoutPeriodSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -------a--b--|")
            let t = m.time("  -----|        ")
            let e1subs = "    ^----!        "
            let expected = "  -----#        "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit and TimeoutError on timeout with appropriate due as number (second case, without meta)", arguments: variants) func shouldEmitAndTimeoutErrorOnTimeoutWithAppropriateDueAsNumberSecondCase(_ variant: DeliveryVariant) {
        Self.expectTimeoutErrorWithInfo(variant) { m in
            let e1 = m.cold("-------a--b--|")
            let t = m.time(" -----|")
            return e1.signal.timeout(interval: t, context: m.context, error: { SignalTimeoutError(info: $0) })
        }
    }

    @Test("should emit and TimeoutError on timeout with appropriate due as Date (second case, without meta)", arguments: variants) func shouldEmitAndTimeoutErrorOnTimeoutWithAppropriateDueAsDateSecondCase(_ variant: DeliveryVariant) {
        Self.expectTimeoutErrorWithInfo(variant) { m in
            let e1 = m.cold("-------a--b--|")
            let t = m.time(" ----|")
            // 4 frames from "now": the virtual clock reads frame 0 as zero.
            return e1.signal.timeout(firstBy: t, context: m.context, error: { SignalTimeoutError(info: $0) })
        }
    }

    @Test("should not timeout if source emits within timeout period (second case, without meta)", arguments: variants) func shouldNotTimeoutIfSourceEmitsWithinTimeoutPeriodSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let t = m.time("  -----|            ")
            let e1subs = "    ^----------------!"
            let expected = "  --a--b--c--d--e--|"
            m.expectSignal(e1.signal.timeout(interval: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early (second case, without meta)", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarlySecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c---d--e--|")
            let t = m.time("  -----|             ")
            let unsub = "     ----------!        "
            let e1subs = "    ^---------!        "
            let expected = "  --a--b--c--        "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly (second case, without meta)", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitlySecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c---d--e--|")
            let t = m.time("  -----|             ")
            let e1subs = "    ^---------!        "
            let expected = "  --a--b--c--        "
            let unsub = "     ----------!        "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(interval: t, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout after a specified timeout period between emit with default error while source emits (second case, without meta)", arguments: variants) func shouldTimeoutAfterASpecifiedTimeoutPeriodBetweenEmitWithDefaultErrorWhileSourceEmitsSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c------d---e---|")
            let t = m.time("             -----|")
            let e1subs = "    ^---------------!          "
            let expected = "  ---a---b---c----#          "
            let result = e1.signal.timeout(interval: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout after a specified period then subscribe to the passed observable", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  -------a--b--|")
            let sourceSubs = "     ^----!        "
            let t = m.time("       -----|")
            let inner = m.cold("        x-y-z-|  ")
            let innerSubs = "      -----^-----!  "
            let expected = "       -----x-y-z-|  "
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should timeout after a specified period between emit then subscribe to the passed observable when source emits", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenSubscribeToThePassedObservableWhenSourceEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b------c---|")
            let t = m.time("             ----|       ")
            let sourceSubs = "    ^----------!       "
            let inner = m.cold("             -x-y-|  ")
            let innerSubs = "     -----------^----!  "
            let expected = "      ---a---b----x-y-|  "
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should allow unsubscribing explicitly and early (third case, with a fallback)", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarlyThirdCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b-----c----|")
            let t = m.time("             ----|       ")
            let sourceSubs = "    ^----------!       "
            let inner = m.cold("             -x---y| ")
            let innerSubs = "     -----------^--!    "
            let expected = "      ---a---b----x--    "
            let unsub = "         --------------!    "
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b-----c----|")
            let t = m.time("      ----|              ")
            let sourceSubs = "    ^----------!       "
            let inner = m.cold("             -x---y| ")
            let innerSubs = "     -----------^--!    "
            let expected = "      ---a---b----x--    "
            let unsub = "         --------------!    "
            let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(m, t, switchingTo: inner.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should not subscribe to withObservable after explicit unsubscription", arguments: variants) func shouldNotSubscribeToWithObservableAfterExplicitUnsubscription(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a------b------")
            let t = m.time("     -----|           ")
            let sourceSubs = "   ^----!           "
            let inner = m.cold("      i---j---|   ")
            let expected = "     ---a--           "
            let unsub = "        -----!           "
            let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                .timeout(m, t, switchingTo: inner.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    @Test("should timeout after a specified period then subscribe to the passed observable when source is empty", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservableWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------|      ")
            let t = m.time("      ----------|         ")
            let sourceSubs = "    ^---------!         "
            let inner = m.cold("            ----x----|")
            let innerSubs = "     ----------^--------!"
            let expected = "      --------------x----|"
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should timeout after a specified period between emit then never completes if other source does not complete", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenNeverCompletesIfOtherSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  --a--b--------c--d--|")
            let t = m.time("           ----|           ")
            let sourceSubs = "    ^--------!           "
            let inner = m.cold("           ------------")
            let innerSubs = "  ---------^-----------!"
            let expected = "      --a--b---------------"
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result, unsubscription: "^--------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should timeout after a specified period then subscribe to the passed observable when source raises error after timeout", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodThenSubscribeToThePassedObservableWhenSourceRaisesErrorAfterTimeout(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------#      ")
            let t = m.time("      ----------|         ")
            let sourceSubs = "    ^---------!         "
            let inner = m.cold("            ----x----|")
            let innerSubs = "     ----------^--------!"
            let expected = "      --------------x----|"
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should timeout after a specified period between emit then never completes if other source emits but not complete", arguments: variants) func shouldTimeoutAfterASpecifiedPeriodBetweenEmitThenNeverCompletesIfOtherSourceEmitsButNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -------------|      ")
            let t = m.time("      -----------|        ")
            let sourceSubs = "    ^----------!        "
            let inner = m.cold("             ----x----")
            let innerSubs = "  -----------^--------!"
            let expected = "      ---------------x----"
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result, unsubscription: "^-------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should not timeout if source completes within timeout period", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  -----|        ")
            let t = m.time("      ----------|   ")
            let sourceSubs = "    ^----!        "
            let inner = m.cold("            ----x----")
            let expected = "      -----|        "
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source raises error within timeout period", arguments: variants) func shouldNotTimeoutIfSourceRaisesErrorWithinTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-----#              ")
            let t = m.time("    ----------|         ")
            let sourceSubs = "  ^----!              "
            let inner = m.cold("       ----x----|")
            let expected = "    -----#              "
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source emits within timeout period (third case, with a fallback)", arguments: variants) func shouldNotTimeoutIfSourceEmitsWithinTimeoutPeriodThirdCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("   --a--b--c--d--e--|")
            let t = m.time("       -----|            ")
            let sourceSubs = "     ^----------------!"
            let inner = m.cold("        ----x----|   ")
            let expected = "       --a--b--c--d--e--|"
            let result = source.signal.timeout(m, t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    // MARK: - A deadline for the first value (`first`), relative or absolute

    @Test("should not timeout if source completes within absolute timeout period", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinAbsoluteTimeoutPeriod(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let t = m.time("  --------------------|")
            let e1subs = "    ^----------------!"
            let expected = "  --a--b--c--d--e--|"
            m.expectSignal(e1.signal.timeout(firstBy: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not timeout if source completes within absolute timeout period (second case, without meta)", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinAbsoluteTimeoutPeriodSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--e--|")
            let t = m.time("  --------------------|")
            let e1subs = "    ^----------------!"
            let expected = "  --a--b--c--d--e--|"
            m.expectSignal(e1.signal.timeout(firstBy: t, context: m.context)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout at a specified Date", arguments: variants) func shouldTimeoutAtASpecifiedDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let t = m.time("  ----------|")
            let e1subs = "    ^---------!"
            let expected = "  ----------#"
            let result = e1.signal.timeout(firstBy: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout at a specified Date (second case, without meta)", arguments: variants) func shouldTimeoutAtASpecifiedDateSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let t = m.time("  ----------|")
            let e1subs = "    ^---------!"
            let expected = "  ----------#"
            let result = e1.signal.timeout(firstBy: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout at a specified time for first value only", arguments: variants) func shouldTimeoutAtASpecifiedTimeForFirstValueOnly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let t = m.time("  ----------|")
            let e1subs = "    ^---------!"
            let expected = "  ----------#"
            let result = e1.signal.timeout(first: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not timeout for long delays if only first is specified", arguments: variants) func shouldNotTimeoutForLongDelaysIfOnlyFirstIsSpecified(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a-----------------------b---|")
            let t = m.time("     ----------|")
            let e1subs = "    ^------------------------------!"
            let expected = "  ---a-----------------------b---|"
            let result = e1.signal.timeout(first: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not timeout for long delays if only first is specified as Date", arguments: variants) func shouldNotTimeoutForLongDelaysIfOnlyFirstIsSpecifiedAsDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a-----------------------b---|")
            let t = m.time("  ----------|")
            let e1subs = "    ^------------------------------!"
            let expected = "  ---a-----------------------b---|"
            let result = e1.signal.timeout(firstBy: t, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout for long delays if first is specified as Date AND each is specified", arguments: variants) func shouldTimeoutForLongDelaysIfFirstIsSpecifiedAsDateANDEachIsSpecified(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("   ---a-----------------------b---|")
            let first = m.time("-------------|")
            let each = m.time("    ------|")
            let e1subs = "      ^--------!"
            let expected = "    ---a-----#"
            let result = e1.signal.timeout(firstBy: first, each: each, context: m.context)
            m.expectSignal(result).toBe(expected, error: Self.timeoutError)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should timeout at a specified date then subscribe to the passed observable", arguments: variants) func shouldTimeoutAtASpecifiedDateThenSubscribeToThePassedObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  -")
            let sourceSubs = "     ^---------!           "
            let t = m.time("       ----------|")
            let inner = m.cold("             --x--y--z--|")
            let innerSubs = "      ----------^----------!"
            let expected = "       ------------x--y--z--|"
            let result = source.signal.timeout(m, firstBy: t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe(innerSubs)
        }
    }

    @Test("should not timeout if source completes within specified Date", arguments: variants) func shouldNotTimeoutIfSourceCompletesWithinSpecifiedDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b--c--d--e--|   ")
            let t = m.time("    --------------------|")
            let sourceSubs = "  ^----------------!   "
            let inner = m.cold("--x--|            ")
            let expected = "    --a--b--c--d--e--|   "
            let result = source.signal.timeout(m, firstBy: t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source raises error within specified Date", arguments: variants) func shouldNotTimeoutIfSourceRaisesErrorWithinSpecifiedDate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("---a---#           ")
            let t = m.time("       ----------|     ")
            let sourceSubs = "  ^------!           "
            let inner = m.cold("             --x--|")
            let expected = "    ---a---#           "
            let result = source.signal.timeout(m, firstBy: t, switchingTo: inner.signal)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(inner.subscriptions).toBe([])
        }
    }

    @Test("should not timeout if source emits synchronously when subscribed", arguments: variants) func shouldNotTimeoutIfSourceEmitsSynchronouslyWhenSubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            // RxJS `of('a').concat(NEVER)`: a value at subscription, then nothing.
            let source = Signal<String>.never(delivery: variant).startWith("a")
            let t = m.time("  ---|")
            let expected = "  a---"
            m.expectSignal(source.timeout(firstBy: t, context: m.context), unsubscription: "^---!").toBe(expected)
        }
    }
}

#endif
