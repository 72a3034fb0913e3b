/// What the table and `bench stress --list` say of a scenario, in one value: its name (used
/// with `--scenario`), one line on what races with what, the name of the outcome where nothing
/// noteworthy happened, and the fewest actors it needs.
package struct StressScenarioLabel: Sendable {
    /// The name used with `--scenario` and in the table.
    package let name: String
    /// One line: what races with what.
    package let summary: String
    /// The name of the outcome where nothing noteworthy happened.
    package let acceptableName: String
    /// The fewest actors the scenario needs.
    package let minimumThreads: Int

    /// A label; `minimumThreads` below 1 counts as 1.
    package init(_ name: String, _ summary: String, acceptable: String = "all promises kept", minimumThreads: Int = 2) {
        self.name = name
        self.summary = summary
        acceptableName = acceptable
        self.minimumThreads = max(1, minimumThreads)
    }
}

/// A scenario that says what it is with one `label` instead of four properties.
package protocol LabelledStressScenario: StressScenario {
    /// The scenario's name, summary, acceptable outcome and fewest actors.
    var label: StressScenarioLabel { get }
}

extension LabelledStressScenario {
    package var name: String { label.name }
    package var summary: String { label.summary }
    package var acceptableName: String { label.acceptableName }
    package var minimumThreads: Int { label.minimumThreads }
}
