import Dispatch
import Synchronization

/// The sending end of a signal.
///
/// Sends may come from any number of threads at once: they are serialized, each sender's
/// values keep their order, and a send made from inside a handler downstream is queued and
/// delivered after that handler returns (so re-entrancy never deadlocks or grows the stack).
///
/// Releasing the last reference to an input sends `.cancelled`.
public class SignalInput<T: Sendable>: Lifetime, @unchecked Sendable {
    // Unchecked Sendable: immutable after init; the node does its own synchronization.
    @usableFromInline let node: SignalNode<T>
    /// The node status meaning "active, and this input belongs to it".
    @usableFromInline let expectedActive: Int

    @usableFromInline init(node: SignalNode<T>, expectedActive: Int) {
        self.node = node
        self.expectedActive = expectedActive
    }

    /// Whether this input refuses everything from now on: its signal has ended, or its
    /// activation has gone (a `generate` input after its deactivation).
    @usableFromInline final var isClosed: Bool {
        let read = node.status.load(ordering: .acquiring)
        return read >> 2 != expectedActive >> 2 || read & 3 == NodeStatus.ended
    }

    /// Sends a value. Returns nil if it was accepted, and then it is delivered (unless the
    /// subscriber cancels first); `.inactive` if nothing is subscribed (the value is dropped);
    /// `.disconnected` if the stream has ended, including a send that loses a race with the
    /// end (the end and the value are ordered by one atomic step in the node's queue).
    ///
    /// - Parameter value: the value to send.
    /// - Returns: nil if accepted (it will be delivered); `.inactive` if nothing is
    ///   subscribed (the value is dropped); `.disconnected` if the stream has ended.
    @inlinable @inline(__always) @discardableResult
    public final func send(value: T) -> SignalSendError? {
        let read = node.status.load(ordering: .relaxed)
        if _fastPath(read == expectedActive) {
            // One precomputed byte picks the path (`SignalNode.sendPath`): a plain `.direct`
            // lock-free node's synchronous delivery is inlined here, anything else is one
            // call (the mutex path's lock, inlined too, made every send save more registers).
            let accepted: Bool
            switch node.sendPath {
            case .lockFreeDirect:
                accepted = node.withLockFreeQueue { node.deliverDirect(.success(value), through: $0) }
            case .mutexDirect:
                accepted = node.sendMutexDirect(value)
            case .outlined:
                accepted = node.sendOutlined(value, expectedActive: expectedActive)
            }
            return _fastPath(accepted) ? nil : .disconnected
        }
        return NodeStatus.rejection(read: read, expectedActive: expectedActive)
    }

    /// Sends a value or an end.
    ///
    /// - Parameter result: the value or end to send.
    /// - Returns: nil if accepted; `.inactive` if nothing is subscribed (the value is
    ///   dropped); `.disconnected` if the stream has ended.
    @inlinable @discardableResult
    public final func send(result: Result<T, SignalEnd>) -> SignalSendError? {
        switch result {
        case .success(let v): return send(value: v)
        case .failure(let e): return send(end: e)
        }
    }

    /// Ends the stream. Later sends return `.disconnected`. An end sent while nothing is
    /// subscribed is kept and delivered to the first subscriber.
    ///
    /// - Parameter end: the end to send.
    /// - Returns: nil if accepted (or kept for the first subscriber); `.disconnected` if the
    ///   stream has already ended.
    @discardableResult
    public final func send(end: SignalEnd) -> SignalSendError? {
        node.sendEnd(end, expectedActive: expectedActive)
    }

    /// Ends the stream with `.complete`.
    ///
    /// - Returns: nil if accepted (or kept for the first subscriber); `.disconnected` if the
    ///   stream has already ended.
    @discardableResult
    public final func complete() -> SignalSendError? { send(end: .complete) }

    /// Ends the stream with `.cancelled`.
    public final func cancel() { _ = send(end: .cancelled) }

    deinit { endOnRelease() }

    /// What releasing the last reference does: sends `.cancelled`. A merged input defers it
    /// while sources are attached (`SignalMergedInput`).
    @usableFromInline func endOnRelease() {
        _ = node.sendEnd(.cancelled, expectedActive: expectedActive)
    }
}
