// `map`, `filter` and `compactMap`, with and without state, and the value-only transforms
// (`transformValues`, `ofType`, `compact`, `optionalToArray`, `enumerated`).
//
// The non-throwing `map`, `filter` and `compactMap` are fused stages (`MapStage` and its
// siblings), the hot path of every graph, beside one `throws(Failure)` overload each for the
// closures that throw; a closure that does not throw picks the fused one (it matches without
// a function conversion). The `throws(Failure)` forms are `throwingStage`s, a `transform` with
// its state box and guarded `next`, several times the fused stage's cost per value; a fused
// stage generic over `Failure` keeps the throwing calling convention when `Failure` is `Never`
// (docs/design/fused-stages-and-fan-out.md, "The throwing forms beside the fused stages"). A
// thrown error ends the result with `.other(error)` at once, and the closure is not called
// again in that activation.

// The value paths of the fused single-input stages. Each is one object holding the user's
// closure and the downstream value path, and the stage's sink is a closure that captures that
// object alone: the object is the closure's context, so a value crosses the stage as one call
// into specialized code that loads both closures from it, where a closure capturing the two
// closures has a context thunk that unpacks four words. The fields stay `let`: as `var`s each
// call would retain and release the closure it loads (both measured:
// docs/design/fused-stages-and-fan-out.md, "Designs measured").

/// `map`'s value path.
@usableFromInline
final class MapStage<T: Sendable, U: Sendable>: @unchecked Sendable {
    @usableFromInline let transform: @Sendable (T) -> U
    @usableFromInline let downstream: @Sendable (U) -> Void
    @inlinable init(_ transform: @escaping @Sendable (T) -> U, _ downstream: @escaping @Sendable (U) -> Void) {
        self.transform = transform
        self.downstream = downstream
    }
    @inlinable func value(_ v: T) { downstream(transform(v)) }
}

/// `map`'s value path when the next stage is a value subscription (`SignalSink.terminal`):
/// the stage checks the terminal's gate and calls its handler itself, where `MapStage` would
/// call the terminal's sink closure to do the same. One closure call (its frame and the
/// terminal's context thunk) fewer per value. The gate is the same check in the same place,
/// after the transform, so `cancel()` keeps its promise: once the terminal is closed the
/// handler is not entered.
@usableFromInline
final class MapIntoTerminalStage<T: Sendable, U: Sendable>: @unchecked Sendable {
    @usableFromInline let transform: @Sendable (T) -> U
    @usableFromInline let terminal: ValueTerminal<U>
    @inlinable init(_ transform: @escaping @Sendable (T) -> U, _ terminal: ValueTerminal<U>) {
        self.transform = transform
        self.terminal = terminal
    }
    @inlinable func value(_ v: T) { terminal.value(transform(v)) }
}

/// Stateful `map`'s value path, with the state of one activation. Touched only inside the
/// stage's deliveries, which its node serializes.
@usableFromInline
final class StatefulMapStage<S: Sendable, T: Sendable, U: Sendable>: @unchecked Sendable {
    @usableFromInline var state: S
    @usableFromInline let transform: @Sendable (inout S, T) -> U
    @usableFromInline let downstream: @Sendable (U) -> Void
    @inlinable init(_ state: S, _ transform: @escaping @Sendable (inout S, T) -> U,
                    _ downstream: @escaping @Sendable (U) -> Void) {
        self.state = state
        self.transform = transform
        self.downstream = downstream
    }
    @inlinable func value(_ v: T) { downstream(transform(&state, v)) }
}

/// `filter`'s value path.
@usableFromInline
final class FilterStage<T: Sendable>: @unchecked Sendable {
    @usableFromInline let isIncluded: @Sendable (T) -> Bool
    @usableFromInline let downstream: @Sendable (T) -> Void
    @inlinable init(_ isIncluded: @escaping @Sendable (T) -> Bool, _ downstream: @escaping @Sendable (T) -> Void) {
        self.isIncluded = isIncluded
        self.downstream = downstream
    }
    @inlinable func value(_ v: T) { if isIncluded(v) { downstream(v) } }
}

/// `compactMap`'s value path.
@usableFromInline
final class CompactMapStage<T: Sendable, U: Sendable>: @unchecked Sendable {
    @usableFromInline let transform: @Sendable (T) -> U?
    @usableFromInline let downstream: @Sendable (U) -> Void
    @inlinable init(_ transform: @escaping @Sendable (T) -> U?, _ downstream: @escaping @Sendable (U) -> Void) {
        self.transform = transform
        self.downstream = downstream
    }
    @inlinable func value(_ v: T) { if let u = transform(v) { downstream(u) } }
}

extension Signal {
    /// Transforms each value; ends pass through.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value.
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<U>(context: Exec = .direct, _ transform: @escaping @Sendable (T) -> U) -> Signal<U> {
        hop(to: context).appending { (sink: SignalSink<U>) -> SignalSink<T> in
            // The end goes straight to the downstream end: only values pass through here.
            if let terminal = sink.terminal {
                // Only `ValueTerminal<U>.sink` sets it on a `SignalSink<U>`.
                let stage = MapIntoTerminalStage(transform, uncheckedCast(terminal, to: ValueTerminal<U>.self))
                return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
            }
            let stage = MapStage(transform, sink.value)
            return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
        }
    }

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

    /// Transforms each value with state that lives for one activation.
    ///
    /// - Parameters:
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: updates the state and makes the new value.
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<S: Sendable, U>(
        initialState: S, context: Exec = .direct, _ transform: @escaping @Sendable (inout S, T) -> U
    ) -> Signal<U> {
        hop(to: context).appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let stage = StatefulMapStage(initialState, transform, sink.value)
            return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
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

    /// Passes the values for which `isIncluded` is true; ends pass through.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - isIncluded: true for the values to keep.
    /// - Returns: the signal of the kept values.
    @inlinable
    public func filter(context: Exec = .direct, _ isIncluded: @escaping @Sendable (T) -> Bool) -> Signal<T> {
        hop(to: context).appending { (sink: SignalSink<T>) -> SignalSink<T> in
            let stage = FilterStage(isIncluded, sink.value)
            return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
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

    /// Transforms each value and passes the non-nil results; ends pass through.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value, or nil to drop it.
    /// - Returns: the signal of the non-nil results.
    @inlinable
    public func compactMap<U>(context: Exec = .direct, _ transform: @escaping @Sendable (T) -> U?) -> Signal<U> {
        hop(to: context).appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let stage = CompactMapStage(transform, sink.value)
            return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
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

    /// `compactMap` whose closure keeps a state across values (per activation) (CwlSignal's
    /// `compactMap(initialState:_:)`). A closure that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `processor` runs.
    ///   - processor: maps a value, or returns nil to drop it.
    /// - Returns: the mapped signal.
    public func compactMap<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct, _ processor: @escaping @Sendable (inout S, T) throws -> U?
    ) -> Signal<U> {
        throwingStage(initialState: initialState, context: context) { (s: inout S, v: T, next: SignalNext<U>) in
            if let u = try processor(&s, v) { next.send(value: u) }
            return false
        }
    }

    /// A stage whose processor sees only values; ends pass through unchanged (CwlSignal's
    /// `transformValues`).
    ///
    /// - Parameters:
    ///   - context: where the processor runs.
    ///   - processor: receives each value and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    public func transformValues<U: Sendable>(
        context: Exec = .direct, _ processor: @escaping @Sendable (T, SignalNext<U>) -> Void
    ) -> Signal<U> {
        transformValues(initialState: (), context: context) { _, v, next in processor(v, next) }
    }

    /// `transformValues` with a state kept per activation.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the processor runs.
    ///   - processor: receives the state and each value and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    public func transformValues<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, T, SignalNext<U>) -> Void
    ) -> Signal<U> {
        transform(initialState: initialState, context: context) { (s: inout S, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let v): processor(&s, v, next)
            case .failure(let e): next.send(end: e)
            }
        }
    }

    /// Each value that is `U`, cast to it; the others are dropped (CwlSignal's `ofType`).
    ///
    /// - Parameter type: the type to keep.
    /// - Returns: the signal of the values of that type.
    public func ofType<U: Sendable>(_ type: U.Type) -> Signal<U> {
        compactMap { $0 as? U }
    }

    /// The values that are not nil, unwrapped (CwlSignal's `compact`).
    ///
    /// - Returns: the signal of the unwrapped values.
    public func compact<U: Sendable>() -> Signal<U> where T == U? {
        compactMap { $0 }
    }

    /// Each optional as an array of zero or one element (CwlSignal's `optionalToArray`).
    ///
    /// - Returns: the signal of arrays.
    public func optionalToArray<U: Sendable>() -> Signal<[U]> where T == U? {
        map { $0.map { [$0] } ?? [] }
    }

    /// Pairs each value with its index, counting from zero on each activation (`enumerated`).
    ///
    /// State: the next index, per activation.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of indexed values.
    @inlinable
    public func enumerated(context: Exec = .direct) -> Signal<(index: Int, element: T)> {
        transform(initialState: 0, context: context) { (n: inout Int, r: Result<T, SignalEnd>, next: SignalNext<(index: Int, element: T)>) in
            switch r {
            case .success(let v):
                next.send(value: (index: n, element: v))
                n += 1
            case .failure(let e):
                next.send(end: e)
            }
        }
    }
}
