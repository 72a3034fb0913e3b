// `scan` and `reduce`, with a starting result and seedless.
//
// `reduce` is one implementation for both closure kinds (`throws(Failure)`, `Failure == Never`
// for a closure that does not throw). `scan` keeps a non-throwing overload beside its
// `throws(Failure)` one, as `map` does (Map.swift): its running result is on the value path,
// and the `throwingStage` form serving non-throwing closures too costs more per value
// (docs/design/fused-stages-and-fan-out.md, "The throwing forms beside the fused stages").
//
// State: the running result, in the stage's per-activation state; no lock.

extension Signal {
    /// Emits `initialValue` combined with each value by `combine`, then the running result for
    /// every later value (`scan` in ReactiveX and Combine).
    ///
    /// State: the running result, in the stage's per-activation state.
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan<U: Sendable>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) -> U
    ) -> Signal<U> {
        accumulate(initialValue: initialValue, context: context, emitsEveryResult: true, combine)
    }

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

    /// Emits the first value as it is, then, for every later value, `combine` of the running
    /// result and that value (RxJS `scan` without a seed, Kotlin's `runningReduce`): the first
    /// value is the starting result, and `combine` is first called with the second.
    ///
    /// State: the running result (none before the first value), per activation; a new
    /// activation starts again without one. Ends pass through at once, and an end lets the
    /// result go.
    ///
    /// `combine` runs serialized (never concurrently with itself) and outside every lock; it
    /// may send into this graph's inputs (a re-entrant send is queued and delivered after it
    /// returns). Releasing the output (or cancelling it) deactivates the stage and lets the
    /// running result go; `combine` is kept with the graph.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) -> T) -> Signal<T> {
        accumulateSeedless(context: context, emitsEveryResult: true, combine)
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

    /// The running result of the seedless `scan` and `reduce`: the first value starts it.
    @inlinable
    func accumulateSeedless(context: Exec, emitsEveryResult: Bool, _ combine: @escaping @Sendable (T, T) -> T) -> Signal<T> {
        transform(initialState: T?.none, context: context) { (acc: inout T?, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                let result = acc.map { combine($0, v) } ?? v
                acc = result
                if emitsEveryResult { next.send(value: result) }
            case .failure(let e):
                let last = acc
                acc = nil
                if !emitsEveryResult, case .complete = e, let last { next.send(value: last) }
                next.send(end: e)
            }
        }
    }

    /// The running result of `scan` and `reduce`: emitted after every value
    /// (`emitsEveryResult`), or once, before the completion (errors and cancellation pass
    /// through without it).
    @inlinable
    func accumulate<U: Sendable>(
        initialValue: U,
        context: Exec,
        emitsEveryResult: Bool,
        _ combine: @escaping @Sendable (U, T) -> U
    ) -> Signal<U> {
        transform(initialState: initialValue, context: context) { (acc: inout U, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let v):
                acc = combine(acc, v)
                if emitsEveryResult { next.send(value: acc) }
            case .failure(.complete) where !emitsEveryResult:
                next.send(value: acc)
                next.complete()
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Combines every value into one result, which it emits when the signal completes
    /// (`reduce` in ReactiveX and Combine). Errors and cancellation pass through without a
    /// result.
    ///
    /// State: the running result, in the stage's per-activation state.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of the result.
    @inlinable
    public func reduce<U: Sendable, Failure: Error>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) throws(Failure) -> U
    ) -> Signal<U> {
        throwingStage(
            initialState: initialValue, context: context,
            value: { (acc: inout U, v: T, _: SignalNext<U>) throws(Failure) in
                acc = try combine(acc, v)
                return false
            },
            end: { (acc: inout U, e: SignalEnd, next: SignalNext<U>) throws(Failure) in
                if case .complete = e { next.send(value: acc) }
                next.send(end: e)
            })
    }

    /// Combines every value into one result, the first value being the starting result, and
    /// emits it when the signal completes (RxJS `reduce` without a seed, Swift's
    /// `reduce` on the first element): `combine` is first called with the second value. An
    /// empty signal completes without a value (RxJS does too); errors and cancellation pass
    /// through without a result.
    ///
    /// State: the running result (none before the first value), per activation; a new
    /// activation starts again without one.
    ///
    /// `combine` runs serialized (never concurrently with itself) and outside every lock; it
    /// may send into this graph's inputs (a re-entrant send is queued and delivered after it
    /// returns). Releasing the output (or cancelling it) deactivates the stage and lets the
    /// running result go.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of the result (at most one value).
    @inlinable
    public func reduce<Failure: Error>(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) throws(Failure) -> T) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (acc: inout T?, v: T, _: SignalNext<T>) throws(Failure) in
                if let a = acc { acc = try combine(a, v) } else { acc = v }
                return false
            },
            end: { (acc: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .complete = e, let a = acc { next.send(value: a) }
                next.send(end: e)
            })
    }
}
