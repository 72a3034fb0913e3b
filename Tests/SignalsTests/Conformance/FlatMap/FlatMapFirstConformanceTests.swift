#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/exhaustMap-spec.ts (packages/rxjs/test/ported/cold/operators/exhaust-map.spec.ts), ported.
//
// `exhaustMap` is `flatMapFirst`; a throwing project uses the overload on `throws`.
//
// Not ported (JavaScript only):
// - "should not break unsubscription chains with interop inners when result is unsubscribed
//   explicitly": a JavaScript Proxy posing as a foreign library's observable.
// Not written (a form Signals lacks): none.

@Suite("flatMapFirst — rxjs spec/operators/exhaustMap-spec.ts")
struct FlatMapFirstConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should map-and-flatten each item to an Observable", arguments: variants) func shouldMapAndFlattenEachItemToAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["x": 10, "y": 30, "z": 50]
            let e1 = m.hot("   --1-----3--5-------|")
            let e1subs =   "   ^------------------!"
            let e2 = m.cold("    x-x-x|            ", values: values)
            //                         x-x-x|
            //                            x-x-x|
            let expected =   " --x-x-x-y-y-y------|"
            let result = e1.signal.flatMapFirst { x in e2.signal.map { $0 * Int(x)! } }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer throw", arguments: variants) func shouldHandleOuterThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("  --a--b--c--|")
            let xsubs: [String] = []
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            let result = e1.signal.flatMapFirst { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer empty", arguments: variants) func shouldHandleOuterEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("  --a--b--c--|")
            let xsubs: [String] = []
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            let result = e1.signal.flatMapFirst { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle outer never", arguments: variants) func shouldHandleOuterNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("  --a--b--c--|")
            let xsubs: [String] = []
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.flatMapFirst { _ in x.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if project throws", arguments: variants) func shouldRaiseErrorIfProjectThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---x---------y-----------------z-------------|")
            let e1subs =   "  ^--!"
            let expected =   "---#"
            let result = e1.signal.flatMapFirst { _ throws -> Signal<String> in throw MarbleError("error") }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch with a selector function", arguments: variants) func shouldSwitchWithASelectorFunction(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("     --a--b--c--|                               ")
            let xsubs =   "   ---^----------!                               "
            let y = m.cold("               --d--e--f--|                     ")
            let ysubs: [String] = []
            let z = m.cold("                                 --g--h--i--|   ")
            let zsubs =   "   -------------------------------^----------!   "
            let e1 = m.hot("  ---x---------y-----------------z-------------|")
            let e1subs =   "  ^--------------------------------------------!"
            let expected =   "-----a--b--c---------------------g--h--i-----|"
            let observableLookup = ["x": x, "y": y, "z": z]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, outer is unsubscribed early", arguments: variants) func shouldSwitchInnerColdObservablesOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("     --a--b--c--|                               ")
            let xsubs =   "   ---^----------!                               "
            let y = m.cold("               --d--e--f--|                     ")
            let ysubs: [String] = []
            let z = m.cold("                                 --g--h--i--|   ")
            let zsubs =   "   -------------------------------^--!           "
            let e1 = m.hot("  ---x---------y-----------------z-------------|")
            let unsub =   "   ----------------------------------!           "
            let e1subs =   "  ^---------------------------------!           "
            let expected =   "-----a--b--c---------------------g-           "
            let observableLookup = ["x": x, "y": y, "z": z]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("     --a--b--c--|                               ")
            let xsubs =   "   ---^----------!                               "
            let y = m.cold("               --d--e--f--|                     ")
            let ysubs: [String] = []
            let z = m.cold("                                 --g--h--i--|   ")
            let zsubs =   "   -------------------------------^--!           "
            let e1 = m.hot("  ---x---------y-----------------z-------------|")
            let e1subs =   "  ^---------------------------------!           "
            let expected =   "-----a--b--c---------------------g-           "
            let unsub =   "   ----------------------------------!           "
            let observableLookup = ["x": x, "y": y, "z": z]
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .flatMapFirst { observableLookup[$0]!.signal }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, inner never completes", arguments: variants) func shouldSwitchInnerColdObservablesInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("     --a--b--c--|                              ")
            let xsubs =   "   ---^----------!                              "
            let y = m.cold("               --d--e--f--|                    ")
            let ysubs: [String] = []
            let z = m.cold("                                 --g--h--i-----")
            let zsubs =   "-------------------------------^-------------!"
            let e1 = m.hot("  ---x---------y-----------------z---------|   ")
            let e1subs =   "  ^----------------------------------------!   "
            let expected =   "-----a--b--c---------------------g--h--i-----"
            let observableLookup = ["x": x, "y": y, "z": z]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^--------------------------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a synchronous switch and stay on the first inner observable", arguments: variants) func shouldHandleASynchronousSwitchAndStayOnTheFirstInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--e--|   ")
            let xsubs =   "   ---------^----------------!   "
            let y = m.cold("           ---f---g---h---i--|  ")
            let ysubs: [String] = []
            let e1 = m.hot("  ---------(xy)----------------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "-----------a--b--c--d--e-----|"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner cold observables, one inner throws", arguments: variants) func shouldSwitchInnerColdObservablesOneInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           --a--b--c--d--#             ")
            let xsubs =   "   ---------^-------------!             "
            let y = m.cold("                     ---f---g---h---i--")
            let ysubs: [String] = []
            let e1 = m.hot("  ---------x---------y---------|       ")
            let e1subs =   "  ^----------------------!             "
            let expected =   "-----------a--b--c--d--#             "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner hot observables", arguments: variants) func shouldSwitchInnerHotObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   -----a--b--c--d--e--|                  ")
            let xsubs =   "   ---------^----------!                  "
            let y = m.hot("   --p-o-o-p-------f---g---h---i--|       ")
            let ysubs: [String] = []
            let z = m.hot("   ---z-o-o-m-------------j---k---l---m--|")
            let zsubs =   "   --------------------^-----------------!"
            let e1 = m.hot("  ---------x----y-----z--------|         ")
            let e1subs =   "  ^----------------------------!         "
            let expected =   "-----------c--d--e-----j---k---l---m--|"
            let observableLookup = ["x": x, "y": y, "z": z]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
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
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner empty and never", arguments: variants) func shouldSwitchInnerEmptyAndNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           |                    ")
            let xsubs =   "   ---------(^!)                 "
            let y = m.cold("                     -          ")
            let ysubs =   "-------------------^----------!"
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^----------------------------!"
            let expected =   "------------------------------"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^-----------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should never switch inner never", arguments: variants) func shouldNeverSwitchInnerNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           -                     ")
            let xsubs =   "---------^---------------------!"
            let y = m.cold("                     #           ")
            let ysubs: [String] = []
            let e1 = m.hot("  ---------x---------y----------|")
            let e1subs =   "  ^-----------------------------!"
            let expected =   "-------------------------------"
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^------------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should switch inner empty and throw", arguments: variants) func shouldSwitchInnerEmptyAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("           |                    ")
            let xsubs =   "   ---------(^!)                 "
            let y = m.cold("                     #          ")
            let ysubs =   "   -------------------(^!)       "
            let e1 = m.hot("  ---------x---------y---------|")
            let e1subs =   "  ^------------------!          "
            let expected =   "-------------------#          "
            let observableLookup = ["x": x, "y": y]
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
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
            let result = e1.signal.flatMapFirst { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
