#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/window-spec.ts (packages/rxjs/test/ported/cold/operators/window.spec.ts), ported.
//
// `window(closings)` is `window(boundary: closings)`; `EMPTY` is `Signal.empty`. Windows are
// checked as RxJS's TestScheduler checks emitted observables (`expectInnerSignals`,
// Kit/InnerSignalExpectation.swift). RxJS's hand-written cases that record each window until
// the outer subscription (and every window's) is cancelled are the same check with an
// unsubscription diagram; their event lists are written as diagrams (frames counted from each
// window's arrival, as RxJS records them), the windows' own cancellation before the outer one
// leaving them without an end.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("window(boundary:) — rxjs spec/operators/window-spec.ts")
struct WindowConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit windows that close and reopen", arguments: variants) func shouldEmitWindowsThatCloseAndReopen(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("  ---a---b---c---d---e---f---g---h---i---|    ")
            let sourceSubs = "  ^--------------------------------------!    "
            let closings = m.hot("-------------w------------w----------------|")
            let closingSubs = " ^--------------------------------------!    "
            let expected = "    x------------y------------z------------|    "
            let x = m.cold("      ---a---b---c-|                              ")
            let y = m.cold("                   --d---e---f--|                 ")
            let z = m.cold("                                -g---h---i---|    ")
            let expectedValues: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should return a single empty window if source is empty and closings are basic", arguments: variants) func shouldReturnASingleEmptyWindowIfSourceIsEmptyAndClosingsAreBasic(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  |        ")
            let sourceSubs = "   (^!)     "
            let closings = m.cold("--x--x--|")
            let closingSubs = "  (^!)     "
            let expected = "     (w|)     "
            let w = m.cold("       |        ")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should return a single empty window if source is empty and closing is empty", arguments: variants) func shouldReturnASingleEmptyWindowIfSourceIsEmptyAndClosingIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  |   ")
            let sourceSubs = "   (^!)"
            let closings = m.cold("|   ")
            let closingSubs = "  (^!)"
            let expected = "     (w|)"
            let w = m.cold("       |   ")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should return a single empty window if source is sync empty and closing is sync empty", arguments: variants) func shouldReturnASingleEmptyWindowIfSourceIsSyncEmptyAndClosingIsSyncEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  (|) ")
            let sourceSubs = "   (^!)"
            let expected = "     (w|)"
            let w = m.cold("       |   ")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let result = source.signal.window(boundary: Signal<String>.empty(delivery: variant))
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should split a Just source into a single window identical to source, using a Never closing", arguments: variants) func shouldSplitAJustSourceIntoASingleWindowIdenticalToSourceUsingANeverClosing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  (a|)")
            let sourceSubs = "   (^!)"
            let closings = m.cold("-   ")
            let closingSubs = "  (^!)"
            let expected = "     (w|)"
            let w = m.cold("       (a|)")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should return a single Never window if source is Never", arguments: variants) func shouldReturnASingleNeverWindowIfSourceIsNever(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS's event list: one window at frame 0 with nothing in it by frame 6, when it
                // and then the outer subscription are cancelled.
                let source = m.cold("------")
                let closings = m.cold("------")
                let w = m.cold("")
                let result = source.signal.window(boundary: closings.signal)
                m.expectInnerSignals(result, unsubscription: "^-----!").toBe("w", values: ["w": w])
                m.expectSubscriptions(source.subscriptions).toBe("^-----!")
                m.expectSubscriptions(closings.subscriptions).toBe("^-----!")
            }
        }
    }

    @Test("should be able to split a never Observable into timely empty windows", arguments: variants) func shouldBeAbleToSplitANeverObservableIntoTimelyEmptyWindows(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS's event list: windows at frames 0, 2 and 5, the first two completing 2 and 3
                // frames after they open, everything cancelled at frame 9.
                let source = m.hot("^--------")
                let closings = m.cold("--x--x--|")
                let u = m.cold("--|")
                let v = m.cold("---|")
                let w = m.cold("")
                let result = source.signal.window(boundary: closings.signal)
                m.expectInnerSignals(result, unsubscription: "^--------!").toBe("u-v--w", values: ["u": u, "v": v, "w": w])
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.expectSubscriptions(closings.subscriptions).toBe("^-------!")
            }
        }
    }

    @Test("should emit an error-only window if outer is a simple throw-Observable", arguments: variants) func shouldEmitAnErrorOnlyWindowIfOuterIsASimpleThrowObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("  #        ")
            let sourceSubs = "   (^!)     "
            let closings = m.cold("--x--x--|")
            let closingSubs = "  (^!)     "
            let expected = "     (w#)     "
            let w = m.cold("       #        ")
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should handle basic case with window closings", arguments: variants) func shouldHandleBasicCaseWithWindowClosings(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-2-^3-4-5-6-7-8-9-|         ")
            let subs = "           ^--------------!         "
            let closings = m.hot("---^---x---x---x---x---x---|")
            let closingSubs = "    ^--------------!         "
            let expected = "       a---b---c---d--|         "
            let a = m.cold("         -3-4|                    ")
            let b = m.cold("             -5-6|                ")
            let c = m.cold("                 -7-8|            ")
            let d = m.cold("                     -9-|         ")
            let expectedValues: [Character: ColdMarbles<String>] = ["a": a, "b": b, "c": c, "d": d]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should handle basic case with window closings, but outer throws", arguments: variants) func shouldHandleBasicCaseWithWindowClosingsButOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-2-^3-4-5-6-7-8-9-#         ")
            let subs = "           ^--------------!         "
            let closings = m.hot("---^---x---x---x---x---x---|")
            let closingSubs = "    ^--------------!         "
            let expected = "       a---b---c---d--#         "
            let a = m.cold("         -3-4|                    ")
            let b = m.cold("             -5-6|                ")
            let c = m.cold("                 -7-8|            ")
            let d = m.cold("                     -9-#         ")
            let expectedValues: [Character: ColdMarbles<String>] = ["a": a, "b": b, "c": c, "d": d]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should stop emitting windows when outer is unsubscribed early", arguments: variants) func shouldStopEmittingWindowsWhenOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS's event lists as diagrams: windows at frames 0 and 4, recorded until frame 8,
                // when they and then the outer subscription are cancelled.
                let source = m.hot("-1-2-^3-4-5-6-7-8-9-|")
                let closings = m.hot("---^---x---x---x---x---x---|")
                let a = m.cold("-3-4|")
                let b = m.cold("-5-6")
                let result = source.signal.window(boundary: closings.signal)
                m.expectInnerSignals(result, unsubscription: "^-------!").toBe("a---b", values: ["a": a, "b": b])
                m.expectSubscriptions(source.subscriptions).toBe("^-------!")
                m.expectSubscriptions(closings.subscriptions).toBe("^-------!")
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // As the case before, with a synchronous `flatMap` before and after the operator.
                let source = m.hot("-1-2-^3-4-5-6-7-8-9-|")
                let closings = m.hot("---^---x---x---x---x---x---|")
                let a = m.cold("-3-4|")
                let b = m.cold("-5-6")
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                    .window(boundary: closings.signal)
                    .flatMap { Signal.just($0, delivery: variant) }
                m.expectInnerSignals(result, unsubscription: "^-------!").toBe("a---b", values: ["a": a, "b": b])
                m.expectSubscriptions(source.subscriptions).toBe("^-------!")
                m.expectSubscriptions(closings.subscriptions).toBe("^-------!")
            }
        }
    }

    @Test("should make outer emit error when closing throws", arguments: variants) func shouldMakeOuterEmitErrorWhenClosingThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-2-^3-4-5-6-7-8-9-#")
            let subs = "           ^---!           "
            let closings = m.hot("---^---#           ")
            let closingSubs = "    ^---!           "
            let expected = "       a---#           "
            let a = m.cold("         -3-4#           ")
            let expectedValues: [Character: ColdMarbles<String>] = ["a": a]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }

    @Test("should complete the resulting Observable when window closings completes", arguments: variants) func shouldCompleteTheResultingObservableWhenWindowClosingsCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            // As RxJS has it, despite the name: the closings' completion is ignored and the
            // last window lasts until the source completes.
            let source = m.hot("-1-2-^3-4-5-6-7-8-9-|")
            let subs = "           ^--------------!"
            let closings = m.hot("---^---x---x---|   ")
            let closingSubs = "    ^-----------!   "
            let expected = "       a---b---c------|"
            let a = m.cold("         -3-4|           ")
            let b = m.cold("             -5-6|       ")
            let c = m.cold("                 -7-8-9-|")
            let expectedValues: [Character: ColdMarbles<String>] = ["a": a, "b": b, "c": c]
            let result = source.signal.window(boundary: closings.signal)
            m.expectInnerSignals(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
            m.expectSubscriptions(closings.subscriptions).toBe(closingSubs)
        }
    }
}

#endif
