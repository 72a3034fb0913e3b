// `bench explore` scenarios about sending: concurrent senders, a re-entrant send, an end.

import Signals
import Synchronization

/// Two threads send two values each into one input.
package struct ExploreSendPair: ExploreScenario {
    package init() {}
    package let name = "send-pair"
    package let summary = "two threads send two values each into one input"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        concurrentSenders(2, valuesEach: 2, variant)
    }
}

/// Three threads send two values each into one input: whoever holds the node drains while
/// one sender can be paused between taking its slot and publishing it and another's values
/// come after that slot, the shape in which a holder must wait for the slot, not release.
package struct ExploreSendTriple: ExploreScenario {
    package init() {}
    package let name = "send-triple"
    package let summary = "three threads send two values each into one input"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        concurrentSenders(3, valuesEach: 2, variant)
    }
}

/// `senders` threads send `valuesEach` values each into one input; every value must arrive
/// once, each sender's in order, and no end.
func concurrentSenders(_ senders: Int, valuesEach: Int, _ variant: DeliveryVariant) -> ExploreCase {
    let (input, signal) = Signal<Int>.create(delivery: variant)
    let log = ExploreLog()
    let output = signal.subscribe { log.receive($0) }
    let threads: [@Sendable () -> Void] = (0..<senders).map { sender in
        { for seq in 0..<valuesEach { log.send(StressStamp(sender: sender, seq: seq), through: input) } }
    }
    return ExploreCase(threads: threads) {
        withExtendedLifetime((output, input)) { log.check(endExpected: false) }
    }
}

/// Three threads send one value each into one input whose handler sends once more for each
/// of those values, re-entrantly, from whichever thread delivers it. Each thread's values,
/// direct or re-entrant, must arrive in the order that thread sent them: a thread that claims
/// the node with its own value still queued must not let its re-entrant send overtake it.
package struct ExploreReentrantSend: ExploreScenario {
    package init() {}
    package let name = "reentrant-send"
    package let summary = "three threads send into an input whose handler sends again, re-entrantly"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        // Per thread: its number and its next sequence number (direct and re-entrant sends share it).
        let senders = Mutex<[UInt: (index: Int, next: Int)]>([:])
        @Sendable func nextValue() -> StressStamp {
            senders.withLock { s in
                let me = stressThreadToken()
                var entry = s[me] ?? (index: s.count, next: 0)
                defer { entry.next += 1; s[me] = entry }
                return StressStamp(sender: entry.index, seq: entry.next)
            }
        }
        // Re-entrant values are marked by 100 added to their sequence number (a thread sends
        // one direct value, its 0th), so they are not sent again.
        let output = signal.subscribe { r in
            log.receive(r)
            if case .success(let v) = r, StressStamp(encoded: v).seq < 100 {
                let fresh = nextValue()
                log.send(StressStamp(sender: fresh.sender, seq: fresh.seq + 100), through: input)
            }
        }
        let threads: [@Sendable () -> Void] = (0..<3).map { index in
            {
                // Registers this thread's number before anything it delivers can ask for it.
                senders.withLock { s in s[stressThreadToken()] = (index: index, next: 0) }
                log.send(nextValue(), through: input)
            }
        }
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: false) }
        }
    }
}

/// One thread sends while another ends the stream.
package struct ExploreSendEnd: ExploreScenario {
    package init() {}
    package let name = "send-end"
    package let summary = "one thread sends three values while another completes the input"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        let output = signal.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<3 { log.send(StressStamp(sender: 0, seq: seq), through: input) } },
            { _ = input.send(end: .complete) },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: true) }
        }
    }
}

/// One thread sends and ends the stream while another cancels the subscription and subscribes
/// again: a cancel that finds the end's detach running on the other thread waits for it (a
/// wait the scheduler turns into turns), so nothing reaches the handler once `cancel()`
/// returned and the signal is free for the new subscription (never `.duplicate`).
package struct ExploreEndCancel: ExploreScenario {
    package init() {}
    package let name = "end-cancel"
    package let summary = "one thread sends and completes while another cancels the subscription"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        let cancelled = Atomic<Bool>(false)
        let second = Mutex<SignalOutput<Int>?>(nil)
        let output = signal.subscribe { r in
            if cancelled.load(ordering: .relaxed) { log.forbid("a delivery after cancel() returned: \(r)") }
            log.receive(r)
        }
        let threads: [@Sendable () -> Void] = [
            {
                for seq in 0..<2 { log.send(StressStamp(sender: 0, seq: seq), through: input) }
                _ = input.send(end: .complete)
            },
            {
                output.cancel()
                cancelled.store(true, ordering: .relaxed)
                let again = signal.subscribe { r in
                    if case .failure(.other(let e)) = r, e as? SignalBindError == .duplicate {
                        log.forbid("a subscription right after cancel() returned was refused as a duplicate")
                    }
                }
                second.withLock { $0 = again }
            },
        ]
        return ExploreCase(threads: threads) {
            // A cancel may come before the values: only order, duplicates and the end's place.
            withExtendedLifetime((output, input)) {
                defer { second.withLock { $0 = nil } }
                return log.check(endExpected: false, acceptedArrive: false)
            }
        }
    }
}
