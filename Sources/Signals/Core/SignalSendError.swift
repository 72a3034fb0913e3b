/// Why a send was not delivered.
public enum SignalSendError: Error, Sendable, Equatable {
    /// Nothing is subscribed (the graph is not active); the value was dropped.
    case inactive
    /// The stream has ended or the input was disconnected; the value was dropped.
    case disconnected
}

/// Misuse of the graph, reported as a value: never a crash, and nothing else is lost.
public enum SignalBindError: Error, Sendable, Equatable {
    /// A plain `Signal` has one output and it is already taken. Use `SignalMulti` for many.
    case duplicate
    /// The connection would make a loop in the graph.
    case loop
    /// The input has been closed: its signal has ended (an end was sent into it, or reached
    /// it through an earlier binding), or it belongs to an activation that has gone (a
    /// `generate` input after its deactivation). A binding to it could only forward values
    /// that the input refuses, so none is made. As CwlSignal's `SignalBindError.cancelled`.
    case cancelled
}
