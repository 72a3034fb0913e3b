import Dispatch
#if canImport(Darwin)
import Darwin
#endif

/// Something that can run work later, and tell the time.
///
/// `Exec` covers Dispatch; conform a type of your own (for example a virtual-time test
/// scheduler) and pass it as `Exec.custom(_:)`. Time-based operators take their clock from the
/// context, so a virtual-time context makes them deterministic.
public protocol ExecutionContext: Sendable {
    /// Runs `work`, asynchronously unless the context documents otherwise (`Exec.main` runs
    /// it at once when called on the main thread).
    func invoke(_ work: @escaping @Sendable () -> Void)

    /// The context's clock: time elapsed since an arbitrary, fixed origin.
    func now() -> Duration

    /// Runs `work` once, after `delay`, unless the returned lifetime is cancelled or released
    /// first.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime
}

/// Where a stage's handler runs.
///
/// Whatever the context, a handler is never entered concurrently with itself: a stage on an
/// asynchronous context gets a serializing node of its own, whose queue is drained by one job
/// at a time on that context.
public enum Exec: Sendable {
    /// On the sending thread, inside the call that delivered the value (the default, and the
    /// only context that lets stages fuse into one node).
    case direct
    /// On the main thread: at once when already there (as CwlSignal's `.main` does),
    /// otherwise asynchronously on the main dispatch queue.
    case main
    /// Always asynchronously on the main dispatch queue, even when already on the main thread.
    case mainAsync
    /// On a global concurrent queue of the given quality of service, serialized by the stage.
    case global(DispatchQoS.QoSClass = .default)
    /// On a serial dispatch queue of your own.
    case queue(DispatchQueue)
    /// On a concurrent dispatch queue of your own; the stage still serializes its handler.
    case concurrent(DispatchQueue)
    /// On a context of your own (for example `VirtualTimeContext` in tests).
    case custom(any ExecutionContext)

    /// `.global` with the default quality of service.
    public static var global: Exec { .global(.default) }

    /// True only for `.direct`.
    @inlinable
    public var isDirect: Bool {
        if case .direct = self { return true }
        return false
    }

    /// Runs `work` on this context: asynchronously, except `.main` called on the main thread,
    /// which runs it at once (`.direct` uses a global queue, since it has no thread of its own).
    ///
    /// - Parameter work: the work to run.
    public func invoke(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .direct: DispatchQueue.global().async(execute: work)
        case .main:
            if isMainThread() { work() } else { DispatchQueue.main.async(execute: work) }
        case .mainAsync: DispatchQueue.main.async(execute: work)
        case .global(let qos): DispatchQueue.global(qos: qos).async(execute: work)
        case .queue(let q), .concurrent(let q): q.async(execute: work)
        case .custom(let c): c.invoke(work)
        }
    }

    /// The context's clock. Dispatch contexts use the monotonic uptime clock.
    ///
    /// - Returns: the time since the clock's fixed origin.
    public func now() -> Duration {
        switch self {
        case .custom(let c): return c.now()
        default: return .nanoseconds(Int64(bitPattern: DispatchTime.now().uptimeNanoseconds))
        }
    }

    /// Runs `work` once after `delay` on this context, unless the returned lifetime ends first.
    ///
    /// A `delay` of zero or less runs it as soon as the context can (asynchronously); one of
    /// `Exec.neverDelay` or more never runs it: nothing is scheduled and `work` is released at
    /// once (a custom context decides for itself; `VirtualTimeContext` follows the same rule).
    ///
    /// - Parameters:
    ///   - delay: how long to wait.
    ///   - work: the work to run.
    /// - Returns: a lifetime that cancels the work when cancelled or released.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime {
        switch self {
        case .custom(let c):
            return c.schedule(after: delay, work)
        default:
            let queue: DispatchQueue
            switch self {
            case .main, .mainAsync: queue = .main
            case .global(let qos): queue = .global(qos: qos)
            case .queue(let q), .concurrent(let q): queue = q
            default: queue = .global()
            }
            // Computed without overflow: a huge delay is "never", not a trap.
            guard let nanos = Exec.dispatchNanoseconds(delay) else { return NeverScheduled() }
            let item = DispatchWorkItem(block: work)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanos), execute: item)
            return DispatchWorkItemLifetime(item)
        }
    }
}

/// The lifetime of work that is never run (a delay of `Exec.neverDelay` or more).
final class NeverScheduled: Lifetime {
    func cancel() {}
}

/// Cancels a scheduled dispatch work item when cancelled or released.
final class DispatchWorkItemLifetime: Lifetime, @unchecked Sendable {
    // DispatchWorkItem is thread-safe; it is not marked Sendable on Linux.
    private let item: DispatchWorkItem
    init(_ item: DispatchWorkItem) { self.item = item }
    func cancel() { item.cancel() }
    deinit { item.cancel() }
}

/// Whether the caller runs on the main thread (Darwin) or on the main dispatch queue (elsewhere:
/// without Foundation there is no portable main-thread test on Linux, and work for `.main` runs
/// on the main queue anyway).
func isMainThread() -> Bool {
    #if canImport(Darwin)
    return pthread_main_np() != 0
    #else
    return DispatchQueue.getSpecific(key: mainQueueKey) == true
    #endif
}

/// Marks the main queue, so `isMainThread` can recognise it. Set once, on first use.
let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
