// Timer sources: `timer` and `interval`.
//
// Every one takes its clock from `context`: timers are `context.schedule(after:_:)` and
// readings are `context.now()`, so with `Exec.custom(VirtualTimeContext())` they run in
// virtual time, deterministically. A timer's firing never calls the processor directly: it is
// sent into the stage's private input (see OperatorSupport.swift) and so is serialized with
// upstream values. Timer lifetimes live in the per-activation state; deactivation drops them,
// which cancels the timers. No operator here takes a lock of its own.
//
// Results caused by a timer are delivered on the thread that runs the timer (on `context`);
// results caused by an upstream value are delivered where that value arrived.

extension Signal {
    /// A signal that sends `value` once, `interval` after it is activated, then completes
    /// (`timer`).
    ///
    /// State: the timer's lifetime, per activation.
    ///
    /// At the limits: an `interval` of zero or less sends at once (asynchronously, on
    /// `context`); one of `Exec.neverDelay` or more never sends (nothing is scheduled).
    ///
    /// - Parameters:
    ///   - interval: how long after activation it sends.
    ///   - value: the value to send.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func timer(interval: Duration, value: T, context: Exec = .global, delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        Signal<Never>.never(delivery: delivery).stage(initialState: (any Lifetime)?.none, eventType: Void.self) {
            (timer: inout (any Lifetime)?, e: StageEvent<Never, Void>, channel: StageChannel<Void>, next: SignalNext<T>) in
            switch e {
            case .activated:
                timer = channel.schedule(after: interval, on: context, ())
            case .upstream:
                break
            case .event:
                timer = nil
                next.send(value: value)
                next.complete()
            }
        }
    }
}

extension Signal where T == Void {
    /// A signal that sends `()` once, `interval` after it is activated, then completes (`timer`).
    ///
    /// - Parameters:
    ///   - interval: how long after activation it sends.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func timer(interval: Duration, context: Exec = .global, delivery: DeliveryVariant = .lockFree) -> Signal<Void> {
        timer(interval: interval, value: (), context: context, delivery: delivery)
    }
}

extension Signal where T == Int {
    /// A signal that sends 0, 1, 2, … every `period` after it is activated (`interval`). Ticks
    /// are scheduled against the activation time, so they do not drift.
    ///
    /// State: the activation time, the tick count and the next tick's timer, per activation.
    ///
    /// At the limits: a `period` of zero or less ends the signal as soon as it is activated
    /// with `SignalArgumentError` (it would tick without pause); one of `Exec.neverDelay` or
    /// more never ticks.
    ///
    /// - Parameters:
    ///   - period: the time between ticks.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal of tick numbers.
    public static func interval(_ period: Duration, context: Exec = .global, delivery: DeliveryVariant = .lockFree) -> Signal<Int> {
        if period <= .zero {
            return Signal<Never>.never(delivery: delivery)
                .argumentError("interval(_:context:delivery:)", "period", period, allowed: "more than zero")
        }
        typealias S = (start: Duration, ticks: Int, timer: (any Lifetime)?)
        return Signal<Never>.never(delivery: delivery).stage(initialState: S(.zero, 0, nil), eventType: Void.self) {
            (s: inout S, e: StageEvent<Never, Void>, channel: StageChannel<Void>, next: SignalNext<Int>) in
            switch e {
            case .activated:
                s.start = context.now()
                s.timer = channel.schedule(after: period, on: context, ())
            case .upstream:
                break
            case .event:
                let n = s.ticks
                s.ticks += 1
                // Saturated: a virtual clock may read anything, up to the top of the range. A
                // tick due past the top never comes (scheduled there, every later tick would be
                // due at the same instant, and an advance would never finish).
                let due = Duration.saturatingSum(s.start, period * (s.ticks + 1))
                s.timer = due == Duration.saturatedMax
                    ? nil : channel.schedule(after: Duration.saturatingDifference(due, context.now()), on: context, ())
                next.send(value: n)
            }
        }
    }
}

extension Signal where T == Int {
    /// Counts 0, 1, 2, …: the first value `initial` after activation (at once, synchronously,
    /// when `initial` is zero), then one every `period` (CwlSignal's `interval(_:initial:)`).
    ///
    /// At the limits: a `period` of zero or less ends the signal as soon as it is activated
    /// with `SignalArgumentError`, before any value (the rule of `interval(_:)`); an `initial`
    /// of zero or less sends the first value at once; a duration of `Exec.neverDelay` or more
    /// never elapses (`initial`: nothing is ever sent; `period`: only the first value).
    ///
    /// - Parameters:
    ///   - period: the time between values after the first.
    ///   - initial: the time until the first value.
    ///   - context: where the timers run and whose clock is read.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the counting signal; it never ends by itself.
    public static func interval(_ period: Duration, initial: Duration, context: Exec = .global,
                                delivery: DeliveryVariant = .lockFree) -> Signal<Int> {
        if period <= .zero {
            return Signal<Never>.never(delivery: delivery)
                .argumentError("interval(_:initial:context:delivery:)", "period", period, allowed: "more than zero")
        }
        let afterFirst = { @Sendable in
            Signal<Int>.interval(period, context: context, delivery: delivery).map { $0 + 1 }.startWith(0)
        }
        if initial <= .zero { return afterFirst() }
        return Signal<Void>.timer(interval: initial, value: (), context: context, delivery: delivery)
            .flatMap { _ in afterFirst() }
    }
}
