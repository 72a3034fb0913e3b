/// Who sent a value and its place in that sender's order: what every check of loss,
/// duplication and per-sender order reads back from a delivery. The one spelling of the pair in
/// both runners: `StressMsg` carries it, graphs of `Int` (`bench explore`'s scenarios, the
/// generated cases, the deep-graph scenarios) carry it `encoded`, and `StressRecorder` packs it
/// into its slots the same way.
package struct StressStamp: Hashable, Sendable, CustomStringConvertible {
    /// Bits of the sequence number in `encoded`; the sender is above them.
    package static let seqBits = 32
    /// The sequence number's bits of `encoded`.
    package static let seqMask = 1 << seqBits - 1

    /// The sender (a thread, an input, or a pseudo-sender such as a handler's re-entrant sends).
    package let sender: Int
    /// The sender's sequence number, from 0.
    package let seq: Int

    /// The `seq`th value of `sender`.
    package init(sender: Int, seq: Int) {
        self.sender = sender
        self.seq = seq
    }

    /// The stamp carried in an `Int`: `sender << 32 | seq`, the sequence number taken modulo
    /// 2³². Non-negative for a non-negative sender, so a scenario can keep negative values for
    /// probes that no sender sent; below 2⁴⁰ for fewer than 256 senders, so a graph can add
    /// multiples of 2⁴⁰ on the way and still read the stamp back.
    package var encoded: Int { sender << Self.seqBits | (seq & Self.seqMask) }

    /// The stamp `encoded` carries.
    package init(encoded: Int) {
        sender = encoded >> Self.seqBits
        seq = encoded & Self.seqMask
    }

    /// "sender:seq", as `StressEvent` prints a value.
    package var description: String { "\(sender):\(seq)" }
}
