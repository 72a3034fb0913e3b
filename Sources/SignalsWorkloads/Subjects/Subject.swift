import SignalsReports

/// Whether and how a subject can run a case.
package enum Support: Sendable, Equatable {
    /// Runs in the harness's own process.
    case inProcess
    /// Runs in a child process (the bench binary re-executed with a hidden subcommand) because
    /// it may crash or hang; the string says what is feared.
    case isolated(String)
    /// Cannot do this workload at all; the string is the reason printed in the table.
    case unsupported(String)

    /// Why a peer does not run a workload it has no code for (a workload declared after the
    /// peer was written runs on the library's subjects only).
    package static let notWritten = "not written for this peer"
}

/// Something measured: one of the library's delivery variants or a peer.
///
/// A subject builds the case's pipeline with handlers that call the context's checkers, runs
/// the measured part between `RunContext.startClock()` and `stopClock()`, and tears down. The
/// checks themselves belong to the harness (`DeliveryChecker`, verified by the runner after
/// every repetition), so a subject cannot pass a check it does not satisfy; the tests feed the
/// runner deliberately broken subjects to show it.
package protocol BenchSubject: Sendable {
    var id: SubjectID { get }
    func support(for spec: CaseSpec) -> Support
    /// Runs one repetition of `context.spec` with `context.operations` operations.
    func run(_ context: RunContext) throws
}

/// Something a sender thread calls once per value; subjects wrap their input in a struct
/// conforming to this so the generic send loops specialize to a direct call.
package protocol ValueSender: SendableMetatype {
    func send(_ value: Int)
}

/// Thrown by a subject that fails to set a case up (a bind error, say).
package struct SubjectError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
