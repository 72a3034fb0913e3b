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
        /// Which `bind` made this binding (0: none). A later binding to the same input is
        /// another binding: an end or a disconnect of the old one must not undo it.
        var id = 0
        /// `bind` has taken the binding and is attaching its chain (`attachment` is not
        /// stored yet).
        var attaching = false
        /// A `disconnect` or the source's end came while `attaching`: `bind` detaches its
        /// attachment, then removes the binding (see `disconnect`).
        var unbindRequested = false
        /// The end that asked for the unbinding while `attaching` (nil when a `disconnect`
        /// asked): `bind` hands it to its end handler once it has unbound, so the handler can
        /// bind again (a synchronous source ends inside `bind`'s own attach).
        var deferredEnd: SignalEnd?
    }
    let binding = Mutex(Binding())
    /// The last binding id handed out.
    let bindingIDs = Atomic<Int>(0)
    /// `rebind` calls are run one at a time: one that comes while another runs is left to
    /// it (the latest request wins), so two racing rebinds never refuse each other.
    let rebinds = Mutex<(running: Bool, next: RebindRequest?)>((false, nil))
    /// The junction's hold on its signal's output, for as long as the junction exists.
    let hold = OutputHold()

    init(signal: Signal<T>) {
        source = signal.takeOutput(by: hold) ? signal : nil
    }

    /// Binds the signal to `input`: its results are sent there from now on.
    ///
    /// - Returns: nil when bound; otherwise why not, and nothing changed:
    ///   `SignalBindError.duplicate` if already bound (or the signal's output was taken
    ///   elsewhere), `.loop` if `input` feeds this junction's signal, `.cancelled` if
    ///   `input` is closed (its signal has ended: the source is then not activated, so a send
    ///   into it is refused rather than accepted and lost). An end that reaches `input` after
    ///   this returns (sent into it by another thread) leaves the binding in place: its
    ///   source's sends are then refused by `input`.
    ///
    /// - Parameter input: the input to send this signal's results into.
    @inlinable @discardableResult
    public func bind(to input: SignalInput<T>) -> SignalBindError? {
        bind(to: input, sink: SignalSink(value: { input.sendHandedOver(.success($0)) }, end: { input.sendHandedOver(.failure($0)) }))
    }

    @usableFromInline
    func bind(to input: SignalInput<T>, sink: SignalSink<T>) -> SignalBindError? {
        bind(to: input, sink: sink, onEnd: nil)
    }

    /// Binds `input`; with `onEnd`, an end is not sent into `input` (`sink.end` is not called):
    /// the junction unbinds and `onEnd` gets it, once this binding is gone, outside every lock.
    func bind(to input: SignalInput<T>, sink: SignalSink<T>, onEnd: EndHandler?) -> SignalBindError? {
        SchedulePoint.here(.bind)
        guard let source else { return .duplicate }
        let edge = FeederRecord(EdgeFeeder(root: source.root))
        let id = bindingIDs.wrappingAdd(1, ordering: .relaxed).newValue
        // The loop check, the hold and the topology edge are one step under `topologyLock`,
        // which `disconnect` also takes to remove the edge: a disconnect can no longer fall
        // between the hold and the edge and leave a stale edge behind (a false `.loop` later,
        // and the source's root kept alive). On refusal nothing has changed.
        let (refusal, run) = topologyLock.withLock { _ -> (SignalBindError?, Bool) in
            if binding.withLock({ $0.input != nil }) { return (.duplicate, false) }
            if input.isClosed { return (.cancelled, false) }
            if graphReaches(from: source.root, to: input.node) { return (.loop, false) }
            binding.withLock { b in
                b.input = input
                b.edge = edge
                b.id = id
                b.attaching = true
            }
            return (nil, input.node.editActivation { $0.feeders.append(edge) })
        }
        if run { input.node.runActivation() }
        if let refusal { return refusal }
        // An end that passes unbinds the junction and deactivates the chain (its
        // `onDeactivate` runs, a cold source can run again on the next `bind`), as a
        // subscription's end detaches it. Weak: the junction owns the chain. The end names
        // this binding by its id, so it never unbinds a later binding to the same input (one
        // made by an end handler).
        let endingSink: SignalSink<T>
        if let onEnd {
            endingSink = SignalSink<T>(value: sink.value, end: { [weak self] end in
                self?.sourceEnded(binding: id, into: input, with: end, handler: onEnd)
            })
        } else {
            endingSink = SignalSink<T>(value: sink.value, end: { [weak self] end in
                sink.end(end)
                self?.sourceEnded(binding: id, into: input, with: end, handler: nil)
            })
        }
        let attachment = DepthBounds.attaching(for: nil) { source.attachChain(endingSink) }
        let (stale, deferredEnd) = binding.withLock { b -> (Bool, SignalEnd?) in
            guard b.id == id, b.attaching else { return (true, nil) }
            b.attaching = false
            if b.unbindRequested { return (true, b.deferredEnd.take()) }
            b.attachment = attachment
            return (false, nil)
        }
        if stale {
            // Detached while the binding still stands, then unbound: no other `bind` can
            // attach to the source before it has left this activation.
            attachment.detach(endedWith: nil)
            let removed = removeBinding(id: id)
            // The source ended during the attach (a synchronous source): the handler runs now,
            // with the junction unbound, so it can bind again.
            if let onEnd, let deferredEnd, removed.input != nil { onEnd(self, deferredEnd, input) }
        }
        return nil
    }

    /// Unbinds, returning the input it was bound to (nil if it was not bound).
    ///
    /// Of several `disconnect` calls racing (or a `disconnect` racing the signal's end), only
    /// the one that unbinds gets the input; the others get nil.
    ///
    /// - Returns: the input it was bound to, or nil if it was not bound.
    @discardableResult
    public func disconnect() -> SignalInput<T>? {
        // The chain is detached before the binding is removed: until the binding goes,
        // another thread's `bind` is refused, so it can attach only once the source node has
        // left this activation and forgotten any end it kept (attaching to an ended node gives
        // the new chain that end at once: a chain that completed with no value). While `bind`
        // is still attaching, it is asked to do both itself. Detaching runs once, whoever
        // does it.
        let (bound, attached, id) = binding.withLock { b -> (SignalInput<T>?, ChainAttachment?, Int) in
            if b.attaching {
                // Another `disconnect` or the end already asked: the input is theirs.
                if b.unbindRequested { return (nil, nil, 0) }
                b.unbindRequested = true
                return (b.input, nil, b.id)
            }
            return (b.input, b.attachment, b.id)
        }
        guard let bound else { return nil }
        guard let attached else { return bound }
        attached.detach(endedWith: nil)
        return removeBinding(id: id).input
    }

    /// Binding `id`'s source has ended: unbinds (if still bound by it) and detaches the chain
    /// (as ended when the end went into `input`), then gives the end to `handler`. When the
    /// end came during `bind`'s own attach, the attachment is not stored yet: `bind` is asked
    /// to detach it, unbind itself and call the handler.
    ///
    /// The chain is detached *before* the binding is removed: until the detach, the source
    /// node is ended and keeps its end for the next attachment, so a `bind` from another
    /// thread that found the binding already gone attached to the ended node and its chain
    /// received this end as its first result (a chain that completed with no value). While
    /// the binding stays, such a `bind` is refused with `.duplicate`, and a `disconnect`
    /// detaches the same attachment (detaching runs once). The handler runs only if this
    /// call removed the binding: a `disconnect` that won the race keeps the input.
    func sourceEnded(binding id: Int, into input: SignalInput<T>, with end: SignalEnd, handler: EndHandler?) {
        let attached = binding.withLock { b -> ChainAttachment? in
            guard b.id == id, b.input != nil else { return nil }
            if b.attaching {
                if !b.unbindRequested {
                    b.unbindRequested = true
                    b.deferredEnd = end
                }
                return nil
            }
            return b.attachment
        }
        guard let attached else { return }
        attached.detach(endedWith: handler == nil ? end : nil)
        guard removeBinding(id: id).input != nil, let handler else { return }
        handler(self, end, input)
    }

    /// Removes binding `id` and its topology edge, returning what was bound (an empty binding
    /// when `id` is no longer bound, or its `bind` is still attaching). The old binding is
    /// released by the caller, after the locks.
    private func removeBinding(id: Int) -> Binding {
        // The binding and its edge go together, under the same lock `bind` adds them with.
        let (old, run) = topologyLock.withLock { _ -> (Binding, Bool) in
            let o = binding.withLock { b -> Binding in
                if b.id != id { return Binding() }
                // A `bind` still attaching removes its binding itself (`unbindRequested`).
                if b.attaching { return Binding() }
                let o = b
                b = Binding()
                return o
            }
            guard let edge = o.edge, let input = o.input else { return (o, false) }
            return (o, input.node.editActivation { a in
                if let i = a.feeders.firstIndex(where: { $0 === edge }) {
                    a.removed.append(a.takeFeeder(at: i))
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
        hold.drop()
    }
}
