import Dispatch
import Synchronization

extension SignalNode {
    /// An end sent by an input that expected `expectedActive`: closes the node so later sends
    /// are refused, then delivers the end. While inactive, the end is kept for the next
    /// attachment. `pastTheBound` (a hand-over past the depth bound, `SignalInput.sendHandedOver`):
    /// the end is queued and the node, if this found it idle, drained later by that thread.
    @usableFromInline
    func sendEnd(_ end: SignalEnd, expectedActive: Int, pastTheBound: DepthBounds? = nil) -> SignalSendError? {
        SchedulePoint.here(.end)
        var read = status.load(ordering: .acquiring)
        while read == expectedActive {
            let (closed, now) = status.compareExchange(
                expected: read, desired: (read & ~3) | NodeStatus.ended, ordering: .acquiringAndReleasing)
            if closed {
                if newGenerationOnDeactivate {
                    SchedulePoint.here(.endDelivery)
                    EndDeliveryGap.here(end)
                    deliverEnd(end, ofGeneration: expectedActive >> 2, pastTheBound: pastTheBound)
                    return nil
                }
                // Recorded only for the activation it closed.
                activation.withLock { a in
                    if a.recordedEnd == nil && a.generation == expectedActive >> 2 { a.recordedEnd = end }
                }
                if let pastTheBound {
                    handOverPastTheBound(.value(.failure(end)), kind: .end, pastTheBound)
                } else {
                    deliver(.failure(end))
                }
                return nil
            }
            read = now
        }
        // A node that starts a new generation on deactivation never keeps an end for a later
        // attachment: an input of its generation while it is inactive belongs to an
        // activation pass that a deactivation overtook (the feeders are applied outside the
        // lock), and its kept end would reach the next binding's chain as that binding's
        // first result (a chain that completed with no value).
        if newGenerationOnDeactivate && read & 3 == NodeStatus.inactive {
            return NodeStatus.rejection(read: read, expectedActive: expectedActive)
        }
        if read >> 2 == expectedActive >> 2 && read & 3 == NodeStatus.inactive {
            let outcome = activation.withLock { a -> InactiveEndOutcome in
                if a.recordedEnd != nil { return .alreadyEnded }
                guard status.load(ordering: .relaxed) == read else { return .changed }
                a.recordedEnd = end
                status.store((read & ~3) | NodeStatus.ended, ordering: .releasing)
                return .kept
            }
            switch outcome {
            case .kept: return .inactive
            case .alreadyEnded: return .disconnected
            // The status moved on (activated, or ended by another sender): read it again.
            // Loops only while other threads keep changing it, never on a fixed state.
            case .changed: return sendEnd(end, expectedActive: expectedActive, pastTheBound: pastTheBound)
            }
        }
        return NodeStatus.rejection(read: read, expectedActive: expectedActive)
    }

    /// Delivers the end of generation `generation` of a node that starts a new generation on
    /// deactivation (`generate`, merge, combine, hop nodes), unless that generation is gone.
    ///
    /// Why: the end was once delivered like a value, after its status CAS. A thread that
    /// unbound and re-bound the node in between (a junction's `disconnect` and `bind`) started
    /// the next generation and reopened the queue; the old end then closed the reopened queue
    /// (the new activation's values were refused) and reached the new binding's chain, which
    /// completed with no value. Now the end is queued under the activation lock, only while its
    /// generation is current, so it is queued either before the next generation reopens the
    /// queue or not at all; and the holder delivers it only while the generation is still
    /// current. No user code runs under the lock: queuing never delivers, and a stale end's
    /// control is released after the unlock. Values keep their one-load path: only ends pay.
    ///
    /// `recording: false` (an end forwarded from a feeder's chain, `forwardEnd`): the end is
    /// not kept for a later attachment, as a forwarded end never was.
    @usableFromInline
    func deliverEnd(_ end: SignalEnd, ofGeneration generation: Int, pastTheBound: DepthBounds? = nil, recording: Bool = true) {
        let control = NodeControl { [self] in
            guard status.load(ordering: .acquiring) >> 2 == generation, let box = outputBox else { return }
            box._withUnsafeGuaranteedRef { $0.deliverIfOpen(.failure(end)) }
        }
        let claimed = activation.withLock { a -> Bool in
            guard a.generation == generation else { return false }
            if recording && a.recordedEnd == nil { a.recordedEnd = end }
            // The queue's schedule points are not taken under this lock: a thread switched out
            // here would block another on the lock, where the scheduler cannot see it.
            return SchedulePoint.unscheduled { enqueueEnd(control) }
        }
        withExtendedLifetime(control) {}
        guard claimed else { return }
        if let pastTheBound, !isAsync {
            pastTheBound.deferDelivery { [self] in drainHeld() }
            return
        }
        withQueue(lockFree: { drainAfterEnqueue($0) }, mutex: { drainAfterEnqueue($0) })
    }

    /// Queues `control` as an end (closing the queue to values); true if the node was idle and
    /// this thread now holds it. Runs no user code.
    @usableFromInline
    func enqueueEnd(_ control: NodeControl) -> Bool {
        enqueueEnd(.control(control))
    }

    /// Queues `message` as an end (closing the queue to values); true if the node was idle and
    /// this thread now holds it. Runs no user code.
    @usableFromInline
    func enqueueEnd(_ message: Message) -> Bool {
        // An end is always accepted (only values are refused).
        withQueue(lockFree: { $0.enqueueAndClaimIfIdle(.end, message) ?? false },
                  mutex: { $0.enqueueAndClaimIfIdle(.end, message) ?? false })
    }

    /// For a thread that claimed the node by queuing: drains here, or on the node's context.
    @usableFromInline
    func drainAfterEnqueue<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        if isAsync { scheduleDrain(q) } else { drain(q) }
    }

    /// The current generation (a node that starts a new generation on deactivation).
    @usableFromInline
    var currentGeneration: Int { activation.withLock { $0.generation } }

    /// The status an input of the current generation expects while the node is active.
    @usableFromInline
    var currentActiveStatus: Int {
        activation.withLock { NodeStatus.make(generation: $0.generation, state: NodeStatus.active) }
    }
}

/// What `sendEnd` did with an end sent while its node was inactive.
enum InactiveEndOutcome { case kept, alreadyEnded, changed }
