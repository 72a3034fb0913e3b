import Dispatch

/// A context that runs work synchronously on a serial queue: the caller waits until the work
/// has run there (CwlSignal's `Exec.syncQueue`). A handler on it runs under the queue's
/// exclusion, so state shared with other work on that queue needs no other lock.
///
/// This gives up one of the library's guarantees on purpose: a thread sending into a stage on
/// this context waits for the queue. Work invoked from the queue itself runs at once (no
/// deadlock on re-entry).
public final class SyncQueueContext: ExecutionContext {
    /// The serial queue the work runs on.
    public let queue: DispatchQueue
    let key = DispatchSpecificKey<ObjectIdentifier>()

    /// Makes a context on `queue` (a new serial queue by default).
    ///
    /// - Parameter queue: a serial queue.
    public init(queue: DispatchQueue = DispatchQueue(label: "Signals.SyncQueueContext")) {
        self.queue = queue
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    /// Whether the caller is running on this context's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self) }

    /// Runs `work` on the queue and returns when it has run.
    ///
    /// - Parameter work: the work.
    public func invoke(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { work() } else { queue.sync(execute: work) }
    }

    /// Runs `work` on the queue and returns its result.
    ///
    /// - Parameter work: the work.
    /// - Returns: what `work` returned.
    public func invokeSync<R>(_ work: () throws -> R) rethrows -> R {
        if isCurrent { return try work() }
        return try queue.sync(execute: work)
    }

    /// The monotonic uptime clock.
    ///
    /// - Returns: the time since the clock's origin.
    public func now() -> Duration { Exec.global.now() }

    /// Runs `work` on the queue after `delay` (asynchronously: a timer has no caller to hold).
    ///
    /// - Parameters:
    ///   - delay: how long to wait.
    ///   - work: the work.
    /// - Returns: a lifetime that cancels the work.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime {
        Exec.queue(queue).schedule(after: delay, work)
    }
}

extension Exec {
    /// A context that runs handlers synchronously on a serial queue (CwlSignal's
    /// `Exec.syncQueue()`); see ``SyncQueueContext``.
    ///
    /// - Parameter queue: the serial queue (a new one by default).
    /// - Returns: `.custom` of a ``SyncQueueContext``.
    public static func syncQueue(_ queue: DispatchQueue = DispatchQueue(label: "Signals.SyncQueueContext")) -> Exec {
        .custom(SyncQueueContext(queue: queue))
    }
}
