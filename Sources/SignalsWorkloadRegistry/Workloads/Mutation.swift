extension WorkloadDeclaration {
    /// Senders while another thread rewires the graph (`SignalsSubject.runMutation`).
    public static let mutation = WorkloadDeclaration(
        name: "mutation",
        bench: Bench(summary: "T senders while another thread rebinds a junction, edits a merged input and subscribes/cancels",
                     shape: .mutation, timesSends: false, severalThreads: true))
}
