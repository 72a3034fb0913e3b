public import SignalsFutex
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What keeps activation and node-to-node delivery in bounded stack, however many nodes a
/// graph chains: one object per thread that counts how deep this thread is nested in each, and
/// holds the work deferred past a bound.
///
/// Activating a node starts its feeders, and a feeder attaches to the node above it, which
/// starts its own feeders (deactivating likewise); a value delivered by a node's holder into
/// the next node is delivered by that node's holder, on the same thread, into the next. Both
/// nest once per node, so a chain of 100,000 `multicast()` nodes overflowed a 512 KiB stack.
/// Now each nests at most `maxDepth` levels. Past that, a hand-over is queued in the node it
/// targets at once (so no other thread's value, nor the node's end, can overtake it), and only
/// the draining of that node, which this thread then holds, is deferred; an activation run is
/// deferred. The deferred work is run in a loop, first in first out, by the outermost frame of
/// that kind on the thread (and hand-overs also by the graph change that made them, before its
/// waiter returns) before it returns. So all of it still happens within the call that started
/// it (a `subscribe`, a `cancel()`, a `send`), on the same thread, outside every lock; a graph
/// shallower than the bound (every graph the library builds for itself) runs exactly as it
/// did, paying one thread-local read per hand-over and per activation run
/// (docs/design/depth-bound.md). A node that connects several feeders connects the next one
/// only once the runs deferred while connecting the one before have run
/// (`DeferredConnection`), so inputs connect in order past the bound too.
@usableFromInline
final class DepthBounds {
    /// How many activation runs, and separately how many node-to-node hand-overs, nest on one
    /// thread before the next is deferred: deep enough that ordinary graphs rarely reach it,
    /// shallow enough that both together (a replay inside an activation inside a delivery …),
    /// each with a fused chain of up to `Signal.fusedDepthLimit` stages inside, stay well
    /// inside a 512 KiB stack in a debug build (docs/design/depth-bound.md, "Why 8").
    @inlinable static var maxDepth: Int { 8 }

    // Every field is touched only by its own thread (the object is reached only through the
    // thread's key), so none needs the runtime's exclusivity checks, which would cost the
    // hand-over path more than the rest of it (docs/design/delivery-path.md, "Swift details that
    // cost time").

    /// Hand-overs from one node's holder into the next node now nested on this thread.
    @exclusivity(unchecked) @usableFromInline var deliveryDepth = 0
    /// Hand-overs deferred at the bound, and where the loop that runs them has got to.
    @exclusivity(unchecked) @usableFromInline var deliveries: [() -> Void] = []
    @exclusivity(unchecked) var deliveryHead = 0
    /// Whether deferred hand-overs or activation runs wait for the outermost hand-over: one
    /// flag read on its way out (`runDeferred()`).
    @exclusivity(unchecked) @usableFromInline var hasDeferred = false

    /// Who asked for the chain being attached on this thread right now (`attaching(for:_:)`),
    /// until the chain's root has made its attachment (`attachmentMade(_:)`). Unowned: the one
    /// attaching holds it for as long as it is set (a strong reference cost every
    /// subscription a retain and a release).
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var attachmentReceiver: (any AttachmentReceiver)?

    /// Activation runs (`NodeBase.runActivation`) now nested on this thread.
    @exclusivity(unchecked) var activationDepth = 0
    /// Nodes whose activation run was deferred at the bound, each with the connection it is
    /// part of. Each is marked running (this thread is its runner), so other threads' changes
    /// to it wait in its state for this run.
    @exclusivity(unchecked) var activations: [DeferredActivation] = []
    @exclusivity(unchecked) var activationHead = 0
    /// The feeder connection that the activation runs deferred now belong to (see
    /// `DeferredConnection`): nil outside every connection a node waits for.
    @exclusivity(unchecked) var connection: DeferredConnection?
    /// Connections entered inside `connection` that nothing has been deferred in yet: made
    /// into objects only when a run is deferred, so a connection that defers nothing (every
    /// one in a graph shallower than the bound) allocates nothing.
    @exclusivity(unchecked) var unopenedConnections = 0
    /// Node runs waiting for a connection (`resume(_:after:)`) and not yet queued: none is
    /// left once the outermost activation run has run everything deferred.
    @exclusivity(unchecked) var waitingRuns = 0

    /// Owns each thread's object: its destructor frees it when the thread exits (and clears
    /// the thread's slot, so nothing that runs later in the thread's exit reads a freed one).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            signals_set_thread_state(nil)
            #if canImport(Darwin)
            Unmanaged<DepthBounds>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<DepthBounds>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(made == 0, "pthread_key_create failed: \(made)")
        return key
    }()

    /// This thread's object: made on the thread's first use, freed when the thread exits.
    /// Read through the thread's slot (`signals_thread_state`, one load on Linux), or the
    /// pthread key where there is no slot.
    @inlinable static var current: DepthBounds {
        #if os(Linux)
        if let p = signals_thread_state() { return Unmanaged<DepthBounds>.fromOpaque(p).takeUnretainedValue() }
        #else
        if let p = pthread_getspecific(key) { return Unmanaged<DepthBounds>.fromOpaque(p).takeUnretainedValue() }
        #endif
        return makeCurrent()
    }

    @usableFromInline static func makeCurrent() -> DepthBounds {
        let made = DepthBounds()
        let pointer = Unmanaged.passRetained(made).toOpaque()
        pthread_setspecific(key, pointer)
        signals_set_thread_state(pointer)
        return made
    }

    /// Appends a hand-over for the outermost one on this thread to run.
    @usableFromInline func deferDelivery(_ work: @escaping () -> Void) {
        deliveries.append(work)
        hasDeferred = true
    }

    /// How many `runDeferred()` calls are running deferred activation runs, nested on this
    /// thread.
    @exclusivity(unchecked) var activationsRunFromHandOvers = 0

    /// Called by the outermost hand-over on this thread (depth 0) on its way out: runs the
    /// hand-overs deferred past the bound, and the activation runs deferred past theirs.
    ///
    /// Activation runs are run here, not only by the outermost activation run, because a
    /// hand-over can happen inside an activation run that never returns by itself: an
    /// endless `.direct` source sending inside its activation (`Signal.from(0...)`). The
    /// deactivations that its ended downstream sets off (a `take` below it) must reach the
    /// node running the source, to stop it (`NodeFeeder.abandonActivation`); deferred behind
    /// that run they never would. They run first in first out, each from depth one, at most
    /// `maxDepth` such calls nested.
    @usableFromInline func runDeferred() {
        SchedulePoint.here(.runDeferred)
        repeat {
            runDeferredDeliveries()
            if activationHead < activations.count && activationsRunFromHandOvers < Self.maxDepth {
                activationsRunFromHandOvers += 1
                let depth = activationDepth
                runPendingActivations()
                activationDepth = depth
                activationsRunFromHandOvers -= 1
            }
        } while deliveryHead < deliveries.count
        hasDeferred = activationHead < activations.count
    }

    /// Runs the deferred hand-overs, in the order they were deferred, each from depth one
    /// (so it may nest up to the bound again).
    func runDeferredDeliveries() {
        while deliveryHead < deliveries.count {
            let work = deliveries[deliveryHead]
            // Let go now: it holds the value and the node.
            deliveries[deliveryHead] = {}
            deliveryHead += 1
            deliveryDepth = 1
            work()
            deliveryDepth = 0
        }
        deliveries.removeAll(keepingCapacity: deliveries.capacity <= 1024)
        deliveryHead = 0
    }

    /// How many `runningDeferred` scopes are running the hand-overs they deferred, nested on
    /// this thread.
    @exclusivity(unchecked) var deferredScopes = 0

    /// Runs `work` (a graph change that a node's holder runs for another thread, which waits
    /// for it: a subscription's replay, a capture's), then the hand-overs it deferred past the
    /// bound, before returning: so they happen within the call that waits for the change (a
    /// `subscribe` returns with the cached values delivered, at any depth). They run at the
    /// current depth, so they nest no deeper than the bound; scopes nested more than
    /// `maxDepth` deep leave theirs to the outer frames.
    @usableFromInline func runningDeferred(_ work: () -> Void) {
        let mark = deliveries.count
        work()
        guard deliveries.count > mark, deferredScopes < Self.maxDepth else { return }
        deferredScopes += 1
        // At least 1: a hand-over at depth 0 would run the whole list, the outer frames' too.
        let depth = deliveryDepth
        deliveryDepth = max(depth, 1)
        var i = mark
        while i < deliveries.count {
            let deferred = deliveries[i]
            deliveries[i] = {}
            i += 1
            deferred()
        }
        deliveries.removeSubrange(mark...)
        deliveryDepth = depth
        deferredScopes -= 1
        hasDeferred = deliveryHead < deliveries.count || activationHead < activations.count
    }

    /// Runs `attach` (a call of a signal's `attachChain`) for `receiver`, which the chain's
    /// root then tells its attachment as soon as it has made it, before it activates what
    /// feeds it (`attachmentMade(_:)`). A source that sends without end inside that
    /// activation can then be stopped, from the receiver, before `attach` returns: a
    /// subscription whose `take` has ended, a node that no longer wants its feeder. nil: an
    /// attachment nobody needs early (a junction's binding), which must not reach a receiver
    /// of an outer attachment still in progress.
    @inlinable static func attaching<R>(for receiver: (any AttachmentReceiver)?, _ attach: () -> R) -> R {
        let bounds = current
        let outer = bounds.attachmentReceiver
        bounds.attachmentReceiver = receiver
        let result = attach()
        bounds.attachmentReceiver = outer
        return result
    }

    /// For a chain's root about to activate (a node's output attached, a multi's first branch
    /// added): tells the one attaching this chain (`attaching(for:_:)`) its attachment.
    @usableFromInline static func attachmentMade(_ attachment: ChainAttachment) {
        let bounds = current
        guard let receiver = bounds.attachmentReceiver else { return }
        bounds.attachmentReceiver = nil
        receiver.attachmentMade(attachment)
    }

    /// Runs `node`'s activation changes now, or, past the bound, after the outermost
    /// activation run on this thread (see the type's comment). The caller is the node's runner.
    func runActivation(of node: NodeBase) {
        if activationDepth >= Self.maxDepth {
            openConnections()
            connection?.add()
            activations.append(DeferredActivation(node: node, connection: connection))
            hasDeferred = true
            return
        }
        activationDepth += 1
        node.applyActivationChanges()
        activationDepth -= 1
        if activationDepth == 0 && activationHead < activations.count { runDeferredActivations() }
    }

    private func runDeferredActivations() {
        runPendingActivations()
        assert(waitingRuns == 0, "a node's activation run waits for a connection that has nothing left to run")
        activationDepth = 0
        // The nodes are let go here, all together, by the outermost run: one that is freed
        // hands what it holds to the thread's pending releases (no recursion).
        activations.removeAll(keepingCapacity: activations.capacity <= 1024)
        activationHead = 0
        hasDeferred = deliveryHead < deliveries.count
    }

    /// Runs the deferred activation runs from where the list has got to, first in first out,
    /// each from depth one (it may be called again, nested, from a hand-over inside one).
    /// What a run defers belongs to the run's own connection.
    private func runPendingActivations() {
        while activationHead < activations.count {
            let run = activations[activationHead]
            activationHead += 1
            activationDepth = 1
            let outer = (connection, unopenedConnections)
            connection = run.connection
            unopenedConnections = 0
            run.node.applyActivationChanges()
            (connection, unopenedConnections) = outer
            run.connection?.finish(self)
        }
    }

    // MARK: Connections a node waits for

    /// Starts one feeder's connection for a node that connects more feeders after it
    /// (`NodeBase.applyActivationChanges`): the activation runs deferred at the bound until
    /// `endConnection()` belong to it, and so does whatever those runs defer in turn.
    /// Costs a counter raised here and lowered there; nothing is allocated unless a run is
    /// deferred.
    func beginConnection() {
        unopenedConnections += 1
    }

    /// Ends the connection begun last: returns it if activation runs deferred in it have not
    /// all run yet (the feeder is not connected until they have), nil otherwise.
    func endConnection() -> DeferredConnection? {
        if unopenedConnections > 0 {
            unopenedConnections -= 1
            return nil
        }
        guard let ended = connection else { return nil }
        connection = ended.parent
        return ended.pending > 0 ? ended : nil
    }

    /// Makes the connections begun and not yet made into objects, innermost last.
    private func openConnections() {
        while unopenedConnections > 0 {
            connection = DeferredConnection(parent: connection)
            unopenedConnections -= 1
        }
    }

    /// Resumes `node`'s activation run (its runner is this thread) once every activation run
    /// deferred in `pending` has run, which the outermost activation run on this thread sees
    /// to before it returns. Until then the run counts as deferred in the current
    /// connection, so a node that waits for this one waits for it too.
    func resume(_ node: NodeBase, after pending: DeferredConnection) {
        openConnections()
        connection?.add()
        waitingRuns += 1
        pending.waiter = DeferredActivation(node: node, connection: connection)
    }

    /// Queues `run`, a waiter whose connection has been made, where the deferred runs go.
    func queue(_ run: DeferredActivation) {
        waitingRuns -= 1
        activations.append(run)
        hasDeferred = true
    }
}
