// Operators about activation values: the values a signal delivers synchronously while it is
// being activated (a `continuous` multi's latest value, a `playback` multi's history).
//
// Signals has no separate "activation phase" in a stream: a capture (`capture()`) is how the
// activation values are told apart from later ones, so every operator here that treats them
// differently is a capture taken when the operator is applied, resumed with a selection. The
// capture activates the signal at once (as CwlSignal's `capture().resume(resend:)` does), and
// its activation values are those of that one activation.

/// Which activation values a resumed capture sends again (CwlSignal's
/// `SignalActivationSelection`).
public enum SignalActivationSelection: Sendable, Equatable {
    /// Every activation value.
    case all
    /// Every activation value, as ordinary values. In Signals the same as `.all`: a stream
    /// has no separate activation phase once the capture has taken it.
    case deferred
    /// Every activation value; in `mapActivation`/`compactMapActivation` only the first goes
    /// through `activation`, the rest through `remainder`.
    case first
    /// Only the last activation value.
    case last
    /// None of them.
    case none
}

extension SignalActivationSelection {
    /// Splits `values` into those treated as activation values and those treated as ordinary.
    func split<T>(_ values: [T]) -> (activation: [T], ordinary: [T]) {
        switch self {
        case .all: (values, [])
        case .deferred: ([], values)
        case .first: (Array(values.prefix(1)), Array(values.dropFirst()))
        case .last: (values.last.map { [$0] } ?? [], [])
        case .none: ([], [])
        }
    }
}

extension SignalCapture {
    /// Resumes the capture: a signal of the chosen activation values, then the values held
    /// since the capture and everything after them (CwlSignal's `resume(resend:)`).
    ///
    /// The returned signal keeps the capture alive. If the capture saw its signal end during
    /// activation, that end is delivered whatever the selection.
    ///
    /// - Parameter resend: which activation values to send first.
    /// - Returns: the resumed signal; its output can be taken once.
    public func resume(resend: SignalActivationSelection = .none) -> Signal<T> {
        let (activation, ordinary) = resend.split(values)
        return resumed(prefix: activation + ordinary)
    }

    /// The held values (and everything after them) preceded by `prefix`, in a signal that
    /// keeps the capture alive.
    func resumed(prefix: [T]) -> Signal<T> {
        let inner = signal(resend: false)
        let held = prefix.isEmpty ? inner : inner.startWith(contentsOf: prefix)
        return held.keepingAlive(self)
    }
}

extension Signal {
    /// The same signal, holding `owner` for as long as the signal exists or is attached.
    func keepingAlive(_ owner: AnyObject & Sendable) -> Signal<T> {
        let upstream = self
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return .duplicate(delivery: delivery, root: root) }
        // Held by the signal until it is used, then by each attachment until it detaches.
        return Signal(delivery: delivery, root: root, upstreamHold: hold) { sink in
            let inner = upstream.attachChain(sink)
            return ChainAttachment { end in withExtendedLifetime(owner) { inner.detach(endedWith: end) } }
        }
    }

    /// Removes the activation values: only values sent after this call pass (CwlSignal's
    /// `dropActivation`). Activates this signal now (it is a capture).
    ///
    /// - Returns: the signal without its activation values.
    public func dropActivation() -> Signal<T> {
        capture().resume(resend: .none)
    }

    /// Sends the activation values as ordinary values (CwlSignal's `deferActivation`).
    /// Activates this signal now (it is a capture); the values are delivered when the result is
    /// subscribed, in the subscriber's delivery rather than during the original activation.
    ///
    /// - Returns: the signal with its activation values re-sent as ordinary values.
    public func deferActivation() -> Signal<T> {
        capture().resume(resend: .deferred)
    }

    /// Keeps values sent while the result has no subscriber, and sends them when it gets one
    /// (CwlSignal's `cacheUntilActive`): this signal is activated at once and stays active
    /// while the result (or a signal derived from it) exists. The values sent while nothing is
    /// subscribed are held; a subscriber first gets `precached` (the first one only), then
    /// everything held, as its activation values (a `capture()` takes them as such), then
    /// live values. When the subscriber goes, values are held again for the next one, so a
    /// send into the upstream is never refused as `.inactive`, and a value sent while no
    /// subscriber is attached is never lost. (A value racing a subscriber's `cancel()` goes to
    /// that subscriber, or is dropped with it, or is held for the next one, as with any
    /// subscription.) An end is kept and given to every later subscriber.
    ///
    /// The result has one output, like any `Signal`: a second subscriber while one is
    /// attached gets `SignalBindError.duplicate`; after the first is cancelled or released,
    /// a new one may subscribe. Values sent from any thread while a subscriber attaches are
    /// delivered once each, in order, either in its activation or after it. A subscriber's
    /// handler runs outside every lock; cancelling it from inside its handler is allowed.
    ///
    /// - Parameter precached: values to send before anything held (nil or empty: none).
    /// - Returns: the caching signal.
    public func cacheUntilActive(precached: [T]? = nil) -> Signal<T> {
        var cache = MultiCache<T>(values: precached ?? []) { values, v in values.append(v) }
        cache.cachesOnlyWhileUnattached = true
        let multi = SignalMulti.make(upstream: self, cache: cache, eager: true)
        // A single output over the multi's branches: the multi keeps the cache and the
        // activation, this signal's slot lets one subscriber at a time take it.
        return Signal(delivery: multi.delivery, root: multi.root, attachesBehindGate: true, attachChain: multi.attachChain)
    }

    /// Emits `values` as activation values when the signal is activated (a `capture()` below
    /// takes them as such), before any of its own values.
    func startWith(activationValues values: [T]) -> Signal<T> {
        if values.isEmpty { return self }
        return stage(initialState: (), eventType: Never.self) { (_: inout Void, e: StageEvent<T, Never>, _, next: SignalNext<T>) in
            switch e {
            case .activated: ActivationReplay.replaying { for v in values { next.send(value: v) } }
            case .upstream(let r): next.send(result: r)
            case .event: break
            }
        }
    }

    /// Maps activation values with `activation` and the others with `remainder`, dropping nil
    /// results (CwlSignal's `compactMapActivation`). A closure that throws ends the signal
    /// with the error. The results of activation values are activation values of the result
    /// (a `capture()` of it takes them), except with `.deferred`.
    ///
    /// Activates this signal now (a capture): the activation values are those of that
    /// activation; `select` chooses which of them count as activation values (`.last` drops
    /// all but the last, `.first` maps the rest with `remainder`).
    ///
    /// - Parameters:
    ///   - select: which activation values go through `activation`.
    ///   - context: where the closures run.
    ///   - activation: maps an activation value.
    ///   - remainder: maps every other value.
    /// - Returns: the mapped signal.
    public func compactMapActivation<U: Sendable>(
        select: SignalActivationSelection = .all,
        context: Exec = .direct,
        activation: @escaping @Sendable (T) throws -> U?,
        remainder: @escaping @Sendable (T) throws -> U?
    ) -> Signal<U> {
        let c = capture()
        let (act, ordinary) = select.split(c.values)
        // What was an activation value upstream is one downstream too, whichever closure maps
        // it (CwlSignal: a capture after `compactMapActivation(select: .last)` captures the
        // mapped last value); only `.deferred` turns them into ordinary values.
        let replayed = select == .deferred ? [] : act.map { (true, $0) } + ordinary.map { (false, $0) }
        let deferred = select == .deferred ? ordinary.map { (false, $0) } : []
        let tagged = c.signal(resend: false).map { (false, $0) }
            .startWith(contentsOf: deferred)
            .startWith(activationValues: replayed)
        return tagged.transform(context: context) { (r: Result<(Bool, T), SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let (isActivation, v)):
                do {
                    if let u = try (isActivation ? activation : remainder)(v) { next.send(value: u) }
                } catch {
                    next.send(end: .other(error))
                }
            case .failure(let e):
                next.send(end: e)
            }
        }.keepingAlive(c)
    }

    /// `compactMapActivation` with `remainder` passing values through unchanged.
    ///
    /// - Parameters:
    ///   - select: which activation values go through `activation`.
    ///   - context: where the closure runs.
    ///   - activation: maps an activation value (nil drops it).
    /// - Returns: the mapped signal.
    public func compactMapActivation(
        select: SignalActivationSelection = .all,
        context: Exec = .direct,
        activation: @escaping @Sendable (T) throws -> T?
    ) -> Signal<T> {
        compactMapActivation(select: select, context: context, activation: activation, remainder: { $0 })
    }

    /// Maps activation values with `activation` and the others with `remainder` (CwlSignal's
    /// `mapActivation`). See `compactMapActivation(select:context:activation:remainder:)`.
    ///
    /// - Parameters:
    ///   - select: which activation values go through `activation`.
    ///   - context: where the closures run.
    ///   - activation: maps an activation value.
    ///   - remainder: maps every other value.
    /// - Returns: the mapped signal.
    public func mapActivation<U: Sendable>(
        select: SignalActivationSelection,
        context: Exec = .direct,
        activation: @escaping @Sendable (T) throws -> U,
        remainder: @escaping @Sendable (T) throws -> U
    ) -> Signal<U> {
        compactMapActivation(select: select, context: context, activation: { try activation($0) }, remainder: { try remainder($0) })
    }

    /// A multi whose cached activation values and end are kept by `updater` (CwlSignal's
    /// `customActivation`). Active at once, like `buffer(initials:updater:)`. For each value
    /// `updater` edits the cached values (the end argument is nil there and changes to it are
    /// ignored); when the signal ends it is called once more with the end, and may edit both
    /// the cached values and the cached end (setting it to nil leaves late branches open).
    ///
    /// - Parameters:
    ///   - initialValues: the cached values before any value arrives.
    ///   - context: where `updater` runs.
    ///   - updater: edits the cache for each incoming result.
    /// - Returns: the multi.
    public func customActivation(
        initialValues: [T] = [],
        context: Exec = .direct,
        _ updater: @escaping @Sendable (_ cachedValues: inout [T], _ cachedEnd: inout SignalEnd?, _ incoming: Result<T, SignalEnd>) -> Void
    ) -> SignalMulti<T> {
        var cache = MultiCache<T>(values: initialValues) { values, v in
            var end: SignalEnd? = nil
            updater(&values, &end, .success(v))
        }
        cache.endUpdate = { values, end in
            guard let e = end else { return }
            updater(&values, &end, .failure(e))
        }
        return SignalMulti.make(upstream: hop(to: context), cache: cache, eager: true)
    }

    /// Folds the values into a state and makes it the activation value (CwlSignal's
    /// `reduce(initialState:_:)`): each value produces a new state, which is emitted; a new
    /// branch first gets the current state (and the end, once ended). Active at once. A
    /// reducer that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state (and activation value) before any value.
    ///   - context: where `reducer` runs.
    ///   - reducer: the next state from the state and a value.
    /// - Returns: the multi of states.
    public func reduce<State: Sendable>(
        initialState: State,
        context: Exec = .direct,
        _ reducer: @escaping @Sendable (_ state: State, _ value: T) throws -> State
    ) -> SignalMulti<State> {
        reducing(initial: initialState, context: context) { state, v in try reducer(state!, v) }
    }

    /// Like `reduce(initialState:_:)`, but the state is made by `initializer` from the first
    /// value for which it returns non-nil (CwlSignal's `reduce(initializer:_:)`); until then
    /// nothing is emitted and a branch gets no activation value.
    ///
    /// - Parameters:
    ///   - context: where the closures run.
    ///   - initializer: makes the first state from a value, or nil to wait for another.
    ///   - reducer: the next state from the state and a value.
    /// - Returns: the multi of states.
    public func reduce<State: Sendable>(
        context: Exec = .direct,
        initializer: @escaping @Sendable (_ value: T) throws -> State?,
        _ reducer: @escaping @Sendable (_ state: State, _ value: T) throws -> State
    ) -> SignalMulti<State> {
        reducing(initial: nil, context: context) { state, v in
            if let s = state { return try reducer(s, v) }
            return try initializer(v)
        }
    }

    /// The skeleton of both `reduce` forms: an optional state, a step that may leave it nil,
    /// and a multi that caches the latest state (and keeps it after the end).
    func reducing<State: Sendable>(
        initial: State?,
        context: Exec,
        _ step: @escaping @Sendable (State?, T) throws -> State?
    ) -> SignalMulti<State> {
        let states = transform(initialState: initial, context: context) { (s: inout State?, r: Result<T, SignalEnd>, next: SignalNext<State>) in
            switch r {
            case .success(let v):
                do {
                    s = try step(s, v)
                    if let state = s { next.send(value: state) }
                } catch {
                    next.send(end: .other(error))
                }
            case .failure(let e):
                next.send(end: e)
            }
        }
        return states.buffer(initials: initial.map { [$0] } ?? []) { cached, state in cached = [state] }
    }

    /// A multi of `Bool` that flips with every value (CwlSignal's `toggle`): its activation
    /// value is the current state.
    ///
    /// - Parameter initialState: the state before any value.
    /// - Returns: the multi of states.
    public func toggle(initialState: Bool = false) -> SignalMulti<Bool> {
        reduce(initialState: initialState) { state, _ in !state }
    }
}

extension SignalMulti {
    /// The latest activation value, read now (CwlSignal's `peek()`): a capture of a new branch,
    /// released at once. Nil when the multi caches nothing (or has ended).
    ///
    /// - Returns: the last value a new branch would get first, or nil.
    public func peek() -> T? {
        capture().values.last
    }
}
