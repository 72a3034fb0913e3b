import Synchronization

/// Per-activation state of a stateful stage. Touched only inside the stage's deliveries,
/// which its node serializes.
@usableFromInline
final class StageBox<S>: @unchecked Sendable {
    @usableFromInline var value: S
    @inlinable init(_ value: S) { self.value = value }
}

extension Signal {
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
        let upstream = hop(to: context)
        let root = upstream.stageEndStops
        return upstream.appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let next = SignalNext<U>(guardingEnd: sink, stopping: root)
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
        let upstream = hop(to: context)
        let root = upstream.stageEndStops
        return upstream.appending { (sink: SignalSink<U>) -> SignalSink<T> in
            let state = StageBox(initialState)
            let next = SignalNext<U>(guardingEnd: sink, stopping: root)
            return SignalSink(
                value: { processor(&state.value, .success($0), next) },
                end: { processor(&state.value, .failure($0), next) })
        }
    }

    /// Runs `action` each time this stage is activated (before anything flows through it).
    ///
    /// - Parameter action: runs on the activating thread.
    /// - Returns: this signal's values, unchanged.
    public func onActivate(_ action: @escaping @Sendable () -> Void) -> Signal<T> {
        if fusedDepth >= Self.fusedDepthLimit { return fusedChainBoundary().onActivate(action) }
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamHold: hold, fusedDepth: fusedDepth &+ 1) { sink in
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
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamHold: hold, fusedDepth: fusedDepth &+ 1) { sink in
            let inner = upstream(sink)
            return ChainAttachment { end in
                inner.detach(endedWith: end)
                action()
            }
        }
    }
}
