import Synchronization

extension Signal {
    /// Takes this signal's output as a junction, which can be bound to an input, disconnected
    /// and bound again while values flow.
    ///
    /// - Returns: the junction; it takes this signal's single output.
    public func junction() -> SignalJunction<T> {
        SignalJunction(signal: self)
    }
}

/// A signal's output that can be bound to a `SignalInput`, and unbound, at any time.
///
/// While bound, the signal's results are sent into the input (an end included). Binding
/// activates the signal; disconnecting deactivates it. Values in transit when the binding
/// changes may be dropped; none is delivered out of order.
public final class SignalJunction<T: Sendable>: Lifetime, @unchecked Sendable {
    let source: Signal<T>?
    struct Binding {
        var input: SignalInput<T>?
        var attachment: ChainAttachment?
        var edge: FeederRecord?
    }
    let binding = Mutex(Binding())

    init(signal: Signal<T>) {
        source = signal.takeOutput() ? signal : nil
    }

    /// Binds the signal to `input`: its results are sent there from now on.
    ///
    /// - Returns: nil when bound; otherwise why not, and nothing changed:
    ///   `SignalBindError.duplicate` if already bound (or the signal's output was taken
    ///   elsewhere), `.loop` if `input` feeds this junction's signal.
    ///
    /// - Parameter input: the input to send this signal's results into.
    @inlinable @discardableResult
    public func bind(to input: SignalInput<T>) -> SignalBindError? {
        bind(to: input, sink: SignalSink { r in input.send(result: r) })
    }

    @usableFromInline
    func bind(to input: SignalInput<T>, sink: SignalSink<T>) -> SignalBindError? {
        guard let source else { return .duplicate }
        let edge = FeederRecord(EdgeFeeder(root: source.root))
        let claimed: SignalBindError? = binding.withLock { b in
            if b.input != nil { return .duplicate }
            b.input = input
            b.edge = edge
            return nil
        }
        if let claimed { return claimed }
        let (loop, run) = topologyLock.withLock { _ -> (Bool, Bool) in
            if graphReaches(from: source.root, to: input.node) { return (true, false) }
            return (false, input.node.editActivation { $0.feeders.append(edge) })
        }
        if run { input.node.runActivation() }
        if loop {
            let undone = binding.withLock { b -> Binding in
                let o = b
                b = Binding()
                return o
            }
            _ = undone
            return .loop
        }
        let attachment = source.attachChain(sink)
        let stale = binding.withLock { b -> ChainAttachment? in
            if b.input === input, b.attachment == nil {
                b.attachment = attachment
                return nil
            }
            return attachment
        }
        stale?.detach(endedWith: nil)
        return nil
    }

    /// Unbinds, returning the input it was bound to (nil if it was not bound).
    ///
    /// - Returns: the input it was bound to, or nil if it was not bound.
    @discardableResult
    public func disconnect() -> SignalInput<T>? {
        let old = binding.withLock { b -> Binding in
            let o = b
            b = Binding()
            return o
        }
        old.attachment?.detach(endedWith: nil)
        if let edge = old.edge, let input = old.input {
            _ = input.node.removeFeeder { $0 === edge }
        }
        return old.input
    }

    /// Unbinds and discards the input.
    public func cancel() { _ = disconnect() }

    deinit { _ = disconnect() }
}
