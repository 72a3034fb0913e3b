import Synchronization

/// A hold on a signal's output, counted: one for whoever took it (the derived signal, until it
/// is released; a subscription, until it has detached), one for each hold downstream that
/// keeps it. When
/// the count reaches zero the output is free again and the hold on the next signal upstream
/// is dropped in turn.
///
/// Counted rather than weakly referenced: a weak reference would give the taker a side
/// table (an allocation per subscription).
@usableFromInline
class OutputHold: @unchecked Sendable {
    // Unchecked: `kept` is written once, before the hold is shared or dropped.
    @usableFromInline let holds = Atomic<Int>(1)
    @exclusivity(unchecked) @usableFromInline var kept: OutputHold?
    /// The signal whose slot this hold is in (set by `takeOutput(by:)`, before the hold is
    /// shared), cleared by the last `drop`. A strong reference: the slot and this hold form a
    /// cycle for as long as the hold is counted, broken by the last `drop`, which takes
    /// the hold out of the slot.
    @exclusivity(unchecked) @usableFromInline var slotOwner: (any OutputHoldSlotOwner)?

    @usableFromInline init() {}

    @usableFromInline var isHolding: Bool { holds.load(ordering: .acquiring) > 0 }

    /// Keeps `upstream` held until this hold is dropped.
    @usableFromInline func keep(_ upstream: OutputHold) {
        upstream.holds.wrappingAdd(1, ordering: .acquiringAndReleasing)
        kept = upstream
    }

    /// Drops one hold; the last one frees the output and drops what this hold kept.
    ///
    /// A loop over the holds kept upstream, not a call per hold: a chain of any length is
    /// dropped in constant stack. A signal freed on the way (the last reference to a derived
    /// signal was its slot's hold) hands its own hold to `PendingReleases`, so that is not
    /// a recursion either.
    @usableFromInline func drop() {
        var next: OutputHold? = self
        while let hold = next {
            next = nil
            guard hold.holds.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 else { return }
            next = hold.kept
            hold.kept = nil
            // Leaves the slot: a stopped subscription's handler is released now, not when
            // the signal is next subscribed or freed. The reference to the signal goes too:
            // kept, it would keep a derived signal (and its own hold upstream) alive for as
            // long as a cancelled output is, and the upstream output taken.
            let owner = hold.slotOwner
            hold.slotOwner = nil
            owner?.releaseHold(hold)
        }
    }
}
