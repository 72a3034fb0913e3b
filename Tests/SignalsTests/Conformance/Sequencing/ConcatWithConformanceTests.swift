#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/concatWith-spec.ts (packages/rxjs/test/ported/cold/operators/concat-with.spec.ts), ported.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("concat — rxjs spec/operators/concatWith-spec.ts")
struct ConcatWithConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should concatenate two cold observables", arguments: variants) func shouldConcatenateTwoColdObservables(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a--b-|")
                let e2 = m.cold("        --x---y--|")
                let expected =   "--a--b---x---y--|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
            }
        }
    }

    @Test("should complete without emit if both sources are empty", arguments: variants) func shouldCompleteWithoutEmitIfBothSourcesAreEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --|")
                let e1subs =   "  ^-!"
                let e2 = m.cold("   ----|")
                let e2subs =   "  --^---!"
                let expected =   "------|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not complete if first source does not completes", arguments: variants) func shouldNotCompleteIfFirstSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---")
                let e1subs =   "^!"
                let e2 = m.cold("    --|")
                let e2subs: [String] = []
                let expected =   "---"
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: "^!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not complete if second source does not completes", arguments: variants) func shouldNotCompleteIfSecondSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --|")
                let e1subs =   "  ^-!"
                let e2 = m.cold("   ---")
                let e2subs =   "--^!"
                let expected =   "-----"
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: "^--!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not complete if both sources do not complete", arguments: variants) func shouldNotCompleteIfBothSourcesDoNotComplete(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---")
                let e1subs =   "^!"
                let e2 = m.cold("    ---")
                let e2subs: [String] = []
                let expected =   "---"
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: "^!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should raise error when first source is empty, second source raises error", arguments: variants) func shouldRaiseErrorWhenFirstSourceIsEmptySecondSourceRaisesError(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --|")
                let e1subs =   "  ^-!"
                let e2 = m.cold("   ----#")
                let e2subs =   "  --^---!"
                let expected =   "------#"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should raise error when first source raises error, second source is empty", arguments: variants) func shouldRaiseErrorWhenFirstSourceRaisesErrorSecondSourceIsEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---#")
                let e1subs =   "  ^--!"
                let e2 = m.cold("    ----|")
                let expected =   "---#"
                let e2subs: [String] = []
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should raise first error when both source raise error", arguments: variants) func shouldRaiseFirstErrorWhenBothSourceRaiseError(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---#")
                let e1subs =   "  ^--!"
                let e2 = m.cold("    ------#")
                let expected =   "---#"
                let e2subs: [String] = []
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should concat if first source emits once, second source is empty", arguments: variants) func shouldConcatIfFirstSourceEmitsOnceSecondSourceIsEmpty(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a--|")
                let e1subs =   "  ^----!"
                let e2 = m.cold("      --------|")
                let e2subs =   "  -----^-------!"
                let expected =   "--a----------|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should concat if first source is empty, second source emits once", arguments: variants) func shouldConcatIfFirstSourceIsEmptySecondSourceEmitsOnce(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --|")
                let e1subs =   "  ^-!"
                let e2 = m.cold("   --a--|")
                let e2subs =   "  --^----!"
                let expected =   "----a--|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit element from first source, and should not complete if second source does not completes", arguments: variants) func shouldEmitElementFromFirstSourceAndShouldNotCompleteIfSecondSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a--|")
                let e1subs =   "  ^----!"
                let e2 = m.cold("      ---")
                let e2subs =   "-----^!"
                let expected =   "--a-----"
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: "^-----!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not complete if first source does not complete", arguments: variants) func shouldNotCompleteIfFirstSourceDoesNotComplete(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---")
                let e1subs =   "^!"
                let e2 = m.cold("    --a--|")
                let e2subs: [String] = []
                let expected =   "---"
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: "^!").toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit elements from each source when source emit once", arguments: variants) func shouldEmitElementsFromEachSourceWhenSourceEmitOnce(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a|")
                let e1subs =   "  ^---!"
                let e2 = m.cold("     -----b--|")
                let e2subs =   "  ----^-------!"
                let expected =   "---a-----b--|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should unsubscribe to inner source if outer is unsubscribed early", arguments: variants) func shouldUnsubscribeToInnerSourceIfOuterIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold("  ---a-a--a|            ")
                let e1subs =   "   ^--------!            "
                let e2 = m.cold("           -----b-b--b-|")
                let e2subs =   "   ---------^-------!"
                let unsub =   "    -----------------!  "
                let expected =   " ---a-a--a-----b-b     "
                m.expectSignal(e1.signal.concat(e2.signal), unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" ---a-a--a|            ")
                let e1subs =   "  ^--------!            "
                let e2 = m.cold("          -----b-b--b-|")
                let e2subs =   "  ---------^--------!    "
                let expected =   "---a-a--a-----b-b-    "
                let unsub =   "   ------------------!    "
                let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                    .concat(e2.signal)
                    .flatMap { Signal.just($0, delivery: variant) }
                m.expectSignal(result, unsubscription: unsub).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should raise error from first source and does not emit from second source", arguments: variants) func shouldRaiseErrorFromFirstSourceAndDoesNotEmitFromSecondSource(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --#")
                let e1subs =   "  ^-!"
                let e2 = m.cold("   ----a--|")
                let e2subs: [String] = []
                let expected =   "--#"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit element from first source then raise error from second source", arguments: variants) func shouldEmitElementFromFirstSourceThenRaiseErrorFromSecondSource(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.cold(" --a--|")
                let e1subs =   "  ^----!"
                let e2 = m.cold("      -------#")
                let e2subs =   "  -----^------!"
                let expected =   "--a---------#"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit all elements from both hot observable sources if first source completes before second source starts emit", arguments: variants) func shouldEmitAllElementsFromBothHotObservableSourcesIfFirstSourceCompletesBeforeSecondSourceStartsEmit(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--b-|")
                let e1subs =   "  ^------!"
                let e2 = m.hot("  --------x--y--|")
                let e2subs =   "  -------^------!"
                let expected =   "--a--b--x--y--|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit elements from second source regardless of completion time when second source is cold observable", arguments: variants) func shouldEmitElementsFromSecondSourceRegardlessOfCompletionTimeWhenSecondSourceIsColdObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--b--c---|")
                let e1subs =   "  ^-----------!"
                let e2 = m.cold("           -x-y-z-|")
                let e2subs =   "  ------------^------!"
                let expected =   "--a--b--c----x-y-z-|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should not emit collapsing element from second source", arguments: variants) func shouldNotEmitCollapsingElementFromSecondSource(_ variant: DeliveryVariant) {
        withKnownDifference(.concatConnectsEagerly, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let e1 = m.hot("  --a--b--c--|")
                let e1subs =   "  ^----------!"
                let e2 = m.hot("  --------x--y--z--|")
                let e2subs =   "  -----------^-----!"
                let expected =   "--a--b--c--y--z--|"
                m.expectSignal(e1.signal.concat(e2.signal)).toBe(expected)
                m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
                m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            }
        }
    }

    @Test("should emit self without parameters", arguments: variants) func shouldEmitSelfWithoutParameters(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" ---a-|")
            let e1subs =   "  ^----!"
            let expected =   "---a-|"
            m.expectSignal(e1.signal.concat()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
