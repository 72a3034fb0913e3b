import Foundation
import Signals

/// What a scenario's handlers received and its senders had accepted, and the checks of
/// `bench stress` over them: each accepted value exactly once, each sender's values in the
/// order sent, nothing after the end, the end once and last, nothing after a `cancel()`
/// returned. A value sent through the log carries its sender and sequence number
/// (`StressStamp.encoded`); a negative value is a probe no sender sent.
///
/// Handlers record under a plain lock that no schedule point is reached inside.
package final class ExploreLog: @unchecked Sendable {
    // Unchecked: every field is touched only holding `lock`.
    enum Event { case value(Int), end(SignalEnd) }

    private let lock = NSLock()
    private var events: [Event] = []
    private var acceptedValues: [Int] = []
    private var notes: [String] = []

    /// An empty log.
    package init() {}

    /// A delivery (a subscription's handler).
    package func receive(_ r: Result<Int, SignalEnd>) {
        lock.withLock {
            switch r {
            case .success(let v): events.append(.value(v))
            case .failure(let e): events.append(.end(e))
            }
        }
    }

    /// A value delivered to a handler that watches values only.
    package func receive(value v: Int) { receive(.success(v)) }

    /// Sends `stamp` (encoded) through `input`, noting it if accepted (`send` returned nil).
    @discardableResult
    package func send(_ stamp: StressStamp, through input: SignalInput<Int>) -> Bool {
        let v = stamp.encoded
        let accepted = input.send(value: v) == nil
        if accepted { lock.withLock { acceptedValues.append(v) } }
        return accepted
    }

    /// A value in a problem's text: its stamp ("sender:seq"), or a probe's own number.
    static func describe(_ v: Int) -> String { v >= 0 ? "\(StressStamp(encoded: v))" : "\(v)" }

    /// A forbidden outcome seen by a scenario's own watch (a value after `cancel()` returned).
    package func forbid(_ what: String) { lock.withLock { if notes.count < 4 { notes.append(what) } } }

    /// The values accepted, in the order their sends returned.
    package var accepted: [Int] { lock.withLock { acceptedValues } }

    /// The values received, in order.
    package var values: [Int] {
        lock.withLock { events.compactMap { if case .value(let v) = $0 { v } else { nil } } }
    }

    /// The checks: every accepted value once (when `acceptedArrive`; except the senders in
    /// `mayDrop`, whose values in transit a graph change may drop), nothing received that was
    /// not sent, each sender's order, and the end: exactly once and last when `endExpected`,
    /// never more than once nor followed by a value otherwise.
    package func check(endExpected: Bool, acceptedArrive: Bool = true, mayDrop: Set<Int> = []) -> [String] {
        lock.withLock {
            var problems = notes
            let received = events.compactMap { if case .value(let v) = $0 { v } else { nil } }
            var seen: [Int: Int] = [:]
            for v in received { seen[v, default: 0] += 1 }
            for (v, n) in seen.sorted(by: { $0.key < $1.key }) where n > 1 {
                problems.append("value \(Self.describe(v)) delivered \(n) times")
            }
            let accepted = Set(acceptedValues)
            if acceptedArrive {
                for v in acceptedValues where seen[v] == nil && !mayDrop.contains(StressStamp(encoded: v).sender) {
                    problems.append("accepted value \(Self.describe(v)) (send returned nil) never delivered")
                }
            }
            for v in received where !accepted.contains(v) && v >= 0 {
                problems.append("value \(Self.describe(v)) delivered but never accepted")
            }
            var last: [Int: Int] = [:]
            for v in received {
                let stamp = StressStamp(encoded: v)
                let (sender, seq) = (stamp.sender, stamp.seq)
                if let before = last[sender], seq <= before {
                    problems.append("sender \(sender): \(seq) delivered after \(before)")
                }
                last[sender] = seq
            }
            let ends = events.indices.filter { if case .end = events[$0] { true } else { false } }
            if ends.count > 1 { problems.append("the end delivered \(ends.count) times") }
            if let first = ends.first, first != events.count - 1, ends.count == 1 {
                problems.append("\(events.count - 1 - first) value(s) delivered after the end")
            }
            if endExpected && ends.isEmpty { problems.append("the end never delivered") }
            return problems
        }
    }
}
