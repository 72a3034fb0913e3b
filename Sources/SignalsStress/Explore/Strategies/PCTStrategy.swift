// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A Randomized Scheduler with Probabilistic
// Guarantees of Finding Bugs", ASPLOS 2010): random distinct priorities for the threads, the
// highest-priority enabled thread always runs, and at d−1 random steps of the k the schedule
// is expected to take, the running thread drops to a priority below every initial one. A bug
// that needs d ordering constraints is found with probability at least 1/(n·k^(d−1)) per
// schedule.

/// PCT with depth `depth` over `steps` decisions, seeded.
package struct PCTStrategy: ScheduleStrategy {
    /// The bug depth d: d−1 priority change points.
    package let depth: Int
    /// k: how many decisions a schedule of this scenario takes (measured by a first run).
    package let steps: Int
    let threads: Int
    var random: StressRandom
    var priorities: [Int] = []
    /// Decision number → the priority the running thread drops to there.
    var changePoints: [Int: Int] = [:]
    var decision = 0

    /// A PCT schedule for `threads` threads, drawn from `seed`.
    package init(depth: Int, steps: Int, threads: Int, seed: UInt64) {
        self.depth = max(1, depth)
        self.steps = max(1, steps)
        self.threads = threads
        random = StressRandom(seed: seed)
    }

    package mutating func begin() {
        decision = 0
        // A random permutation of depth ..< depth + threads: initial priorities all above
        // the d−1 that change points hand out (0 ..< depth−1).
        var p = Array(depth..<(depth + threads))
        for i in stride(from: p.count - 1, to: 0, by: -1) { p.swapAt(i, random.below(i + 1)) }
        priorities = p
        changePoints = [:]
        for j in 0..<(depth - 1) {
            // Distinct steps; a collision just loses that change point.
            changePoints[random.below(steps)] = depth - 2 - j
        }
    }

    package mutating func choose(enabled: [Int], running: Int?) -> Int {
        if let drop = changePoints[decision], let running, running < priorities.count {
            priorities[running] = drop
        }
        decision += 1
        var best = enabled[0]
        for t in enabled where priorities[t] > priorities[best] { best = t }
        return best
    }
}
