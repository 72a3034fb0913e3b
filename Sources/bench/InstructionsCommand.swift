import ArgumentParser
import Signals
import SignalsWorkloads

/// `bench instructions`: runs one case N times for `scripts/instruction-counts` (callgrind).
/// Hidden: it prints only a checksum, and its figures mean something only as a difference
/// of two instruction counts (see docs/bench-guide.md).
struct InstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Run one case N times (for callgrind; see scripts/instruction-counts).",
        shouldDisplay: false
    )

    @Flag(help: "List the cases (name, the two iteration counts, the divisor, the description; tab-separated) and exit.")
    var list = false

    @Option(name: .customLong("case"), help: "The case.")
    var instructionCase: InstructionCase?

    @Option(help: "Operations to run.")
    var iterations: Int?

    @Option(help: "Delivery variant.")
    var variant: VariantList = VariantList(argument: "lockfree")!

    func validate() throws {
        if list { return }
        guard instructionCase != nil else { throw ValidationError("Missing expected argument '--case <case>'") }
        guard let iterations else { throw ValidationError("Missing expected argument '--iterations <iterations>'") }
        guard variant.variants.count == 1 else {
            throw ValidationError("--variant: expected one variant, lockfree or mutex (got \(variant.defaultValueDescription))")
        }
        guard iterations >= 1 && iterations <= 100_000_000 else {
            throw ValidationError("--iterations: must be a whole number from 1 to 100000000 (got \(iterations))")
        }
    }

    func run() throws {
        if list {
            print(InstructionCase.listing)
            return
        }
        guard let instructionCase, let iterations else { return }
        print("checksum \(instructionCase.run(iterations: iterations, delivery: variant.variants[0]))")
    }
}

extension InstructionCase: ExpressibleByArgument {}

