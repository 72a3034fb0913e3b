// Retrying: the static `Signal.retry` (a fresh attempt signal per run, by count, by a
// notifier or with a delay) and CwlSignal's instance `retry` (the same signal bound again).
//
// The static forms: the attempt subscription, an attempt counter and timer lifetimes live in
// the per-activation state of a stage (see OperatorSupport.swift); their results reach the
// stage through its private input, serialized with upstream values. No lock of their own. A
// throwing attempt factory's error becomes a signal that fails with it at once.
//
// The instance form: when this signal ends with an error, it is bound again (and so
// re-activated: a `generate` source runs again) after a delay, through a junction whose end
// handler decides. Lazy: the junction is bound when the result is activated and disconnected
// when it is deactivated.

import Synchronization

/// A result of the attempt (or trigger) with the given number.
@usableFromInline
enum AttemptEvent<T: Sendable>: Sendable {
    case attempt(Int, Result<T, SignalEnd>)
    case trigger(Int, Result<Void, SignalEnd>)
}

extension Signal {
    /// The stage behind `Signal.retry(whenErrors:_:)` and `Signal.repeat(whenCompletions:_:)`:
    /// runs `attempt()` when activated; a run's end that `notification` turns into a value
    /// (an error for retry, a completion for repeat) is sent on the notifications signal,
    /// which `notifier` is given once, at the first such end; every other end of a run ends
    /// the result. Each value of the notifier starts a run if none is running. The notifier's
    /// error or cancellation ends the result at once; its completion does too, or, when
    /// `notifierCompletionWaitsForRun`, once no run is running (RxJS's `repeatWhen`).
    static func notifiedRuns<N: Sendable, U: Sendable>(
        notification: @escaping @Sendable (SignalEnd) -> N?,
        notifierCompletionWaitsForRun: Bool,
        notifier: @escaping @Sendable (SignalMulti<N>) throws -> Signal<U>,
        delivery: DeliveryVariant,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        typealias S = (run: SignalOutput<T>?, number: Int, notifications: SignalInput<N>?,
                       notifier: SignalOutput<U>?, notifierDone: Bool, delivery: DeliveryVariant, ended: Bool)
        return Signal<Never>.never(delivery: delivery).stage(initialState: S(nil, 0, nil, nil, false, .lockFree, false), eventType: AttemptEvent<T>.self) {
            (s: inout S, e: StageEvent<Never, AttemptEvent<T>>, channel: StageChannel<AttemptEvent<T>>, next: SignalNext<T>) in
            if s.ended { return }
            func start() {
                s.number &+= 1
                let n = s.number
                let signal = attempt()
                s.delivery = signal.delivery
                s.run = channel.subscribe(signal) { .attempt(n, $0) }
            }
            func finish(_ end: SignalEnd) {
                s.ended = true
                s.run = nil
                // The notifier's subscription first: releasing the notifications input ends it.
                s.notifier = nil
                s.notifications = nil
                next.send(end: end)
            }
            switch e {
            case .activated:
                start()
            case .upstream:
                break
            case .event(.attempt(let n, let r)):
                guard n == s.number, s.run != nil else { return }
                switch r {
                case .success(let v):
                    next.send(value: v)
                case .failure(let end):
                    guard let note = notification(end) else { return finish(end) }
                    s.run = nil
                    if s.notifierDone { return finish(.complete) }
                    if s.notifications == nil {
                        let (input, notifications) = Signal<N>.create(delivery: s.delivery)
                        s.notifications = input
                        do {
                            s.notifier = channel.subscribe(try notifier(notifications.multicast())) { r in
                                .trigger(0, r.map { _ in () })
                            }
                        } catch {
                            return finish(.other(error))
                        }
                    }
                    s.notifications?.send(value: note)
                }
            case .event(.trigger(_, .success)):
                if s.run == nil { start() }
            case .event(.trigger(_, .failure(.complete))) where notifierCompletionWaitsForRun:
                s.notifier = nil
                s.notifierDone = true
                if s.run == nil { finish(.complete) }
            case .event(.trigger(_, .failure(let end))):
                finish(end)
            }
        }
    }

    /// A signal that subscribes to `attempt()` when activated and, each time that signal fails
    /// with `.other(_)`, subscribes to a fresh `attempt()`, up to `count` more times; after that
    /// the error is passed on (`retry(count)`). Values of failed attempts have already been
    /// delivered.
    ///
    /// ReactiveX's `retry` re-subscribes the *same* cold observable; a `Signal` has one output
    /// for its lifetime, so the source is given as a factory instead.
    /// State: the current attempt's subscription and the number of retries used, per activation.
    ///
    /// At the limits: `count` of 0 or less passes the first error on (one attempt, no retry);
    /// `Int.max` retries for as long as the result is held.
    ///
    /// - Parameters:
    ///   - count: the most attempts after the first one fails.
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry(count: Int, delivery: DeliveryVariant = .lockFree, _ attempt: @escaping @Sendable () -> Signal<T>) -> Signal<T> {
        retry(when: { _, n in n <= count ? Signal<Void>.just((), delivery: delivery) : nil }, delivery: delivery, attempt)
    }

    /// `Signal.retry(count:_:)` with a throwing `attempt`: a throw counts as a failed attempt
    /// with that error (as a failing signal would: ReactiveX's `retry` over a `defer` whose
    /// factory throws), so it is retried while retries are left, then passed on as
    /// `.other(error)`. `count` at 0, negative or huge behaves as in the non-throwing form.
    ///
    /// - Parameters:
    ///   - count: the most attempts after the first one fails.
    ///   - delivery: the delivery variant of the result's own stage.
    ///   - attempt: makes the signal of each attempt, or throws to fail that attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry(count: Int, delivery: DeliveryVariant = .lockFree, _ attempt: @escaping @Sendable () throws -> Signal<T>) -> Signal<T> {
        // The same parameters as the non-throwing form, so a non-throwing closure picks that
        // one (and this call, whose closure does not throw, never picks this one again).
        retry(count: count, delivery: delivery) { () -> Signal<T> in
            do { return try attempt() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// A signal that subscribes to `attempt()` when activated and, each time that signal fails
    /// with `.other(error)`, asks `shouldRetry(error, n)` (n counts retries from 1): `nil` passes
    /// the error on; a signal makes it subscribe to a fresh `attempt()` when that signal sends
    /// its first value (for example `Signal<Void>.timer(interval: .seconds(n), context:)` for a
    /// back-off). A trigger that ends without a value passes the error on (`retryWhen`).
    ///
    /// State: the current attempt's and trigger's subscriptions, the pending error and the
    /// retry count, per activation.
    ///
    /// - Parameters:
    ///   - shouldRetry: given the error and the retry number, returns a signal whose first
    ///     value starts the next attempt, or nil to pass the error on.
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry(
        when shouldRetry: @escaping @Sendable (_ error: any Error, _ retry: Int) -> Signal<Void>?,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        retrying(when: shouldRetry, delivery: delivery, attempt)
    }

    /// `Signal.retry(when:_:)` with throwing closures. A throw from `shouldRetry` ends the
    /// result with `.other(error)` at once (the thrown error, in place of the attempt's), with
    /// no retry. A throw from `attempt` counts as an attempt that failed with that error (as
    /// in the throwing `Signal.retry(count:_:)`, ReactiveX's `retryWhen` over a `defer`), so
    /// `shouldRetry` decides it like any other. After the end nothing follows, and neither
    /// closure is called again in that activation.
    ///
    /// - Parameters:
    ///   - shouldRetry: given the error and the retry number, returns a signal whose first
    ///     value starts the next attempt, or nil to pass the error on; throws to end the
    ///     result with that error.
    ///   - delivery: the delivery variant of the result's own stage.
    ///   - attempt: makes the signal of each attempt, or throws to fail that attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry(
        when shouldRetry: @escaping @Sendable (_ error: any Error, _ retry: Int) throws -> Signal<Void>?,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () throws -> Signal<T>
    ) -> Signal<T> {
        retrying(when: shouldRetry, delivery: delivery) { () -> Signal<T> in
            do { return try attempt() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// A signal that subscribes to `attempt()` when activated and re-runs it, as RxJS's
    /// `retryWhen(errors => notifier)` does, under one notifier for the whole activation: at
    /// the first error (`.other`) it calls `notifier` once with the signal of this
    /// activation's errors (a multicast: branch it as often as needed) and subscribes to the
    /// signal it returns; every error of an attempt, that first one included, is then sent on
    /// the errors signal. Each value of the notifier starts a fresh `attempt()` if none is
    /// running (one attempt at a time: a value while an attempt runs is dropped). The
    /// notifier's end ends the result with that end (a completion completes it, an error
    /// fails it); an attempt's completion or cancellation ends it too. Values of failed
    /// attempts have already been delivered.
    ///
    /// Unlike `Signal.retry(when:_:)`, which makes a trigger per error and releases it at its
    /// first value, the notifier here sees every error in order and can count, delay or
    /// stop them (`errors.map { … }`, `errors.take(3)`, `errors.delay(interval:)`).
    ///
    /// A throw from `notifier` fails the result with the thrown error at once. `notifier` and
    /// `attempt` run in the stage (never concurrently with themselves); the errors signal
    /// sends from inside the stage, so a notifier that answers at once (`errors.map { _ in
    /// () }`) starts the next attempt right after the error, in the same delivery. Each
    /// activation of the result starts afresh (a new notifier at its first error); when the
    /// result ends or is deactivated, the attempt, the notifier and the errors signal are
    /// released (the errors signal then ends with `.cancelled`).
    ///
    /// - Parameters:
    ///   - notifier: given the signal of errors, returns the signal whose values start the next
    ///     attempts; throws to fail the result.
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each attempt.
    /// - Returns: the signal of the attempts' values.
    public static func retry<U: Sendable>(
        whenErrors notifier: @escaping @Sendable (_ errors: SignalMulti<any Error>) throws -> Signal<U>,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        notifiedRuns(notification: { end -> (any Error)? in
            if case .other(let error) = end { return error } else { return nil }
        }, notifierCompletionWaitsForRun: false, notifier: notifier, delivery: delivery, attempt)
    }

    /// Both `Signal.retry(when:_:)` forms: one stage holding the attempt's and the trigger's
    /// subscriptions.
    static func retrying(
        when shouldRetry: @escaping @Sendable (_ error: any Error, _ retry: Int) throws -> Signal<Void>?,
        delivery: DeliveryVariant,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        typealias S = (attempt: SignalOutput<T>?, trigger: SignalOutput<Void>?, retries: Int, error: (any Error)?)
        return Signal<Never>.never(delivery: delivery).stage(initialState: S(nil, nil, 0, nil), eventType: AttemptEvent<T>.self) {
            (s: inout S, e: StageEvent<Never, AttemptEvent<T>>, channel: StageChannel<AttemptEvent<T>>, next: SignalNext<T>) in
            func start() {
                let n = s.retries
                s.attempt = channel.subscribe(attempt()) { .attempt(n, $0) }
            }
            switch e {
            case .activated:
                start()
            case .upstream:
                break
            case .event(.attempt(let n, let r)):
                guard n == s.retries else { return }
                switch r {
                case .success(let v):
                    next.send(value: v)
                case .failure(.other(let error)):
                    s.attempt = nil
                    s.retries += 1
                    let decision: Signal<Void>?
                    do {
                        decision = try shouldRetry(error, s.retries)
                    } catch {
                        return next.send(end: .other(error))
                    }
                    guard let trigger = decision else {
                        return next.send(end: .other(error))
                    }
                    s.error = error
                    let n = s.retries
                    s.trigger = channel.subscribe(trigger) { .trigger(n, $0) }
                case .failure(let end):
                    s.attempt = nil
                    next.send(end: end)
                }
            case .event(.trigger(let n, let r)):
                guard n == s.retries, s.trigger != nil else { return }
                s.trigger = nil
                if case .success = r {
                    s.error = nil
                    start()
                } else {
                    next.send(end: .other(s.error ?? SignalOperatorError.noElements))
                }
            }
        }
    }
}

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
