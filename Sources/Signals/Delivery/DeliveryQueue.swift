import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
// Public: the inlinable thread token reads the thread pointer through its inline function.
public import SignalsFutex

/// Which implementation of the delivery path a graph uses.
///
/// Chosen per graph when it is created (`Signal<T>.create(delivery:)`); every node derived from
/// that graph inherits it, so one process can run both variants side by side.
public enum DeliveryVariant: String, Sendable, CaseIterable, Codable {
    /// A three-state claim word (`Atomic`) and a lock-free multi-producer block queue.
    case lockFree
    /// A `BargingLock` guarding a small idle/delivering state machine and a queue.
    case mutex
}

/// What `DeliveryQueue.claimOrEnqueue(_:)` did with an element.
@usableFromInline package enum ClaimOutcome: Sendable {
    /// The node was idle and the caller now holds it: deliver the element (it was not
    /// queued), then drain with `nextOrRelease()` until it returns nil.
    case claimed
    /// Another thread holds the node; the element is queued and that thread will deliver it.
    case enqueued
    /// The element is queued and the node turned out to be idle, so the caller now holds it and
    /// must drain with `nextOrRelease()` until it returns nil.
    case enqueuedAndClaimed
}

/// What an element is to the queue, which decides whether it may still be accepted once the
/// node has an end (`DeliveryQueue.claimOrEnqueue(_:_:)`).
@usableFromInline package enum QueueElementKind: Sendable {
    /// A value: refused once an end was accepted, so nothing reaches a stage after its end.
    case value
    /// An end: accepted always, and closes the queue to values in the same atomic step.
    case end
    /// A graph change: accepted always (an ended node is still detached and re-attached).
    case control
}

/// The serialization point of a node: at most one thread at a time holds the node ("the
/// claim") and delivers; other senders hand their elements over and return without waiting.
///
/// The holder delivers elements in the order the queue accepted them, and each sender's
/// elements are accepted in the order it sent them. A re-entrant send (from inside a delivery,
/// on the holding thread) is queued like any other, so re-entrancy never grows the stack.
///
/// Conforming types never run user code: the caller delivers, outside every lock.
@usableFromInline package protocol DeliveryQueue<Element>: AnyObject, Sendable {
    associatedtype Element

    /// An empty, idle queue.
    init()

    /// Claims the node if it is idle, otherwise queues `element` for the current holder.
    /// `element` is evaluated only when it is queued, so the uncontended path never builds
    /// the queued form of a value.
    func claimOrEnqueue(_ element: @autoclosure () -> Element) -> ClaimOutcome

    /// `claimOrEnqueue(_:)` for an element of the given kind: nil if `kind` is `.value` and an
    /// end was accepted before it (nothing changed). Accepting an end closes the queue to
    /// values in the same atomic step, so every value is either accepted before the end (and
    /// delivered before it) or refused: never accepted and then dropped.
    func claimOrEnqueue(_ kind: QueueElementKind, _ element: @autoclosure () -> Element) -> ClaimOutcome?

    /// Claims the node if it is idle (true); otherwise leaves everything as it was (false).
    func tryClaim() -> Bool

    /// Queues `element`; returns true if the node was idle and the caller now holds it (used by
    /// nodes that drain asynchronously on an execution context).
    func enqueueAndClaimIfIdle(_ element: consuming Element) -> Bool

    /// `enqueueAndClaimIfIdle(_:)` for an element of the given kind: nil if `kind` is `.value`
    /// and an end was accepted before it (see `claimOrEnqueue(_:_:)`).
    func enqueueAndClaimIfIdle(_ kind: QueueElementKind, _ element: consuming Element) -> Bool?

    /// For the holder only: the next queued element, or nil after releasing the node (when the
    /// queue was empty). The holder must not touch the queue after a nil.
    func nextOrRelease() -> Element?

    /// For the holder after `.claimed`: releases the node if nothing was queued meanwhile
    /// (true), otherwise keeps it (false) and the holder drains with `nextOrRelease()`.
    func releaseIfIdle() -> Bool

    /// For the holder only: records the current thread as the holder (a drain job that runs on
    /// another thread than the one that claimed).
    func adoptClaim()

    /// Whether the current thread holds the node right now (used to tell a re-entrant control
    /// operation, which must not wait for the node, from one on another thread).
    var isHeldByCurrentThread: Bool { get }

    /// The token of the thread holding the node now, 0 when idle (for the deadlock check of
    /// a thread about to wait for the holder, see `WaitRegistry`). Slow path only.
    var holderToken: UInt { get }

    /// For the holder of a synchronous node, between two elements, after a long drain: offers
    /// the claim to the next thread that enqueues and waits briefly for one to take it. True
    /// if another thread took it (the caller stops draining and must not touch the queue);
    /// false if none came (the caller still holds the node and goes on draining).
    ///
    /// Without it, a thread that claimed an idle node keeps draining for as long as other
    /// threads keep sending, so its own `send` (or graph change) might never return.
    func offerHandoff() -> Bool

    /// For the holder, right after it ran a queued graph change: the next time it catches up
    /// with the producers it leaves at once, instead of watching the next slot for a while
    /// (the lock-free queue's `caughtUpLooks`).
    ///
    /// The thread that queued the change is waiting for it, and sends its next change itself a
    /// moment later. A holder still watching would take that change through the queue too, and
    /// the next, and so on: each one a hand-over between cores and an allocation, where the
    /// other thread would have claimed the idle node in a few nanoseconds. That convoy lasts
    /// until the other thread pauses for longer than the watch (docs/design/churn.md, "The
    /// convoy and the placement").
    func skipNextCaughtUpWatch()

    /// Opens a queue that an end closed to values again, for a node that starts a new
    /// activation with new inputs (a `generate` node restarting after its end). Values of the
    /// old activation that get in afterwards are dropped by the holder's generation check,
    /// so nothing of an ended activation reaches the next one.
    func reopen()
}

extension DeliveryQueue {
    /// Queues that never hand over keep draining until they are empty.
    @usableFromInline package func offerHandoff() -> Bool { false }

    /// Queues that never watch for more elements when they catch up leave at once anyway.
    @usableFromInline package func skipNextCaughtUpWatch() {}

    /// Queues without a closed state (test doubles of the harness) have nothing to reopen.
    @usableFromInline package func reopen() {}

    /// Queues without a closed state (test doubles of the harness) accept every element.
    @usableFromInline package func claimOrEnqueue(_ kind: QueueElementKind, _ element: @autoclosure () -> Element) -> ClaimOutcome? {
        claimOrEnqueue(element())
    }

    /// Queues without a closed state (test doubles of the harness) accept every element.
    @usableFromInline package func enqueueAndClaimIfIdle(_ kind: QueueElementKind, _ element: consuming Element) -> Bool? {
        enqueueAndClaimIfIdle(element)
    }
}

/// A non-zero token for the current thread, with its three lowest bits clear (the lock-free
/// claim word uses them as its "values waiting", "handoff offered" and "closed to values"
/// flags). Thread handles are addresses of aligned thread control blocks, so masking keeps
/// them distinct. On x86_64 and arm64 Linux the thread pointer is read from its register (one
/// instruction inlined here; `pthread_self` is a call through the PLT: docs/design/delivery-path.md,
/// "Swift details that cost time"); elsewhere `pthread_self`. Every token of a process comes from
/// this one function, so the two are never compared with each other.
@inlinable @inline(__always)
func currentThreadToken() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self()) & ~7
    #elseif os(Linux) && (arch(x86_64) || arch(arm64))
    return UInt(signals_thread_pointer()) & ~7
    #else
    return UInt(pthread_self()) & ~7
    #endif
}

/// How many elements a synchronous holder drains before it offers the claim to another sender
/// (`DeliveryQueue.offerHandoff()`): large enough that the offer costs well under a
/// nanosecond per element, small enough that a contended `send` returns within tens of
/// microseconds.
@inlinable var drainBudgetBeforeHandoff: Int {
    // Under a controlled scheduler (`bench explore`) the scenarios send a handful of values:
    // a budget of 2 lets them reach the hand-over.
    if SchedulePoint.isArmed { return 2 }
    return 1024
}

extension DeliveryQueue {
    /// Queues that do not report their holder (test doubles) read as idle: a thread waiting
    /// for them is not checked for a cycle.
    @usableFromInline package var holderToken: UInt { 0 }
}
