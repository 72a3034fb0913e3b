#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/retry-spec.ts (packages/rxjs/test/ported/cold/operators/retry.spec.ts), ported.
//
// RxJS's `retry` subscribes to the same cold source again; a Signals source is re-run by a
// factory, so `retry({ count })` is `Signal.retry(count:_:)` on `{ source.signal }` (no count:
// `Int.max`), `retry({ delay: t })` is the instance `retry(count:delayInterval:context:)`, which
// re-activates the same `generate` signal after `t`, and `retry({ delay: fn })` is
// `Signal.retry(when:_:)`, whose closure returns the notifier (nil where RxJS passes the error).
// `resetOnSuccess: false` is what every form does.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none. (`retry({ delay: fn })` that throws is the throwing
// `Signal.retry(when:_:)`.)

@Suite("retry — rxjs spec/operators/retry-spec.ts")
struct RetryConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should handle a basic source that emits next then errors, count=3", arguments: variants) func shouldHandleABasicSourceThatEmitsNextThenErrorsCount3(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2-3-#")
            let subs = [
                "                  ^-------!                ",
                "                  --------^-------!        ",
                "                  ----------------^-------!",
            ]
            let expected =   "   --1-2-3---1-2-3---1-2-3-#"
            let result = Signal.retry(count: 2) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle an empty source", arguments: variants) func shouldHandleAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|  ")
            let subs =   "      (^!)"
            let expected =   "   |  "
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a never source", arguments: variants) func shouldHandleANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-")
            let subs =   "^!"
            let expected =   "   -"
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should return a never observable given an async just-throw source and no count", arguments: variants) func shouldReturnANeverObservableGivenAnAsyncJustThrowSourceAndNoCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-#                                    ")  // important that it's not a sync error
            let unsub =   "     -------------------------------------!"
            let expected =   "  --------------------------------------"
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
        }
    }

    @Test("should handle a basic source that emits next then completes", arguments: variants) func shouldHandleABasicSourceThatEmitsNextThenCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--3--4--5---|")
            let subs =   "              ^------------!"
            let expected =   "          ---3--4--5---|"
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a basic source that emits next but does not complete", arguments: variants) func shouldHandleABasicSourceThatEmitsNextButDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--3--4--5---")
            let subs =   "^------------!"
            let expected =   "          ---3--4--5---"
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result, unsubscription: "^------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a basic source that emits next then errors, no count", arguments: variants) func shouldHandleABasicSourceThatEmitsNextThenErrorsNoCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2-3-#                             ")
            //                           --1-2-3-#
            //                                   --1-2-3-#
            //                                           --1-2-3-#
            //                                                   --1-2-3-#
            let unsub =   "      -------------------------------------!"
            let subs = [
                "                  ^-------!                             ",
                "                  --------^-------!                     ",
                "                  ----------------^-------!             ",
                "                  ------------------------^-------!     ",
                "                  --------------------------------^----!",
            ]
            let expected =   "   --1-2-3---1-2-3---1-2-3---1-2-3---1-2-"
            let result = Signal.retry(count: .max) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a source which eventually throws, count=3, and result is unsubscribed early", arguments: variants) func shouldHandleASourceWhichEventuallyThrowsCount3AndResultIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2-3-#     ")
            //                           --1-2-3-#
            let unsub =   "      -------------!"
            // prettier-ignore
            let subs = [
                "                  ^-------!     ",
                "                  --------^----!",
            ]
            let expected =   "   --1-2-3---1-2-"
            let result = Signal.retry(count: 3) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2-3-#     ")
            //                           --1-2-3-#
            // prettier-ignore
            let subs = [
                "                  ^-------!     ",
                "                  --------^----!",
            ]
            let expected =   "   --1-2-3---1-2-"
            let unsub =   "      -------------!"
            let result = Signal.retry(count: 100) { source.signal.flatMap { Signal.just($0, delivery: variant) } }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should not alter the source when the number of retries is smaller than 1", arguments: variants) func shouldNotAlterTheSourceWhenTheNumberOfRetriesIsSmallerThan1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2-3-# ")
            let subs = ["      ^-------! "]
            let expected =   "   --1-2-3-# "
            let unsub =   "      ---------!"
            let result = Signal.retry(count: 0) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should delay the retry by a specified amount of time", arguments: variants) func shouldDelayTheRetryByASpecifiedAmountOfTime(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let t = m.time("                ----|")
            let subs = [
                "                  ^----------!",
                "                  ---------------^----------!",
                "                  ------------------------------^----------!",
                "                  ---------------------------------------------^----!",
            ]
            let unsub =   "      ^-------------------------------------------------!"
            let expected =   "   ---a---b----------a---b----------a---b----------a--"
            let result = source.signal.retry(count: .max, delayInterval: t, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should act like a normal retry if delay is set to 0", arguments: variants) func shouldActLikeANormalRetryIfDelayIsSetTo0(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let subs = [
                "                  ^----------!",
                "                  -----------^----------!",
                "                  ----------------------^----------!",
                "                  ---------------------------------^----!",
            ]
            let unsub =   "      ^-------------------------------------!"
            let expected =   "   ---a---b------a---b------a---b------a--"
            let result = source.signal.retry(count: .max, delayInterval: .zero, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should act like a normal retry if delay is less than 0", arguments: variants) func shouldActLikeANormalRetryIfDelayIsLessThan0(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let subs = [
                "                  ^----------!",
                "                  -----------^----------!",
                "                  ----------------------^----------!",
                "                  ---------------------------------^----!",
            ]
            let unsub =   "      ^-------------------------------------!"
            let expected =   "   ---a---b------a---b------a---b------a--"
            let result = source.signal.retry(count: .max, delayInterval: .milliseconds(-100), context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should honor count as the max retries", arguments: variants) func shouldHonorCountAsTheMaxRetries(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let t = m.time("                ----|")
            let subs = [
                "                  ^----------!",
                "                  ---------------^----------!",
                "                  ------------------------------^----------!",
            ]
            let expected =   "   ---a---b----------a---b----------a---b---#"
            let result = source.signal.retry(count: 2, delayInterval: t, context: m.context)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should delay the retry with a function that returns a notifier", arguments: variants) func shouldDelayTheRetryWithAFunctionThatReturnsANotifier(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let subs = [
                "                  ^----------!",
                "                  ------------^----------!",
                "                  -------------------------^----------!",
                "                  ---------------------------------------^----!",
            ]
            let unsub =   "      ^-------------------------------------------!"
            let expected =   "   ---a---b-------a---b--------a---b---------a--"
            // retryCount will be 1, 2, 3, etc.
            let result = Signal.retry(when: { _, retryCount in Signal<Void>.timer(interval: m.duration(retryCount), context: m.context, delivery: variant) }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should delay the retry with a function that returns a hot observable", arguments: variants) func shouldDelayTheRetryWithAFunctionThatReturnsAHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold(" ---a---b---#")
            let notifier = m.hot("--------------x----------------x----------------x------")
            let subs = [
                "                   ^----------!",
                "                   --------------^----------!",
                "                   -------------------------------^----------!",
            ]
            let notifierSubs = [
                "                   -----------^--!",
                "                   -------------------------^-----!",
                "                   ------------------------------------------^-!",
            ]
            let unsub =   "       ^-------------------------------------------!"
            let expected =   "    ---a---b---------a---b------------a---b------"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
            m.expectSubscriptions(notifier.subscriptions).toBe(notifierSubs)
        }
    }

    @Test("should complete if the notifier completes", arguments: variants) func shouldCompleteIfTheNotifierCompletes(_ variant: DeliveryVariant) {
        withKnownDifference(.retryTriggerEndPassesError, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("---a---b---#")
                let subs = [
                    "                  ^----------!",
                    "                  ------------^----------!",
                    "                  -------------------------^----------!",
                    "                  ------------------------------------!",
                ]
                let expected =   "   ---a---b-------a---b--------a---b---|"
                let result = Signal.retry(when: { _, retryCount in
                    retryCount <= 2 ? Signal<Void>.timer(interval: m.duration(retryCount), context: m.context, delivery: variant) : Signal<Void>.empty(delivery: variant)
                }) { source.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should error if the notifier errors", arguments: variants) func shouldErrorIfTheNotifierErrors(_ variant: DeliveryVariant) {
        withKnownDifference(.retryTriggerEndPassesError, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("---a---b---#")
                let subs = [
                    "                  ^----------!",
                    "                  ------------^----------!",
                    "                  -------------------------^----------!",
                    "                  ------------------------------------!",
                ]
                let expected =   "   ---a---b-------a---b--------a---b---#"
                let result = Signal.retry(when: { _, retryCount in
                    retryCount <= 2 ? Signal<Void>.timer(interval: m.duration(retryCount), context: m.context, delivery: variant) : Signal<Void>.failing(MarbleError("blah"), delivery: variant)
                }) { source.signal }
                m.expectSignal(result).toBe(expected, error: MarbleError("blah"))
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should error if the delay function throws", arguments: variants) func shouldErrorIfTheDelayFunctionThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---b---#")
            let subs = [
                "                  ^----------!",
                "                  ------------^----------!",
                "                  -------------------------^----------!",
                "                  ------------------------------------!",
            ]
            let expected =   "   ---a---b-------a---b--------a---b---#"
            let result = Signal.retry(when: { (_: any Error, retryCount: Int) throws -> Signal<Void>? in
                if retryCount <= 2 {
                    return Signal<Void>.timer(interval: m.duration(retryCount), context: m.context, delivery: variant)
                }
                throw MarbleError("blah")
            }) { source.signal }
            m.expectSignal(result).toBe(expected, error: MarbleError("blah"))
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should be usable for exponential backoff", arguments: variants) func shouldBeUsableForExponentialBackoff(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("---a---#")
            let subs = [
                "                  ^------!",
                "                  ---------^------!",
                "                  --------------------^------!",
                "                  -----------------------------------^------!",
            ]
            let expected =   "   ---a--------a----------a--------------a---#"
            let result = Signal.retry(when: { _, retryCount in
                retryCount <= 3 ? Signal<Void>.timer(interval: m.duration(1 << retryCount), context: m.context, delivery: variant) : nil
            }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }
}

#endif
