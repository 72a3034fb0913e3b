// How `bench explore` picks the next thread at a schedule point. The scheduler asks only where
// two or more threads could run; each answer is recorded, and the list of answers is the
// schedule that `--replay` runs again.

/// Picks which thread runs next at each decision of one schedule.
package protocol ScheduleStrategy {
    /// Called before each schedule's first decision.
    mutating func begin()
    /// One of `enabled` (ascending thread numbers, at least two): the thread that runs next.
    /// `running` is the thread at the point, if it could go on (nil at the start, or when it
    /// waits or has finished).
    mutating func choose(enabled: [Int], running: Int?) -> Int
}

/// The choice that preempts nobody: the running thread if it can go on, else the lowest.
@inline(__always)
func nonPreemptiveChoice(enabled: [Int], running: Int?) -> Int {
    if let running, enabled.contains(running) { return running }
    return enabled[0]
}
