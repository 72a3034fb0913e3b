#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/shareReplay-spec.ts (packages/rxjs/test/ported/cold/operators/share-replay.spec.ts), ported.
//
// Connectables map onto `SignalMulti` (docs/operators.md, "Conformance"): `shareReplay()` is
// `playback()`, `shareReplay(n)` (and `{ bufferSize: n, refCount: false }`, the default) a
// `buffer(initials:updater:)` keeping the last n values (`playback(last: n)`, in
// ConnectableConformance.swift), both eager (connected when made, kept while held);
// `shareReplay({ bufferSize: 1, refCount: true })` is `continuousWhileActive()`, the lazy multi
// that replays the latest value and starts afresh on each activation. A hot diagram's
// `mergeMap(() => shared)` is `flatMap { _ in shared }`; `retry({ count: 1 })` on the multi is
// `Signal<String>.retry(count: 1) { shared }` (each attempt a new branch).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("playback(), continuousWhileActive() — rxjs spec/operators/shareReplay-spec.ts")
struct ShareReplayConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should mirror a simple source Observable", arguments: variants) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2---3-4--5-|")
            let sourceSubs = "   ^--------------!"
            let expected = "     --1-2---3-4--5-|"
            let published = source.signal.playback()
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast the same values to multiple observers, bufferSize=1", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversBufferSize1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|")
            let sourceSubs = "       ^-----------!"
            let subscriber1 = m.hot("a|           ")
            let expected1 = "        -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ")
            let expected2 = "        ----23----4-|"
            let subscriber3 = m.hot("--------c|   ")
            let expected3 = "        --------3-4-|"
            let shared = source.signal.playback(last: 1)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast the same values to multiple observers, bufferSize=2", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversBufferSize2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-----3------4-|")
            let sourceSubs = "       ^-----------------!"
            let subscriber1 = m.hot("a|                 ")
            let expected1 = "        -1-2-----3------4-|"
            let subscriber2 = m.hot("----b|             ")
            let expected2 = "        ----(12)-3------4-|"
            let subscriber3 = m.hot("-----------c|      ")
            let expected3 = "        -----------(23)-4-|"
            let shared = source.signal.playback(last: 2)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an error from the source to multiple observers", arguments: variants) func shouldMulticastAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let subscriber1 = m.hot("a|           ")
            let expected1 = "        -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ")
            let expected2 = "        ----23----4-#"
            let subscriber3 = m.hot("--------c|   ")
            let expected3 = "        --------3-4-#"
            let shared = source.signal.playback(last: 1)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an empty source", arguments: variants) func shouldMulticastAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|   ")
            let sourceSubs = "   (^!)"
            let expected = "     |   "
            let shared = source.signal.playback(last: 1)
            m.expectSignal(shared).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast a never source", arguments: variants) func shouldMulticastANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-")
            let sourceSubs = "   ^"
            let expected = "     -"
            let shared = source.signal.playback(last: 1)
            m.hold(shared)
            m.expectSignal(shared, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast a throw source", arguments: variants) func shouldMulticastAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let sourceSubs = "   (^!)"
            let expected = "     #   "
            let shared = source.signal.playback(last: 1)
            m.expectSignal(shared).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should replay results to subsequent subscriptions if source completes, bufferSize=2", arguments: variants) func shouldReplayResultsToSubsequentSubscriptionsIfSourceCompletesBufferSize2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-----3-|        ")
            let sourceSubs = "       ^----------!        "
            let subscriber1 = m.hot("a|                  ")
            let expected1 = "        -1-2-----3-|        "
            let subscriber2 = m.hot("----b|              ")
            let expected2 = "        ----(12)-3-|        "
            let subscriber3 = m.hot("---------------(c|) ")
            let expected3 = "        ---------------(23|)"
            let shared = source.signal.playback(last: 2)
            m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
            m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
            m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should completely restart for subsequent subscriptions if source errors, bufferSize=2", arguments: variants) func shouldCompletelyRestartForSubsequentSubscriptionsIfSourceErrorsBufferSize2(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("    -1-2-----3-#               ")
                let sourceSubs1 = "      ^----------!               "
                let subscriber1 = m.hot("a|                         ")
                let expected1 = "        -1-2-----3-#               "
                let subscriber2 = m.hot("----b|                     ")
                let expected2 = "        ----(12)-3-#               "
                let subscriber3 = m.hot("---------------(c|)        ")
                let expected3 = "        ----------------1-2-----3-#"
                let sourceSubs2 = "      ---------------^----------!"
                let shared = source.signal.playback(last: 2)
                m.expectSignal(subscriber1.signal.flatMap { _ in shared }).toBe(expected1)
                m.expectSignal(subscriber2.signal.flatMap { _ in shared }).toBe(expected2)
                m.expectSignal(subscriber3.signal.flatMap { _ in shared }).toBe(expected3)
                m.expectSubscriptions(source.subscriptions).toBe([sourceSubs1, sourceSubs2])
            }
        }
    }

    @Test("should be retryable, bufferSize=2", arguments: variants) func shouldBeRetryableBufferSize2(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                var subs: [String] = []
                let source = m.cold("    -1-2-----3-#                      ")
                subs.append("            ^----------!                      ")
                subs.append("            -----------^----------!           ")
                subs.append("            ----------------------^----------!")
                let subscriber1 = m.hot("a|                                ")
                let expected1 = "        -1-2-----3--1-2-----3-#           "
                let subscriber2 = m.hot("----b|                            ")
                let expected2 = "        ----(12)-3--1-2-----3-#           "
                let subscriber3 = m.hot("---------------(c|)               ")
                let expected3 = "        ---------------(12)-3--1-2-----3-#"
                let multi = source.signal.playback(last: 2)
                let shared: @Sendable () -> Signal<String> = { Signal<String>.retry(count: 1) { multi } }
                m.expectSignal(subscriber1.signal.flatMap { _ in shared() }).toBe(expected1)
                m.expectSignal(subscriber2.signal.flatMap { _ in shared() }).toBe(expected2)
                m.expectSignal(subscriber3.signal.flatMap { _ in shared() }).toBe(expected3)
                m.expectSubscriptions(source.subscriptions).toBe(subs)
            }
        }
    }

    @Test("should not restart due to unsubscriptions if refCount is false", arguments: variants) func shouldNotRestartDueToUnsubscriptionsIfRefCountIsFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("a-b-c-d-e-f-g-h-i-j")
            let sourceSubs = "   ^------------------"
            let sub1 = "         ^------!           "
            let expected1 = "    a-b-c-d-           "
            let sub2 = "-----------^-------!"
            let expected2 = "    -----------fg-h-i-j"
            let shared = source.signal.playback(last: 1)
            m.hold(shared)
            m.expectSignal(shared, unsubscription: sub1).toBe(expected1)
            m.expectSignal(shared, unsubscription: sub2).toBe(expected2)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should restart due to unsubscriptions if refCount is true", arguments: variants) func shouldRestartDueToUnsubscriptionsIfRefCountIsTrue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("a-b-c-d-e-f-g-h-i-j")
            let shared = source.signal.continuousWhileActive()
            m.expectSignal(shared, unsubscription: "^------!").toBe("a-b-c-d-")
            m.expectSignal(shared, unsubscription: "-----------^------------------!").toBe("-----------a-b-c-d-e-f-g-h-i-j")
            m.expectSubscriptions(source.subscriptions).toBe(["^------!", "-----------^------------------!"])
        }
    }

    @Test("should not restart due to unsubscriptions if refCount is true when the source has completed", arguments: variants) func shouldNotRestartDueToUnsubscriptionsIfRefCountIsTrueWhenTheSourceHasCompleted(_ variant: DeliveryVariant) {
        withKnownDifference(.continuousWhileActiveRestarts, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("a-(b|)         ")
                let sourceSubs = "   ^-!            "
                let sub1 = "         ^------!       "
                let expected1 = "    a-(b|)         "
                let sub2 = "         -----------^!  "
                let expected2 = "    -----------(b|)"
                let shared = source.signal.continuousWhileActive()
                m.expectSignal(shared, unsubscription: sub1).toBe(expected1)
                m.expectSignal(shared, unsubscription: sub2).toBe(expected2)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should default to refCount being false", arguments: variants) func shouldDefaultToRefCountBeingFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("a-b-c-d-e-f-g-h-i-j")
            let sourceSubs = "   ^------------------"
            let sub1 = "         ^------!           "
            let expected1 = "    a-b-c-d-           "
            let sub2 = "-----------^-------!"
            let expected2 = "    -----------fg-h-i-j"
            let shared = source.signal.playback(last: 1)
            m.hold(shared)
            m.expectSignal(shared, unsubscription: sub1).toBe(expected1)
            m.expectSignal(shared, unsubscription: sub2).toBe(expected2)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should not skip values on a sync source", arguments: variants) func shouldNotSkipValuesOnASyncSource(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = Signal<String>.from(["a", "b", "c", "d"], delivery: variant)
                let x = m.cold("  x-------x")
                let expected = "  (abcd)--d"
                let shared = a.playback(last: 1)
                let result = x.signal.flatMap { _ in shared }
                m.expectSignal(result, unsubscription: "^--------!").toBe(expected)
            }
        }
    }

    @Test("should be referentially-transparent", arguments: variants) func shouldBeReferentiallyTransparent(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source1 = m.cold("-1-2-3-4-5-|")
            let source1Subs = "   ^----------!"
            let expected1 = "     -1-2-3-4-5-|"
            let source2 = m.cold("-6-7-8-9-0-|")
            let source2Subs = "   ^----------!"
            let expected2 = "     -6-7-8-9-0-|"
            let partialPipeLine = { (s: Signal<String>) in s.playback() }
            let shared1 = partialPipeLine(source1.signal)
            let shared2 = partialPipeLine(source2.signal)
            m.expectSignal(shared1).toBe(expected1)
            m.expectSubscriptions(source1.subscriptions).toBe(source1Subs)
            m.expectSignal(shared2).toBe(expected2)
            m.expectSubscriptions(source2.subscriptions).toBe(source2Subs)
        }
    }
}

#endif
