import Synchronization

/// Which ends of a merged source close the merged signal.
public enum SignalEndPropagation: Sendable {
    /// None: a source's end only removes that source.
    case none
    /// `.other` errors close the merged signal; `.complete` and `.cancelled` do not.
    case errors
    /// Every end closes the merged signal.
    case all

    @usableFromInline func propagates(_ end: SignalEnd) -> Bool {
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
public final class SignalMergedInput<T: Sendable>: SignalInput<T>, @unchecked Sendable {
    /// Adds `source`: its values are sent into this input while the merged signal is active.
    ///
    /// - Parameter closePropagation: which of the source's ends close the merged signal.
    /// - Throws: `SignalBindError.duplicate` if the source's output is taken, `.loop` if the
    ///   merged signal feeds `source`.
    public func add(_ source: Signal<T>, closePropagation: SignalEndPropagation = .errors) throws(SignalBindError) {
        guard source.takeOutput() else { throw .duplicate }
        let node = self.node
        let expected = expectedActive
        let feeder = ChainFeeder<T, T>(upstream: source, into: node) { r in r }
        let record = FeederRecord(MergedSourceFeeder(feeder: feeder, node: node, expectedActive: expected, propagation: closePropagation))
        let loop = topologyLock.withLock { _ -> Bool in
            if graphReaches(from: source.root, to: node) { return true }
            node.addFeeder(record)
            return false
        }
        if loop { throw .loop }
    }

    /// Removes a source added with `add`; values of it still in transit may be dropped.
    @discardableResult
    public func remove(_ source: Signal<T>) -> Bool {
        let id = ObjectIdentifier(source)
        return node.removeFeeder { ($0.feeder as? MergedSourceFeeder<T>)?.feeder.sourceID == id }
    }
}

/// A merged source: values go into the node as they are; ends close it only as configured.
final class MergedSourceFeeder<T: Sendable>: NodeFeeder, @unchecked Sendable {
    let feeder: ChainFeeder<T, T>
    weak var node: SignalNode<T>?
    let expectedActive: Int
    let propagation: SignalEndPropagation
    var attachment: ChainAttachment?

    init(feeder: ChainFeeder<T, T>, node: SignalNode<T>, expectedActive: Int, propagation: SignalEndPropagation) {
        self.feeder = feeder
        self.node = node
        self.expectedActive = expectedActive
        self.propagation = propagation
    }

    var upstreamRoot: NodeBase? { feeder.root }

    func activate() {
        guard let node else { return }
        let expected = expectedActive
        let propagation = self.propagation
        attachment = feeder.upstreamAttach { r in
            switch r {
            case .success: node.deliver(r)
            case .failure(let e): if propagation.propagates(e) { _ = node.sendEnd(e, expectedActive: expected) }
            }
        }
    }

    func deactivate() {
        attachment?.detach(endedWith: nil)
        attachment = nil
    }
}
