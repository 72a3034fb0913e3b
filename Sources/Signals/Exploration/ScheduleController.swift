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
#endif
