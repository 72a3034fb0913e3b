#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/concatMap-spec.ts (packages/rxjs/test/ported/cold/operators/concat-map.spec.ts), ported.
//
// RxJS's spec writes `concatMap` as `mergeMap(project, { concurrent: 1 })`; a throwing project
// uses the overload on `throws`, an array inner is `Signal.from(_:delivery:)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("concatMap — rxjs spec/operators/concatMap-spec.ts")
struct ConcatMapConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should map-and-flatten each item to an Observable", arguments: variants) func shouldMapAndFlattenEachItemToAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("   --1-----3--5-------|")
            let e1subs =   "   ^------------------!"
            let e2 = m.cold("  x-x-x|              ", values: ["x": 10])
            let expected =   " --x-x-x-y-y-yz-z-z-|"
            let values: [Character: _] = ["x": 10, "y": 30, "z": 50]
            let result = e1.signal.concatMap { x in e2.signal.map { $0 * Int(x)! } }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatenate many regular interval inners", arguments: variants) func shouldConcatenateManyRegularIntervalInners(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("  --a-a-a-(a|)                            ")
            let asubs =   "   ^-------!                               "
            let b = m.cold("          ----b--b--(b|)                  ")
            let bsubs =   "   --------^---------!                     "
            let c = m.cold("                           -c-c-(c|)      ")
            let csubs =   "   -------------------------^----!         "
            let d = m.cold("                                ------(d|)")
            let dsubs =   "   ------------------------------^-----!   "
            let e1 = m.hot("  a---b--------------------c-d----|       ")
            let e1subs =   "  ^-------------------------------!       "
            let expected =   "--a-a-a-a---b--b--b-------c-c-c-----(d|)"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d]
            let source = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer values to many inner values", arguments: variants) func shouldConcatMapManyOuterValuesToManyInnerValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d---|                        ")
            let e1subs =   "    ^----------------!                        "
            let inner = m.cold(" --i-j-k-l-|                              ", values: values)
            let innersubs = [
                "                 -^---------!                              ",
                "                 -----------^---------!                    ",
                "                 ---------------------^---------!          ",
                "                 -------------------------------^---------!",
            ]
            let expected =   "  ---i-j-k-l---i-j-k-l---i-j-k-l---i-j-k-l-|"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an empty source", arguments: variants) func shouldHandleAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("   |")
            let e1subs =   "    (^!)"
            let inner = m.cold("-1-2-3|")
            let innersubs: [String] = []
            let expected =   "  |"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a never source", arguments: variants) func shouldHandleANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("   -")
            let e1subs =   "^!"
            let inner = m.cold("-1-2-3|")
            let innersubs: [String] = []
            let expected =   "  -"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should error immediately if given a just-throw source", arguments: variants) func shouldErrorImmediatelyIfGivenAJustThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("   #")
            let e1subs =   "    (^!)"
            let inner = m.cold("-1-2-3|")
            let innersubs: [String] = []
            let expected =   "  #"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return a silenced version of the source if the mapped inner is empty", arguments: variants) func shouldReturnASilencedVersionOfTheSourceIfTheMappedInnerIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("   --a-b--c-| ")
            let e1subs =   "    ^--------! "
            let inner = m.cold("  |")
            // prettier-ignore
            let innersubs = [
                "                 --(^!)     ",
                "                 ----(^!)   ",
                "                 -------(^!)",
            ]
            let expected =   "  ---------| "
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should return a never if the mapped inner is never", arguments: variants) func shouldReturnANeverIfTheMappedInnerIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --a-b--c-|")
            let e1subs =   "   ^--------!"
            let inner = m.cold(" -")
            let innersubs =   "--^-------!"
            let expected =   " ----------"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result, unsubscription: "^---------!").toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors if the mapped inner is a just-throw Observable", arguments: variants) func shouldPropagateErrorsIfTheMappedInnerIsAJustThrowObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --a-b--c-|")
            let e1subs =   "   ^-!       "
            let inner = m.cold(" #")
            let innersubs =   "--(^!)    "
            let expected =   " --#       "
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, complete late", arguments: variants) func shouldConcatMapManyOuterToManyInnerCompleteLate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d----------------------------------|")
            let e1subs =   "    ^-----------------------------------------------!"
            let inner = m.cold(" --i-j-k-l-|                                     ", values: values)
            let innersubs = [
                "                 -^---------!                                     ",
                "                 -----------^---------!                           ",
                "                 ---------------------^---------!                 ",
                "                 -------------------------------^---------!       ",
            ]
            let expected =   "  ---i-j-k-l---i-j-k-l---i-j-k-l---i-j-k-l--------|"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, outer never completes", arguments: variants) func shouldConcatMapManyOuterToManyInnerOuterNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d-----------------------------------")
            let e1subs =   "^------------------------------------------------!"
            let inner = m.cold(" --i-j-k-l-|                                     ", values: values)
            let innersubs = [
                "                 -^---------!                                     ",
                "                 -----------^---------!                           ",
                "                 ---------------------^---------!                 ",
                "                 -------------------------------^---------!       ",
            ]
            let expected =   "  ---i-j-k-l---i-j-k-l---i-j-k-l---i-j-k-l---------"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result, unsubscription: "^------------------------------------------------!").toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, inner never completes", arguments: variants) func shouldConcatMapManyOuterToManyInnerInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d---|")
            let e1subs =   "    ^----------------!"
            let inner = m.cold(" --i-j-k-l-       ", values: values)
            let innersubs =   "-^----------------!"
            let expected =   "  ---i-j-k-l--------"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result, unsubscription: "^-----------------!").toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, and inner throws", arguments: variants) func shouldConcatMapManyOuterToManyInnerAndInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d---|")
            let e1subs =   "    ^----------!      "
            let inner = m.cold(" --i-j-k-l-#      ", values: values)
            let innersubs =   " -^---------!      "
            let expected =   "  ---i-j-k-l-#      "
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, and outer throws", arguments: variants) func shouldConcatMapManyOuterToManyInnerAndOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d---#")
            let e1subs =   "    ^----------------!"
            let inner = m.cold(" --i-j-k-l-|      ", values: values)
            // prettier-ignore
            let innersubs = [
                "                 -^---------!      ",
                "                 -----------^-----!",
            ]
            let expected =   "  ---i-j-k-l---i-j-#"
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to many inner, both inner and outer throw", arguments: variants) func shouldConcatMapManyOuterToManyInnerBothInnerAndOuterThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: _] = ["i": "foo", "j": "bar", "k": "baz", "l": "qux"]
            let e1 = m.hot("    -a---b---c---d---#")
            let e1subs =   "    ^----------!      "
            let inner = m.cold(" --i-j-k-l-#      ", values: values)
            let innersubs =   " -^---------!      "
            let expected =   "  ---i-j-k-l-#      "
            let result = e1.signal.concatMap { _ in inner.signal }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(inner.subscriptions).toBe(innersubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, where all inners are finite", arguments: variants) func shouldConcatMapManyComplexWhereAllInnersAreFinite(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs =   "         -------------------^-------!                           "
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs =   "         ---------------------------^------------------!        "
            let f = m.cold("                                                      --|      ")
            let fsubs =   "         ----------------------------------------------^-!      "
            let g = m.cold("                                                        ---1-2|")
            let gsubs =   "         ------------------------------------------------^-----!"
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
            let e1subs =   "        ^--------------------------------------!               "
            let expected =   "      ---2--3--4--5----6-----2--3-1------2--3-4-5--------1-2|"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, all inners finite except one", arguments: variants) func shouldConcatMapManyComplexAllInnersFiniteExceptOne(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3-                           ")
            let dsubs =   "-------------------^-----------------------------------!"
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs: [String] = []
            let f = m.cold("                                                      --|      ")
            let fsubs: [String] = []
            let g = m.cold("                                                        ---1-2|")
            let gsubs: [String] = []
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
            let e1subs =   "        ^--------------------------------------!               "
            let expected =   "      ---2--3--4--5----6-----2--3----------------------------"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^------------------------------------------------------!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, inners finite, outer does not complete", arguments: variants) func shouldConcatMapManyComplexInnersFiniteOuterDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs =   "         -------------------^-------!                           "
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs =   "         ---------------------------^------------------!        "
            let f = m.cold("                                                      --|      ")
            let fsubs =   "         ----------------------------------------------^-!      "
            let g = m.cold("                                                        ---1-2|")
            let gsubs =   "         ------------------------------------------------^-----!"
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g---             ")
            let e1subs =   "^------------------------------------------------------!"
            let expected =   "      ---2--3--4--5----6-----2--3-1------2--3-4-5--------1-2-"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: "^------------------------------------------------------!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, all inners finite, and outer throws", arguments: variants) func shouldConcatMapManyComplexAllInnersFiniteAndOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs =   "         -------------------^-------!                           "
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs =   "         ---------------------------^-----------!               "
            let f = m.cold("                                                      --|      ")
            let fsubs: [String] = []
            let g = m.cold("                                                        ---1-2|")
            let gsubs: [String] = []
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g#               ")
            let e1subs =   "        ^--------------------------------------!               "
            let expected =   "      ---2--3--4--5----6-----2--3-1------2--3#               "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, all inners complete except one throws", arguments: variants) func shouldConcatMapManyComplexAllInnersCompleteExceptOneThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-#                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs: [String] = []
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs: [String] = []
            let f = m.cold("                                                      --|      ")
            let fsubs: [String] = []
            let g = m.cold("                                                        ---1-2|")
            let gsubs: [String] = []
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
            let e1subs =   "        ^------------------!                                   "
            let expected =   "      ---2--3--4--5----6-#                                   "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, all inners finite, outer is unsubscribed early", arguments: variants) func shouldConcatMapManyComplexAllInnersFiniteOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("     -#                                                        ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs =   "         -------------------^-------!                           "
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs =   "         ---------------------------^--!                        "
            let f = m.cold("                                                      --|      ")
            let fsubs: [String] = []
            let g = m.cold("                                                        ---1-2|")
            let gsubs: [String] = []
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
            let e1subs =   "        ^-----------------------------!                        "
            let unsub =   "         ^-----------------------------!                        "
            let expected =   "      ---2--3--4--5----6-----2--3-1--                        "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.concatMap { observableLookup[$0]!.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("   -#                                                          ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                          ")
            let bsubs: [String] = []
            let c = m.cold("          -2--3--4--5----6-|                                   ")
            let csubs =   "         --^----------------!                                   "
            let d = m.cold("                           ----2--3|                           ")
            let dsubs =   "         -------------------^-------!                           "
            let e = m.cold("                                   -1------2--3-4-5---|        ")
            let esubs =   "         ---------------------------^--!                        "
            let f = m.cold("                                                      --|      ")
            let fsubs: [String] = []
            let g = m.cold("                                                        ---1-2|")
            let gsubs: [String] = []
            let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
            let e1subs =   "        ^-----------------------------!                        "
            let unsub =   "         ^-----------------------------!                        "
            let expected =   "      ---2--3--4--5----6-----2--3-1--                        "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .concatMap { observableLookup[$0]!.signal }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e.subscriptions).toBe(esubs)
            m.expectSubscriptions(f.subscriptions).toBe(fsubs)
            m.expectSubscriptions(g.subscriptions).toBe(gsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many complex, all inners finite, project throws", arguments: variants) func shouldConcatMapManyComplexAllInnersFiniteProjectThrows(_ variant: DeliveryVariant) {
        withKnownDifference(.concatMapProjectsAtArrival, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let a = m.cold("   -#                                                          ")
                let asubs: [String] = []
                let b = m.cold("     -#                                                        ")
                let bsubs: [String] = []
                let c = m.cold("          -2--3--4--5----6-|                                   ")
                let csubs =   "         --^----------------!                                   "
                let d = m.cold("                           ----2--3|                           ")
                let dsubs =   "         -------------------^-------!                           "
                let e = m.cold("                                   -1------2--3-4-5---|        ")
                let esubs: [String] = []
                let f = m.cold("                                                      --|      ")
                let fsubs: [String] = []
                let g = m.cold("                                                        ---1-2|")
                let gsubs: [String] = []
                let e1 = m.hot("  -a-b--^-c-----d------e----------------f-----g|               ")
                let e1subs =   "        ^--------------------------!                           "
                let expected =   "      ---2--3--4--5----6-----2--3#                           "
                let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
                let result = e1.signal.concatMap { value throws -> Signal<String> in
                    if value == "e" { throw MarbleError("error") }
                    return observableLookup[value]!.signal
                }
                m.expectSignal(result).toBe(expected)
                m.expectSubscriptions(a.subscriptions).toBe(asubs)
                m.expectSubscriptions(b.subscriptions).toBe(bsubs)
                m.expectSubscriptions(c.subscriptions).toBe(csubs)
                m.expectSubscriptions(d.subscriptions).toBe(dsubs)
                m.expectSubscriptions(e.subscriptions).toBe(esubs)
                m.expectSubscriptions(f.subscriptions).toBe(fsubs)
                m.expectSubscriptions(g.subscriptions).toBe(gsubs)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            }
        }
    }

    @Test("should concatMap many outer to an array for each value", arguments: variants) func shouldConcatMapManyOuterToAnArrayForEachValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^-------------------------------!"
            let expected =   "(22)--(4444)---(333)----(22)----|"
            let result = e1.signal.concatMap { value in Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to inner arrays, outer unsubscribed early", arguments: variants) func shouldConcatMapManyOuterToInnerArraysOuterUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^------------!                   "
            let unsub =   "   ^------------!                   "
            let expected =   "(22)--(4444)--                   "
            let result = e1.signal.concatMap { value in Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatMap many outer to inner arrays, project throws", arguments: variants) func shouldConcatMapManyOuterToInnerArraysProjectThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^--------------!                 "
            let expected =   "(22)--(4444)---#                 "
            let invoked = Mutex(0)
            let result = e1.signal.concatMap { value throws -> Signal<String> in
                if invoked.withLock({ $0 += 1; return $0 }) == 3 { throw MarbleError("error") }
                return Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant)
            }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
