import Synchronization

/// The receiving end of a stream of values: `Result<T, SignalEnd>`, where the first end closes
/// the stream.
///
/// A `Signal` has a single output: transform it (`map`, `filter`, `transform`, …) or subscribe
/// to it once. Taking its output a second time fails with `SignalBindError.duplicate`,
/// delivered as a value to whatever tried. For many outputs, make a `SignalMulti` with
/// `continuous()`, `playback()`, `multicast()` or `buffer(initials:updater:)`.
///
/// Nothing flows until the graph is active: subscribing activates every stage the output
/// depends on, and cancelling or releasing the `SignalOutput` deactivates them again.
///
/// Chains of `.direct` stages are fused: they run as one composed closure inside the delivery
/// of the node upstream of them, which already serializes them, so an extra stage costs one
/// closure call rather than another trip through a delivery queue.
public class Signal<T: Sendable>: @unchecked Sendable {
    // Unchecked Sendable: the stored closure is @Sendable; `outputTaken` is atomic.

    /// The delivery variant of the graph this signal belongs to; derived nodes inherit it.
    public let delivery: DeliveryVariant

    /// The node whose holder runs this signal's fused chain (for loop detection).
    @usableFromInline let root: NodeBase

    /// Connects a sink at the end of this signal's chain, building the fused chain (and fresh
    /// per-activation state) down from the root. Called on every activation.
    @usableFromInline let attachChain: @Sendable (SignalSink<T>) -> ChainAttachment

    @usableFromInline let outputTaken = Atomic<Bool>(false)

    @usableFromInline
    init(delivery: DeliveryVariant, root: NodeBase,
         attachChain: @escaping @Sendable (SignalSink<T>) -> ChainAttachment) {
        self.delivery = delivery
        self.root = root
        self.attachChain = attachChain
    }

    /// A signal whose chain is rooted at `node`.
    @usableFromInline
    convenience init(rootedAt node: SignalNode<T>) {
        self.init(delivery: node.variant, root: node) { sink in
            let box = node.attach(sink)
            return ChainAttachment { end in node.detach(endedWith: end, closing: box) }
        }
    }

    /// Takes the single output. `SignalMulti` overrides this: it has as many as asked for.
    @usableFromInline
    func takeOutput() -> Bool {
        !outputTaken.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// A signal that fails with `SignalBindError.duplicate` as soon as it is used.
    @usableFromInline
    static func duplicate(delivery: DeliveryVariant, root: NodeBase) -> Signal<T> {
        let placeholder = Signal(delivery: delivery, root: root) { sink in
            sink(.failure(.other(SignalBindError.duplicate)))
            return ChainAttachment { _ in }
        }
        // Its output counts as taken, so everything built on it (a junction, a merged input,
        // a capture's bind) refuses with `.duplicate` rather than reporting success.
        placeholder.outputTaken.store(true, ordering: .releasing)
        return placeholder
    }

    /// Appends a fused stage: `build` is called on every activation with the downstream sink
    /// and returns the sink for this stage (so per-activation state starts afresh).
    @inlinable
    func appending<U>(_ build: @escaping @Sendable (SignalSink<U>) -> SignalSink<T>) -> Signal<U> {
        guard takeOutput() else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal<U>(delivery: delivery, root: root) { sink in upstream(build(sink)) }
    }

    /// This signal's values delivered through a node of its own on `context`, which serializes
    /// them there. `.direct` returns `self`.
    @inlinable
    public func hop(to context: Exec) -> Signal<T> {
        if context.isDirect { return self }
        guard takeOutput() else { return .duplicate(delivery: delivery, root: root) }
        let node = SignalNode<T>(variant: delivery, context: context)
        node.addFeeder(FeederRecord(ChainFeeder(upstream: self, into: node) { n in SignalSink { r in n.deliver(r) } }))
        return Signal(rootedAt: node)
    }
}

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

    /// Disconnects the chain; `end` says the chain ended (its root closes for good).
    @usableFromInline final func detach(endedWith end: SignalEnd?) {
        if !detached.exchange(true, ordering: .acquiringAndReleasing) { performDetach(end) }
    }

    /// Does the disconnection; runs once.
    @usableFromInline func performDetach(_ end: SignalEnd?) {
        onDetach?(end)
    }
}

/// Feeds the chain of an upstream signal into a node while the node is active.
///
/// `makeSink` builds the sink that forwards into the node (as it is, or tagged for combine and
/// merge). Callers write it in `@inlinable` code so the per-value closure is specialized in the
/// client module, not left generic in this one.
@usableFromInline
final class ChainFeeder<U: Sendable, E: Sendable>: NodeFeeder, @unchecked Sendable {
    // Unchecked: `attachment` is touched only by the node's activation runner.
    @usableFromInline let upstreamAttach: @Sendable (SignalSink<U>) -> ChainAttachment
    @usableFromInline let root: NodeBase
    /// Weak: the node owns its feeders. While active, the sink holds the node strongly, and
    /// that cycle is broken by deactivation.
    @usableFromInline weak var target: SignalNode<E>?
    @usableFromInline let makeSink: @Sendable (SignalNode<E>) -> SignalSink<U>
    @usableFromInline var attachment: ChainAttachment?
    /// The signal this feeder came from, so a merged input can remove it.
    @usableFromInline let sourceID: ObjectIdentifier

    @inlinable
    init(upstream: Signal<U>, into target: SignalNode<E>,
         makeSink: @escaping @Sendable (SignalNode<E>) -> SignalSink<U>) {
        upstreamAttach = upstream.attachChain
        root = upstream.root
        sourceID = ObjectIdentifier(upstream)
        self.target = target
        self.makeSink = makeSink
    }

    @usableFromInline var upstreamRoot: NodeBase? { root }

    @usableFromInline func activate() {
        guard let node = target else { return }
        attachment = upstreamAttach(makeSink(node))
    }

    @usableFromInline func deactivate() {
        attachment?.detach(endedWith: nil)
        attachment = nil
    }
}

/// A feeder that only records an edge of the graph (a junction bound to an input), for loop
/// detection.
final class EdgeFeeder: NodeFeeder, @unchecked Sendable {
    let root: NodeBase
    init(root: NodeBase) { self.root = root }
    var upstreamRoot: NodeBase? { root }
    func activate() {}
    func deactivate() {}
}
