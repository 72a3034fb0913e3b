import Synchronization

/// Feeds the chain of an upstream signal into a node while the node is active.
///
/// `makeSink` builds the sink that forwards into the node (as it is, or tagged for combine and
/// merge). Callers write it in `@inlinable` code so the per-value closure is specialized in the
/// client module, not left generic in this one.
@usableFromInline
final class ChainFeeder<U: Sendable, E: Sendable>: NodeFeeder, AttachmentReceiver, @unchecked Sendable {
    // Unchecked: `attachment` is touched only by the node's activation runner.
    @usableFromInline let upstreamAttach: @Sendable (SignalSink<U>) -> ChainAttachment
    @usableFromInline let root: NodeBase
    /// Unowned: the node owns its feeders, and only the node's own activation runner calls
    /// `activate()`, so the node is alive whenever this is read. While active, the sink holds
    /// the node strongly, and that cycle is broken by deactivation. (Not `weak`: a weak
    /// reference gives the node a side table, and every retain and release of the node then
    /// takes the runtime's slow path: two per subscribe + cancel on a multicast.)
    @usableFromInline unowned let target: SignalNode<E>
    @usableFromInline let makeSink: @Sendable (SignalNode<E>) -> SignalSink<U>
    @usableFromInline var attachment: ChainAttachment?
    /// The signal this feeder came from, so a merged input can remove it.
    @usableFromInline let sourceID: ObjectIdentifier
    /// The attachment of the chain while `activate()` is attaching it (told early by the
    /// chain's root), for `abandonActivation()`, which may come from another thread.
    let inProgress = Mutex<ChainAttachment?>(nil)

    @inlinable
    init(upstream: Signal<U>, into target: SignalNode<E>,
         makeSink: @escaping @Sendable (SignalNode<E>) -> SignalSink<U>) {
        upstreamAttach = upstream.attachChain
        let upstreamRoot = upstream.root
        upstreamRoot.markFeedsANode()
        root = upstreamRoot
        sourceID = ObjectIdentifier(upstream)
        self.target = target
        self.makeSink = makeSink
    }

    @usableFromInline var upstreamRoot: NodeBase? { root }

    @usableFromInline func activate() {
        attachment = DepthBounds.attaching(for: self) { upstreamAttach(makeSink(target)) }
        inProgress.withLock { $0 = nil }
    }

    @usableFromInline func attachmentMade(_ attachment: ChainAttachment) {
        // `abandonActivation` may detach it from another thread.
        attachment.publishForDetach()
        inProgress.withLock { $0 = attachment }
    }

    @usableFromInline func abandonActivation() {
        inProgress.withLock { $0 }?.detach(endedWith: nil)
    }

    @usableFromInline func deactivate() {
        attachment?.detach(endedWith: nil)
        attachment = nil
    }

    @usableFromInline func refuseSendsBeforeDeactivating() {
        attachment?.refuseSendsBeforeDetach()
    }
}

/// A feeder that only records an edge of the graph (a junction bound to an input), for loop
/// detection.
final class EdgeFeeder: NodeFeeder, @unchecked Sendable {
    let root: NodeBase
    init(root: NodeBase) {
        self.root = root
        root.markFeedsANode()
    }
    var upstreamRoot: NodeBase? { root }
    func activate() {}
    func deactivate() {}
}
