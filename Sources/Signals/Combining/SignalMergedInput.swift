import Synchronization

/// Which ends of a merged source close the merged signal.
public enum SignalEndPropagation: Sendable {
    /// None: a source's end only removes that source.
    case none
    /// `.other` errors close the merged signal; `.complete` and `.cancelled` do not.
    case errors
    /// Every end closes the merged signal.
    case all

    @inlinable func propagates(_ end: SignalEnd) -> Bool {
        switch self {
        case .none: return false
        case .errors: return end.otherError != nil
        case .all: return true
        }
    }
}

extension Signal {
    /// An input to which whole signals can be added and removed while it is active, and the
    /// signal that receives all of them.
    ///
    /// - Parameter delivery: the delivery variant of this graph and everything derived from it.
    /// - Returns: the merged input and the signal that receives everything sent or added to it.
    public static func createMergedInput(
        delivery: DeliveryVariant = .lockFree
    ) -> (input: SignalMergedInput<T>, signal: Signal<T>) {
        let node = SignalNode<T>(variant: delivery)
        let input = SignalMergedInput(node: node, expectedActive: NodeStatus.make(generation: 0, state: NodeStatus.active))
        return (input, Signal(rootedAt: node))
    }
}

/// A `SignalInput` that also takes whole signals as sources (`add`, `remove`), each running
/// while the merged signal is active.
///
/// Releasing the last reference to a merged input sends `.cancelled` once its last source is
/// gone (at once if it has none): the sources it was given keep the merged signal running, as
/// in CwlSignal, where each source holds the merged input. A source leaves when it ends (its
/// end closes the merged signal or not, by its `closePropagation`), and on deactivation when it
/// was added with `removeOnDeactivate`; after the release nothing can `remove` one.
public final class SignalMergedInput<T: Sendable>: SignalInput<T>, @unchecked Sendable {
    /// Defers the release's `.cancelled` until the last source is removed (see the type).
    @usableFromInline override func endOnRelease() {
        let expected = expectedActive
        // Weak: the node holds this closure until its last feeder goes, and must not keep
        // itself alive through it once the graph is released.
        let deferred = node.runAfterLastFeeder { [weak node] in
            _ = node?.sendEnd(.cancelled, expectedActive: expected)
        }
        if !deferred { super.endOnRelease() }
    }

    /// Adds `source`: its values are sent into this input while the merged signal is active.
    ///
    /// - Parameters:
    ///   - source: the signal to add; its single output is taken.
    ///   - closePropagation: which of the source's ends close the merged signal.
    ///   - removeOnDeactivate: whether the source is removed when the merged signal is
    ///     deactivated (CwlSignal's `removeOnDeactivate`); by default it stays and runs again
    ///     on the next activation. Every deactivation counts, a junction's `disconnect()`
    ///     followed at once by `bind(to:)` included (CwlSignal's code never removes the
    ///     source: README, "Where Signals differs from CwlSignal").
    /// - Returns: nil when added; otherwise why not, and nothing changed:
    ///   `SignalBindError.duplicate` if the source's output is taken, `.loop` if the merged
    ///   signal feeds `source`.
    @inlinable @discardableResult
    public func add(_ source: Signal<T>, closePropagation: SignalEndPropagation = .errors,
                    removeOnDeactivate: Bool = false) -> SignalBindError? {
        let expected = expectedActive
        let ended = MergedSourceRemoval()
        let record = FeederRecord(MergedSourceFeeder(
            upstream: source, node: node,
            makeSink: { node in
                SignalSink { r in
                    switch r {
                    case .success: node.forward(r)
                    case .failure(let e):
                        if closePropagation.propagates(e) { _ = node.sendEnd(e, expectedActive: expected) }
                        // A source that ended is removed, whether or not its end closed the
                        // merged signal: it is never re-attached, and must not stay subscribed.
                        ended.remove(from: node)
                    }
                }
            }))
        ended.record = record
        if removeOnDeactivate {
            // Unowned: this runs in the node's own deactivation, and a weak reference would give
            // the node a side table (see `ChainFeeder.target`).
            (record.feeder as? MergedSourceFeeder<T>)?.onDeactivate = { [unowned node = self.node] in
                ended.remove(from: node)
            }
        }
        return add(source, record: record)
    }

    @usableFromInline
    func add(_ source: Signal<T>, record: FeederRecord) -> SignalBindError? {
        SchedulePoint.here(.add)
        let node = self.node
        // The loop check comes first, so a refused source keeps its output and can be used
        // elsewhere.
        // The output is held by the record, not taken for good: once the source is removed,
        // has ended, or the merged node is freed, it can be added again or subscribed
        // (CwlSignal: the source's handler goes with the merge's processor).
        let (error, run) = topologyLock.withLock { _ -> (SignalBindError?, Bool) in
            if graphReaches(from: source.root, to: node) { return (.loop, false) }
            guard source.takeOutput(for: record) else { return (.duplicate, false) }
            return (nil, node.editActivation { $0.feeders.append(record) })
        }
        // Starting the source runs user code: never under the topology lock.
        if run { node.runActivation() }
        return error
    }

    /// Removes a source added with `add`; values of it still in transit may be dropped. Once
    /// it has stopped (before this returns, unless another thread is applying this node's
    /// activation changes at that moment), its output is free: it may be added again or
    /// subscribed.
    ///
    /// - Parameter source: a signal passed to `add(_:closePropagation:)`.
    /// - Returns: true if it was a source and is removed now.
    @discardableResult
    public func remove(_ source: Signal<T>) -> Bool {
        SchedulePoint.here(.remove)
        let id = ObjectIdentifier(source)
        return node.removeFeeder { ($0.feeder as? MergedSourceFeeder<T>)?.feeder.sourceID == id }
    }
}

/// Removes a merged source's record from its node once the source has ended. The record is
/// set before the source can be activated (so before any end arrives) and never changes.
@usableFromInline
final class MergedSourceRemoval: @unchecked Sendable {
    @usableFromInline weak var record: FeederRecord?
    @usableFromInline init() {}

    /// Called from the source's delivery of its end. Removing the feeder stops it (its
    /// detach never waits), so this is safe inside that delivery.
    @usableFromInline func remove(from node: NodeBase) {
        guard let record else { return }
        _ = node.removeFeeder { $0 === record }
    }
}

/// A merged source: values go into the node as they are; ends close it only as configured
/// (decided by the sink that `makeSink` builds).
@usableFromInline
final class MergedSourceFeeder<T: Sendable>: NodeFeeder, @unchecked Sendable {
    @usableFromInline let feeder: ChainFeeder<T, T>

    @inlinable
    init(upstream: Signal<T>, node: SignalNode<T>, makeSink: @escaping @Sendable (SignalNode<T>) -> SignalSink<T>) {
        feeder = ChainFeeder(upstream: upstream, into: node, makeSink: makeSink)
    }

    @usableFromInline var upstreamRoot: NodeBase? { feeder.root }
    @usableFromInline func activate() { feeder.activate() }
    @usableFromInline func abandonActivation() { feeder.abandonActivation() }
    @usableFromInline func refuseSendsBeforeDeactivating() { feeder.refuseSendsBeforeDeactivating() }
    /// Run after each deactivation (set before the feeder is added: `removeOnDeactivate`
    /// removes the source here; removing a feeder while the node's activation runs is queued
    /// for that run, not nested).
    @usableFromInline var onDeactivate: (@Sendable () -> Void)?

    @usableFromInline func deactivate() {
        feeder.deactivate()
        onDeactivate?()
    }
}
