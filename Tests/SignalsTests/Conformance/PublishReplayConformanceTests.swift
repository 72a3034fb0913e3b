#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/publishReplay-spec.ts (packages/rxjs/test/ported/cold/operators/publish-replay.spec.ts), ported.
//
// Connectables map onto `SignalMulti` (docs/operators.md, "Conformance"): `publishReplay()` is
// `playback()`, `publishReplay(n)` a `buffer(initials:updater:)` keeping the last n values
// (`playback(last: n)`, in ConnectableConformance.swift), with or without `refCount()`. Both
// are eager: they connect their source when made (RxJS's `connect()` at frame 0, which is what
// the spec does) and stay connected while held, so `published.connect()` (a silent branch,
// `m.connect`) adds nothing and cancelling it disconnects nothing. `publishReplay(n, Infinity,
// selector)` is a multi made per subscription (`Signal.deferred`) and given to the selector,
// as RxJS makes a ReplaySubject per subscription; a throwing selector uses the throwing
// `Signal.deferred`. A hot diagram's `mergeMap(() => published)` is `flatMap { _ in published }`;
// `retry({ count: 3 })` on the multi is `Signal<String>.retry(count: 3) { published }` (each attempt a
// new branch), and `repeat({ count: 3 })` is `Signal<String>.repeat(count: 3) { published }` (each run
// a new branch).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("playback() — rxjs spec/operators/publishReplay-spec.ts")
struct PublishReplayConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// `publishReplay(1, Infinity, selector)`: a multi per subscription, given to `selector`.
    static func published<U: Sendable>(_ source: Signal<String>, _ selector: @escaping @Sendable (SignalMulti<String>) throws -> Signal<U>) -> Signal<U> {
        Signal<U>.deferred { try selector(source.playback(last: 1)) }
    }

    @Test("should mirror a simple source Observable", arguments: variants) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2---3-4--5-|")
            let sourceSubs = "   ^--------------!"
            let published = source.signal.playback(last: 1)
            let expected = "     --1-2---3-4--5-|"
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should do nothing if connect is not called, despite subscriptions", arguments: variants) func shouldDoNothingIfConnectIsNotCalledDespiteSubscriptions(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("--1-2---3-4--5-|")
                let result = source.signal.playback()
                m.expectSignal(result, unsubscription: "^!").toBe("-")
                m.expectSubscriptions(source.subscriptions).toBe([])
            }
        }
    }

    @Test("should multicast the same values to multiple observers, bufferSize=1", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversBufferSize1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|")
            let sourceSubs = "       ^-----------!"
            let published = source.signal.playback(last: 1)
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published }
            let expected2 = "        ----23----4-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published }
            let expected3 = "        --------3-4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast the same values to multiple observers, bufferSize=2", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversBufferSize2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-----3------4-|")
            let sourceSubs = "       ^-----------------!"
            let published = source.signal.playback(last: 2)
            let subscriber1 = m.hot("a|                 ").signal.flatMap { _ in published }
            let expected1 = "        -1-2-----3------4-|"
            let subscriber2 = m.hot("----b|             ").signal.flatMap { _ in published }
            let expected2 = "        ----(12)-3------4-|"
            let subscriber3 = m.hot("-----------c|      ").signal.flatMap { _ in published }
            let expected3 = "        -----------(23)-4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast an error from the source to multiple observers", arguments: variants) func shouldMulticastAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let published = source.signal.playback(last: 1)
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published }
            let expected2 = "        ----23----4-#"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published }
            let expected3 = "        --------3-4-#"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast the same values to multiple observers, but is unsubscribed explicitly and early", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversButIsUnsubscribedExplicitlyAndEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|")
                let result = source.signal.playback(last: 1)
                m.expectSignal(result, unsubscription: "^---------!").toBe("-1-2-3----")
                m.expectSignal(result, unsubscription: "----^-----!").toBe("----23----")
                m.expectSignal(result, unsubscription: "--------^-!").toBe("--------3-")
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.connect(result, "^--------!")
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|")
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }.playback(last: 1)
                m.expectSignal(result, unsubscription: "^---------!").toBe("-1-2-3----")
                m.expectSignal(result, unsubscription: "----^-----!").toBe("----23----")
                m.expectSignal(result, unsubscription: "--------^-!").toBe("--------3-")
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.connect(result, "^--------!")
            }
        }
    }

    @Test("should connect when first subscriber subscribes", arguments: variants) func shouldConnectWhenFirstSubscriberSubscribes(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("       -1-2-3----4-|")
                let sourceSubs = "       ---^-----------!"
                let replayed = source.signal.playback(last: 1)
                let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
                let expected1 = "        ----1-2-3----4-|"
                let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in replayed }
                let expected2 = "        -------23----4-|"
                let subscriber3 = m.hot("-----------c|   ").signal.flatMap { _ in replayed }
                let expected3 = "        -----------3-4-|"
                m.expectSignal(subscriber1).toBe(expected1)
                m.expectSignal(subscriber2).toBe(expected2)
                m.expectSignal(subscriber3).toBe(expected3)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should disconnect when last subscriber unsubscribes", arguments: variants) func shouldDisconnectWhenLastSubscriberUnsubscribes(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("       -1-2-3----4-|")
                let sourceSubs = "       ---^--------!   "
                let replayed = source.signal.playback(last: 1)
                let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
                let unsub1 = "           ----------!     "
                let expected1 = "        ----1-2-3--     "
                let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in replayed }
                let unsub2 = "           ------------!   "
                let expected2 = "        -------23----   "
                m.expectSignal(subscriber1, unsubscription: unsub1).toBe(expected1)
                m.expectSignal(subscriber2, unsubscription: unsub2).toBe(expected2)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            }
        }
    }

    @Test("should NOT be retryable", arguments: variants) func shouldNOTBeRetryable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#     ")
            let sourceSubs = "       ^-----------!     "
            let multi = source.signal.playback(last: 1)
            let published: @Sendable () -> Signal<String> = { Signal<String>.retry(count: 3) { multi } }
            let subscriber1 = m.hot("a|                ").signal.flatMap { _ in published() }
            let expected1 = "        -1-2-3----4-(444#)"
            let subscriber2 = m.hot("----b|            ").signal.flatMap { _ in published() }
            let expected2 = "        ----23----4-(444#)"
            let subscriber3 = m.hot("--------c|        ").signal.flatMap { _ in published() }
            let expected3 = "        --------3-4-(444#)"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should NOT be repeatable", arguments: variants) func shouldNOTBeRepeatable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|    ")
            let sourceSubs = "       ^-----------!    "
            let multi = source.signal.playback(last: 1)
            let published: @Sendable () -> Signal<String> = { Signal<String>.repeat(count: 3) { multi } }
            let subscriber1 = m.hot("a|               ").signal.flatMap { _ in published() }
            let expected1 = "        -1-2-3----4-(44|)"
            let subscriber2 = m.hot("----b|           ").signal.flatMap { _ in published() }
            let expected2 = "        ----23----4-(44|)"
            let subscriber3 = m.hot("--------c|       ").signal.flatMap { _ in published() }
            let expected3 = "        --------3-4-(44|)"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an empty source", arguments: variants) func shouldMulticastAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|  ")
            let sourceSubs = "   (^!)"
            let published = source.signal.playback(last: 1)
            let expected = "     |"
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast a never source", arguments: variants) func shouldMulticastANeverSource(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-")
                let result = source.signal.playback()
                m.hold(result)
                m.expectSignal(result, unsubscription: "^!").toBe("-")
                m.expectSubscriptions(source.subscriptions).toBe("^!")
                m.connect(result, "^!")
            }
        }
    }

    @Test("should multicast a throw source", arguments: variants) func shouldMulticastAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let sourceSubs = "   (^!)"
            let published = source.signal.playback(last: 1)
            let expected = "     #   "
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should mirror a simple source Observable with selector", arguments: variants) func shouldMirrorASimpleSourceObservableWithSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 2, "b": 4, "c": 6, "d": 8]
            let selector = { @Sendable (s: SignalMulti<String>) in s.map { 2 * Int($0)! } }
            let source = m.cold("--1-2---3-4---|")
            let sourceSubs = "   ^-------------!"
            let published = Self.published(source.signal, selector)
            let expected = "     --a-b---c-d---|"
            m.expectSignal(published).toBe(expected, values: values)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should EMIT an error when the selector throws an exception", arguments: variants) func shouldEMITAnErrorWhenTheSelectorThrowsAnException(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let error = MarbleError("It's broken")
            let source = m.cold("--1-2---3-4---|")
            // The selector throws before it uses the multi.
            let published = Self.published(source.signal) { _ throws -> Signal<String> in throw error }
            let expected = "     #              "
            m.expectSignal(published).toBe(expected, error: error)
        }
    }

    @Test("should emit an error when the selector returns an Observable that emits an error", arguments: variants) func shouldEmitAnErrorWhenTheSelectorReturnsAnObservableThatEmitsAnError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let error = MarbleError("It's broken")
            let innerObservable = m.cold("--5-6----#", error: error)
            let selector = { @Sendable (s: SignalMulti<String>) in s.flatMap { _ in innerObservable.signal } }
            let source = m.cold("--1--2---3---|")
            let sourceSubs = "   ^----------!  "
            let published = Self.published(source.signal, selector)
            let expected = "     ----5-65-6-#  "
            m.expectSignal(published).toBe(expected, error: error)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should terminate immediately when the selector returns an empty Observable", arguments: variants) func shouldTerminateImmediatelyWhenTheSelectorReturnsAnEmptyObservable(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("--1--2---3---|")
                let result = Self.published(source.signal) { _ in Signal<String>.empty(delivery: variant) }
                m.expectSignal(result).toBe("|")
                m.expectSubscriptions(source.subscriptions).toBe([])
            }
        }
    }

    @Test("should not emit and should not complete/error when the selector returns never", arguments: variants) func shouldNotEmitAndShouldNotCompleteErrorWhenTheSelectorReturnsNever(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-")
                let result = Self.published(source.signal) { _ in Signal<String>.never(delivery: variant) }
                m.expectSignal(result, unsubscription: "^!").toBe("-")
                m.expectSubscriptions(source.subscriptions).toBe("^!")
            }
        }
    }

    @Test("should emit error when the selector returns Observable.throw", arguments: variants) func shouldEmitErrorWhenTheSelectorReturnsObservableThrow(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let error = MarbleError("It's broken")
                let source = m.cold("--1--2---3---|")
                let result = Self.published(source.signal) { _ in Signal<String>.failing(error, delivery: variant) }
                m.expectSignal(result).toBe("#", error: error)
                m.expectSubscriptions(source.subscriptions).toBe([])
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
            let partialPipeLine = { (s: Signal<String>) in s.playback(last: 1) }
            let published1 = partialPipeLine(source1.signal)
            let published2 = partialPipeLine(source2.signal)
            m.expectSignal(published1).toBe(expected1)
            m.expectSubscriptions(source1.subscriptions).toBe(source1Subs)
            m.expectSignal(published2).toBe(expected2)
            m.expectSubscriptions(source2.subscriptions).toBe(source2Subs)
            m.connect(published1)
            m.connect(published2)
        }
    }
}

#endif
