import Signals
import Testing

// RxJS spec/operators/retryWhen-spec.ts (packages/rxjs/test/ported/cold/operators/retry-when.spec.ts), ported.
//
// `source.retryWhen(() => notifier)` is `Signal.retry(when: { _, _ in notifier }) { source }`:
// the source is re-run by a factory (a Signals signal has one output), and the closure returns
// the notifier as a `Signal<Void>`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): RxJS's notifier is made once from the stream of errors;
// `Signal.retry(when:_:)` asks for a trigger per error and takes no errors stream, nor a
// throwing closure:
// - "should propagate error thrown from notifierSelector function" (a throwing closure)
// - "should handle a source with eventual error using a dynamic notifier selector which
//   eventually throws" (`errors.map`)
// - "should handle a source with eventual error using a dynamic notifier selector which
//   eventually completes" (`errors.map(…).takeUntil(errors.mergeMap(…))`)

@Suite("retry(when:_:) — rxjs spec/operators/retryWhen-spec.ts")
struct RetryWhenConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let triggerEnd: Comment = "difference: a trigger of `Signal.retry(when:_:)` that ends without a value passes the source's error on (doc comment); RxJS completes when the notifier completes"
    static let triggerPerError: Comment = "difference: `Signal.retry(when:_:)` subscribes a trigger after each error and releases it at its first value (doc comment), so the notifier's later values and end go unseen; RxJS keeps one notifier subscribed from the subscription on, and its end ends the result"

    @Test("should handle a source with eventual error using a hot notifier", arguments: variants) func shouldHandleASourceWithEventualErrorUsingAHotNotifier(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerPerError) {
            marbleTest(variant) { m in
                let source = m.cold(" -1--2--#                     ")
                //                                 -1--2--#
                //                                              -1--2--#
                let subs = [
                    "                   ^------!                     ",
                    "                   -------------^------!        ",
                    "                   --------------------------^-!",
                ]
                let notifier = m.hot("-------------r------------r-|")
                let expected =   "    -1--2---------1--2---------1|"
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should handle a source with eventual error using a hot notifier that raises error", arguments: variants) func shouldHandleASourceWithEventualErrorUsingAHotNotifierThatRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold(" -1--2--#                      ")
            //                               -1--2--#
            //                                       -1--2--#
            let subs = [
                "                   ^------!                      ",
                "                   -----------^------!           ",
                "                   -------------------^------!   ",
            ]
            let notifier = m.hot("-----------r-------r---------#")
            let expected =   "    -1--2-------1--2----1--2-----#"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on an empty source", arguments: variants) func shouldApplyAnEmptyNotifierOnAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("|   ")
            let expected =   "     |   "
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on an empty source", arguments: variants) func shouldApplyANeverNotifierOnAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("-   ")
            let expected =   "     |   "
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on a never source", arguments: variants) func shouldApplyAnEmptyNotifierOnANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  ------------------------------------------")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("|                                         ")
            let expected =   "     ------------------------------------------"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on a never source", arguments: variants) func shouldApplyANeverNotifierOnANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  -----------------------------------------")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("------------------------------------------")
            let expected =   "     -----------------------------------------"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should return an empty observable given a just-throw source and empty notifier", arguments: variants) func shouldReturnAnEmptyObservableGivenAJustThrowSourceAndEmptyNotifier(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerEnd) {
            marbleTest(variant) { m in
                let source = m.cold("  #")
                let notifier = m.cold("|")
                let expected =   "     |"
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
            }
        }
    }

    @Test("should return a never observable given a just-throw source and never notifier", arguments: variants) func shouldReturnANeverObservableGivenAJustThrowSourceAndNeverNotifier(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  #")
            let notifier = m.cold("-")
            let expected =   "     -"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should hide errors using a never notifier on a source with eventual error", arguments: variants) func shouldHideErrorsUsingANeverNotifierOnASourceWithEventualError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--#                              ")
            let subs =   "         ^----------!                              "
            let notifier = m.cold("           -------------------------------")
            let expected =   "     --a--b--c---------------------------------"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------------------------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should replace error with complete using an empty notifier on a source with eventual error", arguments: variants) func shouldReplaceErrorWithCompleteUsingAnEmptyNotifierOnASourceWithEventualError(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerEnd) {
            marbleTest(variant) { m in
                let source = m.cold("  --a--b--c--#")
                let subs =   "         ^----------!"
                let notifier = m.cold("           |")
                let expected =   "     --a--b--c--|"
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should mirror a basic cold source with complete, given an empty notifier", arguments: variants) func shouldMirrorABasicColdSourceWithCompleteGivenAnEmptyNotifier(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--|")
            let subs =   "         ^----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c--|"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic cold source with no termination, given an empty notifier", arguments: variants) func shouldMirrorABasicColdSourceWithNoTerminationGivenAnEmptyNotifier(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c---")
            let subs =   "^-----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c---"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic hot source with complete, given an empty notifier", arguments: variants) func shouldMirrorABasicHotSourceWithCompleteGivenAnEmptyNotifier(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-a-^--b--c--|")
            let subs =   "         ^--------!"
            let notifier = m.cold("         |")
            let expected =   "     ---b--c--|"
            let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a hot source that raises error but eventually completes", arguments: variants) func shouldHandleAHotSourceThatRaisesErrorButEventuallyCompletes(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerPerError) {
            marbleTest(variant) { m in
                let source = m.hot("  -1--2--3----4--5---|                  ")
                let ssubs = [
                    "                   ^------!                              ",
                    "                   --------------^----!                  ",
                ]
                let notifier = m.hot("--------------r--------r---r--r--r---|")
                let nsubs =   "       -------^-----------!                  "
                let expected =   "    -1--2----------5---|                  "
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) {
                    source.signal.map { x throws -> String in
                        if x == "3" { throw MarbleError("error") }
                        return x
                    }
                }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(ssubs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        }
    }

    @Test("should tear down resources when result is unsubscribed early", arguments: variants) func shouldTearDownResourcesWhenResultIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerPerError) {
            marbleTest(variant) { m in
                let source = m.cold(" -1--2--#                    ")
                //                             -1--2--#
                //                                     -1--2--#
                let unsub =   "       --------------------!       "
                let subs = [
                    "                   ^------!                    ",
                    "                   ---------^------!           ",
                    "                   -----------------^--!       ",
                ]
                let notifier = m.hot("---------r-------r---------#")
                let nsubs =   "       -------^------------!       "
                let expected =   "    -1--2-----1--2----1--       "
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownIssue(Self.triggerPerError) {
            marbleTest(variant) { m in
                let source = m.cold(" -1--2--#                    ")
                //                             -1--2--#
                //                                     -1--2--#
                let subs = [
                    "                   ^------!                    ",
                    "                   ---------^------!           ",
                    "                   -----------------^--!       ",
                ]
                let notifier = m.hot("---------r-------r-------r-#")
                let nsubs =   "       -------^------------!       "
                let expected =   "    -1--2-----1--2----1--       "
                let unsub =   "       --------------------!       "
                let result = Signal.retry(when: { _, _ in notifier.signal.map { _ in () } }) {
                    source.signal.flatMap { Signal.just($0, delivery: variant) }
                }
                .flatMap { Signal.just($0, delivery: variant) }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        }
    }

}
