// `timeout`: ends the result (or switches to another signal) when no value arrives in time.
//
// State: the timer's lifetime and number, in the stage's per-activation state (see
// OperatorSupport.swift); no lock of its own.

extension Signal {
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
