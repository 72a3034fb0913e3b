import Synchronization

/// The receiving end of a stream of values: `Result<T, SignalEnd>`, where the first end closes
/// the stream.
///
/// A `Signal` has a single output: transform it (`map`, `filter`, `transform`, …) or subscribe
/// to it. Taking its output while it is held elsewhere fails with `SignalBindError.duplicate`,
/// delivered as a value to whatever tried. The output is held by the signal derived from it
/// (while that signal exists or its own output is attached), by a subscription until it is
/// cancelled, released or ended, and by a junction or capture while it exists. Once it is
/// free again the signal can be used again: a new subscription re-activates it (`generate`
/// runs again with a fresh input, stateful stages start afresh). For many outputs at once,
/// make a `SignalMulti` with `continuous()`, `playback()`, `multicast()` or
/// `buffer(initials:updater:)`.
///
/// Nothing flows until the graph is active: subscribing activates every stage the output
/// depends on, and cancelling or releasing the `SignalOutput` deactivates them again (the
/// caching multis are the exception: they are active from the moment they are made).
///
/// Chains of `.direct` stages are fused: they run as one composed closure inside the delivery
/// of the node upstream of them, which already serializes them, so an extra stage costs one
/// closure call rather than another trip through a delivery queue.
public class Signal<T: Sendable>: @unchecked Sendable {
    // Unchecked Sendable: the stored closure is @Sendable; `holdSlot` is a mutex;
    // `upstreamHold` is set before the signal is shared.

    /// The delivery variant of the graph this signal belongs to; derived nodes inherit it.
    public let delivery: DeliveryVariant

    /// The node whose holder runs this signal's fused chain (for loop detection).
    @usableFromInline let root: NodeBase

    /// Connects a sink at the end of this signal's chain, building the fused chain (and fresh
    /// per-activation state) down from the root. Called on every activation.
    ///
    /// Written only by `init` and `deinit` (which lets it go first thing, see there).
    @usableFromInline @exclusivity(unchecked) final var attachChain: @Sendable (SignalSink<T>) -> ChainAttachment

    /// Who holds this signal's output now.
    @usableFromInline let holdSlot = Mutex(OutputHoldSlot())

    /// The hold this (derived) signal has on the signal it was made from: kept while this
    /// signal exists, and passed on to whoever takes this signal's output.
    @usableFromInline let upstreamHold: OutputHold?

    /// Whether `attachChain` installs the sink it is given directly behind a gate of its own:
    /// every call into the sink follows a check of that gate with no other code in between,
    /// and detaching the returned attachment closes the gate before it returns (a node's
    /// output box, a multi's branch). A subscription to such a signal needs no gate of its
    /// own: its handler is the sink (one check and one call per delivery instead of two each).
    /// False wherever fused stages (user code) run between the gate and the sink.
    @usableFromInline let attachesBehindGate: Bool

    /// How many fused stages this signal's chain holds since the last node. Attaching a fused
    /// chain, and a value going through it, nest one call per stage; past
    /// `fusedDepthLimit` stages the next stage starts behind a node of its own
    /// (`fusedChainBoundary()`), whose activation and hand-overs run in bounded stack
    /// (`DepthBounds`), so a chain of any length fits a 512 KiB stack.
    @usableFromInline let fusedDepth: Int

    /// The most fused stages between two nodes: deep enough that no chain a person writes by
    /// hand meets it (its cost is one node per this many stages), shallow enough that
    /// `DepthBounds.maxDepth` nested runs of it (activations or hand-overs, each attaching or
    /// delivering through a whole run) fit a 512 KiB stack in a debug build.
    @usableFromInline static var fusedDepthLimit: Int { 64 }

    /// The node a processor stage appended here stops when it ends (`EndGuardedSink`): the
    /// root, when its one output is this chain and it has sources of its own (a node that
    /// starts a new generation on deactivation: merge, combine, `generate`, hop). Never a
    /// multi's node, whose other branches still want its source.
    @inlinable var stageEndStops: NodeBase? { root.newGenerationOnDeactivate ? root : nil }

    @usableFromInline
    init(delivery: DeliveryVariant, root: NodeBase, upstreamHold: OutputHold? = nil, attachesBehindGate: Bool = false,
         fusedDepth: Int = 0,
         attachChain: @escaping @Sendable (SignalSink<T>) -> ChainAttachment) {
        self.delivery = delivery
        self.root = root
        self.upstreamHold = upstreamHold
        self.attachesBehindGate = attachesBehindGate
        self.fusedDepth = fusedDepth
        self.attachChain = attachChain
    }

    deinit {
        // Everything this signal holds upstream goes through the thread's pending releases,
        // so that freeing a chain of any length nests no deeper than one stage: dropping the
        // hold can free the signal upstream, whose deinit would drop its own hold, and so
        // on once per stage (a long chain's release overflowed the stack). The chain closure
        // is let go here, inside that scope, while the hold still keeps the upstream signal
        // (and the closures it holds) alive: let go after this body, it would free the
        // closures it captured one inside the other, or free a node that frees its feeders.
        let hold = upstreamHold
        PendingReleases.releasing {
            attachChain = Self.released
            if let hold { PendingReleases.drop(hold) }
        }
    }

    /// What a freed signal's `attachChain` is replaced with (never called).
    private static var released: @Sendable (SignalSink<T>) -> ChainAttachment {
        { _ in ChainAttachment { _ in } }
    }

    /// A signal whose chain is rooted at `node` (holding `upstreamHold` on the signal that
    /// feeds the node, if any). Detaching closes the chain at once, so no stage of it runs
    /// after a cancel returns, even when the node drops it later.
    @usableFromInline
    convenience init(rootedAt node: SignalNode<T>, upstreamHold: OutputHold? = nil) {
        // Behind a gate: the box's `open` flag, checked right before each call into the chain
        // and cleared first thing by the detach.
        self.init(delivery: node.variant, root: node, upstreamHold: upstreamHold, attachesBehindGate: true) { sink in
            let box = SinkBox(sink)
            let attachment = NodeOutputAttachment(node: node, box: box)
            // Made before the node is activated: a chain that ends while its sources run
            // synchronously inside this call (a `take` behind an endless `.direct` source) is
            // detached through it at once, so those sources see the node inactive and stop.
            DepthBounds.attachmentMade(attachment)
            node.attach(box, detachableThrough: attachment)
            return attachment
        }
    }

    /// Takes the single output for good (the async bridges and the side inputs of
    /// `OperatorSupport`; combined and merged nodes and the multis hold theirs through their
    /// feeder records instead, `takeOutput(for:)`). `SignalMulti` overrides this: it has as
    /// many as asked for.
    @usableFromInline
    func takeOutput() -> Bool {
        holdSlot.withLock { slot in
            if slot.isTaken { return false }
            slot.permanentlyTaken = true
            return true
        }
    }

    /// Takes the single output for `record`, a feeder of a derived node (a merge, a combine, a
    /// multi, a merged input's source), for as long as the record exists: a refused operator
    /// gives back the outputs it took before (its records go with it), and a node that is
    /// freed, or a merged source removed, frees its inputs for other uses.
    @usableFromInline
    func takeOutput(for record: FeederRecord) -> Bool {
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return false }
        record.outputHold = hold
        return true
    }

    /// Takes the single output for as long as `hold` holds it: it is free again once the
    /// hold is dropped (the derived signal released, the subscription detached). The hold
    /// also keeps this signal's own hold on its upstream, so the whole fused chain stays
    /// taken while the holder uses it.
    @usableFromInline
    func takeOutput(by hold: OutputHold) -> Bool {
        // The previous holder (a detached subscription, a released derived signal) leaves the
        // slot here, and may be its last reference: it is returned out of the lock and freed
        // after the unlock, because freeing it can free a handler's captures and run a user
        // `deinit`, which may use this very signal (no user code under a lock).
        let (taken, previous) = holdSlot.withLock { slot -> (Bool, OutputHold?) in
            if slot.isTaken { return (false, nil) }
            let previous = slot.holder.take()
            slot.holder = hold
            return (true, previous)
        }
        withExtendedLifetime(previous) {}
        if taken {
            // Written before the hold is shared (like `kept`): the hold leaves the slot when
            // its count reaches zero (see `OutputHold.drop`).
            hold.slotOwner = self
            if let up = upstreamHold { hold.keep(up) }
        }
        return taken
    }

    /// Takes `hold` out of the slot if it is still the holder (its count reached zero), so
    /// that the hold (a subscription's terminal, which holds its handler and everything the
    /// handler captured) is freed now rather than when the output is next taken or the signal
    /// is freed. Released after the unlock: freeing it can run a user `deinit`.
    @usableFromInline
    func releaseHold(_ hold: OutputHold) {
        let released = holdSlot.withLock { slot -> OutputHold? in
            guard slot.holder === hold else { return nil }
            return slot.holder.take()
        }
        withExtendedLifetime(released) {}
    }

    /// The node whose holder runs this signal's chain.
    @usableFromInline var chainRoot: NodeBase { root }

    /// Whether the output is held right now.
    @usableFromInline var isOutputTaken: Bool { holdSlot.withLock { $0.isTaken } }

    /// A signal that fails with `SignalBindError.duplicate` as soon as it is used.
    @usableFromInline
    static func duplicate(delivery: DeliveryVariant, root: NodeBase) -> Signal<T> {
        let placeholder = Signal(delivery: delivery, root: root) { sink in
            // Given at attachment, like a closed node's kept end: a capture takes it as its end.
            ActivationReplay.replaying { sink(.failure(.other(SignalBindError.duplicate))) }
            return ChainAttachment { _ in }
        }
        // Its output counts as taken, so everything built on it (a junction, a merged input,
        // a capture's bind) refuses with `.duplicate` rather than reporting success.
        placeholder.holdSlot.withLock { $0.permanentlyTaken = true }
        return placeholder
    }

    /// Appends a fused stage: `build` is called on every activation with the downstream sink
    /// and returns the sink for this stage (so per-activation state starts afresh).
    @inlinable
    func appending<U>(_ build: @escaping @Sendable (SignalSink<U>) -> SignalSink<T>) -> Signal<U> {
        if fusedDepth >= Self.fusedDepthLimit { return fusedChainBoundary().appending(build) }
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal<U>(delivery: delivery, root: root, upstreamHold: hold, fusedDepth: fusedDepth &+ 1) { sink in
            upstream(build(sink))
        }
    }

    /// This signal behind a `.direct` node of its own, which ends the fused chain: the stages
    /// appended to the result nest from the node, not from this chain's root.
    @usableFromInline
    func fusedChainBoundary() -> Signal<T> {
        hopToNode(.direct)
    }

    /// This signal's values delivered through a node of its own on `context`, which serializes
    /// them there. `.direct` returns `self`.
    ///
    /// - Parameter context: where the values are delivered from now on.
    /// - Returns: the signal of the same values, delivered on `context`.
    @inlinable @inline(__always)
    public func hop(to context: Exec) -> Signal<T> {
        // Always inlined, so a `.direct` subscription pays only this test (no call, no copy of
        // the context); the node of the other contexts is made out of line.
        if context.isDirect { return self }
        return hopToNode(context)
    }

    /// `hop(to:)` for a context that is not `.direct`.
    @inlinable
    func hopToNode(_ context: Exec) -> Signal<T> {
        let node = SignalNode<T>(variant: delivery, context: context, newGenerationOnDeactivate: true)
        // A refused output still reaches its handler on `context`: the duplicate error goes
        // through the new node like any result.
        let hold = OutputHold()
        let upstream = takeOutput(by: hold) ? self : .duplicate(delivery: delivery, root: root)
        node.addFeeder(FeederRecord(ChainFeeder(upstream: upstream, into: node) { n in SignalSink(forwardingInto: n) }))
        return Signal(rootedAt: node, upstreamHold: hold)
    }
}
