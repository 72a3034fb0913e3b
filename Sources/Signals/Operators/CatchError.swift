// Recovering from errors: `catchError` (by a recovery signal or a value) and `mapErrors`.
//
// A throwing recovery closure's error becomes a signal that fails with it at once, so the result
// ends with `.other(error)`. `mapErrors` is one implementation for both closure kinds
// (`throws(Failure)`, `Failure == Never` for one that does not throw).

extension Signal {
    /// When this signal fails with `.other(error)`, continues with the signal `recover(error)`
    /// (`catchError`, `catch`). Values, `.complete` and `.cancelled` pass through.
    ///
    /// RxJS's handler also gets `caught`, the source, to subscribe to again. A signal has one
    /// output, so a source is re-run by a factory instead: returning `caught` is
    /// `Signal.retry(when:_:)` with a trigger that fires at once (`Signal<Void>.just(())`), a
    /// throw from the handler a throw from its `shouldRetry`; a `generate` source re-runs with
    /// `retry(_:context:shouldRetry:)`. (A `caught` signal would nest one more catching stage
    /// per error, as RxJS nests a subscriber: a graph that deepens for as long as errors come.)
    ///
    /// State: the recovery subscription, per activation.
    ///
    /// - Parameter recover: makes the signal to continue with from the error.
    /// - Returns: the signal with the error replaced.
    public func catchError(_ recover: @escaping @Sendable (any Error) -> Signal<T>) -> Signal<T> {
        stage(initialState: SignalOutput<T>?.none, eventType: Result<T, SignalEnd>.self) {
            (recovery: inout SignalOutput<T>?, e: StageEvent<T, Result<T, SignalEnd>>, channel: StageChannel<Result<T, SignalEnd>>, next: SignalNext<T>) in
            switch e {
            case .activated:
                break
            case .upstream(.failure(.other(let error))):
                recovery = channel.subscribe(recover(error)) { $0 }
            case .upstream(let r):
                next.send(result: r)
            case .event(let r):
                if case .failure = r { recovery = nil }
                next.send(result: r)
            }
        }
    }

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

    /// When this signal fails with `.other(_)`, emits `value` and completes
    /// (`catchErrorJustReturn`, `replaceError(with:)`).
    ///
    /// - Parameters:
    ///   - value: the value to emit in place of the error.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal with the error replaced.
    @inlinable
    public func catchError(returning value: T, context: Exec = .direct) -> Signal<T> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<T>) in
            if case .failure(.other) = r {
                next.send(value: value)
                next.complete()
            } else {
                next.send(result: r)
            }
        }
    }

    /// Replaces the error of a `.other` end with `transform(error)`; values, `.complete` and
    /// `.cancelled` pass through (`mapError`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new error from the old one.
    /// - Returns: the signal with errors replaced.
    @inlinable
    public func mapErrors<Failure: Error>(
        context: Exec = .direct,
        _ transform: @escaping @Sendable (any Error) throws(Failure) -> any Error
    ) -> Signal<T> {
        endStage(context: context) { (e: SignalEnd, next: SignalNext<T>) throws(Failure) in
            if case .other(let error) = e {
                next.send(end: .other(try transform(error)))
            } else {
                next.send(end: e)
            }
        }
    }
}
