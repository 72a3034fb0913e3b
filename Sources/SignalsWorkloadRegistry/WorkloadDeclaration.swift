import Signals

/// One workload, declared once: what `bench run` measures, the per-operation case that
/// `scripts/instruction-counts` counts under callgrind, and the package-benchmark benchmarks of
/// Benchmarks/. Each part is optional; each keeps the name its tool has always used (so
/// reports, `Benchmarks/Instructions/counts.tsv` and the threshold files keep matching).
///
/// A declaration lives in a file of its own in `Workloads/` and is listed once, in
/// `WorkloadRegistry.all`. Public because Benchmarks/ is another package: it iterates the
/// same registry.
public struct WorkloadDeclaration: Sendable {
    /// `bench run`'s name (`--workload`, JSON, tables); also the declaration's identity.
    public let name: String
    /// The `bench run` workload, or nil when the tool does not run it.
    public let bench: Bench?
    /// The instruction-count case, or nil when it is not gated.
    public let instructions: InstructionCount?
    /// The package-benchmark benchmarks (each registered once per delivery variant).
    public let benchmarks: [PackageBenchmark]

    public init(name: String, bench: Bench? = nil, instructions: InstructionCount? = nil,
                benchmarks: [PackageBenchmark] = []) {
        self.name = name
        self.bench = bench
        self.instructions = instructions
        self.benchmarks = benchmarks
    }

    /// What `bench run` needs: the words of `bench list`, and the shape of the graph, which
    /// decides the rows a run expands it into and how the library's subjects drive it.
    public struct Bench: Sendable {
        /// One line saying what is measured; printed by `bench list` and as each table's title.
        public let summary: String
        /// What one "operation" of the throughput figure is.
        public let unit: String
        public let shape: Shape
        /// Whether its sends are timed (latency rounds); the others measure structural operations.
        public let timesSends: Bool
        /// Whether its figure depends on lines moving between cores (several threads send, or
        /// one sends while another subscribes), so each launch is measured with a cross-core probe.
        public let severalThreads: Bool

        public init(summary: String, unit: String = "value", shape: Shape, timesSends: Bool, severalThreads: Bool) {
            self.summary = summary
            self.unit = unit
            self.shape = shape
            self.timesSends = timesSends
            self.severalThreads = severalThreads
        }
    }

    /// The graphs and drivers of `bench run`. A new workload of an existing shape needs nothing
    /// beyond its declaration; a new shape needs its rows (`Parameters.cases()`) and its run in
    /// each subject.
    public enum Shape: Sendable {
        /// One thread sends through `Pipeline` to one subscriber.
        case sequential(Pipeline)
        /// One send delivered to every subscriber of a multicast signal.
        case fanout
        /// Several threads sending into one input.
        case contended
        /// A handler re-sending into its own input.
        case reentrant
        /// subscribe + cancel pairs on a multicast signal while values flow.
        case churn
        /// Senders while another thread rewires the graph.
        case mutation
        /// Delivery across an execution context.
        case hop
    }

    /// The library's graph between input and subscriber for a `.sequential` workload.
    public struct Pipeline: Sendable {
        /// How many stages the graph has: a fixed number, or `bench run --stages`.
        public enum Stages: Sendable, Equatable {
            case fixed(Int)
            /// `--stages` (the row is labelled "N stages").
            case configured
        }

        public let stages: Stages
        /// Builds the graph of `stages` stages on the input's signal. Every value must arrive,
        /// in order, as the value sent plus `stages` (the checker takes that back off).
        public let build: @Sendable (Signal<Int>, Int) -> Signal<Int>

        public init(stages: Stages, build: @escaping @Sendable (Signal<Int>, Int) -> Signal<Int>) {
            self.stages = stages
            self.build = build
        }
    }

    /// A per-operation case for `scripts/instruction-counts` (`bench instructions`): it runs
    /// `iterations` operations against the library directly, with nothing of the harness (no
    /// checker, no clock) on the path, so the script can count the instructions at two
    /// iteration counts and divide the difference by the difference of the counts: process
    /// start-up, graph set-up and teardown are the same in both runs and cancel out.
    ///
    /// The closures on its per-operation path should have no twin in this module (a handler
    /// writing a field of its own, say): LLVM merges identical functions of a module and
    /// reaches all but one of them through a thunk, 4 instructions more per call, so a twin
    /// added in another declaration could move the count (`runMapStages`).
    public struct InstructionCount: Sendable {
        /// The case's name (`--case`, and its rows in `Benchmarks/Instructions/counts.tsv`).
        public let name: String
        /// The row of the script's printed table.
        public let description: String
        /// The two iteration counts the script runs.
        public let iterations: (first: Int, second: Int)
        /// What the script divides a case's per-iteration count by.
        public let deliveriesPerIteration: Int
        /// Runs the case and returns a checksum (the values delivered, summed), which the
        /// caller prints so the work is observable.
        public let run: @Sendable (_ iterations: Int, _ variant: DeliveryVariant) -> Int

        public init(name: String, description: String, iterations: (first: Int, second: Int),
                    deliveriesPerIteration: Int = 1,
                    run: @escaping @Sendable (_ iterations: Int, _ variant: DeliveryVariant) -> Int) {
            self.name = name
            self.description = description
            self.iterations = iterations
            self.deliveriesPerIteration = deliveriesPerIteration
            self.run = run
        }
    }

    /// A package-benchmark benchmark, registered as "<name>.<variant>". Names carry no spaces
    /// or slashes: package-benchmark 1.38.1 writes threshold files with those replaced by "_"
    /// but reads them back by the unmodified name.
    public struct PackageBenchmark: Sendable {
        /// Operations per iteration: a million values, or a thousand structural operations.
        public enum Scale: Sendable { case perValue, perStructuralOp }

        public let name: String
        public let scale: Scale
        /// Absolute slack of the malloc, retain and release thresholds, per iteration.
        public let countSlack: Int
        /// Builds the graph, runs `iterations` operations between `region.start()` and
        /// `region.stop()` (so the counts are those of the delivery path), tears down and
        /// returns a checksum.
        public let run: @Sendable (_ iterations: Int, _ variant: DeliveryVariant, _ region: MeasuredRegion) -> Int

        public init(name: String, scale: Scale, countSlack: Int = 100,
                    run: @escaping @Sendable (_ iterations: Int, _ variant: DeliveryVariant, _ region: MeasuredRegion) -> Int) {
            self.name = name
            self.scale = scale
            self.countSlack = countSlack
            self.run = run
        }
    }
}

/// Where a benchmark's measurement starts and stops (package-benchmark's
/// `startMeasurement()`/`stopMeasurement()`).
public struct MeasuredRegion {
    public let start: () -> Void
    public let stop: () -> Void

    public init(start: @escaping () -> Void, stop: @escaping () -> Void) {
        self.start = start
        self.stop = stop
    }
}

/// What handlers write, so the optimizer cannot drop the deliveries. Unchecked Sendable:
/// written only by a handler, which the library never runs concurrently with itself; read
/// after the graph is torn down. Internal, so the optimizer sees every access and checks
/// exclusivity statically: a public class's stored properties keep a dynamic check on every
/// write (about 90 instructions per value, which the instruction counts would measure).
final class WorkloadSink: @unchecked Sendable {
    var sum = 0
    var count = 0
    /// Written only by `runMapStages`'s handler.
    var mapped = 0
    /// Each written only by one instruction case's handler (send-filter, send-compactmap,
    /// send-scan).
    var filtered = 0
    var compacted = 0
    var scanned = 0
}
