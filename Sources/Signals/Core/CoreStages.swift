import Synchronization

/// Per-activation state of a stateful stage. Touched only inside the stage's deliveries,
/// which its node serializes.
@usableFromInline
final class StageBox<S>: @unchecked Sendable {
    @usableFromInline var value: S
    @inlinable init(_ value: S) { self.value = value }
}

// The value paths of the fused single-input stages. Each is one object holding the user's
// closure and the downstream value path, and the stage's sink is a closure that captures that
// object alone: the object is the closure's context, so a value crosses the stage as one call
// into specialized code that loads both closures from it: 35 instructions per extra `map`
// against 38 for a closure capturing the two closures, whose context thunk unpacks four
// words (docs/design/fused-stages-and-fan-out.md). The fields stay `let`: as `var`s each call would
// retain and release the closure it loads (111 instructions per stage, measured).

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
    // MARK: Subscribing

    /// Subscribes a handler for results (values and the end) on `context`.
    ///
    /// Keep the returned output: releasing it cancels the subscription.
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value, then the end.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    @inlinable
    public func subscribe(
        context: Exec = .direct, _ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Void
    ) -> SignalOutput<T> {
        let terminal = ResultTerminal(handler)
        return SignalOutput(signal: hop(to: context), terminal: terminal, sink: terminal.sink)
    }

    /// Subscribes a handler for values only; the end is ignored.
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    @inlinable
    public func subscribeValues(
        context: Exec = .direct, _ handler: @escaping @Sendable (T) -> Void
    ) -> SignalOutput<T> {
        let terminal = ValueTerminal(handler)
        let signal = hop(to: context)
        // Behind the upstream's own gate, the handler is the sink: no second check per value.
        let sink = signal.attachesBehindGate ? terminal.ungatedSink : terminal.sink
        return SignalOutput(signal: signal, terminal: terminal, sink: sink)
    }

    // MARK: Transforming

    /// A stage that turns each result into zero or more results (or an end) through `next`.
    /// The processor is never run concurrently with itself; on a `.direct` context it is
    /// fused into the upstream node's delivery.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives each result and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func transform<U>(
        context: Exec = .direct,
        _ processor: @escaping @Sendable (Result<T, SignalEnd>, SignalNext<U>) -> Void
    ) -> Signal<U> {
        hop(to: context).appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let next = SignalNext<U>(guardingEnd: sink)
            return SignalSink(value: { processor(.success($0), next) }, end: { processor(.failure($0), next) })
        }
    }

    /// A stateful `transform`: `initialState` is copied afresh on every activation, so the
    /// state resets when the stage is deactivated.
    ///
    /// - Parameters:
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives the state, each result, and `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func transform<S: Sendable, U>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, Result<T, SignalEnd>, SignalNext<U>) -> Void
    ) -> Signal<U> {
        hop(to: context).appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let state = StageBox(initialState)
            let next = SignalNext<U>(guardingEnd: sink)
            return SignalSink(
                value: { processor(&state.value, .success($0), next) },
                end: { processor(&state.value, .failure($0), next) })
        }
    }

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
                let stage = MapIntoTerminalStage(transform, unsafeDowncast(terminal, to: ValueTerminal<U>.self))
                return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
            }
            let stage = MapStage(transform, sink.value)
            return SignalSink(value: { [stage] in stage.value($0) }, end: sink.end)
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

    // MARK: Activation hooks

    /// Runs `action` each time this stage is activated (before anything flows through it).
    ///
    /// - Parameter action: runs on the activating thread.
    /// - Returns: this signal's values, unchanged.
    public func onActivate(_ action: @escaping @Sendable () -> Void) -> Signal<T> {
        if fusedDepth >= Self.fusedDepthLimit { return fusedChainBoundary().onActivate(action) }
        let claim = OutputClaim()
        guard takeOutput(by: claim) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamClaim: claim, fusedDepth: fusedDepth &+ 1) { sink in
            action()
            return upstream(sink)
        }
    }

    /// Runs `action` each time this stage is deactivated.
    ///
    /// - Parameter action: runs on the deactivating thread.
    /// - Returns: this signal's values, unchanged.
    public func onDeactivate(_ action: @escaping @Sendable () -> Void) -> Signal<T> {
        if fusedDepth >= Self.fusedDepthLimit { return fusedChainBoundary().onDeactivate(action) }
        let claim = OutputClaim()
        guard takeOutput(by: claim) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamClaim: claim, fusedDepth: fusedDepth &+ 1) { sink in
            let inner = upstream(sink)
            return ChainAttachment { end in
                inner.detach(endedWith: end)
                action()
            }
        }
    }
}
