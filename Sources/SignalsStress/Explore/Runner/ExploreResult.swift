import Signals

/// A schedule that ended in a forbidden outcome, a deadlock or a livelock.
package struct ExploreFailure: Sendable {
    /// Which schedule of the run (1-based): how many it took to find.
    package var schedule: Int
    /// PCT's seed for it (nil for DFS and replays).
    package var seed: UInt64?
    /// The choices: the thread that ran at each decision.
    package var choices: [Int]
    /// What went wrong.
    package var problems: [String]
}

/// One scenario × variant of a `bench explore` run.
package struct ExploreResult: Sendable {
    /// The scenario's name.
    package var scenario: String
    /// The delivery variant.
    package var variant: DeliveryVariant
    /// Schedules run.
    package var schedules = 0
    /// Distinct choice lists among them.
    package var distinct = 0
    /// Schedules abandoned because a thread blocked outside the schedule points (run freely
    /// to their end, then checked; such a schedule is not replayable).
    package var stalled = 0
    /// DFS: every schedule within the bound was run.
    package var exhausted = false
    /// The first failing schedule, if any (exploring stops there).
    package var failure: ExploreFailure?
    /// For a replay: the first decision at which the recorded choice could not be followed.
    package var divergedAt: Int?
    /// Seconds spent.
    package var seconds = 0.0
    /// A thread never finished even after the schedule was abandoned: the run stops.
    package var hung = false
    /// Generated cases explored (`generated` only).
    package var cases = 0
    /// What a replay needs beside the scenario and the schedule (`--case …` for `generated`).
    package var arguments: String?

    /// An empty result for `scenario` on `variant`.
    package init(scenario: String, delivery variant: DeliveryVariant) {
        self.scenario = scenario
        self.variant = variant
    }
}
