/// Every workload, in `bench run`'s table order: the one list `bench`, `bench instructions`
/// (and so `scripts/instruction-counts`) and the package-benchmark suite in Benchmarks/ read.
/// A new workload is a file in `Workloads/` and one line here.
public enum WorkloadRegistry {
    public static let all: [WorkloadDeclaration] = [
        .send,
        .sendMap,
        .chain,
        .sendFilter,
        .sendCompactMap,
        .sendScan,
        .fanout,
        .contended,
        .reentrant,
        .churn,
        .mutation,
        .hop,
        .continuousSubscribe,
        .capture,
    ]

    /// The declaration called `name`, if any.
    public static func declaration(named name: String) -> WorkloadDeclaration? {
        all.first { $0.name == name }
    }
}
