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
            { for seq in 0..<2 { log.send(ExploreLog.value(0, seq), through: aIn) } },
            { for seq in 0..<2 { log.send(ExploreLog.value(1, seq), through: bIn) } },
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
            { for seq in 0..<2 { log.send(ExploreLog.value(sender, seq), through: aIn) } }
        }
        threads.append { log.send(ExploreLog.value(2, 0), through: bIn) }
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
