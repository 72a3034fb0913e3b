import Synchronization

// CwlSignal's instance `retry`: when this signal ends with an error, it is bound again (and
// so re-activated: a `generate` source runs again) after a delay, through a junction whose end
// handler decides. Lazy: the junction is bound when the result is activated and disconnected
// when it is deactivated.

/// The retry loop of one `retry` operator. Its state is touched only by the end handler
/// (which runs in the delivery of an end, one binding at a time) and by activation changes of
/// the result (`generate`'s callback, serialized by its node), and those never overlap: a
/// deactivation disconnects the junction first.
final class Retrier<T: Sendable, S: Sendable>: @unchecked Sendable {
    let junction: SignalJunction<T>
    let initialState: S
    let context: Exec
    let shouldRetry: @Sendable (inout S, SignalEnd) -> Duration?
    /// The state of the current activation, the waiting re-bind, and the result's input
    /// (kept here until the next activation change: while bound, the junction holds it too,
    /// but between an end and a retry nothing else would, and a released input ends the
    /// result for good).
    let pending: Mutex<(state: S, timer: (any Lifetime)?, generation: Int, input: SignalInput<T>?)>

    init(source: Signal<T>, initialState: S, context: Exec, shouldRetry: @escaping @Sendable (inout S, SignalEnd) -> Duration?) {
        junction = source.junction()
        self.initialState = initialState
        self.context = context
        self.shouldRetry = shouldRetry
        pending = Mutex((initialState, nil, 0, nil))
    }

    /// The result was activated with `input` (or deactivated: nil).
    func activationChanged(_ input: SignalInput<T>?) {
        let old = pending.withLock { p -> ((any Lifetime)?, SignalInput<T>?) in
            defer { p = (initialState, nil, p.generation + 1, input) }
            return (p.timer, p.input)
        }
        old.0?.cancel()
        withExtendedLifetime(old.1) {}  // released outside the lock
        _ = junction.disconnect()
        if let input { connect(input) }
    }

    func connect(_ input: SignalInput<T>) {
        if let refused = junction.bind(to: input, onEnd: { [weak self] _, end, input in self?.ended(end, input) }) {
            input.send(end: .other(refused))
        }
    }

    func ended(_ end: SignalEnd, _ input: SignalInput<T>) {
        // The user's closure runs outside the lock, on a copy of the state.
        let (initial, generation) = pending.withLock { ($0.state, $0.generation) }
        var state = initial
        let delay = shouldRetry(&state, end)
        guard let delay else {
            input.send(end: end)
            return
        }
        let timer = context.schedule(after: delay) { [weak self, weak input] in
            guard let self, let input else { return }
            if self.pending.withLock({ $0.generation == generation }) { self.connect(input) }
        }
        let stale = pending.withLock { p -> (any Lifetime)? in
            guard p.generation == generation else { return timer }
            p.state = state
            p.timer = timer
            return nil
        }
        stale?.cancel()
    }
}

extension Signal {
    /// Re-activates this signal after an error, up to `count` times, waiting `delayInterval`
    /// each time (CwlSignal's `retry(count:delayInterval:context:)`). Completion and
    /// cancellation end the result at once; the last error is passed on. Re-activation runs a
    /// `generate` source again; a signal made by `create()` has no way to restart, so this is
    /// for sources that do (for a request built anew each time, `Signal.retry(count:_:)` takes
    /// a factory).
    ///
    /// - Parameters:
    ///   - count: how many times to retry.
    ///   - delayInterval: the wait before each retry.
    ///   - context: where the wait is timed.
    /// - Returns: the retrying signal.
    public func retry(count: Int, delayInterval: Duration, context: Exec = .global) -> Signal<T> {
        retry(0, context: context) { (attempts: inout Int, end: SignalEnd) -> Duration? in
            guard end.otherError != nil, attempts < count else { return nil }
            attempts += 1
            return delayInterval
        }
    }

    /// Re-activates this signal when it ends, after the delay `shouldRetry` returns, or passes
    /// the end on when it returns nil (CwlSignal's `retry(_:context:shouldRetry:)`). The state
    /// starts afresh on each activation of the result.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the wait is timed.
    ///   - shouldRetry: the wait before retrying after an end, or nil to end.
    /// - Returns: the retrying signal.
    public func retry<S: Sendable>(
        _ initialState: S, context: Exec = .global,
        shouldRetry: @escaping @Sendable (inout S, SignalEnd) -> Duration?
    ) -> Signal<T> {
        let retrier = Retrier(source: self, initialState: initialState, context: context, shouldRetry: shouldRetry)
        return Signal<T>.generate(delivery: delivery) { input in retrier.activationChanged(input) }
    }
}
