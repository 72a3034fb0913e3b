import Synchronization

/// Per-activation state of a stateful stage. Touched only inside the stage's deliveries,
/// which its node serializes.
@usableFromInline
final class StageBox<S>: @unchecked Sendable {
    @usableFromInline var value: S
    @usableFromInline var ended = false
    @inlinable init(_ value: S) { self.value = value }
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
        SignalOutput(signal: hop(to: context)) { $0.sink(handler) }
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
        SignalOutput(signal: hop(to: context)) { $0.valueSink(handler) }
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
            let state = StageBox(())
            let next = SignalNext<U>(SignalSink { r in
                if state.ended { return }
                if case .failure = r { state.ended = true }
                sink(r)
            })
            return SignalSink { r in processor(r, next) }
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
            let next = SignalNext<U>(SignalSink { r in
                if state.ended { return }
                if case .failure = r { state.ended = true }
                sink(r)
            })
            return SignalSink { r in processor(&state.value, r, next) }
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
            SignalSink { r in
                switch r {
                case .success(let v): sink(.success(transform(v)))
                case .failure(let e): sink(.failure(e))
                }
            }
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
            let state = StageBox(initialState)
            return SignalSink { r in
                switch r {
                case .success(let v): sink(.success(transform(&state.value, v)))
                case .failure(let e): sink(.failure(e))
                }
            }
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
            SignalSink { r in
                switch r {
                case .success(let v): if isIncluded(v) { sink(r) }
                case .failure: sink(r)
                }
            }
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
            SignalSink { r in
                switch r {
                case .success(let v): if let u = transform(v) { sink(.success(u)) }
                case .failure(let e): sink(.failure(e))
                }
            }
        }
    }

    // MARK: Activation hooks

    /// Runs `action` each time this stage is activated (before anything flows through it).
    ///
    /// - Parameter action: runs on the activating thread.
    /// - Returns: this signal's values, unchanged.
    public func onActivate(_ action: @escaping @Sendable () -> Void) -> Signal<T> {
        let claim = OutputClaim()
        guard takeOutput(by: claim) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamClaim: claim) { sink in
            action()
            return upstream(sink)
        }
    }

    /// Runs `action` each time this stage is deactivated.
    ///
    /// - Parameter action: runs on the deactivating thread.
    /// - Returns: this signal's values, unchanged.
    public func onDeactivate(_ action: @escaping @Sendable () -> Void) -> Signal<T> {
        let claim = OutputClaim()
        guard takeOutput(by: claim) else { return .duplicate(delivery: delivery, root: root) }
        let upstream = attachChain
        return Signal(delivery: delivery, root: root, upstreamClaim: claim) { sink in
            let inner = upstream(sink)
            return ChainAttachment { end in
                inner.detach(endedWith: end)
                action()
            }
        }
    }
}
