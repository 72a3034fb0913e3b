#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/repeatWhen-spec.ts (packages/rxjs/test/ported/cold/operators/repeat-when.spec.ts), ported.
//
// `source.repeatWhen(completions => notifier)` is `Signal.repeat(whenCompletions: {
// completions in notifier }) { source }`: the source is re-run by a factory (a Signals signal
// has one output), and the closure gets the multicast signal of completions, once, at the
// first completion. Each case with a fixed notifier also runs on `Signal.repeat(when: { _ in
// notifier }) { source }`, whose closure makes a trigger per completion; its differences are
// marked. A notifier selector that throws is the throwing closure of each form.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

/// The two ways of writing RxJS's `source.repeatWhen(() => notifier)` in Signals.
enum RepeatWhenForm: String, CaseIterable, Sendable {
    /// `Signal.repeat(when:_:)`: a trigger per completion, released at its first value.
    case trigger
    /// `Signal.repeat(whenCompletions:_:)`: one notifier over the stream of completions
    /// (RxJS's form).
    case completions

    func `repeat`<T: Sendable>(
        _ notifier: @escaping @Sendable () -> Signal<Void>, _ source: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        switch self {
        case .trigger: Signal.repeat(when: { (_: Int) -> Signal<Void>? in notifier() }, source)
        case .completions: Signal.repeat(whenCompletions: { (_: SignalMulti<Void>) -> Signal<Void> in notifier() }, source)
        }
    }
}

@Suite("repeat(whenCompletions:_:) — rxjs spec/operators/repeatWhen-spec.ts")
struct RepeatWhenConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = RepeatWhenForm.allCases

    @Test("should handle a source with eventual complete using a hot notifier", arguments: variants, forms) func shouldHandleASourceWithEventualCompleteUsingAHotNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("-1--2--|")
            //                                 -1--2--|
            //                                              -1--2--|
            let subs = [
                "                  ^------!                          ",
                "                  -------------^------!             ",
                "                  --------------------------^------!",
            ]
            let notifier = m.hot("-------------r------------r-|    ")
            let expected =   "    -1--2---------1--2---------1--2--|"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a source with eventual complete using a hot notifier that raises error", arguments: variants, forms) func shouldHandleASourceWithEventualCompleteUsingAHotNotifierThatRaisesError(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold(" -1--2--|")
            let subs = [
                "                   ^------!                      ",
                "                   -----------^------!           ",
                "                   -------------------^------!   ",
            ]
            let notifier = m.hot("-----------r-------r---------#")
            let expected =   "    -1--2-------1--2----1--2-----#"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on an empty source", arguments: variants, forms) func shouldApplyAnEmptyNotifierOnAnEmptySource(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("|   ")
            let expected =   "     |   "
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on an empty source", arguments: variants, forms) func shouldApplyANeverNotifierOnAnEmptySource(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let subs =   "         (^!)"
            let notifier = m.cold("-   ")
            let expected =   "     -   "
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply an empty notifier on a never source", arguments: variants, forms) func shouldApplyAnEmptyNotifierOnANeverSource(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  -                                         ")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("|                                         ")
            let expected =   "     -                                         "
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should apply a never notifier on a never source", arguments: variants, forms) func shouldApplyANeverNotifierOnANeverSource(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  -                                         ")
            let unsub =   "        -----------------------------------------!"
            let subs =   "         ^----------------------------------------!"
            let notifier = m.cold("-                                        ")
            let expected =   "     -                                        "
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should return an empty observable given a just-throw source and empty notifier", arguments: variants, forms) func shouldReturnAnEmptyObservableGivenAJustThrowSourceAndEmptyNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  #")
            let notifier = m.cold("|")
            let expected =   "     #"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
        }
    }

    @Test("should return a error observable given a just-throw source and never notifier", arguments: variants, forms) func shouldReturnAErrorObservableGivenAJustThrowSourceAndNeverNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  #")
            let notifier = m.cold("-")
            let expected =   "     #"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
        }
    }

    @Test("should return a never-ending result if the notifier is never", arguments: variants, forms) func shouldReturnANeverEndingResultIfTheNotifierIsNever(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--|                              ")
            let subs =   "         ^----------!                              "
            let notifier = m.cold("           -                              ")
            let expected =   "     --a--b--c---------------------------------"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------------------------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should propagate error thrown from notifierSelector function", arguments: variants, forms) func shouldPropagateErrorThrownFromNotifierSelectorFunction(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("--a--b--c--|")
            let subs =   "       ^----------!"
            let expected =   "   --a--b--c--#"
            let result: Signal<String>
            switch form {
            case .trigger:
                result = Signal.repeat(when: { (_: Int) throws -> Signal<Void>? in throw MarbleError("bad!") }) { () throws -> Signal<String> in source.signal }
            case .completions:
                result = Signal.repeat(whenCompletions: { (_: SignalMulti<Void>) throws -> Signal<Void> in throw MarbleError("bad!") }) { source.signal }
            }
            m.expectSignal(result).toBe(expected, error: MarbleError("bad!"))
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should complete if the notifier only completes", arguments: variants, forms) func shouldCompleteIfTheNotifierOnlyCompletes(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--|")
            let subs =   "         ^----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c--|"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic cold source with complete, given a never notifier", arguments: variants, forms) func shouldMirrorABasicColdSourceWithCompleteGivenANeverNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c--|")
            let subs =   "         ^----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c--|"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic cold source with no termination, given a never notifier", arguments: variants, forms) func shouldMirrorABasicColdSourceWithNoTerminationGivenANeverNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.cold("  --a--b--c---")
            let subs = "^-----------!"
            let notifier = m.cold("           |")
            let expected =   "     --a--b--c---"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result, unsubscription: "^-----------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror a basic hot source with complete, given a never notifier", arguments: variants, forms) func shouldMirrorABasicHotSourceWithCompleteGivenANeverNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        marbleTest(variant) { m in
            let source = m.hot("-a-^--b--c--|")
            let subs =   "         ^--------!"
            let notifier = m.cold("         |")
            let expected =   "     ---b--c--|"
            let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle a host source that completes via operator like take, and a hot notifier", arguments: variants, forms) func shouldHandleAHostSourceThatCompletesViaOperatorLikeTakeAndAHotNotifier(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        withKnownDifference(.repeatTriggerPerCompletion, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.hot("-1--2--3----4--5---|")
                let notifier = m.hot("--------------r--------r---r--r--r---|")
                let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal.takeWhile { $0 != "3" } }
                m.expectSignal(result).toBe("-1--2----------5---------------------|")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^------!",
                    "--------------^----!",
                    "-----------------------(^!)",
                    "---------------------------(^!)",
                    "------------------------------(^!)",
                    "---------------------------------(^!)",
                ])
                m.expectSubscriptions(notifier.subscriptions).toBe("-------^-----------------------------!")
            }
        } when: { form == .trigger }
    }

    @Test("should tear down resources when result is unsubscribed early", arguments: variants, forms) func shouldTearDownResourcesWhenResultIsUnsubscribedEarly(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        withKnownDifference(.repeatTriggerPerCompletion, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold(" -1--2--|")
                let unsub =   "       --------------------!       "
                let subs = [
                    "                   ^------!                    ",
                    "                   ---------^------!           ",
                    "                   -----------------^--!       ",
                ]
                let notifier = m.hot("---------r-------r---------#")
                let nsubs =   "       -------^------------!       "
                let expected =   "    -1--2-----1--2----1--       "
                let result = form.repeat({ notifier.signal.map { _ in () } }) { source.signal }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        } when: { form == .trigger }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants, forms) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant, _ form: RepeatWhenForm) {
        withKnownDifference(.repeatTriggerPerCompletion, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold(" -1--2--|")
                let subs = [
                    "                   ^------!                    ",
                    "                   ---------^------!           ",
                    "                   -----------------^--!       ",
                ]
                let notifier = m.hot("---------r-------r-------r-#")
                let nsubs =   "       -------^------------!       "
                let expected =   "    -1--2-----1--2----1--       "
                let unsub =   "       --------------------!       "
                let result = form.repeat({ notifier.signal.map { _ in () } }) {
                    source.signal.flatMap { Signal.just($0, delivery: variant) }
                }.flatMap { Signal.just($0, delivery: variant) }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
                m.expectSubscriptions(notifier.subscriptions).toBe(nsubs)
            }
        } when: { form == .trigger }
    }

    @Test("should handle a source with eventual error using a dynamic notifier selector which eventually throws", arguments: variants) func shouldHandleASourceWithEventualErrorUsingADynamicNotifierSelectorWhichEventuallyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-1--2--|")
            let subs = [
                "                  ^------!              ",
                "                  -------^------!       ",
                "                  --------------^------!",
            ]
            let expected =   "   -1--2---1--2---1--2--#"
            let invoked = SelectorIndex()
            let result = Signal.repeat(whenCompletions: { completions in
                completions.map { _ throws -> String in
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
            let source = m.cold("-1--2--|")
            let subs = [
                "                  ^------!              ",
                "                  -------^------!       ",
                "                  --------------^------!",
            ]
            let expected =   "   -1--2---1--2---1--2--|"
            let invoked = SelectorIndex()
            let result = Signal.repeat(whenCompletions: { completions in
                completions.map { _ in "x" }.takeUntil(completions.flatMap { _ -> Signal<String> in
                    invoked.next() < 2 ? Signal<String>.empty(delivery: variant) : Signal.from(["stop!"], delivery: variant)
                })
            }) { source.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }
}

#endif
