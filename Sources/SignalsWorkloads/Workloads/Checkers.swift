import SignalsReports
import Synchronization

/// Detects a handler entered while another call of it is still running.
///
/// Uses a relaxed load and a relaxed store rather than an exchange: on x86 both are plain
/// moves (about 1 ns), where an atomic read-modify-write would add 10–20 ns to every value and
/// distort the figures being measured. The price is that detection is probabilistic: two
/// overlapping calls are caught whenever one sees the other's flag, which over the hundreds of
/// thousands of values of a repetition is near certain (the tests show it).
package final class OverlapGuard: @unchecked Sendable {
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)

    package init() {}

    @inline(__always)
    package func enter() {
        if inside.load(ordering: .relaxed) != 0 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        inside.store(1, ordering: .relaxed)
    }

    @inline(__always)
    package func exit() { inside.store(0, ordering: .relaxed) }

    package var overlapCount: Int { overlaps.load(ordering: .relaxed) }
}

/// The handler side of every workload: checks exactly-once delivery, each sender's order and
/// that the handler is never entered concurrently, and stamps end-to-end latency samples.
///
/// Values are `sender << 32 | sequence`, each sender counting from 0. The checker is owned by
/// one handler; its per-sender state is plain memory because a correct subject never runs the
/// handler concurrently (a broken one corrupts counts, which the totals then expose too).
package final class DeliveryChecker: @unchecked Sendable {
    package let senders: Int
    let next: UnsafeMutablePointer<Int>
    let guardFlag = OverlapGuard()
    /// Written only by the handler (relaxed store, no read-modify-write); read by waiters.
    let receivedCount = Atomic<Int>(0)
    var backwards = 0
    var gaps = 0
    var foreign = 0
    let sampler: LatencySampler?
    let receiverIndex: Int

    package init(senders: Int, sampler: LatencySampler? = nil, receiverIndex: Int = 0) {
        self.senders = max(1, senders)
        next = .allocate(capacity: self.senders)
        next.initialize(repeating: 0, count: self.senders)
        self.sampler = sampler
        self.receiverIndex = receiverIndex
    }

    deinit { next.deallocate() }

    /// The handler: call once per delivered value.
    @inline(__always)
    package func receive(_ value: Int) {
        guardFlag.enter()
        let sender = value >> 32
        let seq = value & 0xFFFF_FFFF
        if sender >= 0 && sender < senders {
            let expected = next[sender]
            if seq == expected {
                next[sender] = expected &+ 1
            } else if seq > expected {
                gaps &+= seq &- expected
                next[sender] = seq &+ 1
            } else {
                backwards &+= 1
            }
        } else {
            foreign &+= 1
        }
        // One clock read and one store, in a latency round only (`LatencySampler`).
        if let s = sampler, s.isSampled(seq) { s.delivered(value, receiver: receiverIndex) }
        receivedCount.store(receivedCount.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        guardFlag.exit()
    }

    /// Whether this handler stores a latency timestamp per sampled value (an end-to-end or
    /// open-loop round); false in throughput and send-call rounds.
    package var stampsLatency: Bool { sampler != nil }

    /// Values delivered so far (safe to read from any thread).
    package var received: Int { receivedCount.load(ordering: .acquiring) }

    /// Checks the delivered values against what was sent.
    /// - Parameters:
    ///   - sent: values sent by each sender (index = sender number).
    ///   - allowDrops: the `mutation` workload may drop values in transit (rebinding), but must
    ///     never deliver one twice or out of order.
    ///   - name: which handler, for the message ("subscriber 3").
    /// - Returns: the violated guarantees, and the number of values dropped.
    package func verify(sent: [Int], allowDrops: Bool = false, name: String = "subscriber") -> (violations: [Violation], dropped: Int) {
        var violations: [Violation] = []
        let overlaps = guardFlag.overlapCount
        if overlaps > 0 {
            violations.append(Violation(guarantee: "no concurrent entry",
                                        detail: "\(name)'s handler was entered while already running",
                                        counts: ["overlaps": overlaps]))
        }
        if backwards > 0 {
            violations.append(Violation(guarantee: "per-sender order",
                                        detail: "\(name) received a value at or below one already delivered from the same sender (reordered or duplicated)",
                                        counts: ["backwardValues": backwards]))
        }
        if foreign > 0 {
            violations.append(Violation(guarantee: "exactly once",
                                        detail: "\(name) received values no sender sent",
                                        counts: ["foreignValues": foreign]))
        }
        let totalSent = sent.reduce(0, +)
        let received = self.received
        var missing = 0
        for s in 0..<min(senders, sent.count) {
            // Sequence numbers never delivered: skipped over (gaps) or never reached.
            missing += max(0, sent[s] - next[s])
        }
        missing += gaps
        let dropped = allowDrops ? max(0, totalSent - (received - backwards)) : 0
        if !allowDrops {
            if missing > 0 {
                violations.append(Violation(guarantee: "exactly once",
                                            detail: "\(name) never received some values that were sent",
                                            counts: ["sent": totalSent, "received": received, "missing": missing]))
            } else if received > totalSent {
                violations.append(Violation(guarantee: "exactly once",
                                            detail: "\(name) received more values than were sent",
                                            counts: ["sent": totalSent, "received": received]))
            }
        }
        return (violations, dropped)
    }
}
