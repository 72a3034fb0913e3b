// The throwing selectors of `combineLatest` (two to five signals). Each runs in a throwing
// `map` fused right behind the non-throwing operator, so it keeps that operator's rules
// (connection order, ends); the thrown error ends the result with `.other(error)`.
// `zip` has no selector: `zip(…).map { try … }` is its throwing form.

extension Signal {
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
}
