#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/retryWhen-spec.ts (packages/rxjs/test/ported/cold/operators/retry-when.spec.ts), ported.
//
// `source.retryWhen(errors => notifier)` is `Signal.retry(whenErrors: { errors in notifier })
// { source }`: the source is re-run by a factory (a Signals signal has one output), and the
// closure gets the multicast signal of errors, once, at the first error. Each case with a fixed
// notifier also runs on `Signal.retry(when: { _, _ in notifier }) { source }`, whose closure
// makes a trigger per error; its differences are marked.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

/// The two ways of writing RxJS's `source.retryWhen(() => notifier)` in Signals.
enum RetryWhenForm: String, CaseIterable, Sendable {
    /// `Signal.retry(when:_:)`: a trigger per error, released at its first value.
    case trigger
    /// `Signal.retry(whenErrors:_:)`: one notifier over the stream of errors (RxJS's form).
    case errors

    func retry<T: Sendable>(
        _ notifier: @escaping @Sendable () -> Signal<Void>, _ source: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        switch self {
        case .trigger: Signal.retry(when: { (_: any Error, _: Int) -> Signal<Void>? in notifier() }, source)
        case .errors: Signal.retry(whenErrors: { (_: SignalMulti<any Error>) -> Signal<Void> in notifier() }, source)
        }
    }
}

@Suite("retry(when:_:) — rxjs spec/operators/retryWhen-spec.ts")
struct RetryWhenConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = RetryWhenForm.allCases

    @Test("should handle a source with eventual error using a hot notifier", arguments: variants, forms) func shouldHandleASourceWithEventualErrorUsingAHotNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerPerError, shownBy: .diagram, .subscriptions) {
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
                let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        } when: { form == .trigger }
    }

    @Test("should handle a source with eventual error using a hot notifier that raises error", arguments: variants, forms) func shouldHandleASourceWithEventualErrorUsingAHotNotifierThatRaisesError(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
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
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on an empty source", arguments: variants, forms) func shouldApplyAnEmptyNotifierOnAnEmptySource(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("|   ")
            let expected =   "     |   "
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on an empty source", arguments: variants, forms) func shouldApplyANeverNotifierOnAnEmptySource(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("-   ")
            let expected =   "     |   "
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on a never source", arguments: variants, forms) func shouldApplyAnEmptyNotifierOnANeverSource(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  ------------------------------------------")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("|                                         ")
            let expected =   "     ------------------------------------------"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on a never source", arguments: variants, forms) func shouldApplyANeverNotifierOnANeverSource(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  -----------------------------------------")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("------------------------------------------")
            let expected =   "     -----------------------------------------"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should return an empty observable given a just-throw source and empty notifier", arguments: variants, forms) func shouldReturnAnEmptyObservableGivenAJustThrowSourceAndEmptyNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerEndPassesError, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("  #")
                let notifier = m.cold("|")
                let expected =   "     |"
                let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
            }
        } when: { form == .trigger }
    }

    @Test("should return a never observable given a just-throw source and never notifier", arguments: variants, forms) func shouldReturnANeverObservableGivenAJustThrowSourceAndNeverNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  #")
            let notifier = m.cold("-")
            let expected =   "     -"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should hide errors using a never notifier on a source with eventual error", arguments: variants, forms) func shouldHideErrorsUsingANeverNotifierOnASourceWithEventualError(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--#                              ")
            let subs =   "         ^----------!                              "
            let notifier = m.cold("           -------------------------------")
            let expected =   "     --a--b--c---------------------------------"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------------------------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should propagate error thrown from notifierSelector function", arguments: variants) func shouldPropagateErrorThrownFromNotifierSelectorFunction(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--a--b--c--#")
            let subs = "       ^----------!"
            let expected = "   --a--b--c--#"
            let result = Signal.retry(whenErrors: { (_: SignalMulti<any Error>) throws -> Signal<Void> in
                throw MarbleError("bad!")
            }) { source.signal }
            m.expectSignal(result).toBe(expected, error: MarbleError("bad!"))
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should replace error with complete using an empty notifier on a source with eventual error", arguments: variants, forms) func shouldReplaceErrorWithCompleteUsingAnEmptyNotifierOnASourceWithEventualError(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerEndPassesError, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("  --a--b--c--#")
                let subs =   "         ^----------!"
                let notifier = m.cold("           |")
                let expected =   "     --a--b--c--|"
                let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        } when: { form == .trigger }
    }

    @Test("should mirror a basic cold source with complete, given an empty notifier", arguments: variants, forms) func shouldMirrorABasicColdSourceWithCompleteGivenAnEmptyNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--|")
            let subs =   "         ^----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c--|"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic cold source with no termination, given an empty notifier", arguments: variants, forms) func shouldMirrorABasicColdSourceWithNoTerminationGivenAnEmptyNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c---")
            let subs =   "^-----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c---"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic hot source with complete, given an empty notifier", arguments: variants, forms) func shouldMirrorABasicHotSourceWithCompleteGivenAnEmptyNotifier(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        marbleTest(variant) { m in
            let source = m.hot("-a-^--b--c--|")
            let subs =   "         ^--------!"
            let notifier = m.cold("         |")
            let expected =   "     ---b--c--|"
            let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a hot source that raises error but eventually completes", arguments: variants, forms) func shouldHandleAHotSourceThatRaisesErrorButEventuallyCompletes(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerPerError, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.hot("  -1--2--3----4--5---|                  ")
                let ssubs = [
                    "                   ^------!                              ",
                    "                   --------------^----!                  ",
                ]
                let notifier = m.hot("--------------r--------r---r--r--r---|")
                let nsubs =   "       -------^-----------!                  "
                let expected =   "    -1--2----------5---|                  "
                let result = form.retry({ notifier.signal.map { _ in () } }) {
                    source.signal.map { x throws -> String in
                        if x == "3" { throw MarbleError("error") }
                        return x
                    }
                }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(ssubs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        } when: { form == .trigger }
    }

    @Test("should tear down resources when result is unsubscribed early", arguments: variants, forms) func shouldTearDownResourcesWhenResultIsUnsubscribedEarly(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerPerError, shownBy: .subscriptions) {
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
                let result = form.retry({ notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        } when: { form == .trigger }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants, forms) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant, _ form: RetryWhenForm) {
        withKnownDifference(.retryTriggerPerError, shownBy: .subscriptions) {
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
                let result = form.retry({ notifier.signal.map { _ in () } }) {
                    source.signal.flatMap { Signal.just($0, delivery: variant) }
                }
                .flatMap { Signal.just($0, delivery: variant) }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        } when: { form == .trigger }
    }

    @Test("should handle a source with eventual error using a dynamic notifier selector which eventually throws", arguments: variants) func shouldHandleASourceWithEventualErrorUsingADynamicNotifierSelectorWhichEventuallyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-1--2--#              ")
            //                          -1--2--#
            //                                 -1--2--#
            let subs = [
                "                  ^------!              ",
                "                  -------^------!       ",
                "                  --------------^------!",
            ]
            let expected = "   -1--2---1--2---1--2--#"
            let invoked = SelectorIndex()
            let result = Signal.retry(whenErrors: { errors in
                errors.map { _ throws -> String in
                    if invoked.next() == 2 { throw MarbleError("error") }
                    return "x"
                }
            }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a source with eventual error using a dynamic notifier selector which eventually completes", arguments: variants) func shouldHandleASourceWithEventualErrorUsingADynamicNotifierSelectorWhichEventuallyCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-1--2--#              ")
            //                          -1--2--#
            //                                 -1--2--#
            let subs = [
                "                  ^------!              ",
                "                  -------^------!       ",
                "                  --------------^------!",
            ]
            let expected = "   -1--2---1--2---1--2--|"
            let invoked = SelectorIndex()
            let result = Signal.retry(whenErrors: { errors in
                errors.map { _ in "x" }.takeUntil(errors.flatMap { _ -> Signal<String> in
                    invoked.next() < 2 ? Signal<String>.empty(delivery: variant) : Signal.from(["stop!"], delivery: variant)
                })
            }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }
}

#endif
