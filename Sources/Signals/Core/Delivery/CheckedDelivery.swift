import Synchronization

/// The fate of one queued value of a node that starts a new generation on deactivation
/// (`generate`): decided once, either by the holder (delivered, or dropped because its
/// generation is gone) or by the sender (withdrawn), so that the sender's `send` reports
/// what really happens to the value.
///
/// Why: a value that passed its input's status check just before its activation ended can
/// be queued after that end's detach reopened the queue for the next generation. The holder
/// drops such a value; before, its send had already returned nil ("accepted"), and the value
/// was lost. Now a sender that finds the generation gone once its value is queued withdraws
/// it (the holder will skip it) and reports it refused, unless the holder got to it first, in
/// which case it reports what the holder did. Only contended sends into such nodes build one.
@usableFromInline
final class CheckedDelivery: Sendable {
    @usableFromInline static let pending: UInt8 = 0
    @usableFromInline static let delivered: UInt8 = 1
    @usableFromInline static let withdrawn: UInt8 = 2
    @usableFromInline static let dropped: UInt8 = 3

    @usableFromInline let state = Atomic<UInt8>(CheckedDelivery.pending)

    @inlinable init() {}

    /// For the holder: decides (the generation still current: delivered; gone: dropped) and,
    /// if delivered, runs `deliver`; nothing if the sender withdrew the value first. The
    /// verdict is published before the delivery, so a sender that reads it reads the outcome.
    @inlinable func deliver(current: Bool, _ deliver: () -> Void) {
        let verdict = current ? Self.delivered : Self.dropped
        guard state.compareExchange(expected: Self.pending, desired: verdict, ordering: .acquiringAndReleasing).exchanged else { return }
        if current { deliver() }
    }

    /// For the sender, once the value is queued: whether its send accepted it. With the
    /// generation still current, the value is ahead of any end of it, so it is delivered (or
    /// dropped by a cancel, which a send does not promise against). Otherwise it is withdrawn
    /// if the holder has not decided yet, or the holder's verdict stands.
    @inlinable func accepted(stillCurrent: Bool) -> Bool {
        if stillCurrent { return true }
        let (exchanged, original) = state.compareExchange(expected: Self.pending, desired: Self.withdrawn, ordering: .acquiringAndReleasing)
        return !exchanged && original == Self.delivered
    }
}
