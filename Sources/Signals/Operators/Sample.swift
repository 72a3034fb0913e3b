// Sampling another signal: `sample` and `withLatestFrom`.
//
// A throwing selector of `withLatestFrom` runs in a throwing `map` fused right behind the
// operator: the thrown error ends the result with `.other(error)`.

extension Signal {
    /// Emits the latest value each time `trigger` sends a value, if a value arrived since the
    /// last sample (`sample`).
    ///
    /// Ends as RxJS does: this signal's end ends the result at once, with that end (a value
    /// still waiting for a sample is dropped; RxSwift sends it at the next trigger value
    /// instead); the trigger's error fails the result; the trigger's completion or
    /// cancellation is ignored (no more samples are taken, and the result ends with this
    /// signal).
    ///
    /// State: the latest unsampled value, per activation.
    ///
    /// - Parameters:
    ///   - trigger: the signal whose values take the samples.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the samples.
    public func sample<U: Sendable>(_ trigger: Signal<U>, context: Exec = .direct) -> Signal<T> {
        combine(trigger, initialState: T?.none, context: context) { (latest: inout T?, e: EitherResult2<T, U>, next: SignalNext<T>) in
            switch e {
            case .result1(.success(let v)):
                latest = v
            case .result2(.success):
                if let l = latest {
                    latest = nil
                    next.send(value: l)
                }
            case .result1(.failure(let end)):
                latest = nil
                next.send(end: end)
            case .result2(.failure(.other(let error))):
                latest = nil
                next.send(end: .other(error))
            case .result2(.failure):
                break
            }
        }
    }

    /// Combines each value with the latest value of `other` (values arriving before `other` has
    /// one are dropped) (`withLatestFrom`). Ends when this signal ends or `other` fails; `other`
    /// completing or being cancelled keeps its last value in use.
    ///
    /// `other` is connected before this signal, so a value it sends as it activates (the
    /// latest of a `continuous()` multi) is there for this signal's own activation value:
    /// `x.continuous(initialValue: 3).withLatestFrom(y.continuous(initialValue: 5)) { "\($0)\($1)" }`
    /// emits `"35"` at once.
    ///
    /// State: `other`'s latest value, per activation.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from each value and the latest of `other`.
    /// - Returns: the signal of the combined values.
    public func withLatestFrom<U: Sendable, V: Sendable>(
        _ other: Signal<U>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U) -> V
    ) -> Signal<V> {
        // `other` is the first input so that it is connected first (inputs are connected in
        // order): a value `other` sends as it activates (a `continuous` multi's latest) is
        // its latest by the time this signal's activation value arrives (RxJS subscribes the
        // other inputs before the source, too).
        other.combinedNode2(self, variant: delivery).transform(initialState: U?.none, context: context) { latest, r, next in
            routeCombined(r, next) { (e: EitherResult2<U, T>) in
                switch e {
                case .result2(.success(let v)):
                    if let u = latest { next.send(value: combine(v, u)) }
                case .result2(.failure(let end)):
                    next.send(end: end)
                case .result1(.success(let u)):
                    latest = u
                case .result1(.failure(.other(let error))):
                    next.send(end: .other(error))
                case .result1(.failure):
                    break
                }
            }
        }
    }

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

    /// Emits the latest value of `other` each time this signal sends a value (`withLatestFrom`).
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the combined values.
    public func withLatestFrom<U: Sendable>(_ other: Signal<U>, context: Exec = .direct) -> Signal<U> {
        withLatestFrom(other, context: context) { _, u in u }
    }
}
