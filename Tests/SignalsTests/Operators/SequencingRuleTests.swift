import Signals
import Testing

/// The ReactiveX sequencing rule of the flattening operators: a waiting inner signal is
/// subscribed only when a running one ends, so timed or cold work does not start early.
/// Timelines are marble diagrams on the virtual clock (one frame is one millisecond).
@Suite struct SequencingRuleTests {
    static let variants = DeliveryVariant.allCases

    /// An outer signal of 1 and 2 (then complete), each made into an inner signal that sends
    /// it and completes 10 frames after its subscription, through `op`.
    func timedInners(
        _ v: DeliveryVariant,
        _ op: (Signal<Int>, @escaping @Sendable (Int) -> Signal<Int>) -> Signal<Int>
    ) {
        marbleTest(v) { m in
            let outer = m.hot("(12|)", values: digits)
            let inner = m.cold("----------(a|)")
            m.expectSignal(op(outer.signal) { x in inner.signal.map { _ in x } }).toBe("----------1---------(2|)", values: digits)
            m.expectSubscriptions(inner.subscriptions).toBe("^---------!", "----------^---------!")
        }
    }

    @Test(arguments: variants) func concatMapSubscribesTheNextInnerWhenTheRunningOneEnds(_ v: DeliveryVariant) {
        timedInners(v) { $0.concatMap($1) }
    }

    @Test(arguments: variants) func flatMapMaxConcurrentSubscribesAWaitingInnerWhenARunningOneEnds(_ v: DeliveryVariant) {
        timedInners(v) { $0.flatMap(maxConcurrent: 1, $1) }
        // Two at once: the third starts when the first of them ends.
        marbleTest(v) { m in
            let outer = m.hot("(424|)", values: digits)
            let result = outer.signal.flatMap(maxConcurrent: 2) { x in
                Signal.timer(interval: m.duration(x), value: x, context: m.context, delivery: v)
            }
            m.expectSignal(result).toBe("--2-4-(4|)", values: digits)
        }
    }

    @Test(arguments: variants) func aWaitingInnerIsNotSubscribedBeforeItsTurn(_ v: DeliveryVariant) {
        // Cold inner signals wait, unsubscribed, for the running one.
        marbleTest(v) { m in
            let outer = m.hot(" (abc)------|")
            let a = m.cold("    -----(x|)")
            let b = m.cold("         (y|)")
            let c = m.cold("         (z|)")
            let inners = ["a": a, "b": b, "c": c]
            m.expectSignal(outer.signal.concatMap { inners[$0]!.signal }).toBe("-----(xyz)-|")
            m.expectSubscriptions(a.subscriptions).toBe("^----!")
            m.expectSubscriptions(b.subscriptions).toBe("-----(^!)")
            m.expectSubscriptions(c.subscriptions).toBe("-----(^!)")
        }
    }

    @Test(arguments: variants) func anErrorDropsTheWaitingInnersUnsubscribed(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let outer = m.hot(" (ab)")
            let a = m.cold("    --#")
            let b = m.cold("    (y|)")
            m.expectSignal(outer.signal.concatMap { $0 == "a" ? a.signal : b.signal }).toBe("--#")
            m.expectSubscriptions(a.subscriptions).toBe("^-!")
            m.expectSubscriptions(b.subscriptions).toBe()
        }
    }
}
