#if DEBUG
import Synchronization

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
