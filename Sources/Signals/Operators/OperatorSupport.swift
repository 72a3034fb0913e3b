import Synchronization

// Shared machinery for operators that need more than one upstream: timers, inner signals
// (flatMap and friends), activation-time work (startWith, timeout, timer sources).
//
// The approach: an operator's stage is a `combine` of the upstream with a private "side"
// signal made by `Signal.generate`. On every activation the side signal sends, in-band, the
// `SignalInput` it was handed (`.open`), and the stage keeps that input in its per-activation
// state. Timers and inner subscriptions send their events into that input, so they reach the
// processor through the same serialized node as upstream values: the processor never runs
// concurrently with itself and needs no lock. When the stage deactivates, its state (and with
// it the side input, every timer lifetime and every inner `SignalOutput`) is dropped; events
// still in flight from the old activation go to the old side input, which is no longer
// connected, so they can never reach a later activation.

/// Errors produced by the library's operators (carried as `SignalEnd.other(_:)`).
public enum SignalOperatorError: Error, Sendable, Equatable {
    /// `timeout(interval:resetOnValue:context:error:)`, `timeout(first:each:context:error:)`
    /// or `timeout(firstBy:each:context:error:)` fired before the signal ended (their default
    /// error; `SignalTimeoutError` carries the values seen).
    case timeout
    /// `single()` saw no value before the signal completed.
    case noElements
    /// `single()` saw a second value.
    case moreThanOneElement
}

/// What a timeout form had seen when its timer fired (RxJS's `TimeoutInfo`, less `meta`, which
/// a Swift closure captures instead): handed to the `error:` closure of
/// `timeout(interval:resetOnValue:context:error:)`, `timeout(first:each:context:error:)` and
/// `timeout(firstBy:each:context:error:)`. Counted per activation.
public struct TimeoutInfo<Value: Sendable>: Sendable {
    /// How many values passed before the timeout (RxJS's `seen`).
    public var seen: Int
    /// The last of them, `nil` when none passed (RxJS's `lastValue`).
    public var lastValue: Value?

    /// What was seen: `seen` values, the last of them `lastValue`.
    ///
    /// - Parameters:
    ///   - seen: how many values passed.
    ///   - lastValue: the last of them, or `nil`.
    public init(seen: Int = 0, lastValue: Value? = nil) {
        self.seen = seen
        self.lastValue = lastValue
    }

    /// Counts `value`; keeps it only when asked (the default error never reads it, so a
    /// timeout without `error:` holds no value).
    mutating func count(_ value: Value, keepingLast: Bool) {
        seen &+= 1
        if keepingLast { lastValue = value }
    }
}

extension TimeoutInfo: Equatable where Value: Equatable {}

/// RxJS's `TimeoutError` with its `info`: the error a timeout form fails with when its `error:`
/// argument is `{ SignalTimeoutError(info: $0) }`. Without that argument the timeout forms fail
/// with `SignalOperatorError.timeout` (what a `catchError` matching `.timeout` expects); match
/// this one with `error as? SignalTimeoutError<T>`.
public struct SignalTimeoutError<Value: Sendable>: Error, Sendable, CustomStringConvertible {
    /// How many values passed before the timeout, and the last of them.
    public var info: TimeoutInfo<Value>

    /// The error for `info`.
    ///
    /// - Parameter info: what the timeout had seen.
    public init(info: TimeoutInfo<Value>) {
        self.info = info
    }

    /// `SignalTimeoutError(seen: n, lastValue: v)`, the last value by `String(describing:)`.
    public var description: String {
        "SignalTimeoutError(seen: \(info.seen), lastValue: \(info.lastValue.map { String(describing: $0) } ?? "nil"))"
    }
}

extension SignalTimeoutError: Equatable where Value: Equatable {}

/// A value with the time (on its context's clock) at which it was observed.
public struct Timestamped<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// The context clock's reading when the value passed the operator.
    public var time: Duration

    /// Pairs `value` with `time`.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - time: the context's time when the value passed.
    public init(value: Value, time: Duration) {
        self.value = value
        self.time = time
    }
}

extension Timestamped: Equatable where Value: Equatable {}

/// A value with the time elapsed since the previous value (or since activation, for the first).
public struct TimeIntervalled<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Time since the previous value passed the operator (or since the stage was activated).
    public var interval: Duration

    /// Pairs `value` with `interval`.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - interval: the time since the previous value.
    public init(value: Value, interval: Duration) {
        self.value = value
        self.interval = interval
    }
}

extension TimeIntervalled: Equatable where Value: Equatable {}

/// What the side signal of a stage carries.
@usableFromInline
enum SideMessage<E: Sendable>: Sendable {
    /// Sent once per activation: the input through which this activation's events arrive.
    case open(SignalInput<SideMessage<E>>)
    /// A private event (a timer tick, an inner signal's result, ...).
    case event(E)
}

/// What a stage processor is called with.
@usableFromInline
enum StageEvent<T: Sendable, E: Sendable> {
    /// The stage was activated (delivered before any upstream result of this activation).
    case activated
    /// A result from upstream.
    case upstream(Result<T, SignalEnd>)
    /// A private event sent through the stage's `StageChannel`.
    case event(E)
}

/// A handle, valid for one activation of a stage, for sending private events into the stage.
@usableFromInline
struct StageChannel<E: Sendable>: Sendable {
    @usableFromInline let input: SignalInput<SideMessage<E>>

    @usableFromInline
    init(input: SignalInput<SideMessage<E>>) { self.input = input }

    /// Sends `event` to the stage (queued behind whatever the stage is processing now).
    @usableFromInline
    func send(_ event: E) {
        input.send(value: .event(event))
    }

    /// Sends `event` to the stage after `delay` on `context`'s clock, unless the returned
    /// lifetime is cancelled or released first. Keep the lifetime in the stage state.
    @usableFromInline
    func schedule(after delay: Duration, on context: Exec, _ event: E) -> any Lifetime {
        let input = self.input
        return context.schedule(after: delay) { [weak input] in
            input?.send(value: .event(event))
        }
    }

    /// Subscribes `signal`, wrapping each of its results as an event for the stage. Keep the
    /// output in the stage state; releasing it ends the subscription.
    ///
    /// An inner subscription is an edge of the graph (the inner signal feeds the stage), so
    /// it is recorded in the topology for as long as it lasts, and one that would close a
    /// loop is refused: the stage gets `SignalBindError.loop` as the inner signal's end and
    /// nothing is subscribed (misuse is a value, never a hang). Checking here, when the inner
    /// subscription is made, catches every such loop: one made by a bind after the stage was built, and one
    /// made by an inner signal that is only chosen later (`flatMap`, `retry`, `catchError`).
    @usableFromInline
    func subscribe<U: Sendable>(
        _ signal: Signal<U>,
        _ wrap: @escaping @Sendable (Result<U, SignalEnd>) -> E
    ) -> SignalOutput<U> {
        let input = self.input
        let sideNode = input.node
        let edge = FeederRecord(EdgeFeeder(root: signal.root))
        let (loop, run) = topologyLock.withLock { _ -> (Bool, Bool) in
            if graphReaches(from: signal.root, to: sideNode) { return (true, false) }
            return (false, sideNode.editActivation { $0.feeders.append(edge) })
        }
        if run { sideNode.runActivation() }
        if loop {
            // Refused as a value: an output that is already closed, and the loop error sent
            // to the stage in line with its other events.
            let terminal = ResultTerminal<U> { _ in }
            let refused = SignalOutput<U>(
                signal: .duplicate(delivery: signal.delivery, root: signal.root), terminal: terminal, sink: terminal.sink)
            input.send(value: .event(wrap(.failure(.other(SignalBindError.loop)))))
            return refused
        }
        guard signal.takeOutput() else {
            _ = sideNode.removeFeeder { $0 === edge }
            return Signal<U>.duplicate(delivery: signal.delivery, root: signal.root).subscribe { [weak input] result in
                input?.send(value: .event(wrap(result)))
            }
        }
        // The edge goes when the subscription does (cancelled, released or ended).
        let upstream = signal.attachChain
        let recorded = Signal<U>(delivery: signal.delivery, root: signal.root) { sink in
            let inner = upstream(sink)
            return ChainAttachment { end in
                inner.detach(endedWith: end)
                _ = sideNode.removeFeeder { $0 === edge }
            }
        }
        return recorded.subscribe { [weak input] result in
            input?.send(value: .event(wrap(result)))
        }
    }
}

/// The per-activation state of a stage: the user's state, the channel once it is open, and
/// upstream results that arrived before it.
@usableFromInline
struct StageState<S: Sendable, T: Sendable, E: Sendable>: Sendable {
    @usableFromInline var user: S
    @usableFromInline var channel: StageChannel<E>?
    @usableFromInline var early: [Result<T, SignalEnd>]

    @usableFromInline
    init(user: S) {
        self.user = user
        self.channel = nil
        self.early = []
    }
}

extension Signal {
    /// Builds a stage whose processor sees upstream results, an activation event and private
    /// events (timers, inner signals) in one serialized sequence. See the top of this file.
    @usableFromInline
    func stage<S: Sendable, E: Sendable, U: Sendable>(
        initialState: S,
        eventType: E.Type = E.self,
        _ processor: @escaping @Sendable (inout S, StageEvent<T, E>, StageChannel<E>, SignalNext<U>) -> Void
    ) -> Signal<U> {
        // The holder keeps each activation's side input alive until the side node has been
        // deactivated (by then the input belongs to an old generation, so releasing it is
        // harmless). Without it, the stage state's copy would be the last reference: it is
        // dropped while the side node is still active, and the release would send `.cancelled`
        // and end the side node for good, so a later activation would never open.
        let holder = SideInputHolder<SideMessage<E>>()
        let side = Signal<SideMessage<E>>.generate(delivery: delivery) { input in
            holder.replace(with: input)
            input?.send(value: .open(input!))
        }
        return combine(side, initialState: StageState<S, T, E>(user: initialState)) {
            (state: inout StageState<S, T, E>, either: EitherResult2<T, SideMessage<E>>, next: SignalNext<U>) in
            switch either {
            case .result1(let result):
                if let channel = state.channel {
                    processor(&state.user, .upstream(result), channel, next)
                } else {
                    state.early.append(result)
                }
            case .result2(.success(.open(let input))):
                let channel = StageChannel(input: input)
                state.channel = channel
                processor(&state.user, .activated, channel, next)
                if !state.early.isEmpty {
                    let early = state.early
                    state.early = []
                    for result in early {
                        processor(&state.user, .upstream(result), channel, next)
                    }
                }
            case .result2(.success(.event(let event))):
                if let channel = state.channel {
                    processor(&state.user, .event(event), channel, next)
                }
            case .result2(.failure):
                // The side signal ends only when the stage deactivates; nothing to do.
                break
            }
        }
    }
}

/// Holds the side input of the current activation of a stage. Touched only by the side
/// node's activation callbacks (at activation and deactivation, never on the value path); the
/// mutex makes that visible to Swift's checker and costs nothing measurable there.
final class SideInputHolder<T: Sendable>: Sendable {
    let input = Mutex<SignalInput<T>?>(nil)
    init() {}
    func replace(with new: SignalInput<T>?) {
        let old = input.withLock { i -> SignalInput<T>? in
            defer { i = new }
            return i
        }
        withExtendedLifetime(old) {}  // released outside the lock
    }
}

/// Holds a signal that an operator's closure subscribes later (`delaySubscription`'s source
/// and trigger), not through the chain's output hold: freeing the closure would free that signal
/// inside its own release, and a chain of such operators one inside the other (100,000
/// `delaySubscription` stages overflowed a 512 KiB stack). Freed, this hands the signal to
/// the thread's pending releases, which free it after the release in progress, one at a time.
final class ReleasedAfterwards<T: Sendable>: Sendable {
    let signal: Signal<T>
    init(_ signal: Signal<T>) { self.signal = signal }
    deinit {
        let signal = self.signal
        PendingReleases.release { [signal] }
    }
}

/// Lets a `Task` be held as a `Lifetime`: cancelling or releasing it cancels the task.
final class TaskLifetime: Lifetime {
    let task: Task<Void, Never>
    init(_ task: Task<Void, Never>) { self.task = task }
    func cancel() { task.cancel() }
    deinit { task.cancel() }
}

// Operators with a closure: one implementation for both closure kinds. The closure is
// `throws(Failure)`, as `Sequence.map` spells it, and `Failure` is `Never` for a closure that
// does not throw, so one function serves both and a call site needs no overload to pick.
// The rule, the same for every operator built on `throwingStage`: a thrown error
// ends the result with `.other(error)` at once. The stage stops there: its closure is not
// called again in that activation, later upstream results are dropped, and what it held (its
// state, open groups, inner subscriptions) is let go. A new activation starts afresh.
//
// State: like every `transform`, each keeps its state in the per-activation state of
// `transform(initialState:)`, touched only from the serialized processor; no lock.

/// The per-activation state of a throwing stage: the operator's own state and whether the
/// stage has ended (by an end from upstream, one of its own or a throw).
@usableFromInline
struct ThrowingStageState<S: Sendable>: Sendable {
    @usableFromInline var state: S
    @usableFromInline var ended = false
    @inlinable init(_ state: S) { self.state = state }
}

extension Signal {
    /// The stage every operator with a `throws(Failure)` closure is built on: `value` handles
    /// each value and returns true when it has ended the stage itself (`first(where:)`
    /// completing); `end` handles the end from upstream; `failure` sends the end for a thrown error (by default
    /// `.other(error)`). After any end the stage ignores everything and its state goes back to
    /// `initialState`, which releases what it held.
    @inlinable
    func throwingStage<S: Sendable, U: Sendable, Failure: Error>(
        initialState: S,
        context: Exec,
        value: @escaping @Sendable (inout S, T, SignalNext<U>) throws(Failure) -> Bool,
        end: @escaping @Sendable (inout S, SignalEnd, SignalNext<U>) throws(Failure) -> Void = { _, e, next in next.send(end: e) },
        failure: @escaping @Sendable (inout S, any Error, SignalNext<U>) -> Void = { _, error, next in next.send(end: .other(error)) }
    ) -> Signal<U> {
        transform(initialState: ThrowingStageState(initialState), context: context) {
            (s: inout ThrowingStageState<S>, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            if s.ended { return }
            do throws(Failure) {
                switch r {
                case .success(let v):
                    s.ended = try value(&s.state, v, next)
                case .failure(let e):
                    s.ended = true
                    try end(&s.state, e, next)
                }
            } catch {
                s.ended = true
                failure(&s.state, error, next)
            }
            if s.ended { s.state = initialState }
        }
    }

    /// A `throwingStage` that lets every value through and hands the end to `end`, which
    /// sends the end it decides on (`onEnd`, `mapErrors`).
    @inlinable
    func endStage<Failure: Error>(
        context: Exec, _ end: @escaping @Sendable (SignalEnd, SignalNext<T>) throws(Failure) -> Void
    ) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) throws(Failure) in try end(e, next) })
    }
}
