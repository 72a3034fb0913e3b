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

    typealias Detach = DetachStateMachine<ChainAttachment>
    /// Where the detach stands (`DetachStateMachine`): each event is run under this lock, and
    /// what it returns is done after the lock is released.
    let detach = Mutex(Detach())
    /// The thread detaching the chain now (a request took the attachment), `Detach.noDetach`
    /// when none, `Detach.detachDone` once that detach has finished; and whether a thread waits
    /// for it (`waitForDetachOnAnotherThread`). Atomics beside the state machine, so that the
    /// common detach (nobody waiting) and the release of an output already detached take no
    /// lock for them: the two form a store-buffer pattern (one side writes one and reads the
    /// other), hence sequentially consistent.
    let detachingThread = Atomic<UInt>(Detach.noDetach)
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
        if case .detach(let end) = detach.withLock({ $0.attachmentMade(a) }) { a.detach(endedWith: end) }
    }

    @usableFromInline func setAttachment(_ a: ChainAttachment) {
        if case .detachAndFree(let end) = detach.withLock({ $0.setAttachment(a) }) {
            a.detach(endedWith: end)
            // Detached: the signal's output is free for a new subscription.
            drop()
        }
    }

    @usableFromInline func close(end: SignalEnd?) {
        // Detached and freed already: the acquiring load orders this return after that
        // detach, as taking the lock would.
        if detachingThread.load(ordering: .acquiring) == Detach.detachDone { return }
        closed.store(true, ordering: .releasing)
        if !requestDetach(end: end) { waitForDetachOnAnotherThread() }
    }

    /// A `cancel()` (or release) that finds the chain being detached by another thread (its
    /// end delivered there) returns once that detach has finished, so that the signal is then
    /// free for a new subscriber. Not where waiting would close a cycle of threads
    /// (`WaitRegistry`), nor on the detaching thread itself (a cancel from inside the end).
    func waitForDetachOnAnotherThread() {
        let seen = detachingThread.load(ordering: .relaxed)
        if seen == Detach.noDetach || seen == Detach.detachDone { return }
        let me = currentThreadToken()
        let (action, detaching) = detach.withLock { d -> (Detach.WaitAction, UInt) in
            hasDetachWaiters.store(true, ordering: .sequentiallyConsistent)
            let detaching = detachingThread.load(ordering: .sequentiallyConsistent)
            return (d.waitForDetach(runningOn: detaching, by: me), detaching)
        }
        guard case .wait(let semaphore) = action, WaitRegistry.register(me, waitingFor: { detaching }) else { return }
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
        let action = detach.withLock { d -> Detach.RequestDetachAction in
            let action = d.requestDetach(end: end)
            // The two writes made under the lock besides the event's. The detaching thread
            // is published before the lock lets a second `close` see the request: it would
            // otherwise find no detach to wait for, and return before this one has run.
            if action.detachesOnThisThread {
                detachingThread.store(currentThreadToken(), ordering: .relaxed)
            } else if case .detachInProgress = action {
                // Read under the lock: `setAttachment` drops the hold (clearing `slotOwner`)
                // only after it has seen the request.
                owner = slotOwner
            }
            return action
        }
        switch action {
        case .alreadyRequested:
            return false
        case .detach(let a):
            a.detach(endedWith: end)
            // Freed only after the detach has run, so a new subscription never overlaps it.
            drop()
            detachFinished()
        case .detachEarly(let early):
            // The chain may still be inside its activation, with sources sending on this
            // thread: detached now, they stop.
            early.detach(endedWith: end)
            switch detach.withLock({ $0.earlyDetachFinished() }) {
            case .detachArrived(let arrived):
                arrived.detach(endedWith: end)
                drop()
                detachFinished()
            case .awaitAttachment:
                detachFinished(done: false)
            }
        case .detachInProgress:
            owner?.chainRoot.detachAttachmentInProgress(endedWith: end)
        }
        return true
    }

    /// Lets go of the threads waiting in `close` for this thread's detach; `done`: the chain is
    /// detached and the output freed, so a later `close` returns at once.
    @inline(__always) func detachFinished(done: Bool = true) {
        detachingThread.store(done ? Detach.detachDone : Detach.noDetach, ordering: .sequentiallyConsistent)
        if _slowPath(hasDetachWaiters.load(ordering: .sequentiallyConsistent)) { wakeDetachWaiters() }
    }

    @inline(never) func wakeDetachWaiters() {
        for w in detach.withLock({ $0.takeWaiters() }) { w.signal() }
    }
}
