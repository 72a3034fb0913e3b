import Signals

/// How `bench explore` picks schedules.
package enum ExploreStrategyChoice: Sendable, Equatable {
    /// PCT with depth d (d−1 priority change points), a seeded schedule each.
    case pct(depth: Int)
    /// Every schedule with at most this many preemptions, depth first.
    case dfs(preemptions: Int)
}

/// What one `bench explore` run does for each scenario × variant.
package struct ExploreOptions: Sendable {
    /// The strategy.
    package var strategy: ExploreStrategyChoice
    /// The most schedules per scenario × variant (DFS stops earlier when it has run them all).
    package var schedules: Int
    /// PCT's seed: schedule i of a scenario × variant uses `seed + i`.
    package var seed: UInt64
    /// Seconds per scenario × variant at most (nil: no limit).
    package var secondsPerRun: Double?
    /// A schedule to run again, instead of exploring.
    package var replay: [Int]?
    /// Schedule points a schedule may take before it counts as a livelock.
    package var maxSteps = 20_000
    /// Seconds without a single schedule point before a schedule counts as stalled (a thread
    /// blocked where the scheduler cannot see).
    package var stallSeconds = 2.0
    /// Seconds a schedule's check and the release of its graph may take before the run ends
    /// with a hang report (`ExploreTeardownWatch`).
    package var teardownSeconds = 20.0

    /// Options for `strategy`.
    package init(strategy: ExploreStrategyChoice, schedules: Int, seed: UInt64, secondsPerRun: Double? = nil, replay: [Int]? = nil) {
        self.strategy = strategy
        self.schedules = schedules
        self.seed = seed
        self.secondsPerRun = secondsPerRun
        self.replay = replay
    }
}
