// Ends as values and back: `materialize` and `dematerialize`.

extension Signal {
    /// Turns every result, including the end, into a value; the result then completes
    /// (`materialize`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of results as values.
    @inlinable
    public func materialize(context: Exec = .direct) -> Signal<Result<T, SignalEnd>> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<Result<T, SignalEnd>>) in
            next.send(value: r)
            if case .failure = r { next.complete() }
        }
    }

    /// The inverse of `materialize()`: sends each `Result` as a value or an end.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the values and end.
    @inlinable
    public func dematerialize<U: Sendable>(context: Exec = .direct) -> Signal<U> where T == Result<U, SignalEnd> {
        transform(context: context) { (r: Result<Result<U, SignalEnd>, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let inner): next.send(result: inner)
            case .failure(let e): next.send(end: e)
            }
        }
    }
}
