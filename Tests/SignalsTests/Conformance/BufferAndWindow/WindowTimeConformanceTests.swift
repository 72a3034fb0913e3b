#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/windowTime-spec.ts (packages/rxjs/test/ported/cold/operators/window-time.spec.ts), ported.
//
// `windowTime(span)` and `windowTime(span, null, max)` are `window(timeSpan:count:)`;
// `windowTime(span, creationInterval)` is `window(interval: span, timeshift:
// creationInterval)`, and `windowTime(span, creationInterval, max)` is `window(interval: span,
// timeshift: creationInterval, count: max)`. Windows are checked as RxJS's TestScheduler checks emitted observables
// (`expectInnerSignals`, Kit/InnerSignalExpectation.swift); RxJS's hand-written cases that
// record each window until the outer subscription is cancelled are the same check with an
// unsubscription diagram (their event lists written as diagrams). The second of two cases
// with the same name has " (second case)" after it.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("window(timeSpan:count:), window(interval:timeshift:count:) — rxjs spec/operators/windowTime-spec.ts")
struct WindowTimeConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit windows given windowTimeSpan and windowCreationInterval", arguments: variants) func shouldEmitWindowsGivenWindowTimeSpanAndWindowCreationInterval(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^-a--b--c--d--e---f--g--h-|")
            let subs = "              ^-------------------------!"
            //  10 frames               0---------1---------2-----|
            //  5                       -----|
            //  5                                 -----|
            //  5                                           -----|
            let expected = "          x---------y---------z-----|"
            let x = m.cold("            --a--(b|)                  ")
            let y = m.cold("                      -d--e|           ")
            let z = m.cold("                                -g--h| ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(interval: m.duration(5), timeshift: m.duration(10), context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should close windows after max count is reached", arguments: variants) func shouldCloseWindowsAfterMaxCountIsReached(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--a--b--c--d--e--f--g-----|")
            let subs = "              ^--------------------------!"
            let timeSpan = m.time("     ----------|                 ")
            //                                 ----------|
            //                                       ----------|
            //                                             ---------
            let expected = "          w-----x-----y-----z--------|"
            let w = m.cold("            ---a--(b|)                  ")
            let x = m.cold("                  ---c--(d|)            ")
            let y = m.cold("                        ---e--(f|)      ")
            let z = m.cold("                              ---g-----|")
            let values: [Character: ColdMarbles<String>] = ["w": w, "x": x, "y": y, "z": z]
            let result = source.signal.window(timeSpan: timeSpan, count: 2, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should close window after max count is reached with windowCreationInterval", arguments: variants) func shouldCloseWindowAfterMaxCountIsReachedWithWindowCreationInterval(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^-a--b--c--de-f---g--h--i-|")
            let subs = "              ^-------------------------!"
            //  10 frames               0---------1---------2-----|
            //  5                       -----|
            //  5                                 -----|
            //  5                                           -----|
            let expected = "          x---------y---------z-----|"
            let x = m.cold("            --a--(b|)                  ")
            let y = m.cold("                      -de-(f|)         ")
            let z = m.cold("                                -h--i| ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(interval: m.duration(5), timeshift: m.duration(10), count: 3, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should emit windows given windowTimeSpan", arguments: variants) func shouldEmitWindowsGivenWindowTimeSpan(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--a--b--c--d--e--f--g--h--|")
            let subs = "              ^--------------------------!"
            let timeSpan = m.time("     ----------|                 ")
            //  10 frames               0---------1---------2------|
            //                                    ----------|
            //                                              ----------|
            let expected = "          x---------y---------z------|"
            let x = m.cold("            ---a--b--c|                 ")
            let y = m.cold("                      --d--e--f-|       ")
            let z = m.cold("                                -g--h--|")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(timeSpan: timeSpan, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should emit windows given windowTimeSpan and windowCreationInterval (second case)", arguments: variants) func shouldEmitWindowsGivenWindowTimeSpanAndWindowCreationIntervalSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--a--b--c--d--e--f--g--h--|")
            let subs = "              ^--------------------------!"
            //  10 frames               0---------1---------2------|
            let interval = m.time("     ----------|                 ")
            //  10                                ----------|
            //  10                                          ----------|
            let timeSpan = m.time("     -----|                      ")
            //  5                                 ----|
            //  5                                           ----|
            let expected = "          x---------y---------z------|"
            let x = m.cold("            ---a-|                      ")
            let y = m.cold("                      --d--(e|)         ")
            let z = m.cold("                                -g--h|  ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(interval: timeSpan, timeshift: interval, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should return a single empty window if source is empty", arguments: variants) func shouldReturnASingleEmptyWindowIfSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|")
            let subs = "       (^!)"
            let expected = "   (w|)"
            let w = m.cold("     |")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let timeSpan = m.time("-----|")
            let interval = m.time("----------|")
            let result = source.signal.window(interval: timeSpan, timeshift: interval, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should split a Just source into a single window identical to source", arguments: variants) func shouldSplitAJustSourceIntoASingleWindowIdenticalToSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(a|)")
            let subs = "       (^!)"
            let expected = "   (w|)"
            let w = m.cold("     (a|)")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let timeSpan = m.time("-----|")
            let interval = m.time("----------|")
            let result = source.signal.window(interval: timeSpan, timeshift: interval, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should be able to split a never Observable into timely empty windows", arguments: variants) func shouldBeAbleToSplitANeverObservableIntoTimelyEmptyWindows(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until frame 10, cancelling the windows' subscriptions
                // and then the outer one: its event lists, as diagrams.
                let source = m.hot("^----------")
                let result = source.signal.window(interval: m.duration(3), timeshift: m.duration(3), context: m.context)
                let a = m.cold("---|")
                let d = m.cold("")
                m.expectInnerSignals(result, unsubscription: "^---------!").toBe("a--b--c--d", values: ["a": a, "b": a, "c": a, "d": d])
                m.expectSubscriptions(source.subscriptions).toBe("^---------!")
            }
        }
    }

    @Test("should emit an error-only window if outer is a simple throw-Observable", arguments: variants) func shouldEmitAnErrorOnlyWindowIfOuterIsASimpleThrowObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let subs = "       (^!)"
            let expected = "   (w#)"
            let w = m.cold("     #   ")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let timeSpan = m.time("-----|")
            let interval = m.time("----------|")
            let result = source.signal.window(interval: timeSpan, timeshift: interval, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle source Observable which eventually emits an error", arguments: variants) func shouldHandleSourceObservableWhichEventuallyEmitsAnError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2--^--a--b--c--d--e--f--g--h--#")
            let subs = "              ^--------------------------!"
            let timeSpan = m.time("     -----|                      ")
            let interval = m.time("     ----------|                 ")
            let expected = "          x---------y---------z------#"
            let x = m.cold("            ---a-|                      ")
            let y = m.cold("                      --d--(e|)         ")
            let z = m.cold("                                -g--h|  ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(interval: timeSpan, timeshift: interval, context: m.context)
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should emit windows given windowTimeSpan and windowCreationInterval, but outer is unsubscribed early", arguments: variants) func shouldEmitWindowsGivenWindowTimeSpanAndWindowCreationIntervalButOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until the outer subscription is cancelled at frame 11:
                // its event lists, as diagrams.
                let source = m.hot("^--a--b--c--d--e--f--g--h--|")
                let result = source.signal.window(interval: m.duration(5), timeshift: m.duration(10), context: m.context)
                let x = m.cold("---a-|")
                let y = m.cold("")
                m.expectInnerSignals(result, unsubscription: "^----------!").toBe("x---------y", values: ["x": x, "y": y])
                m.expectSubscriptions(source.subscriptions).toBe("^----------!")
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until the outer subscription is cancelled at frame 14:
                // its event lists, as diagrams.
                let source = m.hot("^--a--b--c--d--e--f--g--h--|")
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                    .window(interval: m.duration(5), timeshift: m.duration(10), context: m.context)
                    .flatMap { Signal.just($0, delivery: variant) }
                let x = m.cold("---a-|")
                let y = m.cold("--d")
                m.expectInnerSignals(result, unsubscription: "^-------------!").toBe("x---------y", values: ["x": x, "y": y])
                m.expectSubscriptions(source.subscriptions).toBe("^-------------!")
            }
        }
    }

    @Test("should not error if maxWindowSize is hit while nexting to other windows.", arguments: variants) func shouldNotErrorIfMaxWindowSizeIsHitWhileNextingToOtherWindows(_ variant: DeliveryVariant) {
        withKnownDifference(.timersStartAfterSource, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until frame 42, cancelling the windows' subscriptions
                // and then the outer one: its event lists, as diagrams. A window opens every 8
                // frames and lasts 12; the second fills (4 values) at 12 frames, with its timer.
                let source = m.cold("----a---b---c---d---e---f---g---h---i---j---")
                let result = source.signal.window(interval: m.duration(12), timeshift: m.duration(8), count: 4, context: m.context)
                let u = m.cold("----a---b---|")
                let v = m.cold("b---c---d---(e|)")
                let w = m.cold("----e---f---(g|)")
                let x = m.cold("----g---h---(i|)")
                let y = m.cold("----i---j")
                let z = m.cold("")
                let values: [Character: ColdMarbles<String>] = ["u": u, "v": v, "w": w, "x": x, "y": y, "z": z]
                let unsub = "^-----------------------------------------!"
                m.expectInnerSignals(result, unsubscription: unsub).toBe("u-------v-------w-------x-------y-------z", values: values)
            }
        }
    }
}

#endif
