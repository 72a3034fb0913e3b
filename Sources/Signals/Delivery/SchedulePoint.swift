#if DEBUG
import Synchronization

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
    /// `BargingLock.unlock()`, after the word was freed.
    case lockRelease
    /// A hand-over past the depth bound, queued and not yet drained.
    case deferral
    /// The outermost hand-over running the hand-overs deferred past the bound.
    case runDeferred
    /// Graph changes, at their start.
    case bind, add, remove, subscribe, cancel, end
    /// A graph change queued for the holder of a node, not yet run.
    case graphChange
    /// Waits (the caller cannot go on until another thread moves).
    case spinWait, lockWait, controlWait, handOverWait
}

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

/// The debug-only schedule points, for exploring thread interleavings one schedule at a time
/// (`bench explore`).
///
/// Compiled only in debug builds: release builds have neither the points nor their checks.
/// With no controller installed a point costs one relaxed load. No point is reached while a
/// `BargingLock` is held, and where the library waits for another thread (a spin, the lock's
/// park, a graph change waiting for the holder, a hand-over offer) it asks `waitingTurn`
/// first. A point reached inside a `Mutex` region would suspend its thread holding that
/// `Mutex`: the one such region on a wait path (`WaitRegistry`) runs `unscheduled`; a
/// controller treats a thread blocked anywhere else as stalled.
@usableFromInline package enum SchedulePoint {
    /// Whether a controller is installed.
    @usableFromInline package static let armed = Atomic<Bool>(false)
    static let controller = Mutex<(any ScheduleController)?>(nil)

    /// Installs `controller` (nil removes it).
    package static func install(_ controller: (any ScheduleController)?) {
        self.controller.withLock { $0 = controller }
        armed.store(controller != nil, ordering: .releasing)
    }

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
#endif
