import Synchronization

/// Who holds a signal's output (see `Signal.takeOutput(by:)`).
@usableFromInline
struct ClaimSlot {
    @usableFromInline var holder: OutputClaim?
    @usableFromInline var permanentlyTaken = false
    @usableFromInline init() {}
    @usableFromInline var isTaken: Bool { permanentlyTaken || (holder?.isHolding ?? false) }
}

/// What a claim is held in: a signal's output slot.
@usableFromInline
protocol ClaimSlotOwner: AnyObject, Sendable {
    /// Takes `claim` out of the slot if it still holds it.
    func releaseClaim(_ claim: OutputClaim)
    /// The node whose holder runs the chain of the signal that owns the slot.
    var chainRoot: NodeBase { get }
}

extension Signal: ClaimSlotOwner {}
