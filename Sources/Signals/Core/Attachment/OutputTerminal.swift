import Dispatch
import Synchronization

/// The last stage of a subscription's chain. Kept apart from `SignalOutput` so the graph does
/// not keep the output object alive (which would keep it from being released).
///
/// Its slow paths (cancel, detach) are not generic, so they need no generic metadata at run
/// time. The handler lives in a generic subclass (`ValueTerminal`, `ResultTerminal`): the
/// terminal sink's two closures then capture the terminal alone, which serves as their context,
/// so a subscription allocates no closure context.
@usableFromInline
class OutputTerminal: OutputHold, AttachmentReceiver, @unchecked Sendable {
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
        // A thread of a controlled scheduler (`SchedulePoint`) cannot block for a detach that
        // runs only when it yields: it gives the others turns until the detach is done.
        if SchedulePoint.waitInTurns(.controlWait, until: { semaphore.wait(timeout: .now()) == .success }) { return }
        semaphore.wait()
    }

    /// Returns false if a detach had been requested before (this call did nothing).
    @usableFromInline @discardableResult func requestDetach(end: SignalEnd?) -> Bool {
        var owner: (any OutputHoldSlotOwner)? = nil
        var early: ChainAttachment? = nil
        var first = true
        let a = detach.withLock { d -> ChainAttachment? in
            if d.requested {
                first = false
                return nil
            }
            d.requested = true
            d.end = end
            // Read under the lock: `setAttachment` drops the hold (clearing `slotOwner`) only
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
