import Synchronization

// The library's test hooks, under one build rule.
//
// A hook is a point in the library where a test or the controlled scheduler of `bench explore`
// can step in: `SchedulePoint` (switch threads there), `DeliveryGapHook` (run another thread's
// send in one of the delivery queues' narrowest windows) and `EndDeliveryGap` (run a graph change
// between an end's status change and its delivery). Explore's scheduler and the gap tests need
// the points in debug builds; release builds must carry no cost for them, not one load.
//
// The rule: the points are called unconditionally, with no `#if` at the call sites. In a debug
// build each is one relaxed load of its `armed` flag unless something is installed; in a
// release build it is an `@inlinable @inline(__always)` function that does nothing, returns a
// constant `false` or runs its body straight through, which the optimizer removes with the
// branches that depend on it: the release code is what it would be without the point
// (`scripts/instruction-counts --check` holds it). Installing is debug-only: a test or scenario that installs a hook compiles only
// under `#if DEBUG`, so a release build that cannot run it says so at compile time instead of
// passing without the hook.
//
// `WaitCounters` is not a test hook: `bench` reads it from release builds (a relaxed load per
// wait, never per value), so it stays in both.

/// The delivery queues' two narrow windows that `DeliveryGapHook` opens.
@usableFromInline package enum DeliveryGap: Sendable {
    /// A synchronous holder, after a long drain, has offered its claim
    /// (`DeliveryQueue.offerHandoff()`) and not yet looked for a taker. A sender arriving now
    /// takes the claim while values queued before its own are still waiting: its re-entrant
    /// sends must queue behind them (the lock-free queue's `own` fast path only while the shared
    /// queue is empty), or they overtake its earlier value.
    case handoffOffered
    /// The holder found nothing queued and released the node (`nextOrRelease()` returned nil,
    /// `releaseIfIdle()` true). A sender arriving now must find the node idle and deliver
    /// itself; if the release were not one decision with the emptiness check (made under the
    /// mutex variant's lock, one CAS in the lock-free variant), its value would be queued for a
    /// holder that is leaving, and stranded.
    case released
}

#if DEBUG

/// What controls the threads at schedule points. Installed by `SchedulePoint.install`; called
/// on every thread that reaches a point, it returns at once on threads it does not schedule.
package protocol ScheduleController: AnyObject, Sendable {
    /// The calling thread reached `site`: a scheduled thread may be suspended here while
    /// another runs.
    func reached(_ site: SchedulePointSite)
    /// The calling thread is waiting for another thread to move (a spin, a lock, a queued
    /// graph change): a scheduled thread is marked waiting and another runs; returns true, and
    /// the caller looks at its condition again. False for a thread it does not schedule, which
    /// then waits as usual.
    func waitingTurn(_ site: SchedulePointSite) -> Bool
    /// Adds `delta` to the calling thread's count of regions in which no point may suspend it
    /// (`SchedulePoint.unscheduled`).
    func suppress(_ delta: Int)
}

/// The schedule points, for exploring thread interleavings one schedule at a time (`bench
/// explore`).
///
/// No point is reached while a `BargingLock` is held, and where the library waits for another
/// thread (a spin, the lock's park, a graph change waiting for the holder, a hand-over offer)
/// it asks `waitingTurn` first. A point reached inside a `Mutex` region would suspend its
/// thread holding that `Mutex`: the regions on a wait path (`WaitRegistry`, an end's enqueue
/// under the activation lock) run `unscheduled`; a controller treats a thread blocked anywhere
/// else as stalled.
@usableFromInline package enum SchedulePoint {
    /// Whether a controller is installed.
    @usableFromInline package static let armed = Atomic<Bool>(false)
    static let controller = Mutex<(any ScheduleController)?>(nil)

    /// Installs `controller` (nil removes it).
    package static func install(_ controller: (any ScheduleController)?) {
        self.controller.withLock { $0 = controller }
        armed.store(controller != nil, ordering: .releasing)
    }

    /// Whether a controller is installed (for a bound that explore's short scenarios must
    /// reach, `drainBudgetBeforeHandoff`).
    @inlinable @inline(__always)
    package static var isArmed: Bool { armed.load(ordering: .relaxed) }

    /// A schedule point: returns at once unless a controller is installed.
    @inlinable @inline(__always)
    package static func here(_ site: SchedulePointSite) {
        if _slowPath(armed.load(ordering: .relaxed)) { reach(site) }
    }

    /// At a wait for another thread: true if a controller schedules this thread and let
    /// another one run (look at the condition again, then call again); false otherwise (wait
    /// as usual).
    @inlinable @inline(__always)
    package static func waitingTurn(_ site: SchedulePointSite) -> Bool {
        if _slowPath(armed.load(ordering: .relaxed)) { return yieldTurn(site) }
        return false
    }

    /// Before a wait that blocks (a park on a semaphore): a controlled thread cannot block for
    /// a thread that runs only when it yields, so it takes turns until `done()` holds (true).
    /// False for a thread the controller does not schedule once `done()` is still false: it
    /// blocks as usual.
    @inlinable @inline(__always)
    package static func waitInTurns(_ site: SchedulePointSite, until done: () -> Bool) -> Bool {
        while !done() {
            if !waitingTurn(site) { return done() }
        }
        return true
    }

    /// Runs `body` with every schedule point of this thread ignored: for code that holds a
    /// lock the controller cannot see (a `Mutex`), where suspending the thread would leave
    /// another scheduled thread blocked on that lock outside the controller's view.
    package static func unscheduled<R>(_ body: () -> R) -> R {
        guard _slowPath(armed.load(ordering: .relaxed)) else { return body() }
        let c = controller.withLock { $0 }
        c?.suppress(1)
        defer { c?.suppress(-1) }
        return body()
    }

    @usableFromInline static func reach(_ site: SchedulePointSite) {
        controller.withLock { $0 }?.reached(site)
    }

    @usableFromInline static func yieldTurn(_ site: SchedulePointSite) -> Bool {
        controller.withLock { $0 }?.waitingTurn(site) ?? false
    }
}

/// Runs a test's code at the delivery queues' two narrow windows (`DeliveryGap`), so that a
/// test can put another thread's send exactly there instead of waiting for a race to hit it.
/// The hook runs on the holding thread, outside every lock.
@usableFromInline package enum DeliveryGapHook {
    /// Whether a hook is installed.
    @usableFromInline package static let armed = Atomic<Bool>(false)
    static let body = Mutex<(@Sendable (DeliveryGap) -> Void)?>(nil)

    /// Installs `hook` (nil removes it); it runs at every gap passed while installed.
    package static func install(_ hook: (@Sendable (DeliveryGap) -> Void)?) {
        body.withLock { $0 = hook }
        armed.store(hook != nil, ordering: .releasing)
    }

    /// The holder is at `gap`: runs the hook, if one is installed.
    @inlinable @inline(__always)
    package static func here(_ gap: DeliveryGap) {
        if _slowPath(armed.load(ordering: .relaxed)) { run(gap) }
    }

    @usableFromInline static func run(_ gap: DeliveryGap) {
        if let hook = body.withLock({ $0 }) { hook(gap) }
    }
}

/// Runs a test's code between an end's status change and `deliverEnd` (nodes that start a new
/// generation on deactivation): a window a few instructions wide in which another thread's
/// disconnect and bind can start the next generation. The tests run that disconnect and bind
/// there deterministically and check that the stale end neither closes the reopened queue nor
/// reaches the new chain. Values never pass here.
@usableFromInline package enum EndDeliveryGap {
    /// Whether a hook is installed.
    @usableFromInline package static let armed = Atomic<Bool>(false)
    static let body = Mutex<(@Sendable (SignalEnd) -> Void)?>(nil)

    /// Installs `hook` (nil removes it); it runs with the end, on the sending thread, before
    /// the end is queued.
    package static func install(_ hook: (@Sendable (SignalEnd) -> Void)?) {
        body.withLock { $0 = hook }
        armed.store(hook != nil, ordering: .releasing)
    }

    /// An end is between its status change and its delivery: runs the hook, if one is installed.
    @inlinable @inline(__always)
    package static func here(_ end: SignalEnd) {
        if _slowPath(armed.load(ordering: .relaxed)) { run(end) }
    }

    @usableFromInline static func run(_ end: SignalEnd) {
        if let hook = body.withLock({ $0 }) { hook(end) }
    }
}

#else

// Release: the same points, empty. Nothing can be installed.

@usableFromInline package enum SchedulePoint {
    @inlinable @inline(__always) package static var isArmed: Bool { false }
    @inlinable @inline(__always) package static func here(_ site: SchedulePointSite) {}
    @inlinable @inline(__always) package static func waitingTurn(_ site: SchedulePointSite) -> Bool { false }
    @inlinable @inline(__always)
    package static func waitInTurns(_ site: SchedulePointSite, until done: () -> Bool) -> Bool { false }
    @inlinable @inline(__always) package static func unscheduled<R>(_ body: () -> R) -> R { body() }
}

@usableFromInline package enum DeliveryGapHook {
    @inlinable @inline(__always) package static func here(_ gap: DeliveryGap) {}
}

@usableFromInline package enum EndDeliveryGap {
    @inlinable @inline(__always) package static func here(_ end: SignalEnd) {}
}

#endif
