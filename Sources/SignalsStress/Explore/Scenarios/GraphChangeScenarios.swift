// `bench explore` scenarios about graph changes racing values: a subscribe and cancel on a
// multi, a junction rebind, a merged add and remove, a capture.

import Signals
import Synchronization

/// A subscription made and cancelled on a multicast while another thread sends through it.
package struct ExploreMultiSubscribeCancel: ExploreScenario {
    package init() {}
    package let name = "multi-subscribe-cancel"
    package let summary = "subscribe then cancel on a multicast while another thread sends"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let multi = signal.multicast()
        let log = ExploreLog()
        let output = multi.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<2 { log.send(StressStamp(sender: 0, seq: seq), through: input) } },
            {
                let cancelled = Atomic<Bool>(false)
                let branch = multi.subscribeValues { _ in
                    if cancelled.load(ordering: .relaxed) { log.forbid("a value reached a branch after its cancel() returned") }
                }
                branch.cancel()
                cancelled.store(true, ordering: .relaxed)
            },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: false) }
        }
    }
}

/// A handler on one branch of a multicast cancels another branch from inside its delivery,
/// while two threads send: the holder cannot wait for itself, so only the branch's gate keeps
/// values from the cancelled branch once `cancel()` returned.
package struct ExploreMultiCancelInHandler: ExploreScenario {
    package init() {}
    package let name = "multi-cancel-in-handler"
    package let summary = "a multicast branch's handler cancels another branch while two threads send"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let multi = signal.multicast()
        let log = ExploreLog()
        let victim = Mutex<SignalOutput<Int>?>(nil)
        let cancelled = Atomic<Bool>(false)
        let canceller = multi.subscribe { r in
            log.receive(r)
            if let v = victim.withLock({ $0.take() }) {
                v.cancel()
                cancelled.store(true, ordering: .relaxed)
            }
        }
        let branch = multi.subscribeValues { _ in
            if cancelled.load(ordering: .relaxed) { log.forbid("a value reached a branch after its cancel() returned") }
        }
        victim.withLock { $0 = branch }
        let threads: [@Sendable () -> Void] = (0..<2).map { sender in
            { for seq in 0..<2 { log.send(StressStamp(sender: sender, seq: seq), through: input) } }
        }
        return ExploreCase(threads: threads) {
            withExtendedLifetime((canceller, input)) { log.check(endExpected: false) }
        }
    }
}

/// A junction moved from one input to another while values flow through it.
package struct ExploreJunctionRebind: ExploreScenario {
    package init() {}
    package let name = "junction-rebind"
    package let summary = "a junction disconnected and bound to another input while a thread sends through it"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, source) = Signal<Int>.create(delivery: variant)
        let junction = source.junction()
        let (first, firstSignal) = Signal<Int>.create(delivery: variant)
        let (second, secondSignal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        let outputs = [firstSignal.subscribe { log.receive($0) }, secondSignal.subscribe { log.receive($0) }]
        let setup = junction.bind(to: first)
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<3 { log.send(StressStamp(sender: 0, seq: seq), through: input) } },
            {
                _ = junction.disconnect()
                if let e = junction.bind(to: second) { log.forbid("bind after disconnect refused: \(e)") }
            },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((outputs, input, first, second, junction)) {
                // A value accepted while the junction was disconnected is dropped there, as
                // documented: only order and duplicates are judged.
                (setup.map { ["setup bind refused: \($0)"] } ?? []) + log.check(endExpected: false, acceptedArrive: false)
            }
        }
    }
}

/// A merged input gets a source added and another removed while both send.
package struct ExploreMergedAddRemove: ExploreScenario {
    package init() {}
    package let name = "merged-add-remove"
    package let summary = "a merged input adds a source and removes another while values flow"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (aIn, a) = Signal<Int>.create(delivery: variant)
        let (bIn, b) = Signal<Int>.create(delivery: variant)
        merged.add(a)
        let log = ExploreLog()
        let output = signal.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<2 { log.send(StressStamp(sender: 0, seq: seq), through: aIn) } },
            {
                merged.add(b)
                for seq in 0..<2 { log.send(StressStamp(sender: 1, seq: seq), through: bIn) }
                merged.remove(a)
            },
        ]
        return ExploreCase(threads: threads) {
            // A value of the removed source in transit when it is removed may be dropped
            // (`SignalMergedInput.remove`): only the other source's must arrive.
            withExtendedLifetime((output, aIn, bIn, merged)) { log.check(endExpected: false, mayDrop: [0]) }
        }
    }
}

/// `capture()` of a continuous multi while a thread sends into it: the captured value and
/// the values after it arrive once each, with none between them missing.
package struct ExploreCapture: ExploreScenario {
    package init() {}
    package let name = "capture"
    package let summary = "capture() of a continuous multi, then a subscription to it, while a thread sends"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let log = ExploreLog()
        let captured = Mutex<[Int]>([])
        let live = ExploreLog()
        let keep = Mutex<[AnyObject]>([])
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<3 { log.send(StressStamp(sender: 0, seq: seq), through: input) } },
            {
                let capture = multi.capture()
                let values = capture.values
                captured.withLock { $0 = values }
                let output = capture.subscribeValues { live.receive(value: $0) }
                keep.withLock { $0 = [capture, output] }
            },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((input, multi)) {
                let all = captured.withLock { $0 } + live.values
                var problems: [String] = []
                for (x, y) in zip(all, all.dropFirst()) where y != x + 1 {
                    problems.append("capture then live: \(all), not consecutive")
                    break
                }
                // Everything accepted after the capture reaches it: the last accepted value
                // (the log's own subscriber-less record) ends the run.
                let sent = log.check(endExpected: false, acceptedArrive: false)
                if let lastSent = log.accepted.last, all.last != lastSent {
                    problems.append("capture then live: \(all), the last accepted value \(lastSent) missing")
                }
                keep.withLock { $0 = [] }
                return problems + sent
            }
        }
    }
}
