import Synchronization

extension Signal {
    /// Activates this signal now and captures what its activation delivers synchronously (for
    /// example a `continuous` signal's latest value): available at once as `values` and `end`.
    /// Values that arrive later are held until the capture is subscribed or bound, then
    /// released in order.
    ///
    /// The activation values are those of the point where the capture joined the stream, also
    /// while another thread is sending: a multi's cache is replayed to a new branch in line with
    /// the values, by whichever thread holds the multi's node, and `capture()` waits until that
    /// has happened (behind the values queued before it, never for values sent after it; it
    /// spins briefly, then parks until the holder is done). What follows the activation values
    /// is held, so nothing is lost or repeated between them and the subscriber's values.
    ///
    /// Two cases cannot wait, and there `capture()` returns before the cache is replayed to it
    /// (`values` is empty at first). The replay still comes in line, run by the multi's holder,
    /// which the capture recognises: it is filed as activation values (`values` and `end` read
    /// them from then on, `resend` re-sends them), unless `values` or `end` was read, or the
    /// capture was subscribed, resumed or bound, before it arrived; then it is the first held
    /// value instead, so whoever acted on the empty snapshot still gets it, in order, once:
    /// - called from inside a delivery of the very node it joins (a handler of the multi being
    ///   captured, on the thread holding it): the join runs after the current delivery;
    /// - called from inside a delivery on another node, where waiting for this node's holder
    ///   would close a cycle of threads each waiting for the next (`WaitRegistry`). Otherwise a
    ///   capture from inside a delivery waits for this node's holder, as a subscription made
    ///   there does (a wait that cannot deadlock).
    ///
    /// - Returns: the capture; it takes this signal's single output (or a branch of a multi).
    public func capture() -> SignalCapture<T> {
        SignalCapture(signal: self)
    }
}

/// The activation values of a signal, and a hold on the rest until they have somewhere to go.
public final class SignalCapture<T: Sendable>: Lifetime, @unchecked Sendable {
    /// The values delivered during activation (none once a signal bound with an end handler,
    /// by `bind(to:resend:onEnd:)` or `resume(resend:onEnd:)`, has ended: then `end` reads that
    /// end, as CwlSignal's capture does).
    public var values: [T] { held.read().values }
    /// The end delivered during activation, if any (or the end of a signal bound with an end
    /// handler, once it has ended).
    public var end: SignalEnd? { held.read().end }

    let node: SignalNode<T>
    let held: HeldResults<T>
    let connected = Atomic<Bool>(false)
    /// The capture's hold on its signal's output, for as long as the capture exists.
    let hold: OutputHold

    init(signal: Signal<T>) {
        let node = SignalNode<T>(variant: signal.delivery)
        let held = HeldResults<T>()
        self.node = node
        let hold = OutputHold()
        self.hold = hold
        self.held = held
        if signal.takeOutput(by: hold) {
            // Only what a cache replays while the capture activates is an activation value;
            // what a source sends meanwhile (`just`, `generate`) is held like any later value.
            node.output = SignalSink(value: { held.receive(.success($0)) }, end: { held.receive(.failure($0)) })
            node.addFeeder(FeederRecord(ChainFeeder(upstream: signal, into: node) { n in SignalSink(forwardingInto: n) }))
            node.updateActivation { $0.wanted = true }
        } else {
            // The refusal is the capture's activation: it is its `end`.
            held.activationReplays = [.failure(.other(SignalBindError.duplicate))]
        }
        // Whatever arrived during activation is the activation's; it is handed over in line
        // with deliveries, so nothing that arrives later is mixed in. A cache replayed by
        // another thread (the one holding the multi's node) has arrived by now: attaching the
        // branch waited for that thread to run it (`SignalNode.perform`), except in the two
        // cases `capture()` documents, where it is filed with the held values instead.
        node.perform {
            let activationResults = held.activationReplays
            held.activationReplays = []
            held.activating = false
            held.activationResults = activationResults
            held.snapshot.withLock { s in
                for r in activationResults { s.file(r) }
            }
        }
    }

    /// A signal of the held values and everything after them (preceded by the activation
    /// values when `resend` is true). Its output can be taken once.
    ///
    /// - Parameter resend: whether to send the activation values (`values`, `end`) again first.
    /// - Returns: the signal of the held values and everything after them; its output can be taken once.
    public func signal(resend: Bool = false) -> Signal<T> {
        let node = self.node
        let held = self.held
        guard !connected.exchange(true, ordering: .acquiringAndReleasing) else {
            return .duplicate(delivery: node.variant, root: node)
        }
        // From now on a late replay is a held value: it reaches this signal's chain.
        _ = held.read()
        return Signal(delivery: node.variant, root: node) { sink in
            node.perform {
                if resend {
                    for r in held.activationResults { sink(r) }
                } else if let last = held.activationResults.last, case .failure = last {
                    // The source ended during activation: nothing else will ever arrive, so
                    // the end is delivered even without `resend` (or the downstream would
                    // stay open for ever).
                    sink(last)
                }
                for r in held.results { sink(r) }
                held.results = []
                node.output = sink
            }
            return ChainAttachment { end in node.detach(endedWith: end) }
        }
    }

    /// Subscribes to the held values and everything after them.
    ///
    /// - Parameters:
    ///   - resend: whether to send the activation values again first.
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value, then the end.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    public func subscribe(resend: Bool = false, context: Exec = .direct,
                          _ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Void) -> SignalOutput<T> {
        signal(resend: resend).subscribe(context: context, handler)
    }

    /// Subscribes to the held values and everything after them, values only.
    ///
    /// - Parameters:
    ///   - resend: whether to send the activation values again first.
    ///   - context: where the handler runs (`.direct`, the default, runs it on the sending thread).
    ///   - handler: receives each value.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    public func subscribeValues(resend: Bool = false, context: Exec = .direct,
                                _ handler: @escaping @Sendable (T) -> Void) -> SignalOutput<T> {
        signal(resend: resend).subscribeValues(context: context, handler)
    }

    /// Sends the held values and everything after them into `input`.
    /// - Returns: the junction carrying the values (keep it: releasing it disconnects), or
    ///   why the binding was refused.
    ///
    /// - Parameters:
    ///   - input: the input to send into.
    ///   - resend: whether to send the activation values again first.
    public func bind(to input: SignalInput<T>, resend: Bool = false) -> Result<SignalJunction<T>, SignalBindError> {
        if connected.load(ordering: .acquiring) { return .failure(.duplicate) }
        let s = signal(resend: resend)
        // Another thread took the output between the check and `signal`: its hold stands.
        if s.isOutputTaken { return .failure(.duplicate) }
        let j = s.junction()
        if let e = j.bind(to: input) {
            // Refused: nothing changes. The capture is unconnected again, so releasing or
            // cancelling it still deactivates its upstream.
            connected.store(false, ordering: .releasing)
            return .failure(e)
        }
        return .success(j)
    }

    /// The signal bound with an end handler has ended with `end`: the capture reads no values
    /// and that end from now on.
    func boundSignalEnded(with end: SignalEnd) {
        let old = held.snapshot.withLock { s -> (values: [T], end: SignalEnd?) in
            defer { s.values = []; s.end = end }
            return (s.values, s.end)
        }
        withExtendedLifetime(old) {}  // released outside the lock
    }

    /// Releases the capture: if nothing was connected, the upstream is deactivated.
    public func cancel() {
        if !connected.exchange(true, ordering: .acquiringAndReleasing) {
            node.detach(endedWith: nil)
        }
    }

    deinit {
        cancel()
        hold.drop()
    }
}

/// Results waiting in a capture. Touched only by the holder of the capture's node.
final class HeldResults<T: Sendable>: @unchecked Sendable {
    var results: [Result<T, SignalEnd>] = []
    var activationResults: [Result<T, SignalEnd>] = []
    /// Results replayed by a cache (or a closed node's kept end) while the capture activates.
    var activationReplays: [Result<T, SignalEnd>] = []
    /// True until the capture has taken its activation results.
    var activating = true

    /// What the capture's `values` and `end` read (any thread, under its lock).
    struct Snapshot {
        var values: [T] = []
        var end: SignalEnd?
        /// `values` or `end` was read, or the capture was connected: from then on a late
        /// replay is filed as a held value, so that whoever acted on what they read (a
        /// `resume(resend:)` that took `values` as its prefix) still gets it, once.
        var read = false

        mutating func file(_ r: Result<T, SignalEnd>) {
            switch r {
            case .success(let v): values.append(v)
            case .failure(let e): end = e
            }
        }
    }
    let snapshot = Mutex(Snapshot())

    /// Reads the snapshot (and marks it read).
    func read() -> (values: [T], end: SignalEnd?) {
        snapshot.withLock { s in
            s.read = true
            return (s.values, s.end)
        }
    }

    /// Files a result delivered to the capture's node (touched only by the node's holder).
    ///
    /// A replay that arrives after the capture took its activation results (the two cases
    /// `capture()` cannot wait in: a capture made inside a delivery of the multi it joins, or
    /// one whose wait would close a cycle of threads) is still recognised on the replaying
    /// thread by its mark, and is an activation value (in `values`, re-sent by `resend`)
    /// unless the snapshot was already read or the capture connected.
    func receive(_ result: Result<T, SignalEnd>) {
        guard ActivationReplay.isReplaying else {
            results.append(result)
            return
        }
        if activating {
            activationReplays.append(result)
        } else if snapshot.withLock({ s -> Bool in
            if s.read { return false }
            s.file(result)
            return true
        }) {
            activationResults.append(result)
        } else {
            results.append(result)
        }
    }
}
