#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/mergeMap-spec.ts (packages/rxjs/test/ported/cold/operators/merge-map.spec.ts), ported.
//
// RxJS's array and iterable inners are `Signal.from(_:delivery:)`; `{ concurrent: n }` is
// `flatMap(maxConcurrent:_:)`; a throwing project uses the overload on `throws`.
//
// Not ported (JavaScript only):
// - "should not break unsubscription chains with interop inners when result is unsubscribed
//   explicitly": a JavaScript Proxy posing as a foreign library's observable.
// Not written (a form Signals lacks): none.

@Suite("flatMap — rxjs spec/operators/mergeMap-spec.ts")
struct FlatMapConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should map-and-flatten each item to an Observable", arguments: variants) func shouldMapAndFlattenEachItemToAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["x": 10, "y": 30, "z": 50]
            let x = m.cold("    x-x-x|             ", values: values)
            //                        y-y-y|
            //                           z-z-z|
            let xsubs = [
                "               --^----!             ",
                "               --------^----!       ",
                "               -----------^----!    ",
            ]
            let e1 = m.hot("  --1-----3--5--------|")
            let e1subs =   "  ^-------------------!"
            let expected =   "--x-x-x-y-yzyz-z----|"
            let result = e1.signal.flatMap { value in x.signal.map { $0 * Int(value)! } }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many regular interval inners", arguments: variants) func shouldMergeMapManyRegularIntervalInners(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold("  ----a---a---a---(a|)                    ")
            let asubs =   "   ^---------------!                       "
            let b = m.cold("      ----b---b---(b|)                    ")
            let bsubs =   "   ----^-----------!                       "
            let c = m.cold("                  ----c---c---c---c---(c|)")
            let csubs =   "   ----------------^-------------------!   "
            let d = m.cold("                          ----(d|)        ")
            let dsubs =   "   ------------------------^---!           "
            let e1 = m.hot("  a---b-----------c-------d-------|       ")
            let e1subs =   "  ^-------------------------------!       "
            let expected =   "----a---(ab)(ab)(ab)c---c---(cd)c---(c|)"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d]
            let source = e1.signal.flatMap { observableLookup[$0]!.signal }
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(d.subscriptions).toBe(dsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer values to many inner values", arguments: variants) func shouldMergeMapManyOuterValuesToManyInnerValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                        ")
            //                         ----i---j---k---l---|
            //                                 ----i---j---k---l---|
            //                                         ----i---j---k---l---|
            let xsubs = [
                "               -^-------------------!                        ",
                "               ---------^-------------------!                ",
                "               -----------------^-------------------!        ",
                "               -------------------------^-------------------!",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------|            ")
            let e1subs =   "  ^--------------------------------!            "
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)(lj)k---l---|"
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, complete late", arguments: variants) func shouldMergeMapManyOuterToManyInnerCompleteLate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                            ")
            //                         ----i---j---k---l---|
            //                                 ----i---j---k---l---|
            //                                         ----i---j---k---l---|
            let xsubs = [
                "               -^-------------------!                            ",
                "               ---------^-------------------!                    ",
                "               -----------------^-------------------!            ",
                "               -------------------------^-------------------!    ",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-----------------------|")
            let e1subs =   "  ^------------------------------------------------!"
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)(lj)k---l-------|"
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, outer never completes", arguments: variants) func shouldMergeMapManyOuterToManyInnerOuterNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                                  ")
            //                         ----i---j---k---l---|
            //                                 ----i---j---k---l---|
            //                                         ----i---j---k---l---|
            //                                                 ----i---j---k---l---|
            //                                                                 ----i--
            let xsubs = [
                "               -^-------------------!                                  ",
                "               ---------^-------------------!                          ",
                "               -----------------^-------------------!                  ",
                "               -------------------------^-------------------!          ",
                "               ---------------------------------^-------------------!  ",
                "               -------------------------------------------------^-----!",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------e---------------f------")
            let e1subs =   "  ^------------------------------------------------------!"
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)(lj)(ki)(lj)k---l---i--"
            let unsub =   "   -------------------------------------------------------!"
            let source = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(source, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                                  ")
            //                         ----i---j---k---l---|
            //                                 ----i---j---k---l---|
            //                                         ----i---j---k---l---|
            //                                                 ----i---j---k---l---|
            //                                                                 ----i--
            let xsubs = [
                "               -^-------------------!                                  ",
                "               ---------^-------------------!                          ",
                "               -----------------^-------------------!                  ",
                "               -------------------------^-------------------!          ",
                "               ---------------------------------^-------------------!  ",
                "               -------------------------------------------------^-----!",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------e---------------f------")
            let e1subs =   "  ^------------------------------------------------------!"
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)(lj)(ki)(lj)k---l---i--"
            let unsub =   "   -------------------------------------------------------!"
            let source = e1.signal.map { $0 }
                .flatMap { _ in x.signal }
                .map { $0 }
            m.expectSignal(source, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, inner never completes", arguments: variants) func shouldMergeMapManyOuterToManyInnerInnerNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l-------------------------")
            //                         ----i---j---k---l-----------------
            //                                 ----i---j---k---l---------
            //                                         ----i---j---k---l-
            let xsubs = [
                "-^-----------------------------------------------------!",
                "---------^---------------------------------------------!",
                "-----------------^-------------------------------------!",
                "-------------------------^-----------------------------!",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------|         ")
            let e1subs =   "  ^--------------------------------!         "
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)(lj)k---l-"
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result, unsubscription: "^------------------------------------------------------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, and inner throws", arguments: variants) func shouldMergeMapManyOuterToManyInnerAndInnerThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l-------#   ")
            //                         ----i---j---k---l
            //                                 ----i---j
            //                                         -
            let xsubs = [
                "               -^-----------------------!   ",
                "               ---------^---------------!   ",
                "               -----------------^-------!   ",
                "               -------------------------(^!)",
            ]
            let e1 = m.hot("  -a-------b-------c-------d   ")
            let e1subs =   "  ^------------------------!   "
            let expected =   "-----i---j---(ki)(lj)(ki)#   "
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, and outer throws", arguments: variants) func shouldMergeMapManyOuterToManyInnerAndOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|            ")
            //                         ----i---j---k---l---|
            //                                 ----i---j---k---l
            //                                         ----i---j
            let xsubs = [
                "               -^-------------------!            ",
                "               ---------^-------------------!    ",
                "               -----------------^---------------!",
                "               -------------------------^-------!",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------#")
            let e1subs =   "  ^--------------------------------!"
            let expected =   "-----i---j---(ki)(lj)(ki)(lj)(ki)#"
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to many inner, both inner and outer throw", arguments: variants) func shouldMergeMapManyOuterToManyInnerBothInnerAndOuterThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---#            ")
            //                         ----i---j---k
            //                                 ----i
            let xsubs = [
                "               -^-------------------!            ",
                "               ---------^-----------!            ",
                "               -----------------^---!            ",
            ]
            let e1 = m.hot("  -a-------b-------c-------d-------#")
            let e1subs =   "  ^--------------------!            "
            let expected =   "-----i---j---(ki)(lj)#            "
            let result = e1.signal.flatMap { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap to many cold Observable, with parameter concurrency=1", arguments: variants) func shouldMergeMapToManyColdObservableWithParameterConcurrency1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                                        ")
            //                                     ----i---j---k---l---|
            //                                                         ----i---j---k---l---|
            let xsubs = [
                "               -^-------------------!                                        ",
                "               ---------------------^-------------------!                    ",
                "               -----------------------------------------^-------------------!",
            ]
            let e1 = m.hot("  -a-------b-------c---|                                        ")
            let e1subs =   "  ^--------------------!                                        "
            let expected =   "-----i---j---k---l-------i---j---k---l-------i---j---k---l---|"
            let result = e1.signal.flatMap(maxConcurrent: 1) { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap to many cold Observable, with parameter concurrency=2", arguments: variants) func shouldMergeMapToManyColdObservableWithParameterConcurrency2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("   ----i---j---k---l---|                    ")
            //                         ----i---j---k---l---|
            //                                     ----i---j---k---l---|
            let xsubs = [
                "               -^-------------------!                    ",
                "               ---------^-------------------!            ",
                "               ---------------------^-------------------!",
            ]
            let e1 = m.hot("  -a-------b-------c---|                    ")
            let e1subs =   "  ^--------------------!                    "
            let expected =   "-----i---j---(ki)(lj)k---(li)j---k---l---|"
            let result = e1.signal.flatMap(maxConcurrent: 2) { _ in x.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap to many hot Observable, with parameter concurrency=1", arguments: variants) func shouldMergeMapToManyHotObservableWithParameterConcurrency1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("   x----i---j---k---l---|                                        ")
            let asubs =   "   -^-------------------!                                        "
            let b = m.hot("   -x-x-xxxx-x-x-xxxxx-x----i---j---k---l---|                    ")
            let bsubs =   "   ---------------------^-------------------!                    "
            let c = m.hot("   x-xxxx---x-x-x-x-x-xx--x--x-x--x--xxxx-x-----i---j---k---l---|")
            let csubs =   "   -----------------------------------------^-------------------!"
            let e1 = m.hot("  -a-------b-------c---|                                        ")
            let e1subs =   "  ^--------------------!                                        "
            let expected =   "-----i---j---k---l-------i---j---k---l-------i---j---k---l---|"
            let inners = ["a": a, "b": b, "c": c]
            let result = e1.signal.flatMap(maxConcurrent: 1) { inners[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
            m.expectSubscriptions(c.subscriptions).toBe(csubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap to many hot Observable, with parameter concurrency=2", arguments: variants) func shouldMergeMapToManyHotObservableWithParameterConcurrency2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   x----i---j---k---l---|                    ")
            let xsubs =   "   -^-------------------!                    "
            let y = m.hot("   -x-x-xxxx----i---j---k---l---|            ")
            let ysubs =   "   ---------^-------------------!            "
            let z = m.hot("   x-xxxx---x-x-x-x-x-xx----i---j---k---l---|")
            let zsubs =   "   ---------------------^-------------------!"
            let e1 = m.hot("  -a-------b-------c---|                    ")
            let e1subs =   "  ^--------------------!                    "
            let expected =   "-----i---j---(ki)(lj)k---(li)j---k---l---|"
            let inners = ["a": x, "b": y, "c": z]
            let result = e1.signal.flatMap(maxConcurrent: 2) { inners[$0]!.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many complex, where all inners are finite", arguments: variants) func shouldMergeMapManyComplexWhereAllInnersAreFinite(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^------------------------------!             "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^--------------!                       "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^------------------------------!"
            let f = m.cold("                                      --|            ")
            let fsubs =   "       --------------------------------^-!            "
            let g = m.cold("                                            ---1-2|  ")
            let gsubs =   "       --------------------------------------^-----!  "
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|       ")
            let e1subs =   "      ^--------------------------------------!       "
            let expected =   "    ---2--3--4--5---1--2--3--2--3--6--4--5---1-2--|"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { observableLookup[$0]!.signal }
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

    @Test("should mergeMap many complex, all inners finite except one", arguments: variants) func shouldMergeMapManyComplexAllInnersFiniteExceptOne(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^------------------------------!             "
            let d = m.cold("              -----------2--3-                       ")
            let dsubs =   "--------^----------------------------------------------!"
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^------------------------------!"
            let f = m.cold("                                      --|            ")
            let fsubs =   "       --------------------------------^-!            "
            let g = m.cold("                                            ---1-2|  ")
            let gsubs =   "       --------------------------------------^-----!  "
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|       ")
            let e1subs =   "      ^--------------------------------------!       "
            let expected =   "    ---2--3--4--5---1--2--3--2--3--6--4--5---1-2---"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { observableLookup[$0]!.signal }
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

    @Test("should mergeMap many complex, inners finite, outer does not complete", arguments: variants) func shouldMergeMapManyComplexInnersFiniteOuterDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^------------------------------!             "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^--------------!                       "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^------------------------------!"
            let f = m.cold("                                      --|            ")
            let fsubs =   "       --------------------------------^-!            "
            let g = m.cold("                                            ---1-2|  ")
            let gsubs =   "       --------------------------------------^-----!  "
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g--------")
            let e1subs =   "^------------------------------------------------------!"
            let expected =   "    ---2--3--4--5---1--2--3--2--3--6--4--5---1-2---"
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { observableLookup[$0]!.signal }
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

    @Test("should mergeMap many complex, all inners finite, and outer throws", arguments: variants) func shouldMergeMapManyComplexAllInnersFiniteAndOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^------------------------------!             "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^--------------!                       "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^-----------------------!       "
            let f = m.cold("                                      --|            ")
            let fsubs =   "       --------------------------------^-!            "
            let g = m.cold("                                            ---1-2|  ")
            let gsubs =   "       --------------------------------------^!       "
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g#       ")
            let e1subs =   "      ^--------------------------------------!       "
            let expected =   "    ---2--3--4--5---1--2--3--2--3--6--4--5-#       "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { observableLookup[$0]!.signal }
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

    @Test("should mergeMap many complex, all inners complete except one throws", arguments: variants) func shouldMergeMapManyComplexAllInnersCompleteExceptOneThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-#             ")
            let csubs =   "       --^------------------------------!             "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^--------------!                       "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^-----------------!             "
            let f = m.cold("                                      --|            ")
            let fsubs =   "       --------------------------------^!             "
            let g = m.cold("                                            ---1-2|  ")
            let gsubs: [String] = []
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|       ")
            let e1subs =   "      ^--------------------------------!             "
            let expected =   "    ---2--3--4--5---1--2--3--2--3--6-#             "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let result = e1.signal.flatMap { observableLookup[$0]!.signal }
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

    @Test("should mergeMap many complex, all inners finite, outer is unsubscribed", arguments: variants) func shouldMergeMapManyComplexAllInnersFiniteOuterIsUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^---------------------------!                "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^--------------!                       "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs =   "       ---------------^--------------!                "
            let f = m.cold("                                      --|            ")
            let fsubs: [String] = []
            let g = m.cold("                                            ---1-2|  ")
            let gsubs: [String] = []
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|")
            let e1subs =   "      ^-----------------------------!                "
            let expected =   "    ---2--3--4--5---1--2--3--2--3--                "
            let unsub =   "       ------------------------------!                "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let source = e1.signal.flatMap { observableLookup[$0]!.signal }
            m.expectSignal(source, unsubscription: unsub).toBe(expected)
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

    @Test("should mergeMap many complex, all inners finite, project throws", arguments: variants) func shouldMergeMapManyComplexAllInnersFiniteProjectThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.cold(" -#                                                  ")
            let asubs: [String] = []
            let b = m.cold("   -#                                                ")
            let bsubs: [String] = []
            let c = m.cold("        -2--3--4--5------------------6-|             ")
            let csubs =   "       --^------------!                               "
            let d = m.cold("              -----------2--3|                       ")
            let dsubs =   "       --------^------!                               "
            let e = m.cold("                     -1--------2--3-----4--5--------|")
            let esubs: [String] = []
            let f = m.cold("                                      --|            ")
            let fsubs: [String] = []
            let g = m.cold("                                            ---1-2|  ")
            let gsubs: [String] = []
            let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|       ")
            let e1subs =   "      ^--------------!                               "
            let expected =   "    ---2--3--4--5--#                               "
            let observableLookup = ["a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g]
            let source = e1.signal.flatMap { value throws -> Signal<String> in
                if value == "e" { throw MarbleError("error") }
                return observableLookup[value]!.signal
            }
            m.expectSignal(source).toBe(expected)
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

    @Test("should mergeMap many outer to an array for each value", arguments: variants) func shouldMergeMapManyOuterToAnArrayForEachValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^-------------------------------!"
            let expected =   "(22)--(4444)---(333)----(22)----|"
            let source = e1.signal.flatMap { value in Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant) }
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to inner arrays, and outer throws", arguments: variants) func shouldMergeMapManyOuterToInnerArraysAndOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------#")
            let e1subs =   "  ^-------------------------------!"
            let expected =   "(22)--(4444)---(333)----(22)----#"
            let source = e1.signal.flatMap { value in Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant) }
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to inner arrays, outer gets unsubscribed", arguments: variants) func shouldMergeMapManyOuterToInnerArraysOuterGetsUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^------------!                   "
            let expected =   "(22)--(4444)--                   "
            let unsub =   "   -------------!                   "
            let source = e1.signal.flatMap { value in Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant) }
            m.expectSignal(source, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should mergeMap many outer to inner arrays, project throws", arguments: variants) func shouldMergeMapManyOuterToInnerArraysProjectThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  2-----4--------3--------2-------|")
            let e1subs =   "  ^--------------!                 "
            let expected =   "(22)--(4444)---#                 "
            let source = e1.signal.flatMap { value throws -> Signal<String> in
                if value == "3" { throw MarbleError("error") }
                return Signal.from(Array(repeating: value, count: Int(value)!), delivery: variant)
            }
            m.expectSignal(source).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should properly handle errors from iterables that are processed after some async", arguments: variants) func shouldProperlyHandleErrorsFromIterablesThatAreProcessedAfterSomeAsync(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let failure = MarbleError("we do not allow x")
            let source = m.cold("-----a------------b-----|", values: ["a": ["o", "o", "o"], "b": ["o", "x", "o"]])
            // The iterable throws at "x": Swift's `Sequence` cannot throw, so the inner signal sends the
            // values before it and then the error.
            let iterable = { @Sendable (values: [String]) -> Signal<String> in
                guard let x = values.firstIndex(of: "x") else { return Signal.from(values, delivery: variant) }
                return Signal.from(values[..<x], delivery: variant).concat(Signal.failing(failure, delivery: variant))
            }
            let result = source.signal.flatMap { values in
                Signal.just(values, delivery: variant).delay(interval: .zero, context: m.context).flatMap(iterable)
            }
            m.expectSignal(result).toBe("-----(ooo)--------(o#)", error: failure)
            m.expectSubscriptions(source.subscriptions).toBe("^-----------------!")
        }
    }
}

#endif
