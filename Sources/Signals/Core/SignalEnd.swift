/// Why a stream ended. A stream carries `Result<T, SignalEnd>`; the first end closes it.
public enum SignalEnd: Error, Sendable, CustomStringConvertible {
    /// The sender finished normally.
    case complete
    /// The sending end was released or cancelled, or the graph was torn down.
    case cancelled
    /// The stream failed with an error of its own. (Stored indirectly: it keeps `SignalEnd`,
    /// and so `Result<T, SignalEnd>`, one word wide, which lets results travel in registers.)
    indirect case other(any Error)

    /// True for `.complete`.
    public var isComplete: Bool { if case .complete = self { return true } else { return false } }
    /// True for `.cancelled`.
    public var isCancelled: Bool { if case .cancelled = self { return true } else { return false } }
    /// The error of `.other`, or nil.
    public var otherError: (any Error)? { if case .other(let e) = self { return e } else { return nil } }

    public var description: String {
        switch self {
        case .complete: return "complete"
        case .cancelled: return "cancelled"
        case .other(let e): return "other(\(e))"
        }
    }
}

extension Result where Failure == SignalEnd {
    /// The value, or nil for an end.
    @inlinable public var value: Success? {
        if case .success(let v) = self { return v }
        return nil
    }
    /// The end, or nil for a value.
    @inlinable public var end: SignalEnd? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
