import Synchronization

// Subscriptions that keep themselves alive (CwlSignal's `subscribeWhile` and
// `subscribeUntilEnd`): the caller keeps no `SignalOutput`. The subscription's handler holds a
// `SelfRetainingSubscription`, which holds the output: that cycle is the only thing keeping the
// subscription alive, and it is broken when the handler asks to stop or the signal ends.

/// Holds a subscription's output until the subscription says it is done.
///
/// It also holds the subscription's terminal from before `subscribe` starts, so that a handler
/// that stops while its sources are still sending inside `subscribe` (a `.direct` source)
/// closes the subscription at once: the sources then see it gone and stop, instead of running
/// on until `subscribe` returns the output.
final class SelfRetainingSubscription<T: Sendable>: Sendable {
    /// The terminal and the output once `subscribe` has returned it, and whether the
    /// subscription is finished. Under one lock so that a handler finishing before the output
    /// is stored (during activation) and the store racing it can never both miss the cancel.
    let state = Mutex<(terminal: OutputTerminal?, output: SignalOutput<T>?, finished: Bool)>((nil, nil, false))

    init() {}

    /// Records the terminal before it is attached.
    func start(_ terminal: OutputTerminal) {
        state.withLock { $0.terminal = terminal }
    }

    /// Stores the output, or releases it at once when the handler already finished (the
    /// terminal is closed then).
    func keep(_ output: SignalOutput<T>) {
        let finishedAlready = state.withLock { s -> Bool in
            if s.finished { return true }
            s.output = output
            return false
        }
        if finishedAlready { output.cancel() }
    }

    /// Whether the handler asked to stop. Results that arrive after that (possible when it
    /// stopped before `subscribe` returned the output, so the cancel comes late) are dropped.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Ends the subscription and breaks the cycle: the terminal is closed (which detaches the
    /// chain, or the chain being attached) and the terminal and output are released outside
    /// the lock (their release may run deinits). Once the detach has run, the handler and
    /// what it captured are freed (the signal's slot lets the terminal go).
    func finish() {
        let (terminal, output) = state.withLock { s -> (OutputTerminal?, SignalOutput<T>?) in
            s.finished = true
            defer { s.terminal = nil; s.output = nil }
            return (s.terminal, s.output)
        }
        terminal?.close(end: nil)
        withExtendedLifetime(output) {}
    }
}

extension Signal {
    /// Subscribes a handler that keeps the subscription alive by itself until the handler
    /// returns `false` or the signal ends (CwlSignal's `subscribeWhile`). Nothing is returned:
    /// there is no output to keep. Returning `false` cancels the subscription before the next
    /// result; the handler is not called again.
    ///
    /// Values from many threads reach the handler one at a time, each sender's order kept. Once
    /// the handler has asked to stop or has seen the end, it is not called again (not even for
    /// values other threads are sending), and it and everything it captured are released as
    /// soon as no delivery to it can still run, while the signal lives on. A handler that stops
    /// inside this call (a `.direct` source sending while it is activated) stops that source
    /// too. The handler may send, subscribe or cancel from inside itself.
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each result; returns whether to go on.
    public func subscribeWhile(context: Exec = .direct, _ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Bool) {
        let holder = SelfRetainingSubscription<T>()
        let terminal = ResultTerminal<T> { result in
            if holder.isFinished { return }
            let goOn = handler(result)
            if !goOn || result.end != nil { holder.finish() }
        }
        holder.start(terminal)
        holder.keep(SignalOutput(signal: hop(to: context), terminal: terminal, sink: terminal.sink))
    }

    /// Subscribes a values-only handler that keeps the subscription alive until it returns
    /// `false` or the signal ends (CwlSignal's `subscribeValuesWhile`). Lifetime and
    /// concurrency as `subscribeWhile(context:_:)`.
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value; returns whether to go on.
    public func subscribeValuesWhile(context: Exec = .direct, _ handler: @escaping @Sendable (T) -> Bool) {
        subscribeWhile(context: context) { result in
            guard case .success(let v) = result else { return false }
            return handler(v)
        }
    }

    /// Subscribes a handler that keeps the subscription alive until the signal ends
    /// (CwlSignal's `subscribeUntilEnd`). Nothing is returned: there is no output to keep.
    /// Lifetime and concurrency as `subscribeWhile(context:_:)`: the handler is released after
    /// the end (a signal that never ends keeps it for ever).
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value, then the end.
    public func subscribeUntilEnd(context: Exec = .direct, _ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Void) {
        subscribeWhile(context: context) { result in
            handler(result)
            return true
        }
    }

    /// Subscribes a values-only handler that keeps the subscription alive until the signal
    /// ends (CwlSignal's `subscribeValuesUntilEnd`). Lifetime and concurrency as
    /// `subscribeWhile(context:_:)`.
    ///
    /// - Parameters:
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value.
    public func subscribeValuesUntilEnd(context: Exec = .direct, _ handler: @escaping @Sendable (T) -> Void) {
        subscribeWhile(context: context) { result in
            if case .success(let v) = result { handler(v) }
            return true
        }
    }
}
