import Signals
import SignalsWorkloadRegistry

/// The cases `scripts/instruction-counts` runs under callgrind (`bench instructions`): the
/// instruction-count parts of the declarations in `WorkloadRegistry.all` (each declaration
/// says what its case runs and why it is counted that way). Each runs `iterations` operations
/// of one case against the library directly, with nothing of the harness (no checker, no
/// clock) on the path, so the script can count the instructions at two iteration counts and
/// divide the difference by the difference of the counts: process start-up, graph set-up and
/// teardown are the same in both runs and cancel out.
package struct InstructionCase: RawRepresentable, CaseIterable, Sendable {
    package let count: WorkloadDeclaration.InstructionCount

    package var rawValue: String { count.name }

    package init?(rawValue: String) {
        guard let c = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = c
    }

    private init(_ count: WorkloadDeclaration.InstructionCount) { self.count = count }

    /// Every case, in registry order.
    package static let allCases: [InstructionCase] = WorkloadRegistry.all.compactMap(\.instructions).map(InstructionCase.init)

    /// What the script divides a case's per-iteration count by.
    package var deliveriesPerIteration: Int { count.deliveriesPerIteration }

    /// Runs the case and returns a checksum (the values delivered, summed), which the caller
    /// prints so the work is observable.
    package func run(iterations: Int, delivery variant: DeliveryVariant) -> Int {
        count.run(iterations, variant)
    }

    /// The script's list: one line per case, `name<TAB>first<TAB>second<TAB>divisor<TAB>description`.
    package static var listing: String {
        allCases.map { c in
            [c.rawValue, "\(c.count.iterations.first)", "\(c.count.iterations.second)",
             "\(c.deliveriesPerIteration)", c.count.description].joined(separator: "\t")
        }.joined(separator: "\n")
    }
}
