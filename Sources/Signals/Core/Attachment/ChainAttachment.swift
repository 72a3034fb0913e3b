import Synchronization

/// A live connection of a chain to its root. Detaching it (once) disconnects the chain.
///
/// Subclasses (a multi node's branch) carry their own state instead of a closure, which
/// saves allocations on paths that attach and detach often.
@usableFromInline
class ChainAttachment: @unchecked Sendable {
    @usableFromInline let detached = Atomic<Bool>(false)
    @usableFromInline let onDetach: (@Sendable (SignalEnd?) -> Void)?

    @usableFromInline init(_ onDetach: @escaping @Sendable (SignalEnd?) -> Void) {
        self.onDetach = onDetach
    }

    /// For subclasses that override `performDetach`.
    @usableFromInline init() {
        onDetach = nil
    }

    /// Orders everything written before this call (the attachment's initialization) before a
    /// `detach` on another thread that reads `detached`: a releasing write of `detached` (its
    /// value unchanged; nothing if already detached) that `detach`'s acquiring exchange reads.
    /// For an attachment handed to another thread through a `Synchronization.Mutex`, which
    /// orders them already, but through a futex that ThreadSanitizer does not see on Linux
    /// (docs/design/delivery-path.md, "What ThreadSanitizer cannot see").
    @usableFromInline final func publishForDetach() {
        _ = detached.compareExchange(expected: false, desired: false, successOrdering: .releasing, failureOrdering: .relaxed)
    }

    /// Disconnects the chain; `end` says the chain ended (its root closes for good).
    @usableFromInline final func detach(endedWith end: SignalEnd?) {
        if !detached.exchange(true, ordering: .acquiringAndReleasing) { performDetach(end) }
    }

    /// Does the disconnection; runs once.
    @usableFromInline func performDetach(_ end: SignalEnd?) {
        onDetach?(end)
    }

    /// Makes the chain's sources refuse sends from now on, without running anything else: the
    /// first step of a deactivation that stops several chains (`NodeBase.applyActivationChanges`),
    /// taken for all of them before any of them is detached, since a detach may run user code
    /// (an `onDeactivate`, the handlers of a multi the chain leaves). Only an attachment that
    /// is its root node's single output can do this; the others do nothing.
    @usableFromInline func refuseSendsBeforeDetach() {}
}

/// The attachment of a chain that is the single output of its root node (`Signal(rootedAt:)`).
@usableFromInline
final class NodeOutputAttachment<T: Sendable>: ChainAttachment, @unchecked Sendable {
    @usableFromInline let node: SignalNode<T>
    @usableFromInline let box: SinkBox<T>

    @usableFromInline init(node: SignalNode<T>, box: SinkBox<T>) {
        self.node = node
        self.box = box
        super.init()
    }

    @usableFromInline override func performDetach(_ end: SignalEnd?) {
        node.detach(endedWith: end, closing: box)
    }

    @usableFromInline override func refuseSendsBeforeDetach() {
        if !detached.load(ordering: .acquiring) { node.refuseSendsUntilDetached() }
    }
}
