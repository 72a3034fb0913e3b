#if DEBUG
import Synchronization

/// A hook for the package's tests at two gaps of the delivery queues that a race hits only by
/// luck, so that a test can put another thread's send exactly there:
///
/// - `.handoffOffered`: a synchronous holder, after a long drain, has offered its claim
///   (`DeliveryQueue.offerHandoff()`) and not yet looked for a taker. A sender arriving now
///   takes the claim while values queued before its own are still waiting: its re-entrant
///   sends must queue behind them (the lock-free queue's `own` fast path only while the shared
///   queue is empty), or they overtake its earlier value.
/// - `.released`: the holder found nothing queued and released the node (`nextOrRelease()`
///   returned nil, `releaseIfIdle()` true). A sender arriving now must find the node idle and
///   deliver itself; if the release were not one decision with the emptiness check (made
///   under the mutex variant's lock, one CAS in the lock-free variant), its value would be
///   queued for a holder that is leaving, and stranded.
///
/// Compiled only in debug builds: release builds have neither the hook nor its check. The hook
/// runs on the holding thread, outside every lock.
@usableFromInline package enum DeliveryGapHook {
    @usableFromInline package enum Gap: Sendable { case handoffOffered, released }

    /// Whether a hook is installed.
    @usableFromInline package static let armed = Atomic<Bool>(false)
    static let body = Mutex<(@Sendable (Gap) -> Void)?>(nil)

    /// Installs `hook` (nil removes it); it runs at every gap passed while installed.
    package static func install(_ hook: (@Sendable (Gap) -> Void)?) {
        body.withLock { $0 = hook }
        armed.store(hook != nil, ordering: .releasing)
    }

    @usableFromInline package static func run(_ gap: Gap) {
        if let hook = body.withLock({ $0 }) { hook(gap) }
    }
}
#endif
