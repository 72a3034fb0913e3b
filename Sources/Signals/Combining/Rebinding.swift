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
    /// `onEnd` runs once the junction is unbound, outside every lock, on the thread that
    /// delivered the end (for a source that ends synchronously, inside this `bind` call, after
    /// the binding is made and undone). A `bind` from it is accepted (nil) and stands: the old
    /// binding's end never undoes a binding made after it, even to the same input. Racing a
    /// `disconnect()`, exactly one of them gets the input: if `disconnect()` unbinds first,
    /// `onEnd` is not called. The junction holds `onEnd` while bound and releases it on
    /// unbinding; releasing the junction unbinds it.
    ///
    /// - Parameters:
    ///   - input: the input to send this signal's values into.
    ///   - onEnd: called with the junction, the end and `input` when the signal ends.
    /// - Returns: nil when bound; otherwise why not, as for `bind(to:)`.
    @discardableResult
    public func bind(to input: SignalInput<T>, onEnd: @escaping EndHandler) -> SignalBindError? {
        bind(to: input, sink: SignalSink(value: { input.sendHandedOver(.success($0)) }, end: { _ in }), onEnd: onEnd)
    }

    /// What a `rebind` asks for: a plain binding, or one with an end handler.
    enum RebindRequest {
        case plain
        case handler(EndHandler)
    }

    /// Disconnects and binds again to the same input, deactivating and re-activating the
    /// signal (CwlSignal's `rebind`). Does nothing when not bound; a refused bind is sent to
    /// the input as its end.
    ///
    /// Concurrent calls are run one at a time: a `rebind` that comes while another is running
    /// returns at once and the running one rebinds once more for it (so two racing calls never
    /// refuse each other, and the downstream never sees `.duplicate` from them). The same holds
    /// for a call from inside a handler or an activation the rebind runs.
    public func rebind() {
        rebind(.plain)
    }

    /// `rebind()` with an end handler, as for `bind(to:onEnd:)`.
    ///
    /// - Parameter onEnd: called with the junction, the end and the input when the signal ends.
    public func rebind(onEnd: @escaping EndHandler) {
        rebind(.handler(onEnd))
    }

    func rebind(_ request: RebindRequest) {
        let runHere = rebinds.withLock { r -> Bool in
            if r.running {
                r.next = request
                return false
            }
            r.running = true
            return true
        }
        guard runHere else { return }
        var current = request
        while true {
            if let input = disconnect() {
                let refused: SignalBindError?
                switch current {
                case .plain: refused = bind(to: input)
                case .handler(let onEnd): refused = bind(to: input, onEnd: onEnd)
                }
                if let refused { input.send(end: .other(refused)) }
            }
            let next = rebinds.withLock { r -> RebindRequest? in
                if let n = r.next.take() { return n }
                r.running = false
                return nil
            }
            guard let next else { return }
            current = next
        }
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
            refused = junction.bind(to: input, onEnd: endHandler(onEnd))
        } else {
            refused = junction.bind(to: input)
        }
        if let refused { return .failure(refused) }
        return .success(junction)
    }

    /// The junction's end handler for a capture's `onEnd`: the capture reads no values and the
    /// end from now on (as CwlSignal's does once its output has gone), then `onEnd` runs.
    func endHandler(_ onEnd: @escaping EndHandler) -> SignalJunction<T>.EndHandler {
        { [self] _, end, input in
            boundSignalEnded(with: end)
            onEnd(self, end, input)
        }
    }

    /// Resumes the capture with an end handler (CwlSignal's `resume(resend:onEnd:)`): the
    /// returned signal gets the chosen activation values, the held values and everything after
    /// them except the end, which goes to `onEnd` with the input behind the returned signal
    /// (send it on, or send something else).
    ///
    /// Nothing is bound until the returned signal is activated (subscribed or bound), so no
    /// value is lost to an input that nothing receives yet. Deactivating it unbinds (the
    /// capture's upstream is deactivated); activating it again binds again. A second resume of
    /// the same capture (by any thread) gives a signal that ends with `.duplicate` when
    /// activated. `onEnd` runs outside every lock, once; after it, the capture's `values` are
    /// empty and its `end` is that end.
    ///
    /// - Parameters:
    ///   - resend: which activation values to send first.
    ///   - onEnd: called with the capture, the end and the input when the signal ends.
    /// - Returns: the resumed signal; it keeps the capture alive.
    public func resume(resend: SignalActivationSelection = .none, onEnd: @escaping EndHandler) -> Signal<T> {
        let upstream = resume(resend: resend)
        if upstream.isOutputTaken { return .duplicate(delivery: node.variant, root: node) }
        let junction = upstream.junction()
        let handler = endHandler(onEnd)
        // Bound when the result is activated (the generate closure gets its input), unbound
        // when it is deactivated: the junction holds the input only while values can flow.
        return Signal<T>.generate(delivery: node.variant) { input in
            if let input {
                if let refused = junction.bind(to: input, onEnd: handler) { input.send(end: .other(refused)) }
            } else {
                _ = junction.disconnect()
            }
        }
    }
}

/// Disconnects and reconnects a signal from the signal made for it downstream, pausing the
/// upstream in between (CwlSignal's `SignalReconnector`): a `generate` source or `interval`
/// stops while disconnected and starts again on `reconnect()`.
///
/// Calls from any number of threads, and from inside a handler of the downstream or an
/// activation of the upstream, are run one at a time: a call that comes while another is
/// running records what it asks for and returns, and the running call then brings the
/// reconnector to what the last call asked for. So `reconnect()` does nothing while connected,
/// `disconnect()` nothing while disconnected, and racing calls never end the downstream: only
/// `cancel()` (or releasing the reconnector, or the upstream's own end) does. The reconnector
/// holds the downstream input until `cancel()`; releasing the reconnector cancels.
public final class SignalReconnector<T: Sendable>: Lifetime, Sendable {
    let junction: SignalJunction<T>
    struct State {
        /// The downstream input (nil once cancelled).
        var input: SignalInput<T>?
        /// What the last call asked for.
        var wantConnected = false
        /// What the junction was last set to.
        var connected = false
        /// A call is bringing the junction to `wantConnected`.
        var driving = false
    }
    let state: Mutex<State>

    init(upstream: Signal<T>, downstream: SignalInput<T>, connected: Bool) {
        junction = upstream.junction()
        state = Mutex(State(input: downstream))
        if connected { reconnect() }
    }

    /// Connects again (does nothing while connected).
    public func reconnect() { request(connected: true) }

    /// Disconnects, deactivating the upstream (does nothing while disconnected).
    public func disconnect() { request(connected: false) }

    /// Disconnects for good: the downstream signal ends with `.cancelled`.
    public func cancel() {
        let input = state.withLock { s -> SignalInput<T>? in
            s.wantConnected = false
            return s.input.take()
        }
        _ = junction.disconnect()
        input?.cancel()
    }

    private enum Step {
        case done
        case connect(SignalInput<T>)
        case disconnect
    }

    private func request(connected want: Bool) {
        let drive = state.withLock { s -> Bool in
            s.wantConnected = want
            if s.driving { return false }
            s.driving = true
            return true
        }
        guard drive else { return }
        // The junction is changed outside the lock (binding activates the upstream, which
        // may run user code), one change at a time, until it matches the last request.
        while true {
            let step = state.withLock { s -> Step in
                let want = s.wantConnected && s.input != nil
                if want == s.connected {
                    s.driving = false
                    return .done
                }
                s.connected = want
                guard want, let input = s.input else { return .disconnect }
                return .connect(input)
            }
            switch step {
            case .done:
                return
            case .connect(let input):
                if let error = junction.bind(to: input) { input.send(end: .other(error)) }
            case .disconnect:
                _ = junction.disconnect()
            }
        }
    }

    deinit { cancel() }
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
