/// What the table and `bench stress --list` say of a scenario, in one value: its name (used
/// with `--scenario`), one line on what races with what, the name of the outcome where nothing
/// noteworthy happened, and the fewest actors it needs.
public struct StressScenarioLabel: Sendable {
    /// The name used with `--scenario` and in the table.
    public let name: String
    /// One line: what races with what.
    public let summary: String
    /// The name of the outcome where nothing noteworthy happened.
    public let acceptableName: String
    /// The fewest actors the scenario needs.
    public let minimumThreads: Int

    /// A label; `minimumThreads` below 1 counts as 1.
    public init(_ name: String, _ summary: String, acceptable: String = "all promises kept", minimumThreads: Int = 2) {
        self.name = name
        self.summary = summary
        acceptableName = acceptable
        self.minimumThreads = max(1, minimumThreads)
    }
}

/// A scenario that says what it is with one `label` instead of four properties.
public protocol LabelledStressScenario: StressScenario {
    /// The scenario's name, summary, acceptable outcome and fewest actors.
    var label: StressScenarioLabel { get }
}

extension LabelledStressScenario {
    public var name: String { label.name }
    public var summary: String { label.summary }
    public var acceptableName: String { label.acceptableName }
    public var minimumThreads: Int { label.minimumThreads }
}
