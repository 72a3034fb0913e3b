import Synchronization

/// A hold on a signal's output, counted: one for its claimant (the derived signal, until it is
/// released; a subscription, until it has detached), one for each claim that keeps it. When
/// the count reaches zero the output is free again and the hold on the next signal upstream
/// is dropped in turn.
///
/// Counted rather than weakly referenced: a weak reference would give the claimant a side
/// table (an allocation per subscription).
@usableFromInline
class OutputClaim: @unchecked Sendable {
    // Unchecked: `kept` is written once, before the claim is shared or dropped.
    @usableFromInline let holds = Atomic<Int>(1)
    @exclusivity(unchecked) @usableFromInline var kept: OutputClaim?
    /// The signal whose slot holds this claim (set by `takeOutput(by:)`, before the claim is
    /// shared), cleared by the last `drop`. A strong reference: the slot and this claim form a
    /// cycle for as long as the claim holds the output, broken by the last `drop`, which takes
    /// the claim out of the slot.
    @exclusivity(unchecked) @usableFromInline var slotOwner: (any ClaimSlotOwner)?

    @usableFromInline init() {}

    @usableFromInline var isHolding: Bool { holds.load(ordering: .acquiring) > 0 }

    /// Keeps `upstream` held until this claim is dropped.
    @usableFromInline func keep(_ upstream: OutputClaim) {
        upstream.holds.wrappingAdd(1, ordering: .acquiringAndReleasing)
        kept = upstream
    }

    /// Drops one hold; the last one frees the output and drops what this claim kept.
    ///
    /// A loop over the claims kept upstream, not a call per claim: a chain of any length is
    /// dropped in constant stack. A signal freed on the way (the last reference to a derived
    /// signal was its slot's claim) hands its own claim to `PendingReleases`, so that is not
    /// a recursion either.
    @usableFromInline func drop() {
        var next: OutputClaim? = self
        while let claim = next {
            next = nil
            guard claim.holds.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 else { return }
            next = claim.kept
            claim.kept = nil
            // Leaves the slot: a stopped subscription's handler is released now, not when
            // the signal is next subscribed or freed. The reference to the signal goes too:
            // kept, it would keep a derived signal (and its own hold upstream) alive for as
            // long as a cancelled output is, and the upstream output taken.
            let owner = claim.slotOwner
            claim.slotOwner = nil
            owner?.releaseClaim(claim)
        }
    }
}
