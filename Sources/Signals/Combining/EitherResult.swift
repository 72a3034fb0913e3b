
// MARK: Either results

/// A result from one of 2 combined signals, tagged with which one.
public enum EitherResult2<A: Sendable, B: Sendable>: Sendable {
    /// A result from signal 1.
    case result1(Result<A, SignalEnd>)
    /// A result from signal 2.
    case result2(Result<B, SignalEnd>)
}

/// A result from one of 3 combined signals, tagged with which one.
public enum EitherResult3<A: Sendable, B: Sendable, C: Sendable>: Sendable {
    /// A result from signal 1.
    case result1(Result<A, SignalEnd>)
    /// A result from signal 2.
    case result2(Result<B, SignalEnd>)
    /// A result from signal 3.
    case result3(Result<C, SignalEnd>)
}

/// A result from one of 4 combined signals, tagged with which one.
public enum EitherResult4<A: Sendable, B: Sendable, C: Sendable, D: Sendable>: Sendable {
    /// A result from signal 1.
    case result1(Result<A, SignalEnd>)
    /// A result from signal 2.
    case result2(Result<B, SignalEnd>)
    /// A result from signal 3.
    case result3(Result<C, SignalEnd>)
    /// A result from signal 4.
    case result4(Result<D, SignalEnd>)
}

/// A result from one of 5 combined signals, tagged with which one.
public enum EitherResult5<A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable>: Sendable {
    /// A result from signal 1.
    case result1(Result<A, SignalEnd>)
    /// A result from signal 2.
    case result2(Result<B, SignalEnd>)
    /// A result from signal 3.
    case result3(Result<C, SignalEnd>)
    /// A result from signal 4.
    case result4(Result<D, SignalEnd>)
    /// A result from signal 5.
    case result5(Result<E, SignalEnd>)
}
