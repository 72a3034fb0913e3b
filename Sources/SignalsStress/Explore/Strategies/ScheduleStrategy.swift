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

/// Follows a recorded schedule; past its end it preempts nobody. A recorded choice that is
/// not enabled at its decision means the run went another way than the recording
/// (`diverged`), for instance after the scenario or the library changed.
package struct ReplayStrategy: ScheduleStrategy {
    /// The schedule to follow.
    package let choices: [Int]
    var position = 0
    /// The first decision at which the recorded choice could not run, if any.
    package private(set) var divergedAt: Int?

    /// A strategy that runs `choices` again.
    package init(choices: [Int]) { self.choices = choices }

    package mutating func begin() {
        position = 0
        divergedAt = nil
    }

    package mutating func choose(enabled: [Int], running: Int?) -> Int {
        defer { position += 1 }
        if position < choices.count {
            if enabled.contains(choices[position]) { return choices[position] }
            if divergedAt == nil { divergedAt = position }
        }
        return nonPreemptiveChoice(enabled: enabled, running: running)
    }
}
