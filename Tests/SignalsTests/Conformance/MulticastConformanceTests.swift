#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/multicast-spec.ts (packages/rxjs/test/ported/cold/operators/multicast.spec.ts), ported.
//
// Connectables map onto `SignalMulti` (docs/operators.md, "Conformance"):
// `multicast(() => new Subject())` is `multicast()` (with or without `refCount()`: the multi
// counts its own branches), its `connect()` a silent branch (`m.connect`). Where RxJS makes a
// subject per subscription (the selector form: `multicast(factory, selector)`) or a new one for
// each retry or repeat of a synchronous source that has ended, the port makes a multi there: per
// subscription (`Signal.deferred`), per attempt (the factory of `Signal<String>.retry(count:_:)`
// or `Signal<String>.repeat(count:_:)`). A `ReplaySubject(1)` factory is `playback(last: 1)`
// (ConnectableConformance.swift). A hot diagram's `mergeMap(() => multicasted)` is
// `flatMap { _ in multicasted }`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("multicast() — rxjs spec/operators/multicast-spec.ts")
struct MulticastConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// `multicast(subjectFactory, selector)`: a multi per subscription, given to `selector`.
    static func multicasted<U: Sendable>(_ makeMulti: @escaping @Sendable () -> SignalMulti<String>, _ selector: @escaping @Sendable (SignalMulti<String>) -> Signal<U>) -> Signal<U> {
        Signal<U>.deferred { selector(makeMulti()) }
    }

    static func zipSum(_ x: SignalMulti<String>) -> Signal<String> {
        x.zip(x).map { String(Int($0.0)! + Int($0.1)!) }
    }

    @Test("should mirror a simple source Observable", arguments: variants) func shouldMirrorASimpleSourceObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --1-2---3-4--5-|")
            let e1subs = "    ^--------------!"
            let expected = "  --1-2---3-4--5-|"
            let result = e1.signal.multicast()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.connect(result)
        }
    }

    @Test("should accept a multicast selector and connect to a hot source for each subscriber", arguments: variants) func shouldAcceptAMulticastSelectorAndConnectToAHotSourceForEachSubscriber(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("         -1-2-3----4-|")
            let e1subs = [
                "                    ^-----------!",
                "                    ----^-------!",
                "                    --------^---!",
            ]
            let multicasted: @Sendable () -> Signal<String> = { Self.multicasted({ e1.signal.multicast() }) { Self.zipSum($0) } }
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in multicasted() }
            let expected1 = "        -2-4-6----8-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in multicasted() }
            let expected2 = "        -----6----8-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in multicasted() }
            let expected3 = "        ----------8-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should accept a multicast selector and connect to a cold source for each subscriber", arguments: variants) func shouldAcceptAMulticastSelectorAndConnectToAColdSourceForEachSubscriber(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("        -1-2-3----4-|        ")
            //                           -1-2-3----4-|
            //                               -1-2-3----4-|
            let e1subs = [
                "                    ^-----------!        ",
                "                    ----^-----------!    ",
                "                    --------^-----------!",
            ]
            let multicasted: @Sendable () -> Signal<String> = { Self.multicasted({ e1.signal.multicast() }) { Self.zipSum($0) } }
            let subscriber1 = m.hot("a|                   ").signal.flatMap { _ in multicasted() }
            let expected1 = "        -2-4-6----8-|        "
            let subscriber2 = m.hot("----b|               ").signal.flatMap { _ in multicasted() }
            let expected2 = "        -----2-4-6----8-|    "
            let subscriber3 = m.hot("--------c|           ").signal.flatMap { _ in multicasted() }
            let expected3 = "        ---------2-4-6----8-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should accept a multicast selector and respect the subject's messaging semantics", arguments: variants) func shouldAcceptAMulticastSelectorAndRespectTheSubjectSMessagingSemantics(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("        -1-2-3----4-|           ")
            //                                   (4|)
            //                           -1-2-3----4-|
            //                                       (4|)
            //                               -1-2-3----4-|
            //                                           (4|)
            let e1subs = [
                "                    ^-----------!           ",
                "                    ----^-----------!       ",
                "                    --------^-----------!   ",
            ]
            let multicasted: @Sendable () -> Signal<String> = { Self.multicasted({ e1.signal.playback(last: 1) }) { x in x.concat(x.takeLast(1)) } }
            let subscriber1 = m.hot("a|                      ").signal.flatMap { _ in multicasted() }
            let expected1 = "        -1-2-3----4-(4|)        "
            let subscriber2 = m.hot("----b|                  ").signal.flatMap { _ in multicasted() }
            let expected2 = "        -----1-2-3----4-(4|)    "
            let subscriber3 = m.hot("--------c|              ").signal.flatMap { _ in multicasted() }
            let expected3 = "        ---------1-2-3----4-(4|)"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should do nothing if connect is not called, despite subscriptions", arguments: variants) func shouldDoNothingIfConnectIsNotCalledDespiteSubscriptions(_ variant: DeliveryVariant) {
        withKnownDifference(.noConnectStep, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("--1-2---3-4--5-|")
                let result = source.signal.multicast()
                m.expectSignal(result, unsubscription: "^---------------!").toBe("----------------")
                m.expectSubscriptions(source.subscriptions).toBe([])
            }
        }
    }

    @Test("should multicast the same values to multiple observers", arguments: variants) func shouldMulticastTheSameValuesToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("        -1-2-3----4-|")
            let e1subs = "           ^-----------!"
            let multicasted = e1.signal.multicast()
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in multicasted }
            let expected1 = "        -1-2-3----4-|"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in multicasted }
            let expected2 = "        -----3----4-|"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in multicasted }
            let expected3 = "        ----------4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.connect(multicasted)
        }
    }

    @Test("should multicast an error from the source to multiple observers", arguments: variants) func shouldMulticastAnErrorFromTheSourceToMultipleObservers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("        -1-2-3----4-#")
            let e1subs = "           ^-----------!"
            let multicasted = e1.signal.multicast()
            let subscriber1 = m.hot("a|           ").signal.flatMap { _ in multicasted }
            let expected1 = "        -1-2-3----4-#"
            let subscriber2 = m.hot("----b|       ").signal.flatMap { _ in multicasted }
            let expected2 = "        -----3----4-#"
            let subscriber3 = m.hot("--------c|   ").signal.flatMap { _ in multicasted }
            let expected3 = "        ----------4-#"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.connect(multicasted)
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

    @Test("should multicast an empty source", arguments: variants) func shouldMulticastAnEmptySource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let multicasted = e1.signal.multicast()
            let expected = "  |   "
            m.expectSignal(multicasted).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.connect(multicasted)
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
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let multicasted = e1.signal.multicast()
            let expected = "  #   "
            m.expectSignal(multicasted).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.connect(multicasted)
        }
    }

    @Test("should connect when first subscriber subscribes", arguments: variants) func shouldConnectWhenFirstSubscriberSubscribes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("           -1-2-3----4-|")
            let e1subs = "           ---^-----------!"
            let multicasted = e1.signal.multicast()
            let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in multicasted }
            let expected1 = "        ----1-2-3----4-|"
            let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in multicasted }
            let expected2 = "        --------3----4-|"
            let subscriber3 = m.hot("-----------c|   ").signal.flatMap { _ in multicasted }
            let expected3 = "        -------------4-|"
            m.expectSignal(subscriber1).toBe(expected1)
            m.expectSignal(subscriber2).toBe(expected2)
            m.expectSignal(subscriber3).toBe(expected3)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should disconnect when last subscriber unsubscribes", arguments: variants) func shouldDisconnectWhenLastSubscriberUnsubscribes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("           -1-2-3----4-|")
            let e1subs = "           ---^--------!   "
            let multicasted = e1.signal.multicast()
            let subscriber1 = m.hot("---a|           ").signal.flatMap { _ in multicasted }
            let expected1 = "        ----1-2-3--     "
            let unsub1 = "           ----------!     "
            let subscriber2 = m.hot("-------b|       ").signal.flatMap { _ in multicasted }
            let expected2 = "        --------3----   "
            let unsub2 = "           ------------!   "
            m.expectSignal(subscriber1, unsubscription: unsub1).toBe(expected1)
            m.expectSignal(subscriber2, unsubscription: unsub2).toBe(expected2)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be retryable when cold source is synchronous", arguments: variants) func shouldBeRetryableWhenColdSourceIsSynchronous(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(123#)")
            // Each attempt connects anew: a new multi, as RxJS makes a new subject.
            let result = { Signal<String>.retry(count: 3) { source.signal.multicast() } }
            m.expectSignal(result()).toBe("(123123123123#)")
            m.expectSignal(result(), unsubscription: "-^").toBe("-(123123123123#)")
            m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "(^!)", "(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)"])
        }
    }

    @Test("should be retryable with ReplaySubject and cold source is synchronous", arguments: variants) func shouldBeRetryableWithReplaySubjectAndColdSourceIsSynchronous(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(123#)")
            let result = { Signal<String>.retry(count: 3) { source.signal.playback(last: 1) } }
            m.expectSignal(result()).toBe("(123123123123#)")
            m.expectSignal(result(), unsubscription: "-^").toBe("-(123123123123#)")
            m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "(^!)", "(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)"])
        }
    }

    @Test("should be repeatable when cold source is synchronous", arguments: variants) func shouldBeRepeatableWhenColdSourceIsSynchronous(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(123|)")
            // Each run connects anew: a new multi, as RxJS makes a new subject.
            let result = { Signal<String>.repeat(count: 5) { source.signal.multicast() } }
            m.expectSignal(result()).toBe("(123123123123123|)")
            m.expectSignal(result(), unsubscription: "-^").toBe("-(123123123123123|)")
            m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "(^!)", "(^!)", "(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)"])
        }
    }

    @Test("should be repeatable with ReplaySubject and cold source is synchronous", arguments: variants) func shouldBeRepeatableWithReplaySubjectAndColdSourceIsSynchronous(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("(123|)")
            let result = { Signal<String>.repeat(count: 5) { source.signal.playback(last: 1) } }
            m.expectSignal(result()).toBe("(123123123123123|)")
            m.expectSignal(result(), unsubscription: "-^").toBe("-(123123123123123|)")
            m.expectSubscriptions(source.subscriptions).toBe(["(^!)", "(^!)", "(^!)", "(^!)", "(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)", "-(^!)"])
        }
    }

    @Test("should be retryable", arguments: variants) func shouldBeRetryable(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-#                        ")
                let result = source.signal.multicast()
                let firstExpected = "-1-2-3----4-#"
                let secondPrefix = "-----3----4-"
                m.expectSignal(Signal<String>.retry(count: 2) { result }).toBe(firstExpected)
                m.expectSignal(Signal<String>.retry(count: 2) { result }, unsubscription: "----^").toBe(secondPrefix + "-1-2-3----4--1-2-3----4-#")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }

    @Test("should be retryable using a ReplaySubject", arguments: variants) func shouldBeRetryableUsingAReplaySubject(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-#                        ")
                let result = source.signal.playback(last: 1)
                let firstExpected = "-1-2-3----4-(44#)"
                let secondPrefix = "----23----4-"
                m.expectSignal(Signal<String>.retry(count: 2) { result }).toBe(firstExpected)
                m.expectSignal(Signal<String>.retry(count: 2) { result }, unsubscription: "----^").toBe(secondPrefix + "-1-2-3----4--1-2-3----4-#")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }

    @Test("should be repeatable", arguments: variants) func shouldBeRepeatable(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|                        ")
                let result = source.signal.multicast()
                let firstExpected = "-1-2-3----4-|"
                let secondPrefix = "-----3----4-"
                m.expectSignal(Signal<String>.repeat(count: 3) { result }).toBe(firstExpected)
                m.expectSignal(Signal<String>.repeat(count: 3) { result }, unsubscription: "----^").toBe(secondPrefix + "-1-2-3----4--1-2-3----4-|")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }

    @Test("should be repeatable using a ReplaySubject", arguments: variants) func shouldBeRepeatableUsingAReplaySubject(_ variant: DeliveryVariant) {
        withKnownDifference(.multiKeepsEnd, shownBy: .diagram, .subscriptions) {
            marbleTest(variant) { m in
                let source = m.cold("-1-2-3----4-|                        ")
                let result = source.signal.playback(last: 1)
                let firstExpected = "-1-2-3----4-(44|)"
                let secondPrefix = "----23----4-"
                m.expectSignal(Signal<String>.repeat(count: 3) { result }).toBe(firstExpected)
                m.expectSignal(Signal<String>.repeat(count: 3) { result }, unsubscription: "----^").toBe(secondPrefix + "-1-2-3----4--1-2-3----4-|")
                m.expectSubscriptions(source.subscriptions).toBe([
                    "^-----------!                        ",
                    "------------^-----------!            ",
                    "------------------------^-----------!",
                ])
            }
        }
    }
}

#endif
