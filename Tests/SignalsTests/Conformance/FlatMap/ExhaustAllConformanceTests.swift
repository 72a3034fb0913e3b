#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/exhaustAll-spec.ts (packages/rxjs/test/ported/cold/operators/exhaust-all.spec.ts), ported.
//
// `exhaustAll()` is the flattening form `flatMapFirst { $0 }` on a signal of signals. A hot or
// cold of observables sends cold marbles here, each turned into a new signal as it arrives
// (`map { $0.signal }`); `ColdObservable.from([e1, e2])` is `Signal.from([…], delivery:)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("flatMapFirst { $0 } (exhaustAll) — rxjs spec/operators/exhaustAll-spec.ts")
struct ExhaustAllConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should handle a hot observable of hot observables", arguments: variants) func shouldHandleAHotObservableOfHotObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   -----a---b---c--|                  ")
            let xsubs =   "   ------^---------!                  "
            let y = m.hot("   -------d--e---f---|                ")
            let ysubs: [String] = []
            let z = m.hot("   --------------g--h---i---|         ")
            let zsubs =   "   --------------------^----!         "
            let e1 = m.hot("  ------x-------y-----z-------------|", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^---------------------------------!"
            let expected =   "---------b---c-------i------------|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
        }
    }

    @Test("should switch to first immediately-scheduled inner Observable", arguments: variants) func shouldSwitchToFirstImmediatelyScheduledInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" (ab|)")
            let e1subs =   "  (^!) "
            let e2 = m.cold(" (cd|)")
            let e2subs: [String] = []
            let expected =   "(ab|)"
            m.expectSignal(Signal.from([e1.signal, e2.signal], delivery: variant).flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  (^!)"
            let expected =   "|   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -", values: [Character: ColdMarbles<String>]())
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a hot observable of observables", arguments: variants) func shouldHandleAHotObservableOfObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|               ")
            let xsubs =   "   ------^------------!               "
            let y = m.cold("                ---d--e---f---|      ")
            let ysubs: [String] = []
            let z = m.cold("                      ---g--h---i---|")
            let zsubs =   "   --------------------^-------------!"
            let e1 = m.hot("  ------x-------y-----z-------------|", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^---------------------------------!"
            let expected =   "--------a---b---c------g--h---i---|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
        }
    }

    @Test("should handle a hot observable of observables, outer is unsubscribed early", arguments: variants) func shouldHandleAHotObservableOfObservablesOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^---------!            "
            let y = m.cold("                ---d--e---f---|")
            let ysubs: [String] = []
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let unsub =   "   ----------------!            "
            let expected =   "--------a---b----            "
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^---------!            "
            let y = m.cold("                ---d--e---f---|")
            let ysubs: [String] = []
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let unsub =   "   ----------------!            "
            let expected =   "--------a---b----            "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .map { $0.signal }.flatMapFirst { $0 }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, inner never completes", arguments: variants) func shouldHandleAHotObservableOfObservablesInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("     --a---b--|              ")
            let xsubs =   "   ---^--------!              "
            let y = m.cold("         -d---e-             ")
            let ysubs: [String] = []
            let z = m.cold("                ---f--g---h--")
            let zsubs =   "--------------^------------!"
            let e1 = m.hot("  ---x---y------z----------| ", values: ["x": x, "y": y, "z": z])
            let expected =   "-----a---b-------f--g---h--"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }, unsubscription: "^--------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
        }
    }

    @Test("should handle a synchronous switch and stay on the first inner observable", arguments: variants) func shouldHandleASynchronousSwitchAndStayOnTheFirstInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|   ")
            let xsubs =   "   ------^------------!   "
            let y = m.cold("        ---d--e---f---|  ")
            let ysubs: [String] = []
            let e1 = m.hot("  ------(xy)------------|", values: ["x": x, "y": y])
            let expected =   "--------a---b---c-----|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, one inner throws", arguments: variants) func shouldHandleAHotObservableOfObservablesOneInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---#                ")
            let xsubs =   "   ------^-----!                "
            let y = m.cold("                ---d--e---f---|")
            let ysubs: [String] = []
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let expected =   "--------a---#                "
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, outer throws", arguments: variants) func shouldHandleAHotObservableOfObservablesOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^------------!         "
            let y = m.cold("                ---d--e---f---|")
            let ysubs: [String] = []
            let e1 = m.hot("  ------x-------y-------#      ", values: ["x": x, "y": y])
            let expected =   "--------a---b---c-----#      "
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle an empty hot observable", arguments: variants) func shouldHandleAnEmptyHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ------|", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  ^-----!"
            let expected =   "------|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a never hot observable", arguments: variants) func shouldHandleANeverHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -", values: [Character: ColdMarbles<String>]())
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete not before the outer completes", arguments: variants) func shouldCompleteNotBeforeTheOuterCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|   ")
            let xsubs =   "   ------^------------!   "
            let e1 = m.hot("  ------x---------------|", values: ["x": x])
            let expected =   "--------a---b---c-----|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMapFirst { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
        }
    }
}

#endif
