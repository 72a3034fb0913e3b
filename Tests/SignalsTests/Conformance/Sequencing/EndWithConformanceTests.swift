#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/endWith-spec.ts, ported.

@Suite("endWith — rxjs spec/operators/endWith-spec.ts")
struct EndWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should append to a cold Observable", arguments: variants) func shouldAppendToAColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a--b--c--|   ")
            let e1subs =   "  ^-----------!   "
            let expected =   "---a--b--c--(s|)"
            m.expectSignal(e1.signal.endWith("s")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should append numbers to a cold Observable", arguments: variants) func shouldAppendNumbersToAColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "s": 4]
            let e1 = m.cold(" ---a--b--c--|   ", values: values)
            let e1subs =   "  ^-----------!   "
            let expected =   "---a--b--c--(s|)"
            m.expectSignal(e1.signal.endWith(values["s"]!)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should end an observable with given value", arguments: variants) func shouldEndAnObservableWithGivenValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.hot("  --a--|   ")
            let e1subs =   "  ^----!   "
            let expected =   "--a--(x|)"
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not end with given value if source does not complete", arguments: variants) func shouldNotEndWithGivenValueIfSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.hot("  ----a-")
            let e1subs =   "^-----!"
            let expected =   "----a-"
            m.expectSignal(e1.signal.endWith(defaultEndValue), unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not end with given value if source never emits and does not completes", arguments: variants) func shouldNotEndWithGivenValueIfSourceNeverEmitsAndDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.endWith(defaultEndValue), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should end with given value if source does not emit but does complete", arguments: variants) func shouldEndWithGivenValueIfSourceDoesNotEmitButDoesComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.hot("  ---|   ")
            let e1subs =   "  ^--!   "
            let expected =   "---(x|)"
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit given value and complete immediately if source is empty", arguments: variants) func shouldEmitGivenValueAndCompleteImmediatelyIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should end with given value and source both if source emits single value", arguments: variants) func shouldEndWithGivenValueAndSourceBothIfSourceEmitsSingleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.cold(" (a|) ")
            let e1subs =   "  (^!) "
            let expected =   "(ax|)"
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should end with given values when given more than one value", arguments: variants) func shouldEndWithGivenValuesWhenGivenMoreThanOneValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a--|    ")
            let e1subs =   "  ^-------!    "
            let expected =   "-----a--(yz|)"
            m.expectSignal(e1.signal.endWith("y", "z")).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error and not end with given value if source raises error", arguments: variants) func shouldRaiseErrorAndNotEndWithGivenValueIfSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.hot("  --#")
            let e1subs =   "  ^-!"
            let expected =   "--#"
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected, values: ["x": defaultEndValue])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error immediately and not end with given value if source throws error immediately", arguments: variants) func shouldRaiseErrorImmediatelyAndNotEndWithGivenValueIfSourceThrowsErrorImmediately(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let defaultEndValue =   "x"
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.endWith(defaultEndValue)).toBe(expected, values: ["x": defaultEndValue])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b----c--d--|")
            let e1subs =   "  ^--------!        "
            let expected =   "---a--b---        "
            let unsub =   "   ---------!        "
            let result = e1.signal.endWith("s")
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b----c--d--|")
            let e1subs =   "  ^--------!        "
            let expected =   "---a--b---        "
            let unsub =   "   ---------!        "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .endWith("s")
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should end with empty if given value is not specified", arguments: variants) func shouldEndWithEmptyIfGivenValueIsNotSpecified(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a-|")
            let e1subs =   "  ^--!"
            let expected =   "-a-|"
            m.expectSignal(e1.signal.endWith()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should accept scheduler as last argument with single value", arguments: variants) func shouldAcceptSchedulerAsLastArgumentWithSingleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--|")
            let result = source.signal.endWith("x")
            m.expectSignal(result).toBe("--a--(x|)")
            m.expectSubscriptions(source.subscriptions).toBe("^----!")
        }
    }

    @Test("should accept scheduler as last argument with multiple value", arguments: variants) func shouldAcceptSchedulerAsLastArgumentWithMultipleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-----a--|")
            let result = source.signal.endWith("y", "z")
            m.expectSignal(result).toBe("-----a--(yz|)")
            m.expectSubscriptions(source.subscriptions).toBe("^-------!")
        }
    }
}

#endif
