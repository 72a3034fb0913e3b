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
                accepted = node.queue._withUnsafeGuaranteedRef {
                    node.deliverDirect(.success(value), through: unsafeDowncast($0, to: SignalNode<T>.LockFreeQueue.self))
                }
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

/// A subscription: the handler at the end of a chain. Its lifetime keeps the graph it depends
/// on alive and active; cancelling or releasing it deactivates the part of the graph that fed
/// only it.
///
/// After `cancel()` returns, the handler is not entered again. (Called from inside the handler
/// itself, `cancel()` cannot wait for the delivery in progress, which is the caller; nothing
/// after it is delivered. On a non-direct context, a delivery already running on the context
/// may finish after `cancel()` returns.)
///
/// Once no delivery to it can still run (after `cancel()` or the end, and the detach that
/// follows), the handler and what it captured are no longer held by the signal: releasing
/// this output frees them, and the signal can be subscribed again. A chain that ends while it
/// is still being attached (a `take` behind a `.direct` source that sends inside `subscribe`)
/// stops its sources at once.
public final class SignalOutput<T: Sendable>: Lifetime, @unchecked Sendable {
    // Unchecked Sendable: `terminal` does its own synchronization.
    @usableFromInline let terminal: OutputTerminal

    /// Connects `sink`, the terminal sink built around `terminal` (in `@inlinable` code, so
    /// it is specialized for the client's types).
    @inlinable
    init(signal: Signal<T>, terminal: OutputTerminal, sink: SignalSink<T>) {
        self.terminal = terminal
        guard signal.takeOutput(by: terminal) else {
            // The terminal sink delivers this end and then closes itself.
            sink(.failure(.other(SignalBindError.duplicate)))
            return
        }
        // `DepthBounds.attaching(for:_:)` written out: through its closure this initializer
        // was no longer inlined into the caller (subscribe + cancel +100 instructions).
        let bounds = DepthBounds.current
        let outer = bounds.attachmentReceiver
        bounds.attachmentReceiver = terminal
        let attachment = signal.attachChain(sink)
        bounds.attachmentReceiver = outer
        terminal.setAttachment(attachment)
    }

    /// Ends the subscription now; the handler is not called again. Idempotent.
    ///
    /// When the subscription's end is being delivered on another thread right now (its chain
    /// being detached there), this returns once that detach has finished, so the signal is free
    /// for a new subscriber as soon as `cancel()` returns; not where waiting would close a cycle
    /// of threads, nor from inside that delivery.
    public func cancel() {
        #if DEBUG
        SchedulePoint.here(.cancel)
        #endif
        terminal.close(end: nil)
    }

    /// Whether the subscription has ended (cancelled, or its stream ended).
    public var isClosed: Bool { terminal.closed.load(ordering: .acquiring) }

    deinit { terminal.close(end: nil) }
}

/// The last stage of a subscription's chain. Kept apart from `SignalOutput` so the graph does
/// not keep the output object alive (which would keep it from being released).
///
/// Its slow paths (cancel, detach) are not generic, so they need no generic metadata at run
/// time. The handler lives in a generic subclass (`ValueTerminal`, `ResultTerminal`): the
/// terminal sink's two closures then capture the terminal alone, which serves as their context,
/// so a subscription allocates no closure context.
@usableFromInline
class OutputTerminal: OutputClaim, AttachmentReceiver, @unchecked Sendable {
    /// Set on cancel or end: later deliveries are dropped.
    @usableFromInline let closed = Atomic<Bool>(false)

    struct Detach {
        var attachment: ChainAttachment?
        /// The attachment told by the chain's root while `attachChain` still runs
        /// (`attachmentMade(_:)`): what a detach requested before `setAttachment` detaches.
        var early: ChainAttachment?
        /// While `requestDetach` detaches `early` (on the thread the end reached), the
        /// attachment `setAttachment` brought meanwhile: that thread frees the output once its
        /// detach has run, so a new subscription never overlaps it.
        var earlyDetachRunning = false
        var arrived: ChainAttachment?
        var requested = false
        var end: SignalEnd?
        /// The threads in `close` waiting for `detachingThread` to finish its detach.
        var waiters: [DispatchSemaphore] = []
    }
    let detach = Mutex(Detach())
    /// The thread detaching the chain now (`requestDetach` took the attachment), 0 when none,
    /// `detachDone` once that detach has finished; and whether a thread waits for it
    /// (`waitForDetachOnAnotherThread`). Atomics, so that the common detach (nobody waiting)
    /// takes the lock no more often than before: the two form a store-buffer pattern (one side
    /// writes one and reads the other), hence sequentially consistent.
    let detachingThread = Atomic<UInt>(0)
    /// `detachingThread` once the chain has been detached and the output freed: a later
    /// `close` (the release of an output already cancelled, a second cancel) has nothing left
    /// to do or wait for. Not a thread token: those have their low three bits clear.
    static let detachDone: UInt = 1
    let hasDetachWaiters = Atomic<Bool>(false)

    @usableFromInline override init() {}

    /// A value subscription's end (or a result subscription's, after its handler ran): closes
    /// the terminal and disconnects the chain.
    @usableFromInline func endWithoutHandler(_ e: SignalEnd) {
        if closed.load(ordering: .relaxed) { return }
        closed.store(true, ordering: .releasing)
        requestDetach(end: e)
    }

    /// The chain's root has made the attachment and is about to activate its sources: a
    /// detach requested from now on (the chain ended inside that activation) detaches it at
    /// once, so those sources stop. Only detaches: `setAttachment` does the rest.
    @usableFromInline func attachmentMade(_ a: ChainAttachment) {
        // `requestDetach` may detach it from another thread.
        a.publishForDetach()
        let detachNow = detach.withLock { d -> SignalEnd?? in
            if d.requested { return .some(d.end) }
            d.early = a
            return .none
        }
        if let end = detachNow { a.detach(endedWith: end) }
    }

    @usableFromInline func setAttachment(_ a: ChainAttachment) {
        // Once detach was requested the terminal never keeps the attachment: an attachment
        // (a multicast branch) holds the sink that holds this terminal, so keeping it would
        // be a reference cycle.
        let run = detach.withLock { d -> SignalEnd?? in
            d.early = nil
            if d.requested {
                if d.earlyDetachRunning {
                    d.arrived = a
                    return .none
                }
                return .some(d.end)
            }
            d.attachment = a
            return .none
        }
        if let end = run {
            a.detach(endedWith: end)
            // Detached: the signal's output is free for a new subscription.
            drop()
        }
    }

    @usableFromInline func close(end: SignalEnd?) {
        // Detached and freed already: the acquiring load orders this return after that
        // detach, as taking the lock would.
        if detachingThread.load(ordering: .acquiring) == Self.detachDone { return }
        closed.store(true, ordering: .releasing)
        if !requestDetach(end: end) { waitForDetachOnAnotherThread() }
    }

    /// A `cancel()` (or release) that finds the chain being detached by another thread (its
    /// end delivered there) returns once that detach has finished, so that the signal is then
    /// free for a new subscriber. Not where waiting would close a cycle of threads
    /// (`WaitRegistry`), nor on the detaching thread itself (a cancel from inside the end).
    func waitForDetachOnAnotherThread() {
        let seen = detachingThread.load(ordering: .relaxed)
        if seen == 0 || seen == Self.detachDone { return }
        let me = currentThreadToken()
        let (semaphore, detaching) = detach.withLock { d -> (DispatchSemaphore?, UInt) in
            hasDetachWaiters.store(true, ordering: .sequentiallyConsistent)
            let detaching = detachingThread.load(ordering: .sequentiallyConsistent)
            guard detaching != 0, detaching != Self.detachDone, detaching != me else { return (nil, 0) }
            let s = DispatchSemaphore(value: 0)
            d.waiters.append(s)
            return (s, detaching)
        }
        guard let semaphore, WaitRegistry.register(me, waitingFor: { detaching }) else { return }
        defer { WaitRegistry.unregister(me) }
        let counting = WaitCounters.counting
        let start = counting ? WaitCounters.now() : 0
        if counting { WaitCounters.add(.detachWait) }
        defer { if counting { WaitCounters.add(.detachWaitNanoseconds, Int(truncatingIfNeeded: WaitCounters.now() &- start)) } }
        #if DEBUG
        // A thread of a controlled scheduler (`SchedulePoint`) cannot block for a detach that
        // runs only when it yields: it gives the others turns until the detach is done.
        while semaphore.wait(timeout: .now()) == .timedOut {
            if !SchedulePoint.waitingTurn(.controlWait) { semaphore.wait(); return }
        }
        #else
        semaphore.wait()
        #endif
    }

    /// Returns false if a detach had been requested before (this call did nothing).
    @usableFromInline @discardableResult func requestDetach(end: SignalEnd?) -> Bool {
        var owner: (any ClaimSlotOwner)? = nil
        var early: ChainAttachment? = nil
        var first = true
        let a = detach.withLock { d -> ChainAttachment? in
            if d.requested {
                first = false
                return nil
            }
            d.requested = true
            d.end = end
            // Read under the lock: `setAttachment` drops the claim (clearing `slotOwner`) only
            // after it has seen `requested` here.
            if d.attachment == nil {
                owner = slotOwner
                early = d.early.take()
                if early != nil {
                    d.earlyDetachRunning = true
                    detachingThread.store(currentThreadToken(), ordering: .relaxed)
                }
            } else {
                detachingThread.store(currentThreadToken(), ordering: .relaxed)
            }
            // Taken out, not copied: see `setAttachment`.
            defer { d.attachment = nil }
            return d.attachment
        }
        // Without an attachment yet, `setAttachment` detaches and frees the output. Until
        // then the chain may still be inside its activation, with sources sending on this
        // thread: it is detached now through the node's attachment in progress, so they stop.
        guard let a else {
            guard first else { return false }
            if let early {
                early.detach(endedWith: end)
                let arrived = detach.withLock { d -> ChainAttachment? in
                    d.earlyDetachRunning = false
                    return d.arrived.take()
                }
                if let arrived {
                    arrived.detach(endedWith: end)
                    drop()
                }
                // Done only if the attachment has arrived: otherwise `setAttachment` detaches it.
                detachFinished(done: arrived != nil)
            } else {
                owner?.chainRoot.detachAttachmentInProgress(endedWith: end)
            }
            return true
        }
        a.detach(endedWith: end)
        // Freed only after the detach has run, so a new subscription never overlaps it.
        drop()
        detachFinished()
        return true
    }

    /// Lets go of the threads waiting in `close` for this thread's detach; `done`: the chain is
    /// detached and the output freed, so a later `close` returns at once.
    @inline(__always) func detachFinished(done: Bool = true) {
        detachingThread.store(done ? Self.detachDone : 0, ordering: .sequentiallyConsistent)
        if _slowPath(hasDetachWaiters.load(ordering: .sequentiallyConsistent)) { wakeDetachWaiters() }
    }

    @inline(never) func wakeDetachWaiters() {
        let waiters = detach.withLock { d -> [DispatchSemaphore] in
            defer { d.waiters = [] }
            return d.waiters
        }
        for w in waiters { w.signal() }
    }
}

/// The terminal of a value subscription, holding its handler.
@usableFromInline
final class ValueTerminal<T: Sendable>: OutputTerminal, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (T) -> Void

    @inlinable init(_ handler: @escaping @Sendable (T) -> Void) {
        self.handler = handler
        super.init()
    }

    /// Values go to the handler until cancel or the end; the end only closes the terminal.
    /// The sink names this terminal, so a `map` right in front of it calls `value(_:)` itself.
    @inlinable var sink: SignalSink<T> {
        SignalSink(value: { [self] v in value(v) }, end: { [self] e in endWithoutHandler(e) }, terminal: self)
    }

    /// The sink for a signal that attaches it behind a gate of its own
    /// (`Signal.attachesBehindGate`): values go straight to the handler. Cancelling closes the
    /// terminal and then detaches, which closes that gate before `cancel()` returns, so the
    /// handler is not entered after it; an end arrives after the last value.
    @inlinable var ungatedSink: SignalSink<T> {
        SignalSink(value: handler, end: { [self] e in endWithoutHandler(e) })
    }

    /// The gate and the handler: nothing is delivered once the terminal is closed.
    @inlinable @inline(__always) func value(_ v: T) {
        if closed.load(ordering: .relaxed) { return }
        handler(v)
    }
}

/// The terminal of a result subscription, holding its handler.
@usableFromInline
final class ResultTerminal<T: Sendable>: OutputTerminal, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (Result<T, SignalEnd>) -> Void

    @inlinable init(_ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Void) {
        self.handler = handler
        super.init()
    }

    /// Every result goes to the handler until cancel or the end; the end then disconnects
    /// the chain.
    @inlinable var sink: SignalSink<T> {
        SignalSink(value: { [self] v in value(v) }, end: { [self] e in end(e) })
    }

    @inlinable func value(_ v: T) {
        if closed.load(ordering: .relaxed) { return }
        handler(.success(v))
    }

    @inlinable func end(_ e: SignalEnd) {
        if closed.load(ordering: .relaxed) { return }
        closed.store(true, ordering: .releasing)
        handler(.failure(e))
        requestDetach(end: e)
    }
}

/// How a processor (`transform`, `combine`) emits results downstream. Valid only during the
/// call it was passed to: it delivers into the chain that the calling node is holding.
public struct SignalNext<T: Sendable>: Sendable {
    @usableFromInline let sink: SignalSink<T>

    /// A `next` into `downstream` that drops everything emitted after an end (one per
    /// activation of a processor stage).
    @inlinable init(guardingEnd downstream: SignalSink<T>, stopping root: NodeBase? = nil) {
        let guarded = EndGuardedSink(downstream, stopping: root)
        self.sink = SignalSink(value: { guarded.value($0) }, end: { guarded.end($0) })
    }

    /// Emits a value.
    ///
    /// - Parameter value: the value to emit.
    @inlinable @inline(__always) public func send(value: T) { sink.value(value) }
    /// Emits a value or an end. Anything emitted after an end is dropped.
    ///
    /// - Parameter result: the value or end to emit.
    @inlinable @inline(__always) public func send(result: Result<T, SignalEnd>) { sink(result) }
    /// Emits an end. Anything emitted after it is dropped.
    ///
    /// - Parameter end: the end to emit.
    @inlinable public func send(end: SignalEnd) { sink.end(end) }
    /// Emits `.complete`.
    @inlinable public func complete() { sink.end(.complete) }
}

/// The sink behind a processor's `next`: a processor may emit after its end (or emit an end
/// twice), and nothing downstream may see that. Per activation; touched only inside the
/// stage's deliveries, which its node serializes.
///
/// `stopping`: the node whose output chain this stage is in, when that node has a single output
/// and sources above it (a merge, a combine, a `generate`, a hop): the stage's end ends that
/// output, so the node stops its sources at once, before the end goes on. Otherwise the
/// sources stopped only when the subscription's detach came back up, and past the depth bound,
/// or with a node up there held by another thread, that could be after the thread that carried
/// the end to the subscriber had gone on and sent into one of them: accepted, then dropped.
@usableFromInline
final class EndGuardedSink<T: Sendable>: @unchecked Sendable {
    @usableFromInline let downstream: SignalSink<T>
    @usableFromInline let root: NodeBase?
    @usableFromInline var ended = false

    @inlinable init(_ downstream: SignalSink<T>, stopping root: NodeBase? = nil) {
        self.downstream = downstream
        self.root = root
    }

    @inlinable func value(_ v: T) {
        if !ended { downstream.value(v) }
    }

    @inlinable func end(_ e: SignalEnd) {
        if ended { return }
        ended = true
        root?.stopFeedersAfterStageEnd()
        downstream.end(e)
    }
}
