import Dispatch

/// The detach of a subscription's chain: what `OutputTerminal` keeps under its lock, as a state
/// and the events that change it.
///
/// A subscription's chain is attached while `subscribe` runs (`attachChain`), and a detach may
/// be requested at any moment of that: before the chain's root has made its attachment, after
/// (`attachmentMade`) but before `attachChain` returned it (`setAttachment`), or once
/// attached. Whichever comes first, the chain is detached exactly once, and the output is freed
/// only after that detach has run, so that a new subscription never overlaps it.
///
/// Each event is called with the terminal's lock held; it changes the state and returns what
/// the terminal must do after releasing the lock (detach an attachment, free the output, wake
/// the waiting threads). No event runs a detach itself: a detach runs user code (`onDeactivate`,
/// a source's stop), which must never run under the lock. What happens once a detach has
/// started (which thread runs it, whether it has finished) is in the terminal's atomics, read
/// without the lock, so the common cancel takes the lock once.
///
/// Generic over the attachment so that its transitions can be tested alone.
package struct DetachStateMachine<Attachment: AnyObject> {
    package enum State {
        /// No detach requested; the chain is attaching. `early`: the attachment its root has
        /// made, before `attachChain` returned it (`attachmentMade`).
        case attaching(early: Attachment?)
        /// No detach requested; the chain is attached.
        case attached(Attachment)
        /// A detach was requested, with `end`, and nothing is left here to detach: the thread
        /// that requested it took the attachment, or none was made yet (then `setAttachment`
        /// detaches the one it brings).
        case requested(end: SignalEnd?)
        /// A detach was requested while attaching, after the root had made the attachment: the
        /// requesting thread is detaching that one (its sources may be sending from inside
        /// the activation). `arrived`: the attachment `setAttachment` brought meanwhile, which
        /// that thread detaches too once its own detach has run, then frees the output.
        case detachingEarly(end: SignalEnd?, arrived: Attachment?)
    }

    /// What the terminal does after `attachmentMade(_:)`.
    package enum AttachmentMadeAction {
        /// Nothing: the attachment is kept for a detach requested before `setAttachment`.
        case none
        /// Detach it now, ended with `end`: a detach was requested already, and its sources
        /// must not start.
        case detach(endedWith: SignalEnd?)
    }

    /// What the terminal does after `setAttachment(_:)`.
    package enum SetAttachmentAction {
        /// Nothing: the attachment is kept, or the thread detaching early takes it.
        case none
        /// Detach it, ended with `end`, then free the output: a detach was requested before it
        /// arrived.
        case detachAndFree(endedWith: SignalEnd?)
    }

    /// What the terminal does after `requestDetach(end:)`.
    package enum RequestDetachAction {
        /// A detach was requested before: this request does nothing (a `close` then waits for
        /// the detach running on another thread).
        case alreadyRequested
        /// Detach the attachment, free the output, then finish.
        case detach(Attachment)
        /// Detach the root's attachment now, then report `earlyDetachFinished()`.
        case detachEarly(Attachment)
        /// No attachment yet: detach the chain root's attachment in progress, so that the
        /// sources it is activating stop; `setAttachment` detaches the attachment and frees the
        /// output.
        case detachInProgress

        /// Whether the requesting thread now runs a detach that a `close` on another thread
        /// must wait for.
        package var detachesOnThisThread: Bool {
            switch self {
            case .detach, .detachEarly: true
            case .alreadyRequested, .detachInProgress: false
            }
        }
    }

    /// What the terminal does after `earlyDetachFinished()`.
    package enum EarlyDetachFinishedAction {
        /// Detach the attachment that arrived meanwhile, free the output, then finish.
        case detachArrived(Attachment)
        /// The attachment has not arrived: `setAttachment` detaches it and frees the output, so
        /// this thread's detach is not the last one.
        case awaitAttachment
    }

    /// What the terminal does after `waitForDetach(runningOn:by:)`.
    package enum WaitAction {
        /// Nothing to wait for: no detach runs, it has finished, or it runs on this thread (a
        /// cancel from inside the end it delivers).
        case none
        /// Wait on `semaphore`, which `takeWaiters()` hands to whoever finishes the detach.
        case wait(DispatchSemaphore)
    }

    /// The detaching thread's token while a detach runs (`OutputTerminal.detachingThread`):
    /// none.
    package static var noDetach: UInt { 0 }
    /// … once the chain is detached and the output freed. Not a thread token: those have their
    /// low three bits clear.
    package static var detachDone: UInt { 1 }

    package private(set) var state: State = .attaching(early: nil)
    /// The threads waiting for a detach running on another thread.
    package private(set) var waiters: [DispatchSemaphore] = []

    package init() {}

    /// The chain's root has made the attachment and is about to activate its sources
    /// (reported once, before `setAttachment`).
    package mutating func attachmentMade(_ attachment: Attachment) -> AttachmentMadeAction {
        switch state {
        case .attaching:
            state = .attaching(early: attachment)
            return .none
        case .requested(let end), .detachingEarly(let end, _):
            return .detach(endedWith: end)
        case .attached:
            assertionFailure("the root reports its attachment before attachChain returns it")
            return .none
        }
    }

    /// `attachChain` has returned the chain's attachment.
    package mutating func setAttachment(_ attachment: Attachment) -> SetAttachmentAction {
        switch state {
        case .attaching:
            state = .attached(attachment)
            return .none
        case .requested(let end):
            // Not kept once a detach is requested: an attachment (a multicast branch) holds the
            // sink that holds the terminal, a reference cycle.
            return .detachAndFree(endedWith: end)
        case .detachingEarly(let end, let arrived):
            assert(arrived == nil, "one attachment per subscription")
            state = .detachingEarly(end: end, arrived: attachment)
            return .none
        case .attached:
            assertionFailure("one attachment per subscription")
            state = .attached(attachment)
            return .none
        }
    }

    /// A detach was requested (a cancel, a release, or the chain's end), with `end`.
    package mutating func requestDetach(end: SignalEnd?) -> RequestDetachAction {
        switch state {
        case .attaching(early: nil):
            state = .requested(end: end)
            return .detachInProgress
        case .attaching(early: let early?):
            state = .detachingEarly(end: end, arrived: nil)
            return .detachEarly(early)
        case .attached(let attachment):
            // Taken out, not kept: see `setAttachment(_:)`.
            state = .requested(end: end)
            return .detach(attachment)
        case .requested, .detachingEarly:
            return .alreadyRequested
        }
    }

    /// The early detach (`RequestDetachAction.detachEarly`) has run.
    package mutating func earlyDetachFinished() -> EarlyDetachFinishedAction {
        guard case .detachingEarly(let end, let arrived) = state else {
            assertionFailure("no early detach was running")
            return .awaitAttachment
        }
        state = .requested(end: end)
        if let arrived { return .detachArrived(arrived) }
        return .awaitAttachment
    }

    /// A `close` found the detach requested by another call: it waits for the detach running
    /// on the thread `detaching` (the terminal's atomic, read under the lock), unless that is
    /// no detach, a finished one, or its own (`me`).
    package mutating func waitForDetach(runningOn detaching: UInt, by me: UInt) -> WaitAction {
        guard detaching != Self.noDetach, detaching != Self.detachDone, detaching != me else { return .none }
        let semaphore = DispatchSemaphore(value: 0)
        waiters.append(semaphore)
        return .wait(semaphore)
    }

    /// The running detach has finished: the waiting threads, to be signalled.
    package mutating func takeWaiters() -> [DispatchSemaphore] {
        defer { waiters = [] }
        return waiters
    }
}
