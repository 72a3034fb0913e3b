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
        /// `bind` has claimed the binding and is attaching its chain (`attachment` is not
        /// stored yet).
        var attaching = false
        /// A `disconnect` or the source's end came while `attaching`: `bind` detaches its
        /// attachment, then removes the binding (see `disconnect` for why in that order).
        var unbindRequested = false
    }
    let binding = Mutex(Binding())
    /// The junction's hold on its signal's output, for as long as the junction exists.
    let claim = OutputClaim()

    init(signal: Signal<T>) {
        source = signal.takeOutput(by: claim) ? signal : nil
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
        bind(to: input, sink: SignalSink(value: { input.send(value: $0) }, end: { input.send(end: $0) }))
    }

    @usableFromInline
    func bind(to input: SignalInput<T>, sink: SignalSink<T>) -> SignalBindError? {
        guard let source else { return .duplicate }
        let edge = FeederRecord(EdgeFeeder(root: source.root))
        // The loop check, the claim and the topology edge are one step under `topologyLock`,
        // which `disconnect` also takes to remove the edge: a disconnect can no longer fall
        // between the claim and the edge and leave a stale edge behind (a false `.loop` later,
        // and the source's root kept alive). On refusal nothing has changed.
        let (refusal, run) = topologyLock.withLock { _ -> (SignalBindError?, Bool) in
            if binding.withLock({ $0.input != nil }) { return (.duplicate, false) }
            if graphReaches(from: source.root, to: input.node) { return (.loop, false) }
            binding.withLock { b in
                b.input = input
                b.edge = edge
                b.attaching = true
            }
            return (nil, input.node.editActivation { $0.feeders.append(edge) })
        }
        if run { input.node.runActivation() }
        if let refusal { return refusal }
        // An end that passes unbinds the junction and deactivates the chain (its
        // `onDeactivate` runs, a cold source can run again on the next `bind`), as a
        // subscription's end detaches it (CwlSignal's `testOn`). Weak: the junction owns the chain.
        let endingSink = SignalSink<T>(value: sink.value, end: { [weak self] end in
            sink.end(end)
            self?.sourceEnded(into: input, with: end)
        })
        let attachment = source.attachChain(endingSink)
        let stale = binding.withLock { b -> Bool in
            guard b.input === input, b.attaching else { return true }
            b.attaching = false
            if b.unbindRequested { return true }
            b.attachment = attachment
            return false
        }
        if stale {
            // Detached while the binding still stands, then unbound: no other `bind` can
            // attach to the source before it has left this activation.
            attachment.detach(endedWith: nil)
            _ = removeBinding(ifBoundTo: input)
        }
        return nil
    }

    /// Unbinds, returning the input it was bound to (nil if it was not bound).
    ///
    /// - Returns: the input it was bound to, or nil if it was not bound.
    @discardableResult
    public func disconnect() -> SignalInput<T>? {
        // The chain is detached before the binding is removed: until the
        // binding goes, another thread's `bind` is refused, so it can attach only once the
        // source node has left this activation and forgotten any end it kept (attaching to an
        // ended node gives the new chain that end at once: a chain that completed with no
        // value). While `bind` is still attaching, it is asked to do both itself.
        // Detaching runs once, whoever does it.
        let (bound, attached) = binding.withLock { b -> (SignalInput<T>?, ChainAttachment?) in
            if b.attaching { b.unbindRequested = true; return (b.input, nil) }
            return (b.input, b.attachment)
        }
        guard let bound else { return nil }
        guard let attached else { return bound }
        attached.detach(endedWith: nil)
        removeBinding(ifBoundTo: bound).attachment?.detach(endedWith: nil)
        return bound
    }

    /// The source's end has passed into `input`: unbinds (if still bound to `input`) and
    /// detaches the chain as ended. When the end came during `bind`'s own attach, the
    /// attachment is not stored yet: `bind` is asked to detach it and unbind itself.
    ///
    /// The chain is detached *before* the binding is removed: until the
    /// detach, the source node is ended and keeps its end for the next attachment, so a `bind`
    /// from another thread that found the binding already gone attached to the ended node and
    /// its chain received this end as its first result (a chain that completed with no value).
    /// While the binding stays, such a `bind` is refused with `.duplicate`, and a `disconnect`
    /// detaches the same attachment (detaching runs once).
    func sourceEnded(into input: SignalInput<T>, with end: SignalEnd) {
        let attached = binding.withLock { b -> ChainAttachment? in
            guard b.input === input else { return nil }
            if b.attaching { b.unbindRequested = true; return nil }
            return b.attachment
        }
        guard let attached else { return }
        attached.detach(endedWith: end)
        removeBinding(ifBoundTo: input).attachment?.detach(endedWith: end)
    }

    /// Removes the binding (only if it is to `expected`, when given) and its topology edge,
    /// returning what was bound. The old binding is released by the caller, after the locks.
    private func removeBinding(ifBoundTo expected: SignalInput<T>?) -> Binding {
        // The binding and its edge go together, under the same lock `bind` adds them with.
        let (old, run) = topologyLock.withLock { _ -> (Binding, Bool) in
            let o = binding.withLock { b -> Binding in
                if let expected, b.input !== expected { return Binding() }
                // A `bind` still attaching removes its binding itself (`unbindRequested`).
                if b.attaching { return Binding() }
                let o = b
                b = Binding()
                return o
            }
            guard let edge = o.edge, let input = o.input else { return (o, false) }
            return (o, input.node.editActivation { a in
                if let i = a.feeders.firstIndex(where: { $0 === edge }) {
                    a.removed.append(a.feeders.remove(at: i))
                }
            })
        }
        if run, let input = old.input { input.node.runActivation() }
        return old
    }

    /// Unbinds and discards the input.
    public func cancel() { _ = disconnect() }

    deinit {
        _ = disconnect()
        claim.drop()
    }
}
