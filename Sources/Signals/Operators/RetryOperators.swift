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
    /// Decides each end; a throw ends the result with `.other(error)` (the throwing form).
    let shouldRetry: @Sendable (inout S, SignalEnd) throws -> Duration?
    /// The state of the current activation, the waiting re-bind, and the result's input
    /// (kept here until the next activation change: while bound, the junction holds it too,
    /// but between an end and a retry nothing else would, and a released input ends the
    /// result for good).
    let pending: Mutex<(state: S, timer: (any Lifetime)?, generation: Int, input: SignalInput<T>?, round: Int)>

    init(source: Signal<T>, initialState: S, context: Exec, shouldRetry: @escaping @Sendable (inout S, SignalEnd) throws -> Duration?) {
        junction = source.junction()
        self.initialState = initialState
        self.context = context
        self.shouldRetry = shouldRetry
        pending = Mutex((initialState, nil, 0, nil, 0))
    }

    /// The result was activated with `input` (or deactivated: nil).
    func activationChanged(_ input: SignalInput<T>?) {
        let old = pending.withLock { p -> ((any Lifetime)?, SignalInput<T>?) in
            defer { p = (initialState, nil, p.generation + 1, input, 0) }
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
        // The user's closure runs outside the lock, on a copy of the state. The new state is
        // stored before the re-bind is scheduled: a zero delay can run the re-bind, and the
        // next attempt's end, before this call returns, and that end must see this attempt
        // counted (it saw the old state and allowed one attempt too many).
        let (initial, generation) = pending.withLock { ($0.state, $0.generation) }
        var state = initial
        let decision: Duration?
        do {
            decision = try shouldRetry(&state, end)
        } catch {
            // The thrown error replaces the end; the junction is already unbound (this is its
            // end handler), so nothing of the source follows it.
            input.send(end: .other(error))
            return
        }
        guard let delay = decision else {
            input.send(end: end)
            return
        }
        let round = pending.withLock { p -> Int? in
            guard p.generation == generation else { return nil }
            p.state = state
            p.round += 1
            return p.round
        }
        guard let round else { return }
        // A delay too long to schedule means "never": the result stays open, without an end,
        // until it is deactivated. A negative delay re-binds at once.
        guard delay < Self.never else { return }
        let timer = context.schedule(after: max(delay, .zero)) { [weak self, weak input] in
            guard let self, let input else { return }
            if self.pending.withLock({ $0.generation == generation }) { self.connect(input) }
        }
        // Kept for cancellation unless the activation changed meanwhile (then cancelled), or
        // the re-bind already ran and a later round stored its own timer.
        let (stale, fired) = pending.withLock { p -> ((any Lifetime)?, (any Lifetime)?) in
            guard p.generation == generation else { return (timer, nil) }
            guard p.round == round else { return (nil, nil) }
            defer { p.timer = timer }
            return (nil, p.timer)
        }
        stale?.cancel()
        withExtendedLifetime(fired) {}  // the previous round's timer (it has run), released outside the lock
    }

    /// The shortest delay treated as "never": the library-wide `Exec.neverDelay`, so a retry
    /// delay follows the same rule as every other duration.
    static var never: Duration { Exec.neverDelay }
}

extension Signal {
    /// Re-activates this signal after an error, up to `count` times, waiting `delayInterval`
    /// each time (CwlSignal's `retry(count:delayInterval:context:)`). Completion and
    /// cancellation end the result at once; the last error is passed on. Re-activation runs a
    /// `generate` source again; a signal made by `create()` has no way to restart, so this is
    /// for sources that do (for a request built anew each time, `Signal.retry(count:_:)` takes
    /// a factory).
    ///
    /// Each activation of the result starts afresh (its own count); deactivating it unbinds
    /// the source and cancels a waiting retry; nothing of an attempt is kept after the result
    /// ends or is cancelled. A retry never overlaps the attempt before it: the source is bound
    /// again only once the failed attempt's binding is gone.
    ///
    /// - Parameters:
    ///   - count: how many times to retry: `count + 1` attempts in all. 0 or negative: none
    ///     (the first error is passed on); `Int.max`: retries for ever.
    ///   - delayInterval: the wait before each retry. Zero or negative: at once (on
    ///     `context`); a value of `Exec.neverDelay` (100 years) or more means never: the result stays
    ///     open, without an end, until it is deactivated.
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
    /// `shouldRetry` runs outside every lock, once per end, never concurrently with itself;
    /// the state it leaves is what the next end sees. A zero or negative delay retries at once,
    /// one of `Exec.neverDelay` (100 years) or more never (the result stays open until deactivated).
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
        retrying(initialState, context: context, shouldRetry)
    }

    /// `retry(_:context:shouldRetry:)` with a throwing `shouldRetry`: a thrown error ends the
    /// result with `.other(error)` at once (in place of the end being decided), with no retry;
    /// `shouldRetry` is not called again in this activation. Everything else is as in the
    /// non-throwing form: the state starts afresh on each activation, the closure runs outside
    /// every lock, once per end, never concurrently with itself, and deactivation unbinds the
    /// source and cancels a waiting retry.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the wait is timed.
    ///   - shouldRetry: the wait before retrying after an end, or nil to end; throws to end
    ///     the result with that error.
    /// - Returns: the retrying signal.
    public func retry<S: Sendable>(
        _ initialState: S, context: Exec = .global,
        shouldRetry: @escaping @Sendable (inout S, SignalEnd) throws -> Duration?
    ) -> Signal<T> {
        retrying(initialState, context: context, shouldRetry)
    }

    /// Both `retry(_:context:shouldRetry:)` forms: a `generate` result whose activation binds
    /// the source through the retry loop.
    func retrying<S: Sendable>(
        _ initialState: S, context: Exec, _ shouldRetry: @escaping @Sendable (inout S, SignalEnd) throws -> Duration?
    ) -> Signal<T> {
        let retrier = Retrier(source: self, initialState: initialState, context: context, shouldRetry: shouldRetry)
        return Signal<T>.generate(delivery: delivery) { input in retrier.activationChanged(input) }
    }
}
