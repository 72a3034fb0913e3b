// Throwing forms of the operators whose closure meets more than one signal: the selectors of
// `combineLatest` and `withLatestFrom`, the flatMap family, `catchError`'s recovery and the
// factories of `Signal.retry(count:_:)` and `Signal.deferred`. The convention and the rule
// are at the top of ThrowingTransforms.swift: same names, a `throws` closure; a thrown error
// ends the result with `.other(error)` at once.
//
// Each is built on the non-throwing operator, so it keeps that operator's rules (connection
// order, ends, when inner signals are subscribed): the selector runs in a throwing `map`
// fused right behind the operator, or the thrown error becomes the operator's own error
// (an upstream error for the flatMap family, a failing signal for a factory). Releasing what
// the operator holds then follows from its own rule for that error: the result's end detaches
// the graph, and the flatMap family drops its inner subscriptions at an upstream error.
// `zip` has no selector: `zip(…).map { try … }` is its throwing form.

extension Signal {
    // MARK: - combineLatest selectors

    /// `combineLatest(_:context:_:)` with a throwing `combiner`: a thrown error ends the
    /// result with `.other(error)` at once; the inputs are released with the graph, and the
    /// combiner is not called again in this activation.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combiner: makes the emitted value from the latest of each input; throws to end the
    ///     result.
    /// - Returns: the signal of the combined values.
    @inlinable
    public func combineLatest<U: Sendable, V: Sendable>(
        _ other: Signal<U>, context: Exec = .direct, _ combiner: @escaping @Sendable (T, U) throws -> V
    ) -> Signal<V> {
        combineLatest(other, context: context) { ($0, $1) }.map { (p: (T, U)) throws -> V in try combiner(p.0, p.1) }
    }

    /// `combineLatest(_:_:context:_:)` with a throwing `combine`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input.
    ///   - third: the third input.
    ///   - context: where the stage runs.
    ///   - combine: makes the emitted value from the latest of each input; throws to end the
    ///     result.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V) throws -> R
    ) -> Signal<R> {
        combineLatest(second, third, context: context) { ($0, $1, $2) }
            .map { (p: (T, U, V)) throws -> R in try combine(p.0, p.1, p.2) }
    }

    /// `combineLatest(_:_:_:context:_:)` with a throwing `combine`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input.
    ///   - third: the third input.
    ///   - fourth: the fourth input.
    ///   - context: where the stage runs.
    ///   - combine: makes the emitted value from the latest of each input; throws to end the
    ///     result.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W) throws -> R
    ) -> Signal<R> {
        combineLatest(second, third, fourth, context: context) { ($0, $1, $2, $3) }
            .map { (p: (T, U, V, W)) throws -> R in try combine(p.0, p.1, p.2, p.3) }
    }

    /// `combineLatest(_:_:_:_:context:_:)` with a throwing `combine`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input.
    ///   - third: the third input.
    ///   - fourth: the fourth input.
    ///   - fifth: the fifth input.
    ///   - context: where the stage runs.
    ///   - combine: makes the emitted value from the latest of each input; throws to end the
    ///     result.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, X: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, _ fifth: Signal<X>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W, X) throws -> R
    ) -> Signal<R> {
        combineLatest(second, third, fourth, fifth, context: context) { ($0, $1, $2, $3, $4) }
            .map { (p: (T, U, V, W, X)) throws -> R in try combine(p.0, p.1, p.2, p.3, p.4) }
    }

    // MARK: - withLatestFrom selector

    /// `withLatestFrom(_:context:_:)` with a throwing `combine`: a thrown error ends the
    /// result with `.other(error)` at once; both inputs are released with the graph, and the
    /// closure is not called again in this activation. Values arriving before `other` has one
    /// are dropped without a call, as in the non-throwing form.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from each value and the latest of `other`; throws
    ///     to end the result.
    /// - Returns: the signal of the combined values.
    public func withLatestFrom<U: Sendable, V: Sendable>(
        _ other: Signal<U>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U) throws -> V
    ) -> Signal<V> {
        withLatestFrom(other, context: context) { ($0, $1) }.map { (p: (T, U)) throws -> V in try combine(p.0, p.1) }
    }

    // MARK: - Flattening

    /// `flatMap(_:)` with a throwing `transform`: a thrown error ends the result with
    /// `.other(error)` at once, as an error of this signal does: every inner subscription is
    /// released and `transform` is not called again in this activation.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).flatMap { $0 }
    }

    /// `flatMap(maxConcurrent:_:)` with a throwing `transform`: a thrown error ends the result
    /// with `.other(error)` at once, as an error of this signal does: running and waiting
    /// inner signals are released. `maxConcurrent` at 0, negative or huge behaves as in the
    /// non-throwing form (`SignalArgumentError` on activation for 0 or less).
    ///
    /// - Parameters:
    ///   - maxConcurrent: the most inner signals subscribed at once.
    ///   - transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(
        maxConcurrent: Int,
        _ transform: @escaping @Sendable (T) throws -> Signal<U>
    ) -> Signal<U> {
        map(transform).flatMap(maxConcurrent: maxConcurrent) { $0 }
    }

    /// `flatMapLatest(_:)` with a throwing `transform`: a thrown error ends the result with
    /// `.other(error)` at once, and the running inner signal is released.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapLatest<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).flatMapLatest { $0 }
    }

    /// `flatMapFirst(_:)` with a throwing `transform`: `transform` runs only for the values
    /// that start an inner signal (values arriving while one runs are ignored without a
    /// call); a thrown error ends the result with `.other(error)` at once.
    ///
    /// - Parameter transform: makes an inner signal from each value taken; throws to end the
    ///   result.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapFirst<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        let delivery = self.delivery
        // The throw becomes an inner signal that fails as soon as it is subscribed, which is
        // at once: a value reaches `transform` only when no inner signal runs.
        return flatMapFirst { (v: T) -> Signal<U> in
            do { return try transform(v) } catch { return Signal<U>.failing(error, delivery: delivery) }
        }
    }

    /// `concatMap(_:)` with a throwing `transform`: `transform` runs when the value arrives,
    /// as in the non-throwing form; a thrown error ends the result with `.other(error)` at
    /// once, as an error of this signal does: the running inner signal and those waiting
    /// their turn are released, and their values are not delivered.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of the inner signals' values, in order.
    public func concatMap<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).concatMap { $0 }
    }

    // MARK: - Recovering

    /// `catchError(_:)` with a throwing `recover`: when this signal fails with
    /// `.other(error)`, continues with `recover(error)`; if `recover` throws, the result ends
    /// with `.other(thrown error)` at once (`tryCatch` in Combine).
    ///
    /// - Parameter recover: makes the signal to continue with from the error, or throws to
    ///   end with another error.
    /// - Returns: the signal with the error replaced.
    public func catchError(_ recover: @escaping @Sendable (any Error) throws -> Signal<T>) -> Signal<T> {
        let delivery = self.delivery
        return catchError { (error: any Error) -> Signal<T> in
            do { return try recover(error) } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    // MARK: - Factories

    /// `Signal.retry(count:_:)` with a throwing `attempt`: a throw counts as a failed attempt
    /// with that error (as a failing signal would: ReactiveX's `retry` over a `defer` whose
    /// factory throws), so it is retried while retries are left, then passed on as
    /// `.other(error)`. `count` at 0, negative or huge behaves as in the non-throwing form.
    ///
    /// - Parameters:
    ///   - count: the most attempts after the first one fails.
    ///   - delivery: the delivery variant of the result's own stage.
    ///   - attempt: makes the signal of each attempt, or throws to fail that attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry(count: Int, delivery: DeliveryVariant = .lockFree, _ attempt: @escaping @Sendable () throws -> Signal<T>) -> Signal<T> {
        // The same parameters as the non-throwing form, so a non-throwing closure picks that
        // one (and this call, whose closure does not throw, never picks this one again).
        retry(count: count, delivery: delivery) { () -> Signal<T> in
            do { return try attempt() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// `Signal.deferred(delivery:_:)` with a throwing `make`: calls it on every activation; if
    /// it throws, that activation ends with `.other(error)` at once (`defer` in ReactiveX).
    ///
    /// - Parameters:
    ///   - delivery: the delivery variant of the result's own stage (and of the failing
    ///     signal a throw makes).
    ///   - make: makes the signal to mirror, once per activation, or throws to end it.
    /// - Returns: the signal.
    public static func deferred(delivery: DeliveryVariant = .lockFree, _ make: @escaping @Sendable () throws -> Signal<T>) -> Signal<T> {
        // The same parameters as the non-throwing form, so this non-throwing closure picks
        // that one (with a parameter this form lacked, the call would resolve to itself).
        deferred(delivery: delivery) { () -> Signal<T> in
            do { return try make() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }
}
