import Signals
import Synchronization

// The values that travel through the graphs under test and the senders' records of what the
// library said to each send.

/// The value every stress graph carries: who sent it and its place in that sender's order
/// (its stamp), a tag (re-entrancy depth, activation number…) and a counted token, so a value
/// that the library keeps alive too long shows up as a leak.
package struct StressMsg: Sendable {
    /// The sender (actor, or a pseudo-sender such as re-entrant sends from a handler) and its
    /// sequence number.
    package let stamp: StressStamp
    /// Scenario-specific: re-entrancy depth, activation number…
    package let tag: Int
    /// The counted token.
    package let token: StressToken

    /// The `seq`th value of `sender`.
    package init(sender: Int, seq: Int, tag: Int = 0, token: StressToken) {
        stamp = StressStamp(sender: sender, seq: seq)
        self.tag = tag
        self.token = token
    }
}

/// One sender's record of what it sent: for each sequence number, whether the send was
/// accepted (returned nil) or refused (an explicit drop). Written by that sender only; read by
/// the arbiter after the sender has finished.
package final class StressSender: @unchecked Sendable {
    /// Not sent.
    package static let unsent: UInt8 = 0
    /// Accepted: the library said it will deliver it.
    package static let accepted: UInt8 = 1
    /// Refused with an error: explicitly dropped.
    package static let refused: UInt8 = 2

    /// The sender's id (the `sender` field of its values).
    package let id: Int
    /// Per sequence number: `unsent`, `accepted` or `refused`.
    package var status: [UInt8]
    /// The next sequence number.
    package var nextSeq = 0
    /// Sequence numbers whose loss is forbidden even where the scenario tolerates drops
    /// (for example values sent before the same thread ended the stream).
    package var mustArriveBelow = 0

    /// With a clock: per sequence number, the clock's reading just before the send started
    /// and just after it returned.
    package let clock: StressClock?
    package var startedAt: [Int] = []
    package var returnedAt: [Int] = []

    /// A sender that may send up to `capacity` values; with `clock`, each send is stamped.
    package init(id: Int, capacity: Int, clock: StressClock? = nil) {
        self.id = id
        self.clock = clock
        status = [UInt8](repeating: StressSender.unsent, count: max(1, capacity))
        if clock != nil {
            startedAt = [Int](repeating: Int.max, count: status.count)
            returnedAt = startedAt
        }
    }

    /// Sends the next value through `send` and records the outcome.
    @inline(__always) @discardableResult
    package func send(tag: Int = 0, ledger: StressLedger, _ send: (StressMsg) -> SignalSendError?) -> SignalSendError? {
        let seq = nextSeq
        guard seq < status.count else { return .disconnected }
        nextSeq = seq &+ 1
        if let clock { startedAt[seq] = clock.tick() }
        let error = send(StressMsg(sender: id, seq: seq, tag: tag, token: ledger.token()))
        if let clock { returnedAt[seq] = clock.tick() }
        status[seq] = error == nil ? StressSender.accepted : StressSender.refused
        return error
    }

    /// The sending loop most scenarios share: sends `count` values through `send`, one after
    /// another, perturbing the schedule between sends and reporting progress as actor `actor`
    /// of `iteration` (so the watchdog can show how far each sender got).
    package func sendAll(_ count: Int, actor: Int, of iteration: StressIteration, ledger: StressLedger,
                        random: inout StressRandom, _ send: (StressMsg) -> SignalSendError?) {
        for i in 0..<count {
            self.send(ledger: ledger, send)
            random.perturb()
            if i & 31 == 0 { iteration.progress(actor, i) }
        }
    }

    /// Records the outcome of a value sent by hand (`seq` must be `nextSeq`).
    package func record(seq: Int, accepted: Bool) {
        guard seq < status.count else { return }
        status[seq] = accepted ? StressSender.accepted : StressSender.refused
        nextSeq = max(nextSeq, seq + 1)
    }

    /// How many values were accepted.
    package var acceptedCount: Int { status.reduce(0) { $0 + ($1 == StressSender.accepted ? 1 : 0) } }
}

/// A shared logical clock: each tick is a relaxed read-modify-write on one word, so ticks from
/// all threads fall in one total order without adding any synchronization between them.
package final class StressClock: Sendable {
    let now = Atomic<Int>(0)
    /// A clock at 0.
    package init() {}
    /// The next reading.
    @inline(__always) package func tick() -> Int { now.wrappingAdd(1, ordering: .relaxed).oldValue }
}
