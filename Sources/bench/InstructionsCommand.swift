import ArgumentParser
import SignalsHarness
import Signals

/// `bench instructions`: runs one case N times for `scripts/instruction-counts` (callgrind).
/// Hidden: it prints only a checksum, and its figures mean something only as a difference
/// of two instruction counts (see docs/instructions.md).
struct InstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Run one case N times (for callgrind; see scripts/instruction-counts).",
        shouldDisplay: false
    )

    enum Variant: String, ExpressibleByArgument, CaseIterable {
        case lockfree, mutex
        var delivery: DeliveryVariant { self == .lockfree ? .lockFree : .mutex }
    }

    @Option(name: .customLong("case"), help: "The case.")
    var instructionCase: InstructionCase

    @Option(help: "Operations to run.")
    var iterations: Int

    @Option(help: "Delivery variant.")
    var variant: Variant = .lockfree

    func validate() throws {
        guard iterations >= 1 && iterations <= 100_000_000 else {
            throw ValidationError("--iterations: must be a whole number from 1 to 100000000 (got \(iterations))")
        }
    }

    func run() throws {
        print("checksum \(instructionCase.run(iterations: iterations, variant: variant.delivery))")
    }
}

extension InstructionCase: ExpressibleByArgument {}
