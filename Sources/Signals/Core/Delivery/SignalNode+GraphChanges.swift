import Dispatch
import Synchronization

extension SignalNode {
    // MARK: Graph changes

    /// Runs `work` while holding the node, in line with values. Returns once it has run (on
    /// this thread, or on the thread holding the node, which this one waits for; also when
    /// this thread drained the node and handed it over before reaching `work`), except when
    /// called by the thread that holds the node right now (from inside a delivery), or on a
    /// node with an asynchronous context: then it runs after the current delivery and this
    /// returns at once, since waiting would deadlock. It also returns at once where waiting
    /// would close a cycle of threads (`WaitRegistry`); `work` then runs later, in line.
    @inlinable
    func perform(_ work: @escaping () -> Void) {
        withQueue(lockFree: { perform(work, waiting: true, through: $0) }, mutex: { perform(work, waiting: true, through: $0) })
    }

    /// Runs `work` while holding the node, in line with values, and never waits: if another
    /// thread holds the node, `work` is queued for it and this returns at once.
    ///
    /// For an attachment: its installation is queued ahead of everything its feeders send,
    /// so nothing needs to wait for it.
    @inlinable
    func post(_ work: @escaping () -> Void) {
        withQueue(lockFree: { perform(work, waiting: false, through: $0) }, mutex: { perform(work, waiting: false, through: $0) })
    }

    @inlinable
    func perform<Q: DeliveryQueue>(_ work: @escaping () -> Void, waiting: Bool, through q: Q) where Q.Element == Message {
        if isAsync {
            if q.enqueueAndClaimIfIdle(.control(NodeControl(work))) { scheduleDrain(q) }
            return
        }
        let reentrant = waiting && q.isHeldByCurrentThread
        // The control object (and its waiter) is made only when the change has to be queued.
        var queued: NodeControl?
        switch q.claimOrEnqueue({ let c = NodeControl(work); queued = c; return .control(c) }()) {
        case .claimed:
            work()
            if !q.releaseIfIdle() { drain(q) }
        case .enqueuedAndClaimed:
            drain(q)
            // This thread took the node with the change queued behind a backlog (it took a
            // holder's handoff offer, or found the node idle), and a drain that goes past the
            // handoff budget may hand the node on before it reaches the change. The change is
            // then still queued for the new holder: wait for it as in `.enqueued` (this thread
            // holds the node no more). Without this wait `capture()` could return before a
            // multi's cache was replayed to it, and a subscription before its branch was
            // attached (docs/stress.md, "capture() racing a flooding sender"). Graph changes
            // only: values never come here. (`wait` returns at once when the change has run.)
            fallthrough
        case .enqueued:
            SchedulePoint.here(.graphChange)
            if waiting && !reentrant { queued?.wait { q.holderToken } }
        }
    }

    /// Runs `work` at once if the node is idle and direct, holding it meanwhile (true);
    /// otherwise does nothing (false) and the caller falls back to `perform`. Lets frequent
    /// graph changes skip the escaping closure and control object of a queued change.
    @inlinable
    func performIfIdle(_ work: () -> Void) -> Bool {
        if isAsync { return false }
        return withQueue(lockFree: { performIfIdle(work, through: $0) }, mutex: { performIfIdle(work, through: $0) })
    }

    @inlinable
    func performIfIdle<Q: DeliveryQueue>(_ work: () -> Void, through q: Q) -> Bool where Q.Element == Message {
        guard q.tryClaim() else { return false }
        work()
        if !q.releaseIfIdle() { drain(q) }
        return true
    }

    /// Connects the fused chain in `box` as this node's output and starts the node's feeders;
    /// an end sent before anything was attached is delivered to it at once. While this call runs (the feeders
    /// started, the kept end replayed), `attachment` is the node's attachment in progress: a
    /// subscription whose chain ends before `attachChain` has returned its attachment
    /// detaches it through `detachAttachmentInProgress` (see `OutputTerminal.requestDetach`).
    @usableFromInline
    func attach(_ box: SinkBox<T>, detachableThrough attachment: ChainAttachment?) {
        SchedulePoint.here(.subscribe)
        post { [self] in installOutput(box) }
        var pendingEnd: SignalEnd?
        updateActivation { a in
            if let attachment { a.attachmentInProgress = attachment }
            a.attachedBox = ObjectIdentifier(box)
            if newGenerationOnDeactivate && status.load(ordering: .acquiring) & 3 == NodeStatus.ended {
                // The last activation's end closed the node and its chain's detach has not
                // yet started the next generation (a junction's disconnect lost the race to
                // detach the chain to that end, then bound again): this attach starts it, and
                // that detach, superseded, leaves it alone. Its feeders are restarted for it.
                a.generation += 1
                reopenQueue()
            }
            if let e = a.recordedEnd {
                pendingEnd = e
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.ended), ordering: .releasing)
            } else {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.active), ordering: .releasing)
                a.wanted = true
            }
        }
        // The kept end of a closed node is its activation: a capture takes it as its end.
        if let e = pendingEnd { ActivationReplay.replaying { deliver(.failure(e)) } }
        if let attachment {
            activation.withLock { a in
                if a.attachmentInProgress === attachment { a.attachmentInProgress = nil }
            }
        }
    }

    /// Opens the delivery queue to values again after an end (see `DeliveryQueue.reopen`).
    @usableFromInline
    func reopenQueue() {
        withQueue(lockFree: { $0.reopen() }, mutex: { $0.reopen() })
    }

    /// Installs `box` (retained here) as the output. Holder-only.
    @usableFromInline
    func installOutput(_ box: SinkBox<T>) {
        let old = outputBox
        outputBox = Unmanaged.passRetained(box)
        old?.release()
    }

    /// Disconnects the output and stops the feeders. Once the node has an end (`end`, or one
    /// recorded earlier), inputs see it as disconnected; otherwise as inactive until attached
    /// again.
    ///
    /// With `closing`, the chain attached in that box is closed first, so no stage of it runs
    /// after this returns (except a call already running), even when `perform` cannot wait
    /// for the holder (from inside its delivery, or where waiting could deadlock) and the
    /// holder drops the chain later.
    @usableFromInline
    func detach(endedWith end: SignalEnd?, closing box: SinkBox<T>? = nil) {
        box?.close()
        // An end forgotten here may carry a user error (`.other`): it is handed out of the
        // lock and released after the unlock, like every user-owned object (no user `deinit`
        // under a lock).
        var superseded = false
        let forgottenEnd = activation.withLock { a -> SignalEnd? in
            // Two threads can detach one chain (a junction's disconnect and its source's end):
            // the one that loses returns at once, and may attach a new chain while this detach
            // runs. This node's status and activation are then the new chain's: only the old
            // chain is closed and dropped.
            if let box, let current = a.attachedBox, current != ObjectIdentifier(box) {
                superseded = true
                return nil
            }
            a.attachedBox = nil
            if newGenerationOnDeactivate {
                // A `generate` node restarts on its next activation (a fresh input, its
                // closure run again), so an end of this activation is not kept: the old
                // input's generation is gone and it sees itself disconnected.
                let forgotten = a.recordedEnd.take()
                a.generation += 1
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
                // The old activation's end closed the queue to values; the next activation's
                // inputs need it open (the generation check drops stragglers of this one).
                reopenQueue()
                return forgotten
            }
            if let end, a.recordedEnd == nil { a.recordedEnd = end }
            // A concurrent `sendEnd` may have closed the status word and not yet recorded its
            // end: the node stays ended, or later sends would see it as merely inactive.
            let endedAlready = status.load(ordering: .acquiring) & 3 == NodeStatus.ended
            if a.recordedEnd != nil || endedAlready {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.ended), ordering: .releasing)
            } else {
                if newGenerationOnDeactivate { a.generation += 1 }
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
            }
            return nil
        }
        withExtendedLifetime(forgottenEnd) {}
        // The old chain is released while holding the node, never under a lock.
        if let box {
            // Only if it is still the installed one: a later attachment may already be queued
            // ahead of this (the removal and installation run in the order they were queued).
            perform { [self] in
                if outputBox?.toOpaque() == Unmanaged.passUnretained(box).toOpaque() { output = nil }
            }
        } else {
            perform { [self] in output = nil }
        }
        // A chain attached since (after the status change above) wants the node active.
        let ofABox = box != nil
        if !superseded { updateActivation { a in if !ofABox || a.attachedBox == nil { a.wanted = false } } }
    }

    /// Makes the inputs refuse sends (as inactive) until the detach that follows: the first
    /// step of a deactivation that stops several feeders of a node below
    /// (`ChainAttachment.refuseSendsBeforeDetach()`). Leaves an ended or newer status alone.
    @usableFromInline
    func refuseSendsUntilDetached() {
        activation.withLock { a in
            let active = NodeStatus.make(generation: a.generation, state: NodeStatus.active)
            if status.load(ordering: .acquiring) == active {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
            }
        }
    }
}
