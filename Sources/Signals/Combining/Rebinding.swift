import Synchronization

// CwlSignal's end handlers for junctions and captures, `rebind`, and the reconnector. Built on
// the junction's own `bind` and `disconnect`: an end handler is a sink that, instead of
// sending the end into the input, disconnects the junction and hands the end, the junction
// and the input to the handler, which may bind again (the retry pattern). The handler runs
// in the delivery of the end, outside every lock.

extension SignalJunction {
    /// What `bind(to:onEnd:)` calls when the signal ends: the junction (already
    /// disconnected), the end, and the input it was bound to.
    public typealias EndHandler = @Sendable (SignalJunction<T>, SignalEnd, SignalInput<T>) -> Void

    /// Binds to `input`, but an end is not sent there: the junction disconnects and `onEnd`
    /// gets the end instead (CwlSignal's `bind(to:onEnd:)`), and may bind again or send the
    /// end on.
    ///
    /// - Parameters:
    ///   - input: the input to send this signal's values into.
    ///   - onEnd: called with the junction, the end and `input` when the signal ends.
    /// - Returns: nil when bound; otherwise why not, as for `bind(to:)`.
    @discardableResult
    public func bind(to input: SignalInput<T>, onEnd: @escaping EndHandler) -> SignalBindError? {
        bind(to: input, sink: SignalSink(value: { input.send(value: $0) }, end: { [weak self] end in
            guard let self, self.disconnect() === input else { return }
            onEnd(self, end, input)
        }))
    }

    /// Disconnects and binds again to the same input, deactivating and re-activating the
    /// signal (CwlSignal's `rebind`). Does nothing when not bound; a refused bind is sent to
    /// the input as its end.
    public func rebind() {
        guard let input = disconnect() else { return }
        if let error = bind(to: input) { input.send(end: .other(error)) }
    }

    /// `rebind()` with an end handler, as for `bind(to:onEnd:)`.
    ///
    /// - Parameter onEnd: called with the junction, the end and the input when the signal ends.
    public func rebind(onEnd: @escaping EndHandler) {
        guard let input = disconnect() else { return }
        if let error = bind(to: input, onEnd: onEnd) { input.send(end: .other(error)) }
    }
}

extension SignalCapture {
    /// What the capture's end handlers get: the capture, the end, and the input.
    public typealias EndHandler = @Sendable (SignalCapture<T>, SignalEnd, SignalInput<T>) -> Void

    /// Sends the chosen activation values, the held values and everything after them into
    /// `input` (CwlSignal's `bind(to:resend:)` with a selection).
    ///
    /// - Parameters:
    ///   - input: the input to send into.
    ///   - resend: which activation values to send first.
    /// - Returns: the junction carrying the values (keep it), or why the binding was refused.
    public func bind(to input: SignalInput<T>, resend: SignalActivationSelection) -> Result<SignalJunction<T>, SignalBindError> {
        bind(to: input, resend: resend, onEnd: nil)
    }

    /// Like `bind(to:resend:)`, but an end is given to `onEnd` instead of being sent into
    /// `input` (CwlSignal's `bind(to:resend:onEnd:)`).
    ///
    /// - Parameters:
    ///   - input: the input to send into.
    ///   - resend: which activation values to send first.
    ///   - onEnd: called with the capture, the end and `input` when the signal ends.
    /// - Returns: the junction carrying the values (keep it), or why the binding was refused.
    public func bind(to input: SignalInput<T>, resend: SignalActivationSelection = .none,
                     onEnd: @escaping EndHandler) -> Result<SignalJunction<T>, SignalBindError> {
        bind(to: input, resend: resend, onEnd: Optional(onEnd))
    }

    func bind(to input: SignalInput<T>, resend: SignalActivationSelection, onEnd: EndHandler?) -> Result<SignalJunction<T>, SignalBindError> {
        let source = resume(resend: resend)
        if source.isOutputTaken { return .failure(.duplicate) }
        let junction = source.junction()
        let refused: SignalBindError?
        if let onEnd {
            refused = junction.bind(to: input) { [self] _, end, input in onEnd(self, end, input) }
        } else {
            refused = junction.bind(to: input)
        }
        if let refused { return .failure(refused) }
        return .success(junction)
    }

    /// Resumes the capture with an end handler (CwlSignal's `resume(resend:onEnd:)`): the
    /// returned signal gets the chosen activation values and everything after them except the
    /// end, which goes to `onEnd` with the input behind the returned signal (send it on, or
    /// send something else).
    ///
    /// - Parameters:
    ///   - resend: which activation values to send first.
    ///   - onEnd: called with the capture, the end and the input when the signal ends.
    /// - Returns: the resumed signal; it keeps the capture alive.
    public func resume(resend: SignalActivationSelection = .none, onEnd: @escaping EndHandler) -> Signal<T> {
        let (input, signal) = Signal<T>.create(delivery: node.variant)
        switch bind(to: input, resend: resend, onEnd: onEnd) {
        case .success(let junction): return signal.keepingAlive(junction)
        case .failure(let error):
            input.send(end: .other(error))
            return signal
        }
    }
}

/// Disconnects and reconnects a signal from the signal made for it downstream, pausing the
/// upstream in between (CwlSignal's `SignalReconnector`): a `generate` source or `interval`
/// stops while disconnected and starts again on `reconnect()`.
public final class SignalReconnector<T: Sendable>: Lifetime, Sendable {
    let junction: SignalJunction<T>
    /// The downstream input while disconnected.
    let parked: Mutex<SignalInput<T>?>

    init(upstream: Signal<T>, downstream: SignalInput<T>, connected: Bool) {
        junction = upstream.junction()
        parked = Mutex(downstream)
        if connected { reconnect() }
    }

    /// Connects again (does nothing while connected).
    public func reconnect() {
        guard let input = parked.withLock({ i -> SignalInput<T>? in defer { i = nil }; return i }) else { return }
        if let error = junction.bind(to: input) { input.send(end: .other(error)) }
    }

    /// Disconnects, deactivating the upstream (does nothing while disconnected).
    public func disconnect() {
        guard let input = junction.disconnect() else { return }
        parked.withLock { $0 = input }
    }

    /// Disconnects for good: the downstream signal ends with `.cancelled`.
    public func cancel() {
        let connected = junction.disconnect()
        let input = parked.withLock { i -> SignalInput<T>? in defer { i = nil }; return i }
        (connected ?? input)?.cancel()
    }
}

extension Signal {
    /// A reconnector between this signal and a new downstream signal (CwlSignal's
    /// `reconnector`). See ``SignalReconnector``.
    ///
    /// - Parameter initiallyConnected: whether values flow before the first `reconnect()`.
    /// - Returns: the reconnector and the downstream signal.
    public func reconnector(initiallyConnected: Bool = true) -> (SignalReconnector<T>, Signal<T>) {
        let (input, signal) = Signal<T>.create(delivery: delivery)
        return (SignalReconnector(upstream: self, downstream: input, connected: initiallyConnected), signal)
    }
}
