#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/windowCount-spec.ts (packages/rxjs/test/ported/cold/operators/window-count.spec.ts), ported.
//
// `windowCount(n)` is `window(count: n)`, `windowCount(n, skip)` is `window(count:skip:)`.
// Windows are checked as RxJS's TestScheduler checks emitted observables
// (`expectInnerSignals`, Kit/InnerSignalExpectation.swift). RxJS's hand-written cases that
// record each window until the outer subscription is cancelled are the same check with an
// unsubscription diagram; their event lists are written as diagrams.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("window(count:skip:) — rxjs spec/operators/windowCount-spec.ts")
struct WindowCountConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit windows with count 3, no skip specified", arguments: variants) func shouldEmitWindowsWithCount3NoSkipSpecified(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.hot("---a---b---c---d---e---f---g---h---i---|")
                let sourceSubs = "^--------------------------------------!"
                let expected = "  x----------y-----------z-----------w---|"
                let x = m.cold("    ---a---b---(c|)                         ")
                let y = m.cold("               ----d---e---(f|)             ")
                let z = m.cold("                           ----g---h---(i|) ")
                let w = m.cold("                                       ----|")
                let expectedValues: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z, "w": w]
                let result = source.signal.window(count: 3)
                m.expectInnerSignals(result).toBe(expected, values: expectedValues)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should emit windows with count 2 and skip 1", arguments: variants) func shouldEmitWindowsWithCount2AndSkip1(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.hot("^-a--b--c--d--|")
                let subs = "      ^-------------!"
                let expected = "  u-v--x--y--z--|"
                let u = m.cold("    --a--(b|)      ")
                let v = m.cold("      ---b--(c|)   ")
                let x = m.cold("         ---c--(d|)")
                let y = m.cold("            ---d--|")
                let z = m.cold("               ---|")
                let values: [Character: ColdMarbles<String>] = ["u": u, "v": v, "x": x, "y": y, "z": z]
                let result = source.signal.window(count: 2, skip: 1)
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should emit windows with count 2, and skip unspecified", arguments: variants) func shouldEmitWindowsWithCount2AndSkipUnspecified(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.hot("--a--b--c--d--e--f--|")
                let subs = "      ^-------------------!"
                let expected = "  x----y-----z-----w--|"
                let x = m.cold("    --a--(b|)            ")
                let y = m.cold("         ---c--(d|)      ")
                let z = m.cold("               ---e--(f|)")
                let w = m.cold("                     ---|")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z, "w": w]
                let result = source.signal.window(count: 2)
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should return empty if source is empty", arguments: variants) func shouldReturnEmptyIfSourceIsEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.cold("|")
                let subs = "       (^!)"
                let expected = "   (w|)"
                let w = m.cold("     |")
                let values: [Character: ColdMarbles<String>] = ["w": w]
                let result = source.signal.window(count: 2, skip: 1)
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should return Never if source if Never", arguments: variants) func shouldReturnNeverIfSourceIfNever(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records one window and nothing in it by frame 1, cancelling the window's
                // subscription before the outer one: the inner diagram is empty.
                let source = m.cold("-")
                let w = m.cold("")
                let result = source.signal.window(count: 2, skip: 1)
                m.expectInnerSignals(result, unsubscription: "^!").toBe("w", values: ["w": w])
                m.expectSubscriptions(source.subscriptions).toBe("^!")
            }
        }
    }

    @Test("should propagate error from a just-throw source", arguments: variants) func shouldPropagateErrorFromAJustThrowSource(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.cold("  #")
                let subs = "         (^!)"
                let expected = "     (w#)"
                let w = m.cold("       #")
                let expectedValues: [Character: ColdMarbles<String>] = ["w": w]
                let result = source.signal.window(count: 2, skip: 1)
                m.expectInnerSignals(result).toBe(expected, values: expectedValues)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should raise error if source raises error", arguments: variants) func shouldRaiseErrorIfSourceRaisesError(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let source = m.hot("--a--b--c--d--e--f--#")
                let subs = "      ^-------------------!"
                let expected = "  u-v--w--x--y--z--q--#"
                let u = m.cold("    --a--b--(c|)         ")
                let v = m.cold("      ---b--c--(d|)      ")
                let w = m.cold("         ---c--d--(e|)   ")
                let x = m.cold("            ---d--e--(f|)")
                let y = m.cold("               ---e--f--#")
                let z = m.cold("                  ---f--#")
                let q = m.cold("                     ---#")
                let values: [Character: ColdMarbles<String>] = ["u": u, "v": v, "w": w, "x": x, "y": y, "z": z, "q": q]
                let result = source.signal.window(count: 3, skip: 1)
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should dispose of inner windows once outer is unsubscribed early", arguments: variants) func shouldDisposeOfInnerWindowsOnceOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS's event lists as diagrams: windows at frames 0, 2, 5 and 8, each recorded
                // until frame 9, when the outer subscription is cancelled.
                let source = m.hot("^-a--b--c--d--|")
                let u = m.cold("--a--(b|)")
                let v = m.cold("---b--(c|)")
                let w = m.cold("---c")
                let x = m.cold("")
                let result = source.signal.window(count: 2, skip: 1)
                m.expectInnerSignals(result, unsubscription: "^--------!").toBe("u-v--w--x", values: ["u": u, "v": v, "w": w, "x": x])
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.windowOpensAtValues, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS's event lists as diagrams: windows at frames 0, 2, 5 and 8, each recorded
                // until frame 9, when the outer subscription is cancelled.
                let source = m.hot("^-a--b--c--d--|")
                let u = m.cold("--a--(b|)")
                let v = m.cold("---b--(c|)")
                let w = m.cold("---c")
                let x = m.cold("")
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                    .window(count: 2, skip: 1)
                    .flatMap { Signal.just($0, delivery: variant) }
                m.expectInnerSignals(result, unsubscription: "^--------!").toBe("u-v--w--x", values: ["u": u, "v": v, "w": w, "x": x])
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
            }
        }
    }
}

#endif
