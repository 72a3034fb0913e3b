#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/publishBehavior-spec.ts (packages/rxjs/test/ported/cold/operators/publish-behavior.spec.ts), ported.
//
// Connectables map onto `SignalMulti` (docs/operators.md, "Conformance"): `publishBehavior(v)`
// is `continuous(initialValue: v)`, with or without `refCount()`. That multi is eager: it
// connects its source when it is made (RxJS's `connect()` at frame 0, which is what the spec
// does) and stays connected while it is held, so `published.connect()` (a silent branch,
// `m.connect`) adds nothing and cancelling it disconnects nothing. A hot diagram's
// `mergeMap(() => published)` is `flatMap { _ in published }`; `retry({ count: 3 })` on the
// multi is `Signal<String>.retry(count: 3) { published }` (each attempt a new branch), and
// `repeat({ count: 3 })` is `Signal<String>.repeat(count: 3) { published }` (each run a new branch).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("continuous(initialValue:) — rxjs spec/operators/publishBehavior-spec.ts")
struct PublishBehaviorConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should mirror a simple source Observable", arguments: variants) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2---3-4--5-|")
            let sourceSubs = "   ^--------------!"
            let published = source.signal.continuous(initialValue: "0")
            let expected = "     0-1-2---3-4--5-|"
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should only emit default value if connect is not called, despite subscriptions", arguments: variants) func shouldOnlyEmitDefaultValueIfConnectIsNotCalledDespiteSubscriptions(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("--1-2---3-4--5-|")
                let result = source.signal.continuous(initialValue: "0")
                m.expectSignal(result, unsubscription: "^!").toBe("0")
                m.expectSubscriptions(source.subscriptions).toBe([])
            }
        }
    }

    @Test("should multicast the same values to multiple observers", arguments: variants) func shouldMulticastTheSameValuesToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("   -1-2-3----4-| ")
            let sourceSubs = "      ^-----------! "
            let published = source.signal.continuous(initialValue: "0")
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        01-2-3----4-|"
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

    @Test("should multicast an error from the source to multiple observers", arguments: variants) func shouldMulticastAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let published = source.signal.continuous(initialValue: "0")
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        01-2-3----4-#"
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
                let result = source.signal.continuous(initialValue: "0")
                m.expectSignal(result, unsubscription: "^---------!").toBe("01-2-3----")
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
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }.continuous(initialValue: "0")
                m.expectSignal(result, unsubscription: "^---------!").toBe("01-2-3----")
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
                let replayed = source.signal.continuous(initialValue: "0")
                let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
                let expected1 = "        ---01-2-3----4-|"
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
                let replayed = source.signal.continuous(initialValue: "0")
                let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
                let unsub1 = "           ----------!     "
                let expected1 = "        ---01-2-3--     "
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
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let multi = source.signal.continuous(initialValue: "0")
            let published: @Sendable () -> Signal<String> = { Signal<String>.retry(count: 3) { multi } }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published() }
            let expected1 = "        01-2-3----4-#"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published() }
            let expected2 = "        ----23----4-#"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published() }
            let expected3 = "        --------3-4-#"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should NOT be repeatable", arguments: variants) func shouldNOTBeRepeatable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-|")
            let sourceSubs = "       ^-----------!"
            let multi = source.signal.continuous(initialValue: "0")
            let published: @Sendable () -> Signal<String> = { Signal<String>.repeat(count: 3) { multi } }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published() }
            let expected1 = "        01-2-3----4-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published() }
            let expected2 = "        ----23----4-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published() }
            let expected3 = "        --------3-4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an empty source", arguments: variants) func shouldMulticastAnEmptySource(_ variant: DeliveryVariant) {
        // Made before the subscription at frame 0, the multi has the end before it.
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("|   ")
                let sourceSubs = "   (^!)"
                let published = source.signal.continuous(initialValue: "0")
                let expected = "     (0|)"
                m.expectSignal(published).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
                m.connect(published)
            }
        }
    }

    @Test("should multicast a never source", arguments: variants) func shouldMulticastANeverSource(_ variant: DeliveryVariant) {
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-")
                let result = source.signal.continuous(initialValue: "0")
                m.hold(result)
                m.expectSignal(result, unsubscription: "^!").toBe("0")
                m.expectSubscriptions(source.subscriptions).toBe("^!")
                m.connect(result, "^!")
            }
        }
    }

    @Test("should multicast a throw source", arguments: variants) func shouldMulticastAThrowSource(_ variant: DeliveryVariant) {
        // Made before the subscription at frame 0, the multi has the end before it.
        withKnownDifference(.cachingMultiActiveWhileHeld, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("#  ")
                let sourceSubs = "   (^!)"
                let published = source.signal.continuous(initialValue: "0")
                let expected = "     (0#)"
                m.expectSignal(published).toBe(expected)
                m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
                m.connect(published)
            }
        }
    }

    @Test("should be referentially-transparent", arguments: variants) func shouldBeReferentiallyTransparent(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source1 = m.cold("-1-2-3-4-5-|")
            let source1Subs = "   ^----------!"
            let expected1 = "     x1-2-3-4-5-|"
            let source2 = m.cold("-6-7-8-9-0-|")
            let source2Subs = "   ^----------!"
            let expected2 = "     x6-7-8-9-0-|"
            let partialPipeLine = { (s: Signal<String>) in s.continuous(initialValue: "x") }
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
