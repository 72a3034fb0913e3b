#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/share-spec.ts (packages/rxjs/test/ported/cold/operators/share.spec.ts), ported.
//
// `share()` is `multicast()`: a `SignalMulti` activates its upstream with its first branch and
// deactivates it with its last (ref-counting built in, no connect step). Each
// `expectObservable(shared, …)` or `mergeMap(() => shared)` is a branch of the one multi; a
// cold source is one `generate` signal under the multi, which replays its diagram from the
// frame it is activated again.
//
// What `multicast()` does where `share` has reset options (checked on both variants):
// - the last branch leaves: the upstream is deactivated, and the next branch activates it
//   again (a `generate` source runs afresh) — RxJS's `resetOnRefCountZero: true`;
// - the upstream ends (error or completion): the multi keeps the end, and every later branch
//   gets that end at once, nothing else — RxJS's `resetOnError: false` and
//   `resetOnComplete: false`; the ended upstream is not activated again for a late branch.
//   RxJS's default (`true`) subscribes the source again, so the cases that re-subscribe after
//   an end (`retry`, `repeat`) are differences. `playbackWhileActive()` does start its upstream afresh
//   for a branch that joins after the end, but replays values to late branches (RxJS's
//   `share({ connector: () => new ReplaySubject() })`), so it is not `share()` either.
//
// The spec runs most cases over five configurations: `share()` and four whose reset notifiers
// fire synchronously at once (`of(1)`, `concat(of(1), of(1))`, `concat(of(1), NEVER)`,
// `concat(of(1), throwError)`), which the spec states are equivalent to the default. Signals
// has no reset notifiers, so each of these configurations runs `multicast()`, the form of the
// default, and is named by the test's argument. Likewise the three `share(config)`
// configurations (`false`, `() => EMPTY`, `() => NEVER`: a notifier that never fires is no
// reset) are one behaviour each.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks):
// - reset notifiers (`resetOnError`/`resetOnComplete`/`resetOnRefCountZero` given a function
//   returning an observable, fired later than the reset point) and a connector (a factory of
//   the subject, counted per connection):
//   - "should use the connector function provided"
//   - "should reset on refCount 0 when synchronously resubscribing and using a sync reset notifier"
//   - "should not reset on refCount 0 when synchronously resubscribing and using a deferred reset notifier"
//   - "should reset on refCount 0 only after reset notifier emitted"
//   - "should reset on error only after reset notifier emitted"
//   - "should reset on complete only after reset notifier emitted"
//   - "should not reset on refCount 0 if reset notifier errors before emitting any value"
//   - "should not reset on error if reset notifier errors before emitting any value"
//   - "should not reset on complete if reset notifier errors before emitting any value"
//   - "should not call \"resetOnRefCountZero\" on error"
//   - "should not call \"resetOnRefCountZero\" on complete"

/// The spec's configurations of `share` that behave as the default (`share()`). Each is
/// `multicast()` here: Signals has no reset notifiers, and these notifiers fire at once.
enum ShareConfiguration: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case defaults = "share()"
    case syncNotifiers = "share() using sync reset notifiers equivalent to default config"
    case notifyingAgain = "share() using sync reset notifiers equivalent to default config and notifying again after reset is notified"
    case neverCompleting = "share() using sync reset notifiers equivalent to default config and never completing after reset is notified"
    case throwingAfter = "share() using sync reset notifiers equivalent to default config and throwing an error after reset is notified"

    var testDescription: String { rawValue }

    /// The configuration's Signals form (the same for all: see above).
    func share<T: Sendable>(_ signal: Signal<T>) -> SignalMulti<T> { signal.multicast() }
}

/// The spec's `share(config)` configurations that turn one reset off: `false`, or a notifier
/// that never fires (`() => EMPTY`, `() => NEVER`), which is the same.
enum ShareNoResetConfiguration: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case config = "share(config)"
    case empty = "share(config) using EMPTY as sync reset notifier equivalents"
    case never = "share(config) using NEVER as sync reset notifier equivalents"

    var testDescription: String { rawValue }
}

@Suite("multicast (share) — rxjs spec/operators/share-spec.ts")
struct ShareConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let configurations = ShareConfiguration.allCases
    static let noResetConfigurations = ShareNoResetConfiguration.allCases

    @Test("should mirror a simple source Observable", arguments: variants, configurations) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2---3-4--5-|")
            let sourceSubs = " ^--------------!"
            let expected = "   --1-2---3-4--5-|"
            let shared = configuration.share(source.signal)
            m.expectSignal(shared).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should not change the output of the observable when error", arguments: variants, configurations) func shouldNotChangeTheOutputOfTheObservableWhenError(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let e1 = m.hot("---a--^--b--c--d--e--#")
            let e1subs = "      ^--------------!"
            let expected = "    ---b--c--d--e--#"
            m.expectSignal(configuration.share(e1.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not change the output of the observable when successful with cold observable", arguments: variants, configurations) func shouldNotChangeTheOutputOfTheObservableWhenSuccessfulWithColdObservable(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a--b--c--d--e--|")
            let e1subs = "  ^-----------------!"
            let expected = "---a--b--c--d--e--|"
            m.expectSignal(configuration.share(e1.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not change the output of the observable when error with cold observable", arguments: variants, configurations) func shouldNotChangeTheOutputOfTheObservableWhenErrorWithColdObservable(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a--b--c--d--e--#")
            let e1subs = "  ^-----------------!"
            let expected = "---a--b--c--d--e--#"
            m.expectSignal(configuration.share(e1.signal)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should retry just fine", arguments: variants, configurations) func shouldRetryJustFine(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a--b--c--d--e--#                  ")
                let e1subs = [
                    "               ^-----------------!                  ",
                    "               ------------------^-----------------!",
                ]
                let expected = "---a--b--c--d--e-----a--b--c--d--e--#"
                let shared = configuration.share(e1.signal)
                m.expectSignal(Signal.retry(count: 1) { shared }).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should share the same values to multiple observers", arguments: variants, configurations) func shouldShareTheSameValuesToMultipleObservers(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|")
            let sourceSubs = "     ^-----------!"
            let subscriber1 = m.hot("a|           ")
            let expected1 = "      -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ")
            let expected2 = "      -----3----4-|"
            let subscriber3 = m.hot("--------c|   ")
            let expected3 = "      ----------4-|"
            let shared = configuration.share(source.signal)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should share an error from the source to multiple observers", arguments: variants, configurations) func shouldShareAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "     ^-----------!"
            let subscriber1 = m.hot("a|           ")
            let expected1 = "      -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ")
            let expected2 = "      -----3----4-#"
            let subscriber3 = m.hot("--------c|   ")
            let expected3 = "      ----------4-#"
            let shared = configuration.share(source.signal)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should share the same values to multiple observers, but is unsubscribed explicitly and early", arguments: variants, configurations) func shouldShareTheSameValuesToMultipleObserversButIsUnsubscribedExplicitlyAndEarly(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|")
            let sourceSubs = "     ^--------!   "
            let unsub = "          ---------!   "
            let subscriber1 = m.hot("a|           ")
            let expected1 = "      -1-2-3----   "
            let subscriber2 = m.hot("----b|       ")
            let expected2 = "      -----3----   "
            let subscriber3 = m.hot("--------c|   ")
            let expected3 = "      ----------   "
            let shared = configuration.share(source.signal)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }, unsubscription: unsub).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }, unsubscription: unsub).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }, unsubscription: unsub).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should share an empty source", arguments: variants, configurations) func shouldShareAnEmptySource(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("|   ")
            let sourceSubs = " (^!)"
            let expected = "   |   "
            let shared = configuration.share(source.signal)
            m.expectSignal(shared).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should share a never source", arguments: variants, configurations) func shouldShareANeverSource(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("-")
            let shared = configuration.share(source.signal)
            m.expectSignal(shared, unsubscription: "^!").toBe("-")
            m.expectSubscriptions(source.subscriptions).toBe("^!")
        }
    }

    @Test("should share a throw source", arguments: variants, configurations) func shouldShareAThrowSource(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let sourceSubs = " (^!)"
            let expected = "   #   "
            let shared = configuration.share(source.signal)
            m.expectSignal(shared).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should connect when first subscriber subscribes", arguments: variants, configurations) func shouldConnectWhenFirstSubscriberSubscribes(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("       -1-2-3----4-|")
            let sourceSubs = "     ---^-----------!"
            let subscriber1 = m.hot("---a|           ")
            let expected1 = "      ----1-2-3----4-|"
            let subscriber2 = m.hot("-------b|       ")
            let expected2 = "      --------3----4-|"
            let subscriber3 = m.hot("-----------c|   ")
            let expected3 = "      -------------4-|"
            let shared = configuration.share(source.signal)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should disconnect when last subscriber unsubscribes", arguments: variants, configurations) func shouldDisconnectWhenLastSubscriberUnsubscribes(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("       -1-2-3----4-|")
            let sourceSubs = "     ---^--------!   "
            let subscriber1 = m.hot("---a|           ")
            let unsub1 = "         ----------!     "
            let expected1 = "      ----1-2-3--     "
            let subscriber2 = m.hot("-------b|       ")
            let unsub2 = "         ------------!   "
            let expected2 = "      --------3----   "
            let shared = configuration.share(source.signal)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }, unsubscription: unsub1).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }, unsubscription: unsub2).toBe(expected2)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should not break unsubscription chain when last subscriber unsubscribes", arguments: variants, configurations) func shouldNotBreakUnsubscriptionChainWhenLastSubscriberUnsubscribes(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let source = m.cold("       -1-2-3----4-|")
            let sourceSubs = "     ---^--------!   "
            let subscriber1 = m.hot("---a|           ")
            let unsub1 = "         ----------!     "
            let expected1 = "      ----1-2-3--     "
            let subscriber2 = m.hot("-------b|       ")
            let unsub2 = "         ------------!   "
            let expected2 = "      --------3----   "
            let multi = configuration.share(source.signal.flatMap { x in Signal.just(x, delivery: variant) })
            // RxJS's pipeline after `share` runs once per subscription: here a chain per branch.
            let shared: @Sendable () -> Signal<String> = { multi.flatMap { x in Signal.just(x, delivery: variant) } }
            m.expectSignal(subscriber1.signal.flatMap { _ in shared() }, unsubscription: unsub1).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared() }, unsubscription: unsub2).toBe(expected2)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should be retryable when cold source is synchronous", arguments: variants, configurations) func shouldBeRetryableWhenColdSourceIsSynchronous(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("(123#)")
                let shared = configuration.share(source.signal)
                m.expectSignal(Signal.retry(count: 1) { shared }).toBe("(123123#)")
                m.expectSignal(Signal.retry(count: 1) { shared }, unsubscription: "-^").toBe("-(123123#)")
                m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "-(^!)", "-(^!)"])
            }
        }
    }

    @Test("should be repeatable when cold source is synchronous", arguments: variants, configurations) func shouldBeRepeatableWhenColdSourceIsSynchronous(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("(123|)")
                let shared = configuration.share(source.signal)
                m.expectSignal(Signal.repeat(count: 2) { shared }).toBe("(123123|)")
                m.expectSignal(Signal.repeat(count: 2) { shared }, unsubscription: "-^").toBe("-(123123|)")
                m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "-(^!)", "-(^!)"])
            }
        }
    }

    @Test("should be retryable", arguments: variants, configurations) func shouldBeRetryable(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-#                        ")
                let shared = configuration.share(source.signal)
                m.expectSignal(Signal.retry(count: 2) { shared }).toBe("-1-2-3----4--1-2-3----4--1-2-3----4-#")
                m.expectSignal(Signal.retry(count: 2) { shared }, unsubscription: "----^").toBe("-----3----4--1-2-3----4--1-2-3----4-#")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }

    @Test("should be repeatable", arguments: variants, configurations) func shouldBeRepeatable(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|                        ")
                let shared = configuration.share(source.signal)
                m.expectSignal(Signal.repeat(count: 3) { shared }).toBe("-1-2-3----4--1-2-3----4--1-2-3----4-|")
                m.expectSignal(Signal.repeat(count: 3) { shared }, unsubscription: "----^").toBe("-----3----4--1-2-3----4--1-2-3----4-|")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }

    @Test("should not change the output of the observable when never", arguments: variants, configurations) func shouldNotChangeTheOutputOfTheObservableWhenNever(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let shared = configuration.share(Signal<String>.never(delivery: variant))
            m.expectSignal(shared, unsubscription: "^!").toBe("-")
        }
    }

    @Test("should not change the output of the observable when empty", arguments: variants, configurations) func shouldNotChangeTheOutputOfTheObservableWhenEmpty(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        marbleTest(variant) { m in
            let e1 = Signal<String>.empty(delivery: variant)
            let expected = "|"
            m.expectSignal(configuration.share(e1)).toBe(expected)
        }
    }

    @Test("should not reset on error if configured to do so", arguments: variants, noResetConfigurations) func shouldNotResetOnErrorIfConfiguredToDoSo(_ variant: DeliveryVariant, _ configuration: ShareNoResetConfiguration) {
        // `resetOnError` off, `resetOnComplete` left on: each completion of `take(3)` is
        // repeated on a fresh connection. `multicast()` keeps the completion too, which RxJS
        // resets.
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.hot("---a---b---c---d---e---f----#")
                let expected = "  ---a---b---c---d---e---f----#"
                let sourceSubs = [
                    "                 ^----------!                 ",
                    "                 -----------^-----------!     ",
                    "                 -----------------------^----!",
                ]
                let shared = source.signal.take(3).multicast()
                // RxJS repeats without a count; the third run fails, so 3 runs are enough, and a
                // bound keeps an end that repeats at once from looping.
                let result = Signal.repeat(count: 3) { shared }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should not fail on reentrant subscription", arguments: variants, configurations) func shouldNotFailOnReentrantSubscription(_ variant: DeliveryVariant, _ configuration: ShareConfiguration) {
        withKnownDifference(.loopRefused, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("(123|)")
                let subs = "       (^!)  "
                let expected = "   (136|)"
                // `deferred` subscribes to `shared` itself, made below.
                let sharedBox = Mutex<SignalMulti<String>?>(nil)
                let deferred = Signal<String>.deferred { sharedBox.withLock { $0! } }.startWith("0")
                let shared = configuration.share(
                    source.signal.withLatestFrom(deferred) { a, b in String(Int(a)! + Int(b)!) }
                )
                sharedBox.withLock { $0 = shared }
                m.expectSignal(shared).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should not reset on complete if configured to do so", arguments: variants, noResetConfigurations) func shouldNotResetOnCompleteIfConfiguredToDoSo(_ variant: DeliveryVariant, _ configuration: ShareNoResetConfiguration) {
        // `resetOnComplete` off, `resetOnError` left on: the source's errors are retried.
        // `multicast()` keeps the completion as asked, but keeps the error too, which RxJS resets.
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("---a---b---c---#                          ")
                let expected = "   ---a---b---c------a---b---c------a---b---|"
                let sourceSubs = [
                    "                  ^--------------!                          ",
                    "                  ---------------^--------------!           ",
                    "                  ------------------------------^----------!",
                ]
                // Used to trigger the source to complete at a given moment.
                let (triggerComplete, trigger) = Signal<Void>.create(delivery: variant)
                let triggerMulti = trigger.multicast()
                // Counts how many values have made it through the multi.
                let count = Mutex(0)
                let shared = source.signal.takeUntil(triggerMulti).multicast()
                // RxJS retries without a count; the third attempt completes, so 2 retries
                // are enough, and a bound keeps an end that repeats at once from looping.
                let result = Signal.retry(count: 2) { shared }.onValue { _ in
                    if count.withLock({ c in c += 1; return c }) == 9 {
                        // If we see the ninth value, complete the source this time.
                        triggerComplete.send(value: ())
                    }
                }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
                withExtendedLifetime(triggerComplete) {}
            }
        }
    }

    @Test("should not reset on refCount 0 if configured to do so", arguments: variants, noResetConfigurations) func shouldNotResetOnRefCount0IfConfiguredToDoSo(_ variant: DeliveryVariant, _ configuration: ShareNoResetConfiguration) {
        // `resetOnRefCountZero` off, the end resets left on: the error is retried and the
        // completion repeated, each on a fresh connection. `multicast()` keeps both ends.
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.hot("  ---v---v---v---E--v---v---v---C---v----v------v---")
                let expected = "    ---v---v---v------v---v---v-------v----v----      "
                let subscription = "^-------------------------------------------!     "
                let sourceSubs = [
                    "                   ^--------------!",
                    "                   ---------------^--------------!",
                    // This last subscription never ends: refCount hitting zero does not reset.
                    "                   ------------------------------^--------------     ",
                ]
                let shared = source.signal.map { (value: String) throws -> String in
                    if value == "E" { throw MarbleError("E") }
                    return value
                }.takeWhile { $0 != "C" }.multicast()
                // RxJS retries and repeats without a count; one error and one completion come
                // before the end of the subscription, so one retry and two runs are enough, and
                // the bounds keep an end that repeats at once from looping.
                let result = Signal.repeat(count: 2) { Signal.retry(count: 1) { shared } }
                m.expectSignal(result, unsubscription: subscription).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should be referentially-transparent", arguments: variants, noResetConfigurations) func shouldBeReferentiallyTransparent(_ variant: DeliveryVariant, _ configuration: ShareNoResetConfiguration) {
        marbleTest(variant) { m in
            let source1 = m.cold("-1-2-3-4-5-|")
            let source1Subs = " ^----------!"
            let expected1 = "   -1-2-3-4-5-|"
            let source2 = m.cold("-6-7-8-9-0-|")
            let source2Subs = " ^----------!"
            let expected2 = "   -6-7-8-9-0-|"
            // Calls to the operator must be referentially transparent: each makes its own multi.
            // (The reset turned off, `resetOnRefCountZero`, is never reached: one branch each.)
            let partialPipeLine = { (s: Signal<String>) in s.multicast() }
            let shared1 = partialPipeLine(source1.signal)
            let shared2 = partialPipeLine(source2.signal)
            m.expectSignal(shared1).toBe(expected1)
            m.expectSubscriptions(source1.subscriptions).toBe(source1Subs)
            m.expectSignal(shared2).toBe(expected2)
            m.expectSubscriptions(source2.subscriptions).toBe(source2Subs)
        }
    }
}

#endif
