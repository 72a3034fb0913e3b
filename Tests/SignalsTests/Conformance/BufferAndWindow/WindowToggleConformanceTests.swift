#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/windowToggle-spec.ts (packages/rxjs/test/ported/cold/operators/window-toggle.spec.ts), ported.
//
// `windowToggle(openings, closingSelector)` is `window(windows: openings.map(closingSelector))`
// (CwlSignal's form: each signal of `windows` opens a window that it closes). Windows are
// checked as RxJS's TestScheduler checks emitted observables (`expectInnerSignals`,
// Kit/InnerSignalExpectation.swift); RxJS's hand-written cases that record each window until
// the outer subscription is cancelled are the same check with an unsubscription diagram
// (their event lists written as diagrams).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("window(windows:) — rxjs spec/operators/windowToggle-spec.ts")
struct WindowToggleConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit windows governed by openings and closings", arguments: variants) func shouldEmitWindowsGovernedByOpeningsAndClosings(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("         ----w--------w--------w--|")
            let e2subs = "          ^------------------------!"
            let e3 = m.cold("             -----x                ")
            let e3subs = [
                "                       ----^----!                ",
                "                       -------------^----!       ",
                "                       ----------------------^--!",
            ]
            let e1 = m.hot("  --1--2--^-a--b--c--d--e--f--g--h-|")
            let e1subs = "          ^------------------------!"
            let expected = "        ----x--------y--------z--|"
            let x = m.cold("              -b--c|                ")
            let y = m.cold("                       -e--f|       ")
            let z = m.cold("                                -h-|")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should emit windows that are opened by an observable from the first argument and closed by an observable returned by the function in the second argument", arguments: variants) func shouldEmitWindowsThatAreOpenedByAnObservableFromTheFirstArgumentAndClosedByAnObservableReturnedByTheFunctionInTheSecondArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("       --------x-------x-------x--|")
            let e2subs = "        ^--------------------------!"
            let e3 = m.cold("               ----------(x|)      ")
            let e3subs = [
                "                     --------^---------!         ",
                "                     ----------------^---------! ",
                "                     ------------------------^--!",
            ]
            let e1 = m.hot("--1--2--^--a--b--c--d--e--f--g--h--|")
            let e1subs = "        ^--------------------------!"
            let expected = "      --------x-------y-------z--|"
            let x = m.cold("                -c--d--e--(f|)      ")
            let y = m.cold("                        --f--g--h-| ")
            let z = m.cold("                                ---|")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
            let source = e1.signal.window(windows: e2.signal.map { value in
                #expect(value == "x")
                return e3.signal
            })
            m.expectInnerSignals(source).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should emit windows using varying cold closings", arguments: variants) func shouldEmitWindowsUsingVaryingColdClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold("    --x-----------y--------z---|            ")
                let e2subs = "     ^--------------------------!            "
                let close = [
                    m.cold("               ---------------s--|                   "),
                    m.cold("                           ----(s|)                  "),
                    m.cold("                                  ---------------(s|)"),
                ]
                let closeSubs = [
                    "                  --^--------------!                      ",
                    "                  --------------^---!                     ",
                    "                  -----------------------^-----------!    ",
                ]
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|    ")
                let e1subs = "     ^----------------------------------!    "
                let expected = "   --x-----------y--------z-----------|    "
                let x = m.cold("       --b---c---d---e|                      ")
                let y = m.cold("                   --e-|                     ")
                let z = m.cold("                            -g---h------|    ")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
                let i = SelectorIndex()
                let result = e1.signal.window(windows: e2.signal.map { _ in i.pick(close) })
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
                m.expectSubscriptions(close[0].subscriptions).toBe(closeSubs[0])
                m.expectSubscriptions(close[1].subscriptions).toBe(closeSubs[1])
                m.expectSubscriptions(close[2].subscriptions).toBe(closeSubs[2])
            }
        }
    }

    @Test("should emit windows using varying hot closings", arguments: variants) func shouldEmitWindowsUsingVaryingHotClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold("    --x-----------y--------z---|           ")
                let e2subs = "     ^--------------------------!           "
                let closings = [
                    m.hot("          -1--^----------------s-|                   "),
                    m.hot("              -----3----4-------(s|)                 "),
                    m.hot("              -------3----4-------5----------------s|"),
                ]
                let closingSubs = [
                    "                  --^--------------!                     ",
                    "                  --------------^---!                    ",
                    "                  -----------------------^-----------!   ",
                ]
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ")
                let e1subs = "     ^----------------------------------!   "
                let expected = "   --x-----------y--------z-----------|   "
                let x = m.cold("       --b---c---d---e|                     ")
                let y = m.cold("                   --e-|                    ")
                let z = m.cold("                            -g---h------|   ")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
                let i = SelectorIndex()
                let result = e1.signal.window(windows: e2.signal.map { _ in closings[i.next()].signal })
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
                for j in closings.indices {
                    m.expectSubscriptions(closings[j].subscriptions).toBe(closingSubs[j])
                }
            }
        }
    }

    @Test("should emit windows using varying empty delayed closings", arguments: variants) func shouldEmitWindowsUsingVaryingEmptyDelayedClosings(_ variant: DeliveryVariant) {
        withKnownDifference(.anyEndCloses, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold("    --x-----------y--------z---|           ")
                let e2subs = "     ^--------------------------!           "
                let close = [
                    m.cold("               ---------------|                     "),
                    m.cold("                           ----|                    "),
                    m.cold("                                    ---------------|"),
                ]
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ")
                let e1subs = "     ^----------------------------------!   "
                let expected = "   --x-----------y--------z-----------|   "
                let x = m.cold("       --b---c---d---e---f---g---h------|   ")
                let y = m.cold("                   --e---f---g---h------|   ")
                let z = m.cold("                            -g---h------|   ")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y, "z": z]
                let i = SelectorIndex()
                let result = e1.signal.window(windows: e2.signal.map { _ in i.pick(close) })
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit windows using varying cold closings, outer unsubscribed early", arguments: variants) func shouldEmitWindowsUsingVaryingColdClosingsOuterUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until frame 17, cancelling the windows' subscriptions
                // and then the outer one: its event lists, as diagrams.
                let openings = m.cold("--x-----------y--------z---|")
                let close = [m.cold("-------------s---|"), m.cold("-----(s|)"), m.cold("---------------(s|)")]
                let source = m.hot("--a--^---b---c---d---e---f---g---h------|")
                let i = SelectorIndex()
                let result = source.signal.window(windows: openings.signal.map { _ in i.pick(close) })
                let x = m.cold("--b---c---d--|")
                let y = m.cold("--e")
                m.expectInnerSignals(result, unsubscription: "^----------------!").toBe("--x-----------y", values: ["x": x, "y": y])
                m.expectSubscriptions(source.subscriptions).toBe("^----------------!")
                m.expectSubscriptions(openings.subscriptions).toBe("^----------------!")
                m.expectSubscriptions(close[0].subscriptions).toBe("--^------------!")
                m.expectSubscriptions(close[1].subscriptions).toBe("--------------^--!")
                m.expectSubscriptions(close[2].subscriptions).toBe([])
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records each window until frame 15, cancelling the windows' subscriptions
                // and then the outer one: its event lists, as diagrams.
                let openings = m.cold("--x-----------y--------z---|")
                let close = [m.cold("---------------s--|"), m.cold("----(s|)"), m.cold("---------------(s|)")]
                let source = m.hot("--a--^---b---c---d---e---f---g---h------|")
                let i = SelectorIndex()
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }
                    .window(windows: openings.signal.map { _ in i.pick(close) })
                    .flatMap { Signal.just($0, delivery: variant) }
                let x = m.cold("--b---c---d")
                let y = m.cold("")
                m.expectInnerSignals(result, unsubscription: "^--------------!").toBe("--x-----------y", values: ["x": x, "y": y])
                m.expectSubscriptions(source.subscriptions).toBe("^--------------!")
                m.expectSubscriptions(openings.subscriptions).toBe("^--------------!")
                m.expectSubscriptions(close[0].subscriptions).toBe("--^------------!")
                m.expectSubscriptions(close[1].subscriptions).toBe("--------------^!")
                m.expectSubscriptions(close[2].subscriptions).toBe([])
            }
        }
    }

    @Test("should dispose window Subjects if the outer is unsubscribed early", arguments: variants) func shouldDisposeWindowSubjectsIfTheOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .expectation, .innerSignals) {
            marbleTest(variant) { m in
                // RxJS records the window until frame 9 (its subscription outlives the outer one,
                // cancelled at frame 9), then subscribes to it again at frame 15 and expects nothing.
                let openings = m.cold("o-------------------------|")
                let closing = m.cold("-")
                let source = m.hot("--a--b--c--d--e--f--g--h--|")
                let released = Mutex<Signal<String>?>(nil)
                let result = source.signal.window(windows: openings.signal.map { _ in closing.signal })
                    .map { w in
                        released.withLock { $0 = w }
                        return w
                    }
                let early = m.cold("--a--b--c")
                m.expectInnerSignals(result, unsubscription: "^--------!").toBe("x", values: ["x": early])
                let late = LateSubscription(m, at: 15, until: 16) { released.withLock { $0 } }
                late.expect([])
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.expectSubscriptions(openings.subscriptions).toBe("^--------!")
                m.expectSubscriptions(closing.subscriptions).toBe("^--------!")
            }
        }
    }

    @Test("should propagate error thrown from closingSelector", arguments: variants) func shouldPropagateErrorThrownFromClosingSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    --x-----------y--------z---|              ")
            let e2subs = "     ^-------------!                           "
            let close = [
                m.cold("               ---------------s--|                     "),
                m.cold("                           ----(s|)                    "),
                m.cold("                                    ---------------(s|)"),
            ]
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ")
            let e1subs = "     ^-------------!                           "
            let expected = "   --x-----------#----                       "
            let x = m.cold("       --b---c---d-#                           ")
            let values: [Character: ColdMarbles<String>] = ["x": x]
            let i = SelectorIndex()
            let result = e1.signal.window(windows: e2.signal.map { (_: String) throws -> Signal<String> in
                if i.value == 1 {
                    throw MarbleError("error")
                }
                return i.pick(close)
            })
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should propagate error emitted from a closing", arguments: variants) func shouldPropagateErrorEmittedFromAClosing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    --x-----------y--------z---|        ")
            let e2subs = "     ^-------------!                     "
            let close = [
                m.cold("               ---------------s--|               "),
                m.cold("                           #                     "),
            ]
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e1subs = "     ^-------------!                     "
            let expected = "   --x-----------(y#)                  "
            let x = m.cold("       --b---c---d-#                     ")
            let y = m.cold("                   #                     ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y]
            let i = SelectorIndex()
            let result = e1.signal.window(windows: e2.signal.map { _ in i.pick(close) })
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should propagate error emitted late from a closing", arguments: variants) func shouldPropagateErrorEmittedLateFromAClosing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    --x-----------y--------z---|        ")
            let e2subs = "     ^------------------!                "
            let close = [
                m.cold("               ---------------s--|               "),
                m.cold("                           -----#                "),
            ]
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e1subs = "     ^------------------!                "
            let expected = "   --x-----------y----#                "
            let x = m.cold("       --b---c---d---e|                  ")
            let y = m.cold("                   --e--#                ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y]
            let i = SelectorIndex()
            let result = e1.signal.window(windows: e2.signal.map { _ in i.pick(close) })
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle errors", arguments: variants) func shouldHandleErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    --x-----------y--------z---|        ")
            let e2subs = "     ^------------------!                "
            let close = [
                m.cold("               ---------------s--|               "),
                m.cold("                           -------s|             "),
            ]
            let e1 = m.hot("--a--^---b---c---d---e--#                ")
            let e1subs = "     ^------------------!                "
            let expected = "   --x-----------y----#                "
            let x = m.cold("       --b---c---d---e|                  ")
            let y = m.cold("                   --e--#                ")
            let values: [Character: ColdMarbles<String>] = ["x": x, "y": y]
            let i = SelectorIndex()
            let result = e1.signal.window(windows: e2.signal.map { _ in i.pick(close) })
            m.expectInnerSignals(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle empty source", arguments: variants) func shouldHandleEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("--o-----|")
            let e2subs = "   (^!)"
            let e3 = m.cold("  -----c--|")
            let e1 = m.cold("  |")
            let e1subs = "   (^!)"
            let expected = " |"
            let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
            m.expectInnerSignals(result).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold(" --o-----|")
            let e2subs = "  (^!)"
            let e3 = m.cold(" -----c--|")
            let e1 = m.cold(" #")
            let e1subs = "  (^!)"
            let expected = "#"
            let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
            m.expectInnerSignals(result).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold(" --o-----o------o-----o---o-----|             ")
                let e2subs = "  ^------------------------------!             "
                let e3 = m.cold("   --c-|                                      ")
                let e1 = m.hot("  -                                            ")
                let e1subs = "  ^-------------------------------------------!"
                let expected = "--u-----v------x-----y---z-------------------"
                let u = m.cold("    --|                                        ")
                let v = m.cold("          --|                                  ")
                let x = m.cold("                 --|                           ")
                let y = m.cold("                       --|                     ")
                let z = m.cold("                           --|                 ")
                let unsub = "   --------------------------------------------!"
                let values: [Character: ColdMarbles<String>] = ["u": u, "v": v, "x": x, "y": y, "z": z]
                let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
                m.expectInnerSignals(result, unsubscription: unsub).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should handle a never opening Observable", arguments: variants) func shouldHandleANeverOpeningObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    -                                   ")
            let e2subs = "     ^----------------------------------!"
            let e3 = m.cold("    --c-|                               ")
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e1subs = "     ^----------------------------------!"
            let expected = "   -----------------------------------|"
            let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
            m.expectInnerSignals(result).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle a never closing Observable", arguments: variants) func shouldHandleANeverClosingObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold("    ---o---------------o-----------|    ")
                let e2subs = "     ^------------------------------!    "
                let e3 = m.cold("       -                                ")
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
                let e1subs = "     ^----------------------------------!"
                let expected = "   ---x---------------y---------------|"
                let x = m.cold("        -b---c---d---e---f---g---h------|")
                let y = m.cold("                        -f---g---h------|")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y]
                let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should handle opening Observable that just throws", arguments: variants) func shouldHandleOpeningObservableThatJustThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("    #                                   ")
            let e2subs = "     (^!)                                "
            let e3 = m.cold("    --c-|                               ")
            let subs = "       (^!)                                "
            let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
            let e1subs = "     (^!)                                "
            let expected = "   #                                   "
            let result = e1.signal.window(windows: e2.signal.map { _ in e3.signal })
            m.expectInnerSignals(result).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle empty closing observable", arguments: variants) func shouldHandleEmptyClosingObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.windowsEndEndsResult, .anyEndCloses, shownBy: .subscriptions, .innerSignals) {
            marbleTest(variant) { m in
                let e2 = m.cold("    ---o---------------o-----------|    ")
                let e2subs = "     ^------------------------------!    "
                let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|")
                let e1subs = "     ^----------------------------------!"
                let expected = "   ---x---------------y---------------|"
                let x = m.cold("        -b---c---d---e---f---g---h------|")
                let y = m.cold("                        -f---g---h------|")
                let values: [Character: ColdMarbles<String>] = ["x": x, "y": y]
                let result = e1.signal.window(windows: e2.signal.map { _ in Signal<String>.empty(delivery: variant) })
                m.expectInnerSignals(result).toBe(expected, values: values)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }
}

/// Subscribes at frame `at` to the signal `signal()` gives then, cancels at `until`, and
/// checks what arrived in between (frames absolute, as `"frame N value"`, `"frame C"`,
/// `"frame E message"`, `"frame cancelled"`).
final class LateSubscription: MarbleCheck, @unchecked Sendable {
    private final class Box: Sendable {
        let events = Mutex<[String]>([])
        let lifetimes = Mutex<[any Lifetime]>([])
    }
    private let box = Box()
    private var expected: ([String], SourceLocation)?

    init(_ m: MarbleTest, at: Int, until: Int, _ signal: @escaping @Sendable () -> Signal<String>?) {
        let clock = m.clock
        let box = self.box
        let start = clock.schedule(after: .milliseconds(at)) {
            guard let s = signal() else {
                box.events.withLock { $0.append("no signal at frame \(at)") }
                return
            }
            let output = s.subscribe { r in
                let f = MarbleTest.frame(of: clock.now())
                let e = switch r {
                case .success(let v): "\(f) N \(v)"
                case .failure(.complete): "\(f) C"
                case .failure(.cancelled): "\(f) cancelled"
                case .failure(.other(let error)): "\(f) E \(error)"
                }
                box.events.withLock { $0.append(e) }
            }
            let stop = clock.schedule(after: .milliseconds(until - at)) { output.cancel() }
            box.lifetimes.withLock { $0.append(contentsOf: [output, stop]) }
        }
        box.lifetimes.withLock { $0.append(start) }
        m.addCheck(self)
    }

    func expect(_ events: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        expected = (events, sourceLocation)
    }

    func stop() {
        let all = box.lifetimes.withLock { l in defer { l = [] }; return l }
        for l in all { l.cancel() }
    }

    func evaluate() {
        guard let expected else { return }
        let actual = box.events.withLock { $0 }
        #expect(actual == expected.0, "what the late subscription received", sourceLocation: expected.1)
    }
}

#endif
