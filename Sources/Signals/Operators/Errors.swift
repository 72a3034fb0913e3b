// Error-handling operators.
//
// State: the recovery or attempt subscription, an attempt counter and timer lifetimes live in
// the per-activation state of a stage (see OperatorSupport.swift); their results reach the
// stage through its private input, serialized with upstream values. No lock of their own.

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
}

extension Signal {
    /// When this signal fails with `.other(error)`, continues with the signal `recover(error)`
    /// (`catchError`, `catch`). Values, `.complete` and `.cancelled` pass through.
    ///
    /// RxJS's handler also gets `caught`, the source, to subscribe to again. A signal has one
    /// output, so a source is re-run by a factory instead: returning `caught` is
    /// `Signal.retry(when:_:)` with a trigger that fires at once (`Signal<Void>.just(())`), a
    /// throw from the handler a throw from its `shouldRetry`; a `generate` source re-runs with
    /// `retry(_:context:shouldRetry:)`. (A `caught` signal would nest one more catching stage
    /// per error, as RxJS nests a subscriber: a graph that deepens for as long as errors come.)
    ///
    /// State: the recovery subscription, per activation.
    ///
    /// - Parameter recover: makes the signal to continue with from the error.
    /// - Returns: the signal with the error replaced.
    public func catchError(_ recover: @escaping @Sendable (any Error) -> Signal<T>) -> Signal<T> {
        stage(initialState: SignalOutput<T>?.none, eventType: Result<T, SignalEnd>.self) {
            (recovery: inout SignalOutput<T>?, e: StageEvent<T, Result<T, SignalEnd>>, channel: StageChannel<Result<T, SignalEnd>>, next: SignalNext<T>) in
            switch e {
            case .activated:
                break
            case .upstream(.failure(.other(let error))):
                recovery = channel.subscribe(recover(error)) { $0 }
            case .upstream(let r):
                next.send(result: r)
            case .event(let r):
                if case .failure = r { recovery = nil }
                next.send(result: r)
            }
        }
    }

    /// When this signal fails with `.other(_)`, emits `value` and completes
    /// (`catchErrorJustReturn`, `replaceError(with:)`).
    ///
    /// - Parameters:
    ///   - value: the value to emit in place of the error.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal with the error replaced.
    @inlinable
    public func catchError(returning value: T, context: Exec = .direct) -> Signal<T> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<T>) in
            if case .failure(.other) = r {
                next.send(value: value)
                next.complete()
            } else {
                next.send(result: r)
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

    /// Fails with `SignalOperatorError.timeout` (or what `error` makes) if the signal has not
    /// ended `interval` after activation or, with `resetOnValue`, `interval` after activation
    /// or the latest value (`timeout`; RxJS `timeout({ each })`). The timer runs on
    /// `context`'s clock.
    ///
    /// At the limits: an `interval` of zero or less times out at once (asynchronously, on
    /// `context`: a value sent in the same moment, before the timer runs, still wins), and
    /// `Exec.neverDelay` or more never times out (nothing is scheduled).
    ///
    /// State: the timer's lifetime, a generation number and the values seen (count, and the
    /// last one when `error` is given), per activation; the timer's firing reaches the stage
    /// through its private input. Releasing the output cancels the timer.
    ///
    /// - Parameters:
    ///   - interval: how long to wait.
    ///   - resetOnValue: whether each value restarts the wait.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - error: makes the error the signal fails with, from what this activation saw (RxJS's
    ///     `TimeoutError.info`): `{ SignalTimeoutError(info: $0) }` keeps the count and the last
    ///     value. Called once, in the stage (serialized with its values), when the timer fires.
    ///     `nil` (the default) fails with `SignalOperatorError.timeout`.
    /// - Returns: this signal's results, or the timeout error.
    public func timeout(
        interval: Duration, resetOnValue: Bool = true, context: Exec = .global,
        error: (@Sendable (TimeoutInfo<T>) -> any Error)? = nil
    ) -> Signal<T> {
        typealias S = (timer: (any Lifetime)?, generation: Int, seen: TimeoutInfo<T>)
        return stage(initialState: S(nil, 0, TimeoutInfo()), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<T>) in
            switch e {
            case .activated:
                s.timer = channel.schedule(after: interval, on: context, s.generation)
            case .upstream(.success(let v)):
                s.seen.count(v, keepingLast: error != nil)
                if resetOnValue {
                    s.generation += 1
                    s.timer = channel.schedule(after: interval, on: context, s.generation)
                }
                next.send(value: v)
            case .upstream(.failure(let end)):
                s.timer = nil
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation, s.timer != nil else { return }
                s.timer = nil
                next.send(end: .other(error?(s.seen) ?? SignalOperatorError.timeout))
            }
        }
    }

    /// Fails with `SignalOperatorError.timeout` (or what `error` makes) if no value arrives
    /// within `first` of activation and, when `each` is given, if the gap after any value
    /// passes `each` (RxJS `timeout({ first, each })` with a number for `first`). Without
    /// `each`, once a value has arrived the signal never times out. Ending the signal stops
    /// the timer. The timer runs on `context`'s clock; continue with another signal on
    /// timeout with `catchError`.
    ///
    /// At the limits (either duration): zero or less times out at once (asynchronously, on
    /// `context`: a value sent in the same moment, before the timer runs, still wins), and
    /// `Exec.neverDelay` or more never times out (nothing is scheduled).
    ///
    /// State: the timer's lifetime and a generation number, per activation; each activation
    /// starts its own `first` wait. The stage runs serialized with its timer; values may be
    /// sent from any thread. Releasing the output (or the source's input ending the signal)
    /// cancels the timer.
    ///
    /// - Parameters:
    ///   - first: how long to wait for the first value, from activation.
    ///   - each: how long to wait after each value for the next, or `nil` for no limit after
    ///     the first value.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - error: makes the error the signal fails with, from what this activation saw (RxJS's
    ///     `TimeoutError.info`): `{ SignalTimeoutError(info: $0) }` keeps the count and the last
    ///     value. Called once, in the stage (serialized with its values), when the timer fires.
    ///     `nil` (the default) fails with `SignalOperatorError.timeout`.
    /// - Returns: this signal's results, or the timeout error.
    public func timeout(
        first: Duration, each: Duration? = nil, context: Exec = .global,
        error: (@Sendable (TimeoutInfo<T>) -> any Error)? = nil
    ) -> Signal<T> {
        timeoutStage(firstWait: { first }, each: each, context: context, error: error)
    }

    /// Fails with `SignalOperatorError.timeout` (or what `error` makes) if no value arrives
    /// by `deadline`, a reading of `context`'s clock, and, when `each` is given, if the gap
    /// after any value passes `each` (RxJS `timeout({ first: date, each })`). Without
    /// `each`, once a value has arrived the signal never times out. Ending the signal stops
    /// the timer.
    ///
    /// At the limits: a `deadline` at or before `context.now()` at activation times out at
    /// once (asynchronously, on `context`: a value sent in the same moment, before the timer
    /// runs, still wins); one `Exec.neverDelay` or more after it never comes (nothing is
    /// scheduled). `each` of zero or less times out at once after each value, and of
    /// `Exec.neverDelay` or more never.
    ///
    /// State: the timer's lifetime and a generation number, per activation; each activation
    /// reads the clock afresh against the same `deadline`. The stage runs serialized with its
    /// timer; values may be sent from any thread. Releasing the output (or the source ending
    /// the signal) cancels the timer.
    ///
    /// - Parameters:
    ///   - deadline: when the first value is due, on `context`'s clock (`context.now()` plus a
    ///     duration).
    ///   - each: how long to wait after each value for the next, or `nil` for no limit after
    ///     the first value.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - error: makes the error the signal fails with, from what this activation saw (RxJS's
    ///     `TimeoutError.info`): `{ SignalTimeoutError(info: $0) }` keeps the count and the last
    ///     value. Called once, in the stage (serialized with its values), when the timer fires.
    ///     `nil` (the default) fails with `SignalOperatorError.timeout`.
    /// - Returns: this signal's results, or the timeout error.
    public func timeout(
        firstBy deadline: Duration, each: Duration? = nil, context: Exec = .global,
        error: (@Sendable (TimeoutInfo<T>) -> any Error)? = nil
    ) -> Signal<T> {
        timeoutStage(firstWait: { Duration.saturatingDifference(deadline, context.now()) }, each: each, context: context, error: error)
    }

    /// The stage behind `timeout(first:each:context:)` and `timeout(firstBy:each:context:)`:
    /// `firstWait` is read at each activation.
    private func timeoutStage(
        firstWait: @escaping @Sendable () -> Duration, each: Duration?, context: Exec,
        error: (@Sendable (TimeoutInfo<T>) -> any Error)?
    ) -> Signal<T> {
        typealias S = (timer: (any Lifetime)?, generation: Int, seen: TimeoutInfo<T>)
        return stage(initialState: S(nil, 0, TimeoutInfo()), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<T>) in
            switch e {
            case .activated:
                s.timer = channel.schedule(after: firstWait(), on: context, s.generation)
            case .upstream(.success(let v)):
                // Every value cancels the wait before it; only `each` starts another.
                s.seen.count(v, keepingLast: error != nil)
                s.generation += 1
                let generation = s.generation
                s.timer = each.map { channel.schedule(after: $0, on: context, generation) }
                next.send(value: v)
            case .upstream(.failure(let end)):
                s.timer = nil
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation, s.timer != nil else { return }
                s.timer = nil
                next.send(end: .other(error?(s.seen) ?? SignalOperatorError.timeout))
            }
        }
    }
}
