#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/switchMap-spec.ts (packages/rxjs/test/ported/cold/operators/switch-map.spec.ts), ported.
//
// `switchMap` is `flatMapLatest`; a throwing project uses the overload on `throws`.
//
// Not ported (JavaScript only):
// - "should not break unsubscription chains with interop inners when result is unsubscribed
//   explicitly": a JavaScript Proxy posing as a foreign library's observable.
// Not written (a form Signals lacks): none.

@Suite("flatMapLatest — rxjs spec/operators/switchMap-spec.ts")
struct FlatMapLatestConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should map-and-flatten each item to an Observable", arguments: variants) func shouldMapAndFlattenEachItemToAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("   --1-----3--5-------|")
            let e1subs =   "   ^------------------!"
            let e2 = m.cold("    x-x-x|            ", values: ["x": 10])
            //                         x-x-x|
            //                            x-x-x|
            let expected =   " --x-x-x-y-yz-z-z---|"
            let values: [Character: _] = ["x": 10, "y": 30, "z": 50]
            let result = e1.signal.flatMapLatest { x in e2.signal.map { $0 * Int(x)! } }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables", arguments: variants) func shouldSwitchInnerColdObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|           ")
            let xsubs =   "   ---------^---------!                  "
            let y = m.cold("                     ---f---g---h---i--|")
            let ysubs =   "   -------------------^-----------------!"
            let e1 = m.hot("  ---------x---------y---------|        ")
            let e1subs =   "  ^----------------------------!        "
            let expected =   "-----------a--b--c----f---g---h---i--|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when projection throws", arguments: variants) func shouldRaiseErrorWhenProjectionThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -------x-----y---|")
            let e1subs =   "  ^------!          "
            let expected =   "-------#          "
            m.expectSignal(e1.signal.flatMapLatest { _ throws -> Signal<String> in throw MarbleError("error") }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, outer is unsubscribed early", arguments: variants) func shouldSwitchInnerColdObservablesOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|           ")
            let xsubs =   "   ---------^---------!                  "
            let y = m.cold("                     ---f---g---h---i--|")
            let ysubs =   "   -------------------^-!                "
            let e1 = m.hot("  ---------x---------y---------|        ")
            let e1subs =   "  ^--------------------!                "
            let unsub =   "   ---------------------!                "
            let expected =   "-----------a--b--c----                "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|           ")
            let xsubs =   "   ---------^---------!                  "
            let y = m.cold("                     ---f---g---h---i--|")
            let ysubs =   "   -------------------^-!                "
            let e1 = m.hot("  ---------x---------y---------|        ")
            let e1subs =   "  ^--------------------!                "
            let expected =   "-----------a--b--c----                "
            let unsub =   "   ---------------------!                "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .flatMapLatest { observableLookup[$0]!.signal }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, inner never completes", arguments: variants) func shouldSwitchInnerColdObservablesInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|          ")
            let xsubs =   "   ---------^---------!                 "
            let y = m.cold("                     ---f---g---h---i--")
            let ysubs =   "-------------------^-----------------!"
            let e1 = m.hot("  ---------x---------y---------|       ")
            let e1subs =   "  ^----------------------------!       "
            let expected =   "-----------a--b--c----f---g---h---i--"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^------------------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a synchronous switch to the second inner observable", arguments: variants) func shouldHandleASynchronousSwitchToTheSecondInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|   ")
            let xsubs =   "   ---------(^!)                 "
            let y = m.cold("           ---f---g---h---i--|  ")
            let ysubs =   "   ---------^-----------------!  "
            let e1 = m.hot("  ---------(xy)----------------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "------------f---g---h---i----|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, one inner throws", arguments: variants) func shouldSwitchInnerColdObservablesOneInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--#--d--e--|          ")
            let xsubs =   "   ---------^-------!                   "
            let y = m.cold("                     ---f---g---h---i--")
            let ysubs =   "                                        "
            let e1 = m.hot("  ---------x---------y---------|       ")
            let e1subs =   "  ^----------------!                   "
            let expected =   "-----------a--b--#                   "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner hot observables", arguments: variants) func shouldSwitchInnerHotObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   -----a--b--c--d--e--|                 ")
            let xsubs =   "   ---------^---------!                  "
            let y = m.hot("   --p-o-o-p-------------f---g---h---i--|")
            let ysubs =   "   -------------------^-----------------!"
            let e1 = m.hot("  ---------x---------y---------|        ")
            let e1subs =   "  ^----------------------------!        "
            let expected =   "-----------c--d--e----f---g---h---i--|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner empty and empty", arguments: variants) func shouldSwitchInnerEmptyAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           |                    ")
            let y = m.cold("                     |          ")
            let xsubs =   "   ---------(^!)                 "
            let ysubs =   "   -------------------(^!)       "
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "-----------------------------|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner empty and never", arguments: variants) func shouldSwitchInnerEmptyAndNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           |                    ")
            let y = m.cold("                     -          ")
            let xsubs =   "   ---------(^!)                 "
            let ysubs =   "-------------------^----------!"
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "------------------------------"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^-----------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner never and empty", arguments: variants) func shouldSwitchInnerNeverAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           -                    ")
            let y = m.cold("                     |          ")
            let xsubs =   "   ---------^---------!          "
            let ysubs =   "   -------------------(^!)       "
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "-----------------------------|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner never and throw", arguments: variants) func shouldSwitchInnerNeverAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           -                    ")
            let y = m.cold("                     #          ", error: MarbleError("sad"))
            let xsubs =   "   ---------^---------!          "
            let ysubs =   "   -------------------(^!)       "
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^------------------!          "
            let expected =   "-------------------#          "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected, error: MarbleError("sad"))
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner empty and throw", arguments: variants) func shouldSwitchInnerEmptyAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           |                    ")
            let y = m.cold("                     #          ", error: MarbleError("sad"))
            let xsubs =   "   ---------(^!)                 "
            let ysubs =   "   -------------------(^!)       "
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^------------------!          "
            let expected =   "-------------------#          "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected, error: MarbleError("sad"))
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer empty", arguments: variants) func shouldHandleOuterEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            let result = e1.signal.flatMapLatest { Signal.just($0, delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer never", arguments: variants) func shouldHandleOuterNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.flatMapLatest { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer throw", arguments: variants) func shouldHandleOuterThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            let result = e1.signal.flatMapLatest { Signal.just($0, delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer error", arguments: variants) func shouldHandleOuterError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|")
            let xsubs =   "   ---------^---------!       "
            let e1 = m.hot("  ---------x---------#       ")
            let e1subs =   "  ^------------------!       "
            let expected =   "-----------a--b--c-#       "
            let observableLookup = ["x": x]
            let result = e1.signal.flatMapLatest { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
