#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/repeat-spec.ts (packages/rxjs/test/ported/cold/operators/repeat.spec.ts), ported.
//
// RxJS's `repeat` subscribes to the same cold source again; a Signals source is re-run by a
// factory (a signal has one output), so `source.repeat({ count })` is
// `Signal.repeat(count:_:)` on `{ source.signal }` (no count: `Int.max`), and `repeat({ count,
// delay })` is `Signal.repeat(when:_:)`, whose closure returns the notifier (a number `delay`
// a `Signal<Void>.timer`), or nil once `count` runs have completed. A delay function that
// throws is the throwing `Signal.repeat(when:_:)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("repeat — rxjs spec/operators/repeat-spec.ts")
struct RepeatConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should resubscribe count number of times", arguments: variants) func shouldResubscribeCountNumberOfTimes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                ")
            let subs = [
                "               ^-------!                ",
                "               --------^-------!        ",
                "               ----------------^-------!",
            ]
            let expected = "--a--b----a--b----a--b--|"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should resubscribe multiple times", arguments: variants) func shouldResubscribeMultipleTimes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                        ")
            let subs = [
                "               ^-------!                        ",
                "               --------^-------!                ",
                "               ----------------^-------!        ",
                "               ------------------------^-------!",
            ]
            let expected = "--a--b----a--b----a--b----a--b--|"
            m.expectSignal(Signal.repeat(count: 2) { Signal.repeat(count: 2) { e1.signal } }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete without emit when count is zero", arguments: variants) func shouldCompleteWithoutEmitWhenCountIsZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("--a--b--|")
            let subs: [String] = []
            let expected = "|"
            m.expectSignal(Signal.repeat(count: 0) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should emit source once when count is one", arguments: variants) func shouldEmitSourceOnceWhenCountIsOne(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|")
            let subs = "    ^-------!"
            let expected = "--a--b--|"
            m.expectSignal(Signal.repeat(count: 1) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should repeat until gets unsubscribed", arguments: variants) func shouldRepeatUntilGetsUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|      ")
            let subs = [
                "               ^-------!      ",
                "               --------^------!",
            ]
            let unsub = "   ---------------!"
            let expected = "--a--b----a--b-"
            m.expectSignal(Signal.repeat(count: 10) { e1.signal }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should be able to repeat indefinitely until unsubscribed", arguments: variants) func shouldBeAbleToRepeatIndefinitelyUntilUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                                    ")
            let subs = [
                "               ^-------!                                    ",
                "               --------^-------!                            ",
                "               ----------------^-------!                    ",
                "               ------------------------^-------!            ",
                "               --------------------------------^-------!    ",
                "               ----------------------------------------^---!",
            ]
            let unsub = "   --------------------------------------------!"
            let expected = "--a--b----a--b----a--b----a--b----a--b----a--"
            m.expectSignal(Signal.repeat(count: .max) { e1.signal }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                                    ")
            let subs = [
                "               ^-------!                                    ",
                "               --------^-------!                            ",
                "               ----------------^-------!                    ",
                "               ------------------------^-------!            ",
                "               --------------------------------^-------!    ",
                "               ----------------------------------------^---!",
            ]
            let unsub = "   --------------------------------------------!"
            let expected = "--a--b----a--b----a--b----a--b----a--b----a--"
            let result = Signal.repeat(count: .max) { e1.signal.flatMap { Signal.just($0, delivery: variant) } }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should consider negative count as no repeat, and return EMPTY", arguments: variants) func shouldConsiderNegativeCountAsNoRepeatAndReturnEMPTY(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("--a--b--|                                    ")
            let expected = "|"
            m.expectSignal(Signal.repeat(count: -1) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe([])
        }
    }

    @Test("should not complete when source never completes", arguments: variants) func shouldNotCompleteWhenSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let e1subs = "^!"
            let expected = "-"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete when source does not completes", arguments: variants) func shouldNotCompleteWhenSourceDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let unsub = "------------------------------!"
            let subs = " ^-----------------------------!"
            let expected = "-"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete immediately when source does not complete without emit but count is zero", arguments: variants) func shouldCompleteImmediatelyWhenSourceDoesNotCompleteWithoutEmitButCountIsZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let subs: [String] = []
            let expected = "|"
            m.expectSignal(Signal.repeat(count: 0) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete immediately when source does not complete but count is zero", arguments: variants) func shouldCompleteImmediatelyWhenSourceDoesNotCompleteButCountIsZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("--a--b--")
            let subs: [String] = []
            let expected = "|"
            m.expectSignal(Signal.repeat(count: 0) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should emit source once and does not complete when source emits but does not complete", arguments: variants) func shouldEmitSourceOnceAndDoesNotCompleteWhenSourceEmitsButDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--")
            let subs = ["^-------!"]
            let expected = "--a--b--"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }, unsubscription: "^-------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete when source is empty", arguments: variants) func shouldCompleteWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("|")
            let e1subs = ["(^!)", "(^!)", "(^!)"]
            let expected = "|"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("----|        ")
            let subs = [
                "              ^---!        ",
                "              ----^---!    ",
                "              --------^---!",
            ]
            let expected = "------------|"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete immediately when source does not emit but count is zero", arguments: variants) func shouldCompleteImmediatelyWhenSourceDoesNotEmitButCountIsZero(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("----|")
            let subs: [String] = []
            let expected = "|"
            m.expectSignal(Signal.repeat(count: 0) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error when source raises error", arguments: variants) func shouldRaiseErrorWhenSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--#")
            let subs = "    ^-------!"
            let expected = "--a--b--#"
            m.expectSignal(Signal.repeat(count: 2) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should raises error if source throws", arguments: variants) func shouldRaisesErrorIfSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("#")
            let e1subs = "(^!)"
            let expected = "#"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raises error if source throws when repeating infinitely", arguments: variants) func shouldRaisesErrorIfSourceThrowsWhenRepeatingInfinitely(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("#")
            let e1subs = "(^!)"
            let expected = "#"
            m.expectSignal(Signal.repeat(count: .max) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error after first emit succeed", arguments: variants) func shouldRaiseErrorAfterFirstEmitSucceed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let repeated = Atomic<Bool>(false)
            let source = m.cold("--a--|")
            let e1: @Sendable () -> Signal<String> = { source.signal.map { (x: String) throws -> String in
                if repeated.load(ordering: .relaxed) { throw MarbleError("error") }
                repeated.store(true, ordering: .relaxed)
                return x
            } }
            let expected = "--a----#"
            m.expectSignal(Signal.repeat(count: 2) { e1() }).toBe(expected)
        }
    }

    @Test("should allow count configuration", arguments: variants) func shouldAllowCountConfiguration(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                ")
            let subs = [
                "               ^-------!                ",
                "               --------^-------!        ",
                "               ----------------^-------!",
            ]
            let expected = "--a--b----a--b----a--b--|"
            m.expectSignal(Signal.repeat(count: 3) { e1.signal }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should allow delay time configuration", arguments: variants) func shouldAllowDelayTimeConfiguration(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                ")
            let delay = 3 //       ---|       ---|
            let subs = [
                "               ^-------!                ",
                "               -----------^-------!        ",
                "               ----------------------^-------!",
            ]
            let expected = "--a--b-------a--b-------a--b--|"
            let result = Signal.repeat(when: { n in
                n < 3 ? Signal<Void>.timer(interval: m.duration(delay), context: m.context, delivery: variant) : nil
            }) { e1.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should allow delay function configuration", arguments: variants) func shouldAllowDelayFunctionConfiguration(_ variant: DeliveryVariant) {
        let counts = Collected<Int>()
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                ")
            let delay = 3 //       ---|       ---|
            let subs = [
                "               ^-------!                ",
                "               -----------^-------!        ",
                "               ----------------------^-------!",
            ]
            let expected = "--a--b-------a--b-------a--b--|"
            let result = Signal.repeat(when: { count in
                guard count < 3 else { return nil }
                counts.append(count)
                return Signal<Void>.timer(interval: m.duration(delay), context: m.context, delivery: variant)
            }) { e1.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
        #expect(counts.all == [1, 2], "the delay function gets the count of completed runs")
    }

    @Test("should handle delay function throwing", arguments: variants) func shouldHandleDelayFunctionThrowing(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--|                ")
            let delay = 3 //       ---|       ---|
            let subs = [
                "               ^-------!                ",
                "               -----------^-------!        ",
            ]
            let expected = "--a--b-------a--b--#"
            let result = Signal.repeat(when: { (count: Int) throws -> Signal<Void>? in
                guard count < 3 else { return nil }
                if count == 2 { throw MarbleError("bad") }
                return Signal<Void>.timer(interval: m.duration(delay), context: m.context, delivery: variant)
            }) { () throws -> Signal<String> in e1.signal }
            m.expectSignal(result).toBe(expected, error: MarbleError("bad"))
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }
}

#endif
