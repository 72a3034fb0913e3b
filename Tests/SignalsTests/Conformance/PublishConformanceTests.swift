#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/publish-spec.ts (packages/rxjs/test/ported/cold/operators/publish.spec.ts), ported.
//
// Connectables map onto `SignalMulti` (docs/operators.md, "Conformance"): `publish()` is
// `multicast()`, `published.connect()` is a silent branch of the multi (`m.connect`, its
// subscription diagram the connection's life), `refCount()` is the multi's own activation
// counting (`publish().refCount()` is `multicast()` alone), and `publish(selector)` is a
// `multicast()` made per subscription (`Signal.deferred`), as RxJS makes a subject per
// subscription. A hot diagram's `mergeMap(() => published)` is `flatMap { _ in published }`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("publish — rxjs spec/operators/publish-spec.ts")
struct PublishConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should mirror a simple source Observable", arguments: variants) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("--1-2---3-4--5-|")
            let sourceSubs = "   ^--------------!"
            let published = source.signal.multicast()
            let expected = "     --1-2---3-4--5-|"
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should do nothing if connect is not called, despite subscriptions", arguments: variants) func shouldDoNothingIfConnectIsNotCalledDespiteSubscriptions(_ variant: DeliveryVariant) {
        withKnownDifference(.noConnectStep, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("--1-2---3-4--5-|")
                let result = source.signal.multicast()
                m.expectSignal(result, unsubscription: "^!").toBe("-")
                m.expectSubscriptions(source.subscriptions).toBe([])
            }
        }
    }

    @Test("should multicast the same values to multiple observers", arguments: variants) func shouldMulticastTheSameValuesToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("   -1-2-3----4-|")
            let sourceSubs = "      ^-----------!"
            let published = source.signal.multicast()
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published }
            let expected2 = "        -----3----4-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published }
            let expected3 = "        ----------4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should accept selectors", arguments: variants) func shouldAcceptSelectors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("     -1-2-3----4-|")
            let sourceSubs = [
                "                    ^-----------!",
                "                    ----^-------!",
                "                    --------^---!",
            ]
            let published: @Sendable () -> Signal<String> = {
                Signal<String>.deferred {
                    let x = source.signal.multicast()
                    return x.zip(x).map { String(Int($0.0)! + Int($0.1)!) }
                }
            }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published() }
            let expected1 = "        -2-4-6----8-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published() }
            let expected2 = "        -----6----8-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published() }
            let expected3 = "        ----------8-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an error from the source to multiple observers", arguments: variants) func shouldMulticastAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let published = source.signal.multicast()
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published }
            let expected1 = "        -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published }
            let expected2 = "        -----3----4-#"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published }
            let expected3 = "        ----------4-#"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast the same values to multiple observers, but is unsubscribed explicitly and early", arguments: variants) func shouldMulticastTheSameValuesToMultipleObserversButIsUnsubscribedExplicitlyAndEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.deactivatesWithLastBranch, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|")
                let result = source.signal.multicast()
                m.expectSignal(result, unsubscription: "^---------!").toBe("-1-2-3----")
                m.expectSignal(result, unsubscription: "----^-----!").toBe("-----3----")
                m.expectSignal(result, unsubscription: "--------^-!").toBe("----------")
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.connect(result, "^--------!")
            }
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        withKnownDifference(.deactivatesWithLastBranch, shownBy: .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|")
                let result = source.signal.flatMap { Signal.just($0, delivery: variant) }.multicast()
                m.expectSignal(result, unsubscription: "^---------!").toBe("-1-2-3----")
                m.expectSignal(result, unsubscription: "----^-----!").toBe("-----3----")
                m.expectSignal(result, unsubscription: "--------^-!").toBe("----------")
                m.expectSubscriptions(source.subscriptions).toBe("^--------!")
                m.connect(result, "^--------!")
            }
        }
    }

    @Test("should connect when first subscriber subscribes", arguments: variants) func shouldConnectWhenFirstSubscriberSubscribes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("       -1-2-3----4-|")
            let sourceSubs = "       ---^-----------!"
            let replayed = source.signal.multicast()
            let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
            let expected1 = "        ----1-2-3----4-|"
            let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in replayed }
            let expected2 = "        --------3----4-|"
            let subscriber3 = m.hot("-----------c|   ").signal.flatMap { _ in replayed }
            let expected3 = "        -------------4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should disconnect when last subscriber unsubscribes", arguments: variants) func shouldDisconnectWhenLastSubscriberUnsubscribes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("       -1-2-3----4-|")
            let sourceSubs = "       ---^--------!   "
            let replayed = source.signal.multicast()
            let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in replayed }
            let unsub1 = "           ----------!     "
            let expected1 = "        ----1-2-3--     "
            let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in replayed }
            let unsub2 = "           ------------!   "
            let expected2 = "        --------3----   "
            m.expectSignal(subscriber1, unsubscription: unsub1).toBe(expected1)
            m.expectSignal(subscriber2, unsubscription: unsub2).toBe(expected2)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should NOT be retryable", arguments: variants) func shouldNOTBeRetryable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("    -1-2-3----4-#")
            let sourceSubs = "       ^-----------!"
            let multi = source.signal.multicast()
            // `retry({ count: 3 })` re-subscribes the ref-counted multi: each attempt is a new branch.
            let published: @Sendable () -> Signal<String> = { Signal<String>.retry(count: 3) { multi } }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published() }
            let expected1 = "        -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published() }
            let expected2 = "        -----3----4-#"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published() }
            let expected3 = "        ----------4-#"
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
            let multi = source.signal.multicast()
            // `repeat({ count: 3 })` re-subscribes the ref-counted multi: each run is a new branch,
            // and a branch of the ended multi gets its completion at once.
            let published: @Sendable () -> Signal<String> = { Signal<String>.repeat(count: 3) { multi } }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in published() }
            let expected1 = "        -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in published() }
            let expected2 = "        -----3----4-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in published() }
            let expected3 = "        ----------4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should multicast an empty source", arguments: variants) func shouldMulticastAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|   ")
            let sourceSubs = "   (^!)"
            let published = source.signal.multicast()
            let expected = "     |   "
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
        }
    }

    @Test("should multicast a never source", arguments: variants) func shouldMulticastANeverSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-")
            let result = source.signal.multicast()
            m.expectSignal(result, unsubscription: "^!").toBe("-")
            m.expectSubscriptions(source.subscriptions).toBe("^!")
            m.connect(result, "^!")
        }
    }

    @Test("should multicast a throw source", arguments: variants) func shouldMulticastAThrowSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let sourceSubs = "   (^!)"
            let published = source.signal.multicast()
            let expected = "     #   "
            m.expectSignal(published).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.connect(published)
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
            // The operator applied twice makes two independent multis.
            let partialPipeLine = { (s: Signal<String>) in s.multicast() }
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
