import Signals

/// A small scenario for `bench explore`: a graph built on the exploring thread, two or three
/// threads that act on it (run one at a time by the controlled scheduler), and a check of
/// what they saw once all have finished.
package protocol ExploreScenario: Sendable {
    /// The name `--scenario` takes.
    var name: String { get }
    /// One line for `bench explore --list`.
    var summary: String { get }
    /// A fresh graph for `variant`, its threads and its check. Built anew for every schedule.
    func make(_ variant: DeliveryVariant) -> ExploreCase
}

/// One schedule's worth of a scenario: the threads' bodies and the check run after them.
package struct ExploreCase {
    /// The threads, run one at a time (2–3).
    package var threads: [@Sendable () -> Void]
    /// The forbidden outcomes seen (empty: the schedule passed). Run on the exploring thread
    /// after every thread finished; it also keeps the graph alive until then.
    package var check: () -> [String]

    /// A case with `threads` and `check`.
    package init(threads: [@Sendable () -> Void], check: @escaping () -> [String]) {
        self.threads = threads
        self.check = check
    }
}
