#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/switchAll-spec.ts (packages/rxjs/test/ported/cold/operators/switch-all.spec.ts), ported.
//
// `switchAll()` is `switchLatest()` on a signal of signals. A hot of observables sends cold
// marbles here, each turned into a new signal as it arrives (`map { $0.signal }`).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("switchLatest — rxjs spec/operators/switchAll-spec.ts")
struct SwitchLatestConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should switch a hot observable of cold observables", arguments: variants) func shouldSwitchAHotObservableOfColdObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    --a---b--c---d--|      ")
            let xsubs =   "   --^------!               "
            let y = m.cold("           ----e---f--g---|")
            let ysubs =   "   ---------^--------------!"
            let e1 = m.hot("  --x------y-------|       ", values: ["x": x, "y": y])
            let e1subs =   "  ^----------------!       "
            let expected =   "----a---b----e---f--g---|"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a hot observable of observables", arguments: variants) func shouldHandleAHotObservableOfObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^-------!              "
            let y = m.cold("                ---d--e---f---|")
            let ysubs =   "   --------------^-------------!"
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let e1subs =   "  ^--------------------!       "
            let expected =   "--------a---b----d--e---f---|"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, outer is unsubscribed early", arguments: variants) func shouldHandleAHotObservableOfObservablesOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^-------!              "
            let y = m.cold("                ---d--e---f---|")
            let ysubs =   "   --------------^-!            "
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let unsub =   "   ----------------!            "
            let expected =   "--------a---b---             "
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^-------!              "
            let y = m.cold("                ---d--e---f---|")
            let ysubs =   "   --------------^-!            "
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let expected =   "--------a---b----            "
            let unsub =   "   ----------------!            "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .map { $0.signal }.switchLatest()
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, inner never completes", arguments: variants) func shouldHandleAHotObservableOfObservablesInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|          ")
            let xsubs =   "   ------^-------!               "
            let y = m.cold("                ---d--e---f-----")
            let ysubs =   "--------------^---------------!"
            let e1 = m.hot("  ------x-------y------|        ", values: ["x": x, "y": y])
            let expected =   "--------a---b----d--e---f-----"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result, unsubscription: "^-----------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a synchronous switch to the second inner observable", arguments: variants) func shouldHandleASynchronousSwitchToTheSecondInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|   ")
            let xsubs =   "   ------(^!)             "
            let y = m.cold("        ---d--e---f---|  ")
            let ysubs =   "   ------^-------------!  "
            let e1 = m.hot("  ------(xy)------------|", values: ["x": x, "y": y])
            let expected =   "---------d--e---f-----|"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, one inner throws", arguments: variants) func shouldHandleAHotObservableOfObservablesOneInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---#                ")
            let xsubs =   "   ------^-----!                "
            let y = m.cold("                ---d--e---f---|")
            let ysubs =   "                                "
            let e1 = m.hot("  ------x-------y------|       ", values: ["x": x, "y": y])
            let expected =   "--------a---#                "
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle a hot observable of observables, outer throws", arguments: variants) func shouldHandleAHotObservableOfObservablesOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|         ")
            let xsubs =   "   ------^-------!              "
            let y = m.cold("                ---d--e---f---|")
            let ysubs =   "   --------------^-------!      "
            let e1 = m.hot("  ------x-------y-------#      ", values: ["x": x, "y": y])
            let expected =   "--------a---b----d--e-#      "
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
        }
    }

    @Test("should handle an empty hot observable", arguments: variants) func shouldHandleAnEmptyHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ------|", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  ^-----!"
            let expected =   "------|"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a never hot observable", arguments: variants) func shouldHandleANeverHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -", values: [Character: ColdMarbles<String>]())
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete not before the outer completes", arguments: variants) func shouldCompleteNotBeforeTheOuterCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("        --a---b---c--|   ")
            let xsubs =   "   ------^------------!   "
            let e1 = m.hot("  ------x---------------|", values: ["x": x])
            let e1subs =   "  ^---------------------!"
            let expected =   "--------a---b---c-----|"
            let result = e1.signal.map { $0.signal }.switchLatest()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
