// Throwing forms of the aggregates with a closure (`min(by:)`, `max(by:)`, `all`,
// `contains(where:)`, `find`) and of the taps (`onValue`, `onEnd`, `onResult`). The
// convention and the rule are at the top of ThrowingTransforms.swift: same names, a `throws`
// closure; a thrown error ends the result with `.other(error)` at once and the stage stops.

extension Signal {
    // MARK: - Aggregates

    /// `min(context:by:)` with a throwing `areInIncreasingOrder`: emits the smallest value when
    /// the signal completes; a thrown error ends the result with `.other(error)` at once, with
    /// no value (`tryMin(by:)` in Combine). The first value of each activation is kept without
    /// a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areInIncreasingOrder: true if its first argument comes before its second (called
    ///     with the new value first); throws to end the result.
    /// - Returns: the signal of the smallest value.
    @inlinable
    public func min(context: Exec = .direct, by areInIncreasingOrder: @escaping @Sendable (T, T) throws -> Bool) -> Signal<T> {
        throwingKeptValue(context: context) { candidate, kept in try areInIncreasingOrder(candidate, kept) }
    }

    /// `max(context:by:)` with a throwing `areInIncreasingOrder`: emits the largest value when
    /// the signal completes; a thrown error ends the result with `.other(error)` at once, with
    /// no value (`tryMax(by:)` in Combine). The first value of each activation is kept without
    /// a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areInIncreasingOrder: true if its first argument comes before its second (called
    ///     with the kept value first); throws to end the result.
    /// - Returns: the signal of the largest value.
    @inlinable
    public func max(context: Exec = .direct, by areInIncreasingOrder: @escaping @Sendable (T, T) throws -> Bool) -> Signal<T> {
        throwingKeptValue(context: context) { candidate, kept in try areInIncreasingOrder(kept, candidate) }
    }

    /// The one value of the throwing `min` and `max`: a value replaces the kept one when
    /// `replaces(candidate, kept)` is true; the first value is kept without a call. The kept
    /// value is emitted before the completion.
    @inlinable
    func throwingKeptValue(context: Exec, _ replaces: @escaping @Sendable (T, T) throws -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (kept: inout T?, v: T, _: SignalNext<T>) in
                if let k = kept {
                    if try replaces(v, k) { kept = v }
                } else {
                    kept = v
                }
                return false
            },
            end: { (kept: inout T?, e: SignalEnd, next: SignalNext<T>) in
                if case .complete = e, let k = kept { next.send(value: k) }
                next.send(end: e)
            })
    }

    /// `all(context:_:)` with a throwing `predicate`: emits `false` and completes at the first
    /// value for which it returns false, or `true` when the signal completes
    /// (`tryAllSatisfy` in Combine); a thrown error ends the result with `.other(error)` at
    /// once, with no verdict.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of the verdict.
    @inlinable
    public func all(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<Bool> {
        throwingVerdict(context: context, decidedBy: false, predicate)
    }

    /// `contains(context:where:)` with a throwing `predicate`: emits `true` and completes at
    /// the first value for which it returns true, or `false` when the signal completes
    /// (`tryContains(where:)` in Combine); a thrown error ends the result with
    /// `.other(error)` at once, with no verdict.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of the verdict.
    @inlinable
    public func contains(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<Bool> {
        throwingVerdict(context: context, decidedBy: true, predicate)
    }

    /// The verdict of the throwing `all` and `contains(where:)`.
    @inlinable
    func throwingVerdict(context: Exec, decidedBy decisive: Bool, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<Bool> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<Bool>) in
                guard try predicate(v) == decisive else { return false }
                next.send(value: decisive)
                next.complete()
                return true
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<Bool>) in
                if case .complete = e { next.send(value: !decisive) }
                next.send(end: e)
            })
    }

    /// `find(context:_:)` with a throwing `predicate`: emits the first value for which it
    /// returns true, or `nil` if the signal completes without one, then completes; a thrown
    /// error ends the result with `.other(error)` at once, with no value.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of the value found, or nil.
    @inlinable
    public func find(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T?> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T?>) in
                guard try predicate(v) else { return false }
                next.send(value: v)
                next.complete()
                return true
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T?>) in
                if case .complete = e { next.send(value: nil) }
                next.send(end: e)
            })
    }

    // MARK: - Taps

    /// `onValue(context:_:)` with a throwing `action`: calls it with each value as it passes;
    /// a thrown error ends the result with `.other(error)` at once in place of that value
    /// (`do(onNext:)` throwing in ReactiveX, `tryHandleEvents` style).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with each value; throws to end the result instead of passing it.
    /// - Returns: this signal's results, up to a throw.
    @inlinable
    public func onValue(context: Exec = .direct, _ action: @escaping @Sendable (T) throws -> Void) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) in
            try action(v)
            next.send(value: v)
            return false
        }
    }

    /// `onEnd(context:_:)` with a throwing `action`: calls it with the end as it passes; if it
    /// throws, the result ends with `.other(thrown error)` in place of that end (ReactiveX's
    /// rule for a throwing completion or error handler of `do`).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with the end; throws to replace it.
    /// - Returns: this signal's results, the end replaced by a throw.
    @inlinable
    public func onEnd(context: Exec = .direct, _ action: @escaping @Sendable (SignalEnd) throws -> Void) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) in
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) in
                try action(e)
                next.send(end: e)
            })
    }

    /// `onResult(context:_:)` with a throwing `action`: calls it with each result as it
    /// passes; if it throws, the result ends with `.other(thrown error)` in place of that
    /// value or end, and `action` is not called again (not even with that error).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - action: runs with each value and the end; throws to end the result instead.
    /// - Returns: this signal's results, up to a throw.
    @inlinable
    public func onResult(context: Exec = .direct, _ action: @escaping @Sendable (Result<T, SignalEnd>) throws -> Void) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) in
                try action(.success(v))
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) in
                try action(.failure(e))
                next.send(end: e)
            })
    }
}
