// `bench explore` scenarios past the hand-over depth bound (`DepthBounds.maxDepth`, 8): a
// chain of more `multicast()` nodes than that, so the deepest hand-overs are deferred to the
// outermost one on their thread.

import Signals
import Synchronization

/// Nodes below a merge: more than the hand-over bound.
let exploreNodesPastTheBound = 10

/// Two threads send into the two sides of a merge with ten multicasts below it; one side
/// comes through a multi.
package struct ExploreDeepMergeOrder: ExploreScenario {
    package init() {}
    package let name = "deep-merge-order"
    package let summary = "two threads send into a merge with 10 multicasts below it (past the hand-over bound)"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (aIn, a) = Signal<Int>.create(delivery: variant)
        let (bIn, b) = Signal<Int>.create(delivery: variant)
        var x: Signal<Int> = a.multicast().map { $0 }.merge(with: b)
        for _ in 0..<exploreNodesPastTheBound { x = x.multicast() }
        let log = ExploreLog()
        let output = x.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<2 { log.send(StressStamp(sender: 0, seq: seq), through: aIn) } },
            { for seq in 0..<2 { log.send(StressStamp(sender: 1, seq: seq), through: bIn) } },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, aIn, bIn)) { log.check(endExpected: false) }
        }
    }
}

/// A merge + `take(1)` with ten multicasts below it: once take's end has passed on a thread,
/// a send into the merge's other source from that thread must be refused (as in a shallow
/// graph, where the graph above an ended take has stopped). A third thread sends into that
/// other source: when it carries the end, the merge's removal of the multi's branch can find
/// the multi idle with another thread's value queued meanwhile and deliver it on this thread,
/// so the second branch's check runs inside the deactivation, before the merge has stopped
/// its other source.
package struct ExploreDeepTakeRefusal: ExploreScenario {
    package init() {}
    package let name = "deep-take-refusal"
    package let summary = "two threads send through a multi, one into the other source, of a merge + take(1) with 10 multicasts below; a send after the end passed must be refused"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (aIn, a) = Signal<Int>.create(delivery: variant)
        let (bIn, b) = Signal<Int>.create(delivery: variant)
        let m = a.multicast()
        let endCarrier = Atomic<UInt>(0)
        var x: Signal<Int> = m.map { $0 }.merge(with: b).take(1).onEnd { _ in
            endCarrier.store(stressThreadToken(), ordering: .relaxed)
        }
        for _ in 0..<exploreNodesPastTheBound { x = x.multicast() }
        let log = ExploreLog()
        let output = x.subscribe { log.receive($0) }
        // The multi's second branch runs after the first handed the value down through the
        // take: on the thread that carried take's end, a send into the merge must be refused.
        let branch = m.subscribeValues { _ in
            guard endCarrier.load(ordering: .relaxed) == stressThreadToken() else { return }
            if bIn.send(value: -1) == nil { log.forbid("a send after take's end had passed (on its thread) was accepted") }
        }
        var threads: [@Sendable () -> Void] = (0..<2).map { sender in
            { for seq in 0..<2 { log.send(StressStamp(sender: sender, seq: seq), through: aIn) } }
        }
        threads.append { log.send(StressStamp(sender: 2, seq: 0), through: bIn) }
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, branch, aIn, bIn)) {
                var problems = log.check(endExpected: true, acceptedArrive: false)
                let n = log.values.count
                if n != 1 { problems.append("take(1) delivered \(n) values") }
                return problems
            }
        }
    }
}

/// A subscription past the hand-over bound to a `continuous` multi that another thread is
/// delivering into: one thread sends 1 and 2 into the multi's input, the other subscribes
/// `multi.map` with ten multicasts below. A subscription that finds the multi held is run by
/// the holder (its cache replayed there) while the subscriber waits; the replay's hand-overs
/// past the bound must run before the waiter is let go, so `subscribe` returns with the cached
/// value delivered (docs/guarantees.md: cached values reach a new subscriber synchronously).
package struct ExploreDeepCachedSubscribe: ExploreScenario {
    package init() {}
    package let name = "deep-cached-subscribe"
    package let summary = "a subscription with 10 multicasts below a continuous multi that another thread sends into; its cached value there when subscribe returns"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, source) = Signal<Int>.create(delivery: variant)
        let multi = source.continuous(initialValue: 0)
        let first = multi.subscribeValues { _ in }
        var deep: Signal<Int> = multi.map { $0 }
        for _ in 0..<exploreNodesPastTheBound { deep = deep.multicast() }
        let below = deep
        let log = ExploreLog()
        let output = Mutex<SignalOutput<Int>?>(nil)
        let early = Mutex<[Int]?>(nil)
        let threads: [@Sendable () -> Void] = [
            { for v in 1...2 { _ = input.send(value: v) } },
            {
                let o = below.subscribe { log.receive($0) }
                let seen = log.values
                early.withLock { $0 = seen }
                output.withLock { $0 = o }
            },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((first, input)) {
                let values = log.values
                var problems: [String] = []
                if let seen = early.withLock({ $0 }), seen.isEmpty {
                    problems.append("subscribe returned before its cached value arrived")
                }
                if values.isEmpty || values.last != 2 || zip(values, values.dropFirst()).contains(where: { $0 >= $1 }) {
                    problems.append("the subscriber got \(values); want the cached value, then each later one once, ending with 2")
                }
                output.withLock { $0 = nil }
                return problems
            }
        }
    }
}
