#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/startWith-spec.ts, ported.

@Suite("startWith — rxjs spec/operators/startWith-spec.ts")
struct StartWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should prepend to a cold Observable", arguments: variants) func shouldPrependToAColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a--b--c--|")
            let e1subs =   "  ^-----------!"
            let expected =   "s--a--b--c--|"
            let result = e1.signal.startWith("s")
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start an observable with given value", arguments: variants) func shouldStartAnObservableWithGivenValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.hot("  --a--|")
            let e1subs =   "  ^----!"
            let expected =   "x-a--|"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and does not completes if source does not completes", arguments: variants) func shouldStartWithGivenValueAndDoesNotCompletesIfSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.hot("  ----a-")
            let e1subs =   "^-----!"
            let expected =   "x---a-"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result, unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and does not completes if source never emits", arguments: variants) func shouldStartWithGivenValueAndDoesNotCompletesIfSourceNeverEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.cold(" - ")
            let e1subs =   "^-!"
            let expected =   "x-"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result, unsubscription: "^-!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and completes if source does not emits", arguments: variants) func shouldStartWithGivenValueAndCompletesIfSourceDoesNotEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.hot("  ---|")
            let e1subs =   "  ^--!"
            let expected =   "x--|"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and complete immediately if source is empty", arguments: variants) func shouldStartWithGivenValueAndCompleteImmediatelyIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and source both if source emits single value", arguments: variants) func shouldStartWithGivenValueAndSourceBothIfSourceEmitsSingleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.cold(" (a|)")
            let e1subs =   "  (^!)"
            let expected =   "(xa|)"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given values when given value is more than one", arguments: variants) func shouldStartWithGivenValuesWhenGivenValueIsMoreThanOne(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--|")
            let e1subs =   "  ^-------!"
            let expected =   "(yz)-a--|"
            let result = e1.signal.startWith("y", "z")
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and raises error if source raises error", arguments: variants) func shouldStartWithGivenValueAndRaisesErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.hot("  --#")
            let e1subs =   "  ^-!"
            let expected =   "x-#"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected, values: ["x": defaultStartValue])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should start with given value and raises error immediately if source throws error", arguments: variants) func shouldStartWithGivenValueAndRaisesErrorImmediatelyIfSourceThrowsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultStartValue =   "x"
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "(x#)"
            let result = e1.signal.startWith(defaultStartValue)
            m.expectSignal(result).toBe(expected, values: ["x": defaultStartValue])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("---a--b----c--d--|")
            let result = source.signal.startWith("s")
            m.expectSignal(result, unsubscription: "^--------!").toBe("s--a--b--", values: ["s": "s", "a": "a", "b": "b"])
            m.expectSubscriptions(source.subscriptions).toBe("^--------!")
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("---a--b----c--d--|")
            let result = source.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .startWith("s")
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: "^--------!").toBe("s--a--b--", values: ["s": "s", "a": "a", "b": "b"])
            m.expectSubscriptions(source.subscriptions).toBe("^--------!")
        }
    }

    @Test("should start with empty if given value is not specified", arguments: variants) func shouldStartWithEmptyIfGivenValueIsNotSpecified(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-a-|")
            let result = source.signal.startWith()
            m.expectSignal(result).toBe("-a-|")
            m.expectSubscriptions(source.subscriptions).toBe("^--!")
        }
    }

    @Test("should accept scheduler as last argument with single value", arguments: variants) func shouldAcceptSchedulerAsLastArgumentWithSingleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--|")
            let result = source.signal.startWith("x")
            m.expectSignal(result).toBe("x-a--|")
            m.expectSubscriptions(source.subscriptions).toBe("^----!")
        }
    }

    @Test("should accept scheduler as last argument with multiple value", arguments: variants) func shouldAcceptSchedulerAsLastArgumentWithMultipleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-----a--|")
            let result = source.signal.startWith("y", "z")
            m.expectSignal(result).toBe("(yz)-a--|")
            m.expectSubscriptions(source.subscriptions).toBe("^-------!")
        }
    }
}

#endif
