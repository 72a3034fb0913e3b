#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/mergeAll-spec.ts (packages/rxjs/test/ported/cold/operators/merge-all.spec.ts), ported.
//
// `mergeAll()` is the flattening form `flatMap { $0 }` on a signal of signals (docs/operators.md,
// CwlSignal's `flatten()`); RxJS's spec writes it `mergeMap((value) => value, { concurrent })`,
// so `{ concurrent: n }` is `flatMap(maxConcurrent: n) { $0 }`. A hot or cold of observables
// sends cold marbles here, each turned into a new signal as it arrives (`map { $0.signal }`).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("flatMap { $0 } (mergeAll) — rxjs spec/operators/mergeAll-spec.ts")
struct MergeAllConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should merge a hot observable of cold observables", arguments: variants) func shouldMergeAHotObservableOfColdObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    --a---b--c---d--|      ")
            let xsubs =   "   --^---------------!      "
            let y = m.cold("           ----e---f--g---|")
            let ysubs =   "   ---------^--------------!"
            let e1 = m.hot("  --x------y-------|       ", values: ["x": x, "y": y])
            let e1subs =   "  ^----------------!       "
            let expected =   "----a---b--c-e-d-f--g---|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge all observables in an observable", arguments: variants) func shouldMergeAllObservablesInAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.from([
                Signal.just("a", delivery: variant),
                Signal.just("b", delivery: variant),
                Signal.just("c", delivery: variant),
            ], delivery: variant)
            let expected =   "(abc|)"
            m.expectSignal(e1.flatMap { $0 }).toBe(expected)
        }
    }

    @Test("should throw if any child observable throws", arguments: variants) func shouldThrowIfAnyChildObservableThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.from([
                Signal.just("a", delivery: variant),
                Signal<String>.failing(MarbleError("error"), delivery: variant),
                Signal.just("c", delivery: variant),
            ], delivery: variant)
            let expected =   "(a#)"
            m.expectSignal(e1.flatMap { $0 }).toBe(expected)
        }
    }

    @Test("should handle merging a hot observable of observables", arguments: variants) func shouldHandleMergingAHotObservableOfObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a---b---c---|   ")
            let xsubs =   "   --^-----------!   "
            let y = m.cold("       d---e---f---|")
            let ysubs =   "   -----^-----------!"
            let e1 = m.hot("  --x--y--|         ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!         "
            let expected =   "--a--db--ec--f---|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge one cold Observable at a time with parameter concurrency=1", arguments: variants) func shouldMergeOneColdObservableAtATimeWithParameterConcurrency1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a---b---c---|            ")
            let xsubs =   "   --^-----------!            "
            let y = m.cold("                d---e---f---|")
            let ysubs =   "   --------------^-----------!"
            let e1 = m.hot("  --x--y--|                  ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!                  "
            let expected =   "--a---b---c---d---e---f---|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap(maxConcurrent: 1) { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge two cold Observables at a time with parameter concurrency=2", arguments: variants) func shouldMergeTwoColdObservablesAtATimeWithParameterConcurrency2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a---b---c---|        ")
            let xsubs =   "   --^-----------!        "
            let y = m.cold("       d---e---f---|     ")
            let ysubs =   "   -----^-----------!     "
            let z = m.cold("                --g---h-|")
            let zsubs =   "   --------------^-------!"
            let e1 = m.hot("  --x--y--z--|           ", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^----------!           "
            let expected =   "--a--db--ec--f--g---h-|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap(maxConcurrent: 2) { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge one hot Observable at a time with parameter concurrency=1", arguments: variants) func shouldMergeOneHotObservableAtATimeWithParameterConcurrency1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   ---a---b---c---|          ")
            let xsubs =   "   --^------------!          "
            let y = m.hot("   -------------d---e---f---|")
            let ysubs =   "   ---------------^---------!"
            let e1 = m.hot("  --x--y--|                 ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!                 "
            let expected =   "---a---b---c-----e---f---|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap(maxConcurrent: 1) { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge two hot Observables at a time with parameter concurrency=2", arguments: variants) func shouldMergeTwoHotObservablesAtATimeWithParameterConcurrency2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.hot("   i--a---b---c---|        ")
            let xsubs =   "   --^------------!        "
            let y = m.hot("   -i-i--d---e---f---|     ")
            let ysubs =   "   -----^------------!     "
            let z = m.hot("   --i--i--i--i-----g---h-|")
            let zsubs =   "   ---------------^-------!"
            let e1 = m.hot("  --x--y--z--|            ", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^----------!            "
            let expected =   "---a--db--ec--f--g---h-|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap(maxConcurrent: 2) { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle merging a hot observable of observables, outer unsubscribed early", arguments: variants) func shouldHandleMergingAHotObservableOfObservablesOuterUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a---b---c---|   ")
            let xsubs =   "   --^---------!     "
            let y = m.cold("       d---e---f---|")
            let ysubs =   "   -----^------!     "
            let e1 = m.hot("  --x--y--|         ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!         "
            let expected =   "--a--db--ec--     "
            let unsub =   "   ------------!     "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a---b---c---|   ")
            let xsubs =   "   --^---------!     "
            let y = m.cold("       d---e---f---|")
            let ysubs =   "   -----^------!     "
            let e1 = m.hot("  --x--y--|         ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!         "
            let expected =   "--a--db--ec--     "
            let unsub =   "   ------------!     "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .map { $0.signal }.flatMap { $0 }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge parallel emissions", arguments: variants) func shouldMergeParallelEmissions(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    ----a----b----c---|")
            let xsubs =   "   --^-----------------!"
            let y = m.cold("       -d----e----f---|")
            let ysubs =   "   -----^--------------!"
            let e1 = m.hot("  --x--y--|            ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!            "
            let expected =   "------(ad)-(be)-(cf)|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge empty and empty", arguments: variants) func shouldMergeEmptyAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    |      ")
            let xsubs =   "   --(^!)   "
            let y = m.cold("       |   ")
            let ysubs =   "   -----(^!)"
            let e1 = m.hot("  --x--y--|", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!"
            let expected =   "--------|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge three empties", arguments: variants) func shouldMergeThreeEmpties(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    |         ")
            let xsubs =   "   --(^!)      "
            let y = m.cold("       |      ")
            let ysubs =   "   -----(^!)   "
            let z = m.cold("         |    ")
            let zsubs =   "   -------(^!) "
            let e1 = m.hot("  --x--y-z---|", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^----------!"
            let expected =   "-----------|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge never and empty", arguments: variants) func shouldMergeNeverAndEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    -      ")
            let xsubs =   "--^------!"
            let y = m.cold("       |   ")
            let ysubs =   "   -----(^!)"
            let e1 = m.hot("  --x--y--|", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!"
            let expected =   "---------"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }, unsubscription: "^--------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge never and never", arguments: variants) func shouldMergeNeverAndNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    -      ")
            let xsubs =   "--^------!"
            let y = m.cold("       -   ")
            let ysubs =   "-----^---!"
            let e1 = m.hot("  --x--y--|", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!"
            let expected =   "---------"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }, unsubscription: "^--------!").toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge empty and throw", arguments: variants) func shouldMergeEmptyAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    |      ")
            let xsubs =   "   --(^!)   "
            let y = m.cold("       #   ")
            let ysubs =   "   -----(^!)"
            let e1 = m.hot("  --x--y--|", values: ["x": x, "y": y])
            let e1subs =   "  ^----!   "
            let expected =   "-----#   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge never and throw", arguments: variants) func shouldMergeNeverAndThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    -      ")
            let xsubs =   "   --^--!   "
            let y = m.cold("       #   ")
            let ysubs =   "   -----(^!)"
            let e1 = m.hot("  --x--y--|", values: ["x": x, "y": y])
            let e1subs =   "  ^----!   "
            let expected =   "-----#   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge empty and eventual error", arguments: variants) func shouldMergeEmptyAndEventualError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    |         ")
            let xsubs =   "   --(^!)      "
            let y = m.cold("       ------#")
            let ysubs =   "   -----^-----!"
            let e1 = m.hot("  --x--y--|   ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!   "
            let expected =   "-----------#"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should merge never and eventual error", arguments: variants) func shouldMergeNeverAndEventualError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    -         ")
            let xsubs =   "   --^--------!"
            let y = m.cold("       ------#")
            let ysubs =   "   -----^-----!"
            let e1 = m.hot("  --x--y--|   ", values: ["x": x, "y": y])
            let e1subs =   "  ^-------!   "
            let expected =   "-----------#"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take an empty source and return empty too", arguments: variants) func shouldTakeAnEmptySourceAndReturnEmptyToo(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  (^!)"
            let expected =   "|   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take a never source and return never too", arguments: variants) func shouldTakeANeverSourceAndReturnNeverToo(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -", values: [Character: ColdMarbles<String>]())
            let e1subs =   "^!"
            let expected =   "-"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take a throw source and return throw too", arguments: variants) func shouldTakeAThrowSourceAndReturnThrowToo(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ", values: [Character: ColdMarbles<String>]())
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle merging a hot observable of non-overlapped observables", arguments: variants) func shouldHandleMergingAHotObservableOfNonOverlappedObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a-b---------|                 ")
            let xsubs =   "   --^-----------!                 "
            let y = m.cold("              c-d-e-f-|           ")
            let ysubs =   "   ------------^-------!           "
            let z = m.cold("                       g-h-i-j-k-|")
            let zsubs =   "   ---------------------^---------!"
            let e1 = m.hot("  --x---------y--------z--------| ", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^-----------------------------! "
            let expected =   "--a-b-------c-d-e-f--g-h-i-j-k-|"
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if inner observable raises error", arguments: variants) func shouldRaiseErrorIfInnerObservableRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a-b---------|                 ")
            let xsubs =   "   --^-----------!                 "
            let y = m.cold("              c-d-e-f-#           ")
            let ysubs =   "   ------------^-------!           "
            let z = m.cold("                       g-h-i-j-k-|")
            let zsubs: [String] = []
            let e1 = m.hot("  --x---------y--------z--------| ", values: ["x": x, "y": y, "z": z])
            let e1subs =   "  ^-------------------!           "
            let expected =   "--a-b-------c-d-e-f-#           "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(z.subscriptions).toBe(zsubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if outer observable raises error", arguments: variants) func shouldRaiseErrorIfOuterObservableRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    a-b---------|      ")
            let xsubs =   "   --^-----------!      "
            let y = m.cold("              c-d-e-f-|")
            let ysubs =   "   ------------^---!    "
            let e1 = m.hot("  --x---------y---#    ", values: ["x": x, "y": y])
            let e1subs =   "  ^---------------!    "
            let expected =   "--a-b-------c-d-#    "
            m.expectSignal(e1.signal.map { $0.signal }.flatMap { $0 }).toBe(expected)
            m.expectSubscriptions(x.subscriptions).toBe(xsubs)
            m.expectSubscriptions(y.subscriptions).toBe(ysubs)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
