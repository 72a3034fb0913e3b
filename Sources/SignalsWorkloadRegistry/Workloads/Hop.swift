extension WorkloadDeclaration {
    /// Delivery across an execution context, one row per context.
    public static let hop = WorkloadDeclaration(
        name: "hop",
        bench: Bench(summary: "delivery across an execution context (.direct, serial queue, global queue, task)",
                     shape: .hop, timesSends: true, severalThreads: false))
}
