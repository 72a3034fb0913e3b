// Systematic exploration with a preemption bound (Musuvathi and Qadeer, "Iterative Context
// Bounding for Systematic Testing of Multithreaded Programs", PLDI 2007): every schedule with
// at most `bound` preemptions, each exactly once, depth first. A preemption is a switch away
// from a thread that could have gone on; switches at waits and at a thread's end are free.

/// Depth-first enumeration of the schedules with at most `bound` preemptions.
package struct DFSStrategy: ScheduleStrategy {
    /// The most preemptions a schedule may have.
    package let bound: Int
    /// The choices the next schedule follows before it goes on without preempting.
    var prefix: [Int] = []
    struct Decision {
        var order: [Int]
        var running: Int?
        var chosen: Int
        var preemptionsBefore: Int
    }
    var trace: [Decision] = []
    var preemptions = 0

    /// An enumeration of the schedules with at most `bound` preemptions.
    package init(bound: Int) { self.bound = max(0, bound) }

    package mutating func begin() {
        trace = []
        preemptions = 0
    }

    package mutating func choose(enabled: [Int], running: Int?) -> Int {
        let first = nonPreemptiveChoice(enabled: enabled, running: running)
        let order = [first] + enabled.filter { $0 != first }
        var chosen = first
        if trace.count < prefix.count, order.contains(prefix[trace.count]) { chosen = prefix[trace.count] }
        trace.append(Decision(order: order, running: running, chosen: chosen, preemptionsBefore: preemptions))
        if isPreemption(chosen, order: order, running: running) { preemptions += 1 }
        return chosen
    }

    func isPreemption(_ t: Int, order: [Int], running: Int?) -> Bool {
        guard let running, order.contains(running) else { return false }
        return t != running
    }

    /// After a schedule: sets up the next one; false when every schedule within the bound has
    /// been run.
    package mutating func advance() -> Bool {
        for i in trace.indices.reversed() {
            let d = trace[i]
            guard let at = d.order.firstIndex(of: d.chosen) else { continue }
            for alternative in d.order[(at + 1)...] {
                let cost = d.preemptionsBefore + (isPreemption(alternative, order: d.order, running: d.running) ? 1 : 0)
                if cost <= bound {
                    prefix = trace[..<i].map(\.chosen) + [alternative]
                    return true
                }
            }
        }
        return false
    }
}
