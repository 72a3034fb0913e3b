// Picking one value: `first`, `last`, `single` (each with a predicate or without) and
// `elementAt`.
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).

extension Signal {
    // `first`, `last` and `single` without a predicate: a generic `Failure` has no default
    // closure to be inferred from, so the form without one is its own overload.

    /// Emits the first value, then completes; completes without a value if the signal ends
    /// first (`first()` in Combine).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func first(context: Exec = .direct) -> Signal<T> {
        first(context: context) { _ in true }
    }

    /// Emits the first value for which `predicate` is true, then completes; completes without a
    /// value if the signal ends first (`first(where:)` in Combine).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func first<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            guard try predicate(v) else { return false }
            next.send(value: v)
            next.complete()
            return true
        }
    }

    /// Emits the last value when the signal completes; completes without a value if there was
    /// none. Errors pass through without a value.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func last(context: Exec = .direct) -> Signal<T> {
        last(context: context) { _ in true }
    }

    /// Emits the last value for which `predicate` is true when the signal completes; completes
    /// without a value if there was none. Errors pass through without a value.
    ///
    /// State: the latest matching value, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func last<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (kept: inout T?, v: T, _: SignalNext<T>) throws(Failure) in
                if try predicate(v) { kept = v }
                return false
            },
            end: { (kept: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .complete = e, let k = kept { next.send(value: k) }
                next.send(end: e)
            })
    }

    /// Emits the only value when the signal completes; fails with
    /// `SignalOperatorError.moreThanOneElement` as soon as a second one arrives, and with
    /// `.noElements` if the signal completes without one.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func single(context: Exec = .direct) -> Signal<T> {
        single(context: context) { _ in true }
    }

    /// Emits the only value for which `predicate` is true when the signal completes. Fails with
    /// `SignalOperatorError.moreThanOneElement` as soon as a second one arrives, and with
    /// `.noElements` if the signal completes without one (`single` in ReactiveX).
    ///
    /// State: the matching value, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func single<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (found: inout T?, v: T, next: SignalNext<T>) throws(Failure) in
                guard try predicate(v) else { return false }
                if found != nil {
                    next.send(end: .other(SignalOperatorError.moreThanOneElement))
                    return true
                }
                found = v
                return false
            },
            end: { (found: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                switch e {
                case .complete:
                    if let f = found {
                        next.send(value: f)
                        next.complete()
                    } else {
                        next.send(end: .other(SignalOperatorError.noElements))
                    }
                default:
                    next.send(end: e)
                }
            })
    }

    /// Emits the value at `index` (counting from zero), then completes; completes without a value
    /// if the signal ends first (`elementAt`, `output(at:)`).
    ///
    /// State: a countdown, per activation.
    ///
    /// A negative `index` ends the result as soon as it is activated with
    /// `SignalArgumentError`; one past the last value completes with no value.
    ///
    /// - Parameters:
    ///   - index: the position of the value to emit, counting from zero.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func elementAt(_ index: Int, context: Exec = .direct) -> Signal<T> {
        // A negative index is an argument error (docs/operators.md, "Counts and durations at
        // their limits"), not a trap.
        if index < 0 { return hop(to: context).elementAtArgumentError(index) }
        return transform(initialState: index, context: context) { (remaining: inout Int, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if remaining == 0 {
                    next.send(value: v)
                    next.complete()
                }
                remaining -= 1
            case .failure(let e):
                next.send(end: e)
            }
        }
    }
}
