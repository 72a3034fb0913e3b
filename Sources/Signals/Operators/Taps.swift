// Taps: `onValue`, `onEnd`, `onResult` and `debug` let every result through unchanged and
// call a closure on the way.
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).

extension Signal {
    /// Calls `action` with each value as it passes (`do(onNext:)`, `handleEvents`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with each value.
    /// - Returns: this signal's results, unchanged.
    @inlinable
    public func onValue<Failure: Error>(context: Exec = .direct, _ action: @escaping @Sendable (T) throws(Failure) -> Void) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            try action(v)
            next.send(value: v)
            return false
        }
    }

    /// Calls `action` with the end as it passes (`do(onCompleted:onError:)`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with the end.
    /// - Returns: this signal's results, unchanged.
    @inlinable
    public func onEnd<Failure: Error>(context: Exec = .direct, _ action: @escaping @Sendable (SignalEnd) throws(Failure) -> Void) -> Signal<T> {
        endStage(context: context) { (e: SignalEnd, next: SignalNext<T>) throws(Failure) in
            try action(e)
            next.send(end: e)
        }
    }

    /// Calls `action` with each result (value or end) as it passes.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with each value and the end.
    /// - Returns: this signal's results, unchanged.
    @inlinable
    public func onResult<Failure: Error>(context: Exec = .direct, _ action: @escaping @Sendable (Result<T, SignalEnd>) throws(Failure) -> Void) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
                try action(.success(v))
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                try action(.failure(e))
                next.send(end: e)
            })
    }

    /// Logs activation, each value, the end and deactivation, prefixed with `identifier`
    /// (`debug`). `log` defaults to `print`; pass your own to capture the lines.
    ///
    /// - Parameters:
    ///   - identifier: the prefix of each logged line.
    ///   - log: receives each line (`print` by default).
    /// - Returns: this signal's results, unchanged.
    public func debug(
        _ identifier: String = "Signal",
        log: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal<T> {
        onActivate { log("\(identifier) -> activated") }
            .onResult { r in
                switch r {
                case .success(let v): log("\(identifier) -> value(\(v))")
                case .failure(let e): log("\(identifier) -> end(\(e))")
                }
            }
            .onDeactivate { log("\(identifier) -> deactivated") }
    }
}
