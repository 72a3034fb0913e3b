#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/bufferToggle-spec.ts (packages/rxjs/test/ported/cold/operators/buffer-toggle.spec.ts), ported.
//
// `bufferToggle(openings, closingSelector)` is `buffer(windows: openings.map(closingSelector))`
// (CwlSignal's form: each signal of `windows` starts an array that it closes). RxJS's
// `let i = 0; … closings[i++]` is `SelectorIndex`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("buffer(windows:) — rxjs spec/operators/bufferToggle-spec.ts")
struct BufferToggleConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit buffers using hot openings and hot closings", arguments: variants) func shouldEmitBuffersUsingHotOpeningsAndHotClosings(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---d---e---f---g---|")
            let e2 = m.hot("  --o------------------o---------|")
            let e3 = m.hot("  ---------c---------------c-----|")
            let expected = "---------x---------------y-----|"
            let values: [Character: [String]] = [
                "x": ["a", "b"],
                "y": ["f"],
            ]
            let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers that are opened by an observable from the first argument and closed by an observable returned by the function in the second argument", arguments: variants) func shouldEmitBuffersThatAreOpenedByAnObservableFromTheFirstArgumentAndClosedByAnObservableReturnedByTheFunctionInTheSecondArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -----a----b----c----d----e----f----g----h----i----|")
            let e2 = m.cold(" -------------x-------------y--------------z-------|")
            let e3 = m.cold("              ---------------(j|)")
            let expected = "----------------------------q-------------r-------(s|)"
            let values: [Character: [String]] = [
                "q": ["c", "d", "e"],
                "r": ["f", "g", "h"],
                "s": ["i"],
            ]
            let innerVals = Mutex(["x", "y", "z"])
            let result = e1.signal.buffer(windows: e2.signal.map { x in
                #expect(x == innerVals.withLock { $0.removeFirst() })
                return e3.signal
            })
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers using varying cold closings", arguments: variants) func shouldEmitBuffersUsingVaryingColdClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ")
                let e2 = m.cold("    --x-----------y--------z---|              ")
                let subs = "       ^----------------------------------!      "
                let closings = [
                    m.cold("               ---------------s--|                     "),
                    m.cold("                           ----(s|)                    "),
                    m.cold("                                    ---------------(s|)"),
                ]
                let closeSubs = [
                    "                 --^--------------!                         ",
                    "                 --------------^---!                        ",
                    "                 -----------------------^-----------!       ",
                ]
                let expected = "  -----------------ij----------------(k|)    "
                let values: [Character: [String]] = [
                    "i": ["b", "c", "d", "e"],
                    "j": ["e"],
                    "k": ["g", "h"],
                ]
                let i = SelectorIndex()
                let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
                m.expectSignal(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
                m.expectSubscriptions(closings[0].subscriptions).toBe(closeSubs[0])
                m.expectSubscriptions(closings[1].subscriptions).toBe(closeSubs[1])
                m.expectSubscriptions(closings[2].subscriptions).toBe(closeSubs[2])
            }
        }
    }

    @Test("should emit buffers using varying hot closings", arguments: variants) func shouldEmitBuffersUsingVaryingHotClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ")
                let e2 = m.cold("    --x-----------y--------z---|           ")
                let subs = "       ^----------------------------------!   "
                let closings = [
                    (obs: m.hot("   -1--^----------------s-|                   "),
                     sub: "           --^--------------!                     "),
                    (obs: m.hot("       -----3----4-------(s|)                 "),
                     sub: "           --------------^---!                    "),
                    (obs: m.hot("       -------3----4-------5----------------s|"),
                     sub: "           -----------------------^-----------!   "),
                ]
                let expected = "   -----------------ij----------------(k|)"
                let values: [Character: [String]] = [
                    "i": ["b", "c", "d", "e"],
                    "j": ["e"],
                    "k": ["g", "h"],
                ]
                let i = SelectorIndex()
                let result = e1.signal.buffer(windows: e2.signal.map { _ in closings[i.next()].obs.signal })
                m.expectSignal(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
                for j in closings.indices {
                    m.expectSubscriptions(closings[j].obs.subscriptions).toBe(closings[j].sub)
                }
            }
        }
    }

    @Test("should emit buffers using varying empty delayed closings", arguments: variants) func shouldEmitBuffersUsingVaryingEmptyDelayedClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.anyEndCloses, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|     ")
                let e2 = m.cold("    --x-----------y--------z---|             ")
                let subs = "       ^----------------------------------!     "
                let closings = [
                    m.cold("               ---------------|                       "),
                    m.cold("                           ----|                      "),
                    m.cold("                                    ---------------|  "),
                ]
                let expected = "   -----------------------------------(ijk|)"
                let values: [Character: [String]] = [
                    "i": ["b", "c", "d", "e", "f", "g", "h"],
                    "j": ["e", "f", "g", "h"],
                    "k": ["g", "h"],
                ]
                let i = SelectorIndex()
                let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
                m.expectSignal(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should emit buffers using varying cold closings, outer unsubscribed early", arguments: variants) func shouldEmitBuffersUsingVaryingColdClosingsOuterUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ")
            let subs = "       ^---------!                               "
            let e2 = m.cold("    --x-----------y--------z---|              ")
            let closings = [
                m.cold("               ---------------s--|                     "),
                m.cold("                           ----(s|)                    "),
                m.cold("                                    ---------------(s|)"),
            ]
            let csub0 = "      --^-------!                               "
            let expected = "   -----------                               "
            let unsub = "      ----------!                               "
            let values: [Character: [String]] = [
                "i": ["b", "c", "d", "e"],
            ]
            let i = SelectorIndex()
            let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(closings[0].subscriptions).toBe(csub0)
            m.expectSubscriptions(closings[1].subscriptions).toBe([])
            m.expectSubscriptions(closings[2].subscriptions).toBe([])
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ")
            let subs = "       ^-----------------!                       "
            let e2 = m.cold("    --x-----------y--------z---|              ")
            let closings = [
                m.cold("               ---------------s--|                     "),
                m.cold("                           ----(s|)                    "),
                m.cold("                                    ---------------(s|)"),
            ]
            let expected = "   -----------------i-                       "
            let unsub = "      ------------------!                       "
            let values: [Character: [String]] = [
                "i": ["b", "c", "d", "e"],
            ]
            let i = SelectorIndex()
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .buffer(windows: e2.signal.map { _ in i.pick(closings) })
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should propagate error thrown from closingSelector", arguments: variants) func shouldPropagateErrorThrownFromClosingSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ")
            let e2 = m.cold("    --x-----------y--------z---|              ")
            let subs = "       ^-------------!                           "
            let closings = [
                m.cold("               ---------------s--|                     "),
                m.cold("                           ----(s|)                    "),
                m.cold("                                    ---------------(s|)"),
            ]
            let closeSubs0 = " --^-----------!                           "
            let expected = "   --------------#                           "
            let i = SelectorIndex()
            let result = e1.signal.buffer(windows: e2.signal.map { (_: String) throws -> Signal<String> in
                if i.value == 1 {
                    throw MarbleError("error")
                }
                return i.pick(closings)
            })
            m.expectSignal(result).toBe(expected, values: [Character: [String]]())
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(closings[0].subscriptions).toBe(closeSubs0)
            m.expectSubscriptions(closings[1].subscriptions).toBe([])
            m.expectSubscriptions(closings[2].subscriptions).toBe([])
        }
    }

    @Test("should propagate error emitted from a closing", arguments: variants) func shouldPropagateErrorEmittedFromAClosing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e2 = m.cold("    --x-----------y--------z---|        ")
            let subs = "       ^-------------!                     "
            let closings = [
                m.cold("               ---------------s--|               "),
                m.cold("                           #                     "),
            ]
            let closeSubs = [
                "                  --^-----------!                     ",
                "                  --------------(^!)                  ",
            ]
            let expected = "   --------------#                     "
            let i = SelectorIndex()
            let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
            m.expectSignal(result).toBe(expected, values: [Character: [String]]())
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(closings[0].subscriptions).toBe(closeSubs[0])
            m.expectSubscriptions(closings[1].subscriptions).toBe(closeSubs[1])
        }
    }

    @Test("should propagate error emitted late from a closing", arguments: variants) func shouldPropagateErrorEmittedLateFromAClosing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e2 = m.cold("    --x-----------y--------z---|        ")
            let subs = "       ^------------------!                "
            let closings = [
                m.cold("               ---------------s--|               "),
                m.cold("                           -----#                "),
            ]
            let closeSubs = [
                "                  --^--------------!                  ",
                "                  --------------^----!                ",
            ]
            let expected = "   -----------------i-#                "
            let values: [Character: [String]] = [
                "i": ["b", "c", "d", "e"],
            ]
            let i = SelectorIndex()
            let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(closings[0].subscriptions).toBe(closeSubs[0])
            m.expectSubscriptions(closings[1].subscriptions).toBe(closeSubs[1])
        }
    }

    @Test("should handle errors", arguments: variants) func shouldHandleErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e--#        ")
            let e2 = m.cold("    --x-----------y--------z---|")
            let subs = "       ^------------------!        "
            let closings = [
                m.cold("               ---------------s--|       "),
                m.cold("                           -------s|     "),
            ]
            let closeSubs = [
                "                  --^--------------!          ",
                "                  --------------^----!        ",
            ]
            let expected = "   -----------------i-#        "
            let values: [Character: [String]] = [
                "i": ["b", "c", "d", "e"],
            ]
            let i = SelectorIndex()
            let result = e1.signal.buffer(windows: e2.signal.map { _ in i.pick(closings) })
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(closings[0].subscriptions).toBe(closeSubs[0])
            m.expectSubscriptions(closings[1].subscriptions).toBe(closeSubs[1])
        }
    }

    @Test("should handle empty source", arguments: variants) func shouldHandleEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e2 = m.cold(" --o-----|")
            let e3 = m.cold("   -----c--|")
            let expected = "|"
            let values: [Character: [String]] = ["x": []]
            let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let e2 = m.cold(" --o-----|")
            let e3 = m.cold("   -----c--|")
            let expected = "#"
            let values: [Character: [String]] = ["x": []]
            let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  -")
                let e2 = m.cold(" --o-----o------o-----o---o-----|")
                let e3 = m.cold("   --c-|")
                let unsub = "   --------------------------------------------!"
                let subs = "    ^-------------------------------------------!"
                let expected = "----x-----x------x-----x---x-----------------"
                let values: [Character: [String]] = ["x": []]
                let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
                m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should handle a never opening Observable", arguments: variants) func shouldHandleANeverOpeningObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e2 = m.cold("    -")
            let e3 = m.cold("    --c-|")
            let expected = "   -----------------------------------|"
            let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
            m.expectSignal(result).toBe(expected, values: [Character: [String]]())
        }
    }

    @Test("should handle a never closing Observable", arguments: variants) func shouldHandleANeverClosingObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|    ")
                let e2 = m.cold("    ---o---------------o-----------|        ")
                let e3 = m.cold("    -")
                let expected = "   -----------------------------------(xy|)"
                let values: [Character: [String]] = [
                    "x": ["b", "c", "d", "e", "f", "g", "h"],
                    "y": ["f", "g", "h"],
                ]
                let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
                m.expectSignal(result).toBe(expected, values: values)
            }
        }
    }

    @Test("should handle opening Observable that just throws", arguments: variants) func shouldHandleOpeningObservableThatJustThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e1subs = "     (^!)"
            let e2 = m.cold("    #")
            let e2subs = "     (^!)"
            let e3 = m.cold("    --c-|")
            let expected = "   #"
            let result = e1.signal.buffer(windows: e2.signal.map { _ in e3.signal })
            m.expectSignal(result).toBe(expected, values: [Character: [String]]())
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle empty closing observable", arguments: variants) func shouldHandleEmptyClosingObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.anyEndCloses, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|     ")
                let subs = "       ^----------------------------------!     "
                let e2 = m.cold("    --x-----------y--------z---|             ")
                let expected = "   -----------------------------------(ijk|)"
                let values: [Character: [String]] = [
                    "i": ["b", "c", "d", "e", "f", "g", "h"],
                    "j": ["e", "f", "g", "h"],
                    "k": ["g", "h"],
                ]
                let result = e1.signal.buffer(windows: e2.signal.map { _ in Signal<String>.empty(delivery: variant) })
                m.expectSignal(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(subs)
            }
        }
    }
}

#endif
