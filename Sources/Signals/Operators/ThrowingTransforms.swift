// `throwingStage`, the stage of every operator with a `throws(Failure)` closure, and the
// throwing forms of `map`, `filter`, `compactMap` and `scan`.
//
// The convention, for every operator that takes a closure: one implementation for both closure
// kinds, whose closure is `throws(Failure)` (`Failure == Never` for one that does not throw).
// `map`, `filter`, `compactMap` and `scan` keep their non-throwing overloads beside it: their
// closures are on the value path, and a closure stored as `throws(Failure)` keeps the
// throwing calling convention even when `Failure` is `Never`. Swift picks the non-throwing
// overload for a closure that does not throw (it matches without a function conversion).
//
// The rule, the same for every operator built on `throwingStage`: a thrown error ends the
// result with `.other(error)` at once. The stage stops there: its closure is not called again
// in that activation, later upstream results are dropped, and what it held (its state, open
// groups, inner subscriptions) is let go. A new activation starts afresh.
//
// State: each keeps its state in the per-activation state of `transform(initialState:)`,
// touched only from the serialized processor; no lock.

/// The per-activation state of a throwing stage: the operator's own state and whether the
/// stage has ended (by an end from upstream, one of its own or a throw).
@usableFromInline
struct ThrowingStageState<S: Sendable>: Sendable {
    @usableFromInline var state: S
    @usableFromInline var ended = false
    @inlinable init(_ state: S) { self.state = state }
}

extension Signal {
    /// The stage every operator with a `throws(Failure)` closure is built on: `value` handles
    /// each value and returns true when it has ended the stage itself (`first(where:)`
    /// completing); `end` handles the end from upstream; `failure` sends the end for a thrown error (by default
    /// `.other(error)`). After any end the stage ignores everything and its state goes back to
    /// `initialState`, which releases what it held.
    @inlinable
    func throwingStage<S: Sendable, U: Sendable, Failure: Error>(
        initialState: S,
        context: Exec,
        value: @escaping @Sendable (inout S, T, SignalNext<U>) throws(Failure) -> Bool,
        end: @escaping @Sendable (inout S, SignalEnd, SignalNext<U>) throws(Failure) -> Void = { _, e, next in next.send(end: e) },
        failure: @escaping @Sendable (inout S, any Error, SignalNext<U>) -> Void = { _, error, next in next.send(end: .other(error)) }
    ) -> Signal<U> {
        transform(initialState: ThrowingStageState(initialState), context: context) {
            (s: inout ThrowingStageState<S>, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            if s.ended { return }
            do throws(Failure) {
                switch r {
                case .success(let v):
                    s.ended = try value(&s.state, v, next)
                case .failure(let e):
                    s.ended = true
                    try end(&s.state, e, next)
                }
            } catch {
                s.ended = true
                failure(&s.state, error, next)
            }
            if s.ended { s.state = initialState }
        }
    }

    // MARK: - Core transforms

    /// `map(context:_:)` with a throwing `transform`: each value is transformed; a thrown
    /// error ends the result with `.other(error)` at once (`tryMap` in Combine).
    ///
    /// After a throw `transform` is not called again in this activation and later upstream
    /// results are dropped; a new activation starts afresh. A closure that does not throw
    /// picks the non-throwing `map`, whose cost is unchanged.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value, or throws to end the result.
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<U, Failure: Error>(context: Exec = .direct, _ transform: @escaping @Sendable (T) throws(Failure) -> U) -> Signal<U> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<U>) throws(Failure) in
            next.send(value: try transform(v))
            return false
        }
    }

    /// `map(initialState:context:_:)` with a throwing `transform`: transforms each value with
    /// state that lives for one activation; a thrown error ends the result with
    /// `.other(error)` at once, and the state goes back to `initialState` for the next
    /// activation.
    ///
    /// - Parameters:
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: updates the state and makes the new value, or throws to end the result
    ///     (changes it made to the state before throwing are dropped with the state).
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<S: Sendable, U, Failure: Error>(
        initialState: S, context: Exec = .direct, _ transform: @escaping @Sendable (inout S, T) throws(Failure) -> U
    ) -> Signal<U> {
        throwingStage(initialState: initialState, context: context) { (s: inout S, v: T, next: SignalNext<U>) throws(Failure) in
            next.send(value: try transform(&s, v))
            return false
        }
    }

    /// `filter(context:_:)` with a throwing `isIncluded`: passes the values for which it
    /// returns true; a thrown error ends the result with `.other(error)` at once (`tryFilter`
    /// in Combine). The value it threw for is not passed.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - isIncluded: true for the values to keep; throws to end the result.
    /// - Returns: the signal of the kept values.
    @inlinable
    public func filter<Failure: Error>(context: Exec = .direct, _ isIncluded: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            if try isIncluded(v) { next.send(value: v) }
            return false
        }
    }

    /// `compactMap(context:_:)` with a throwing `transform`: passes the non-nil results; a
    /// thrown error ends the result with `.other(error)` at once (`tryCompactMap` in Combine).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value, nil to drop it, or throws to end the result.
    /// - Returns: the signal of the non-nil results.
    @inlinable
    public func compactMap<U, Failure: Error>(context: Exec = .direct, _ transform: @escaping @Sendable (T) throws(Failure) -> U?) -> Signal<U> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<U>) throws(Failure) in
            if let u = try transform(v) { next.send(value: u) }
            return false
        }
    }

    // MARK: - Accumulating

    /// `scan(initialValue:context:_:)` with a throwing `combine`: emits the running result
    /// after every value; a thrown error ends the result with `.other(error)` at once
    /// (`tryScan` in Combine), without a result for that value. The running result starts
    /// again from `initialValue` on the next activation.
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan<U: Sendable, Failure: Error>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) throws(Failure) -> U
    ) -> Signal<U> {
        throwingStage(initialState: initialValue, context: context) { (acc: inout U, v: T, next: SignalNext<U>) throws(Failure) in
            acc = try combine(acc, v)
            next.send(value: acc)
            return false
        }
    }

    /// `scan(context:_:)` (seedless) with a throwing `combine`: emits the first value as it
    /// is, then the running result after every later value; a thrown error ends the result
    /// with `.other(error)` at once, without a result for that value. The first value is
    /// passed without a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan<Failure: Error>(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) throws(Failure) -> T) -> Signal<T> {
        throwingStage(initialState: T?.none, context: context) { (acc: inout T?, v: T, next: SignalNext<T>) throws(Failure) in
            let result: T
            if let a = acc { result = try combine(a, v) } else { result = v }
            acc = result
            next.send(value: result)
            return false
        }
    }

    // MARK: - Dropping repeats

    // MARK: - Errors

    // MARK: - Grouping

}
