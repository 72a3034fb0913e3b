import Synchronization

/// Who holds a signal's output (see `Signal.takeOutput(by:)`).
@usableFromInline
struct OutputHoldSlot {
    @usableFromInline var holder: OutputHold?
    @usableFromInline var permanentlyTaken = false
    @usableFromInline init() {}
    @usableFromInline var isTaken: Bool { permanentlyTaken || (holder?.isHolding ?? false) }
}

/// What a hold is held in: a signal's output slot.
@usableFromInline
protocol OutputHoldSlotOwner: AnyObject, Sendable {
    /// Takes `hold` out of the slot if it still holds it.
    func releaseHold(_ hold: OutputHold)
    /// The node whose holder runs the chain of the signal that owns the slot.
    var chainRoot: NodeBase { get }
}

extension Signal: OutputHoldSlotOwner {}
