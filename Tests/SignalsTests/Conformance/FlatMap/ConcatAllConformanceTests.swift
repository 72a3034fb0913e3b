#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/concatAll-spec.ts (packages/rxjs/test/ported/cold/operators/concat-all.spec.ts), ported.
//
// `concatAll()` is the flattening form `concatMap { $0 }` on a signal of signals; RxJS's spec
// writes it `mergeMap((value) => value, { concurrent: 1 })`. A hot or cold of observables sends
// cold marbles here, each turned into a new signal as it arrives (`map { $0.signal }`);
// `ColdObservable.from([e1, e2])` is `Signal.from([e1.signal, e2.signal], delivery:)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("concatMap { $0 } (concatAll) — rxjs spec/operators/concatAll-spec.ts")
struct ConcatAllConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should concat an observable of observables", arguments: variants) func shouldConcatAnObservableOfObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("    ----a------b------|                 ")
            let y = m.cold("                      ---c-d---|        ")
            let z = m.cold("                               ---e--f-|")
            let outer = m.hot("-x---y----z------|", values: ["x": x, "y": y, "z": z])
            let expected =   " -----a------b---------c-d------e--f-|"
            let result = outer.signal.map { $0.signal }.concatMap { $0 }
            m.expectSignal(result).toBe(expected)
        }
    }

    @Test("should concat all observables in an observable", arguments: variants) func shouldConcatAllObservablesInAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.from([
                Signal.just("a", delivery: variant),
                Signal.just("b", delivery: variant),
                Signal.just("c", delivery: variant),
            ], delivery: variant).take(10)
            let expected =   "(abc|)"
            m.expectSignal(e1.concatMap { $0 }).toBe(expected)
        }
    }

    @Test("should throw if any child observable throws", arguments: variants) func shouldThrowIfAnyChildObservableThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = Signal.from([
                Signal.just("a", delivery: variant),
                Signal<String>.failing(MarbleError("error"), delivery: variant),
                Signal.just("c", delivery: variant),
            ], delivery: variant).take(10)
            let expected =   "(a#)"
            m.expectSignal(e1.concatMap { $0 }).toBe(expected)
        }
    }

    @Test("should concat merging a hot observable of non-overlapped observables", arguments: variants) func shouldConcatMergingAHotObservableOfNonOverlappedObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("       a-b---------|")
            let y = m.cold("                 c-d-e-f-|")
            let z = m.cold("                          g-h-i-j-k-|")
            let values: [Character: _] = ["x": x, "y": y, "z": z]
            let e1 = m.hot("  --x---------y--------z--------|", values: values)
            let expected =   "--a-b---------c-d-e-f-g-h-i-j-k-|"
            m.expectSignal(e1.signal.map { $0.signal }.concatMap { $0 }).toBe(expected)
        }
    }

    @Test("should raise error if inner observable raises error", arguments: variants) func shouldRaiseErrorIfInnerObservableRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let x = m.cold("       a-b---------|")
            let y = m.cold("                 c-d-e-f-#")
            let z = m.cold("                         g-h-i-j-k-|")
            let values: [Character: _] = ["x": x, "y": y, "z": z]
            let e1 = m.hot("  --x---------y--------z--------|", values: values)
            let expected =   "--a-b---------c-d-e-f-#"
            m.expectSignal(e1.signal.map { $0.signal }.concatMap { $0 }).toBe(expected)
        }
    }

    @Test("should raise error if outer observable raises error", arguments: variants) func shouldRaiseErrorIfOuterObservableRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let y = m.cold("       a-b---------|")
            let z = m.cold("                 c-d-e-f-|")
            let values: [Character: _] = ["y": y, "z": z]
            let e1 = m.hot("  --y---------z---#    ", values: values)
            let expected =   "--a-b---------c-#"
            m.expectSignal(e1.signal.map { $0.signal }.concatMap { $0 }).toBe(expected)
        }
    }

    @Test("should complete without emit if both sources are empty", arguments: variants) func shouldCompleteWithoutEmitIfBothSourcesAreEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --|")
            let e1subs =   "   ^-!"
            let e2 = m.cold("    ----|")
            let e2subs =   "   --^---!"
            let expected =   " ------|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete if first source does not completes", arguments: variants) func shouldNotCompleteIfFirstSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  -")
            let e1subs =   "^!"
            let e2 = m.cold("  --|")
            let e2subs: [String] = []
            let expected =   " -"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete if second source does not completes", arguments: variants) func shouldNotCompleteIfSecondSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --|")
            let e1subs =   "   ^-!"
            let e2 = m.cold("  ---")
            let e2subs =   "--^!"
            let expected =   " ---"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: "^--!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete if both sources do not complete", arguments: variants) func shouldNotCompleteIfBothSourcesDoNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  -")
            let e1subs =   "^!"
            let e2 = m.cold("  -")
            let e2subs: [String] = []
            let expected =   " -"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error when first source is empty, second source raises error", arguments: variants) func shouldRaiseErrorWhenFirstSourceIsEmptySecondSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --|")
            let e1subs =   "   ^-!"
            let e2 = m.cold("    ----#")
            let e2subs =   "   --^---!"
            let expected =   " ------#"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error when first source raises error, second source is empty", arguments: variants) func shouldRaiseErrorWhenFirstSourceRaisesErrorSecondSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---#")
            let e1subs =   "   ^--!"
            let e2 = m.cold("  ----|")
            let e2subs: [String] = []
            let expected =   " ---#"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise first error when both source raise error", arguments: variants) func shouldRaiseFirstErrorWhenBothSourceRaiseError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---#")
            let e1subs =   "   ^--!"
            let e2 = m.cold("  ------#")
            let e2subs: [String] = []
            let expected =   " ---#"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should concat if first source emits once, second source is empty", arguments: variants) func shouldConcatIfFirstSourceEmitsOnceSecondSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --a--|")
            let e1subs =   "   ^----!"
            let e2 = m.cold("       --------|")
            let e2subs =   "   -----^-------!"
            let expected =   " --a----------|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should concat if first source is empty, second source emits once", arguments: variants) func shouldConcatIfFirstSourceIsEmptySecondSourceEmitsOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --|")
            let e1subs =   "   ^-!"
            let e2 = m.cold("    --a--|")
            let e2subs =   "   --^----!"
            let expected =   " ----a--|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit element from first source, and should not complete if second source does not completes", arguments: variants) func shouldEmitElementFromFirstSourceAndShouldNotCompleteIfSecondSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --a--|")
            let e1subs =   "   ^----!"
            let e2 = m.cold("       -")
            let e2subs =   "-----^!"
            let expected =   " --a---"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not complete if first source does not complete", arguments: variants) func shouldNotCompleteIfFirstSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  -")
            let e1subs =   "^!"
            let e2 = m.cold("  --a--|")
            let e2subs: [String] = []
            let expected =   " -"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit elements from each source when source emit once", arguments: variants) func shouldEmitElementsFromEachSourceWhenSourceEmitOnce(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---a|")
            let e1subs =   "   ^---!"
            let e2 = m.cold("      -----b--|")
            let e2subs =   "   ----^-------!"
            let expected =   " ---a-----b--|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should unsubscribe to inner source if outer is unsubscribed early", arguments: variants) func shouldUnsubscribeToInnerSourceIfOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---a-a--a|            ")
            let e1subs =   "   ^--------!            "
            let e2 = m.cold("           -----b-b--b-|")
            let e2subs =   "   ---------^-------!    "
            let unsub =   "    -----------------!    "
            let expected =   " ---a-a--a-----b-b     "
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---a-a--a|            ")
            let e1subs =   "   ^--------!            "
            let e2 = m.cold("           -----b-b--b-|")
            let e2subs =   "   ---------^-------!    "
            let expected =   " ---a-a--a-----b-b-    "
            let unsub =   "    -----------------!    "
            let result = Signal.from([e1.signal, e2.signal], delivery: variant)
                .flatMap { Signal.just($0, delivery: variant) }
                .concatMap { $0 }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error from first source and does not emit from second source", arguments: variants) func shouldRaiseErrorFromFirstSourceAndDoesNotEmitFromSecondSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --#")
            let e1subs =   "   ^-!"
            let e2 = m.cold("  ----a--|")
            let e2subs: [String] = []
            let expected =   " --#"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit element from first source then raise error from second source", arguments: variants) func shouldEmitElementFromFirstSourceThenRaiseErrorFromSecondSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  --a--|")
            let e1subs =   "   ^----!"
            let e2 = m.cold("       -------#")
            let e2subs =   "   -----^------!"
            let expected =   " --a---------#"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit all elements from both hot observable sources if first source completes before second source starts emit", arguments: variants) func shouldEmitAllElementsFromBothHotObservableSourcesIfFirstSourceCompletesBeforeSecondSourceStartsEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b-|")
            let e1subs =   "  ^------!"
            let e2 = m.hot("  --------x--y--|")
            let e2subs =   "  -------^------!"
            let expected =   "--a--b--x--y--|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit elements from second source regardless of completion time when second source is cold observable", arguments: variants) func shouldEmitElementsFromSecondSourceRegardlessOfCompletionTimeWhenSecondSourceIsColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c---|")
            let e1subs =   "  ^-----------!"
            let e2 = m.cold(" -x-y-z-|")
            let e2subs =   "  ------------^------!"
            let expected =   "--a--b--c----x-y-z-|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not emit collapsing element from second source", arguments: variants) func shouldNotEmitCollapsingElementFromSecondSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^----------!"
            let e2 = m.hot("  --------x--y--z--|")
            let e2subs =   "  -----------^-----!"
            let expected =   "--a--b--c--y--z--|"
            let result = Signal.from([e1.signal, e2.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should be able to work on a different scheduler", arguments: variants) func shouldBeAbleToWorkOnADifferentScheduler(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let first = m.cold("---a|")
            let second = m.cold("---b--|")
            let third = m.cold("---c--|")
            // Sent from a job on the clock at frame 0, then completed (RxJS schedules the loop).
            let outer = Signal.from([first.signal, second.signal, third.signal], context: m.context, delivery: variant)
            // The local outer source retains the legacy scheduler's frame-zero handoff;
            // exact concatAll flattening retains ordering and inner subscription timing.
            let result = outer.concatMap { $0 }
            m.expectSignal(result).toBe("---a---b-----c--|")
            m.expectSubscriptions(first.subscriptions).toBe("^---!")
            m.expectSubscriptions(second.subscriptions).toBe("----^-----!")
            m.expectSubscriptions(third.subscriptions).toBe("----------^-----!")
        }
    }

    @Test("should concatAll a nested observable with a single inner observable", arguments: variants) func shouldConcatAllANestedObservableWithASingleInnerObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("  ---a-|")
            let e1subs =   "   ^----!"
            let expected =   " ---a-|"
            let result = Signal.from([e1.signal], delivery: variant).concatMap { $0 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should concatAll a nested observable with a single inner observable, and a scheduler", arguments: variants) func shouldConcatAllANestedObservableWithASingleInnerObservableAndAScheduler(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let first = m.cold("---a-|")
            // Sent from a job on the clock at frame 0, then completed (RxJS schedules the loop).
            let outer = Signal.from([first.signal], context: m.context, delivery: variant)
            // The local outer source retains the legacy scheduler's frame-zero handoff;
            // exact concatAll flattening retains ordering and inner subscription timing.
            let result = outer.concatMap { $0 }
            m.expectSignal(result).toBe("---a-|")
            m.expectSubscriptions(first.subscriptions).toBe("^----!")
        }
    }
}

#endif
