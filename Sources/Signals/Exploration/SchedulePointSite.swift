/// The places where a controlled scheduler (`bench explore`) may switch threads: the atomic
/// operations and lock acquisitions of the delivery queues, the node's claim, hand-over,
/// deferral and release, the graph changes, and the waits that cannot end until another
/// thread moves (`SchedulePoint.waitingTurn`).
@usableFromInline package enum SchedulePointSite: String, Sendable, CaseIterable {
    /// A claim attempt on a node (the claim word's CAS, `tryClaim`, `adoptClaim`).
    case claim
    /// An element about to take a slot in the lock-free queue (the `tail` CAS).
    case enqueue
    /// A slot taken and not yet published (between the `tail` CAS and the stamp store).
    case publish
    /// After a push: telling the holder, or claiming a node found idle.
    case announce
    /// A holder about to let go of the node (`nextOrRelease`, `releaseIfIdle`).
    case release
    /// A holder that has just let go of the node.
    case released
    /// A holder offering its claim to the next sender (`offerHandoff`).
    case handOver
    /// `BargingLock.lock()`, before its CAS.
    case lockAcquire
    /// `BargingLock`'s contended path, between its look at the free word and its CAS.
    case lockTake
    /// `BargingLock.unlock()`, after the word was freed.
    case lockRelease
    /// A hand-over past the depth bound, queued and not yet drained.
    case deferral
    /// The outermost hand-over running the hand-overs deferred past the bound.
    case runDeferred
    /// Graph changes, at their start.
    case bind, add, remove, subscribe, cancel, end
    /// An end of a node that starts a new generation on deactivation (`generate`, merge,
    /// combine, hop): its status closed, not yet delivered (`sendEnd`, before `deliverEnd`).
    case endDelivery
    /// An end a chain forwards into a node that keeps its generation (a multi, a capture),
    /// before its feeder epoch is checked and it is queued there (`deliverForwardedEnd`).
    case forwardedEnd
    /// A graph change queued for the holder of a node, not yet run.
    case graphChange
    /// Waits (the caller cannot go on until another thread moves).
    case spinWait, lockWait, controlWait
}
