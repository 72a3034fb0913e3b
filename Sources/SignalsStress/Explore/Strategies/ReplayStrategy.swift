/// Follows a recorded schedule; past its end it preempts nobody. A recorded choice that is
/// not enabled at its decision means the run went another way than the recording
/// (`divergedAt`), for instance after the scenario or the library changed.
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
