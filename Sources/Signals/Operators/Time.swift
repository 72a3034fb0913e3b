// Time-based operators and sources.
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
    // MARK: - Sources

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

    // MARK: - Rate limiting

    /// Emits a value only once `interval` has passed without another value arriving; a newer
    /// value restarts the wait (`debounce`). A value still waiting when the signal completes is
    /// emitted before the completion; errors and cancellation drop it.
    ///
    /// State: the waiting value, the timer's lifetime and a generation number, per activation.
    ///
    /// - Parameters:
    ///   - interval: how long a value must be followed by no other.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values let through.
    public func debounce(interval: Duration, context: Exec = .global) -> Signal<T> {
        latestWhenTimerFires(interval: interval, context: context, eachValueRestartsTimer: true)
    }

    /// Emits a value, then drops values until `interval` has passed since it (`throttleFirst`,
    /// `throttle(latest: false)`, RxJS `throttleTime`).
    ///
    /// The window includes its last instant: a value arriving exactly `interval` after the
    /// last one let through is still dropped, as RxJS's `throttleTime` drops it (its window
    /// closes only after that frame), so values every `interval / 5` through a window of
    /// `5 × interval / 5` pass every sixth value, never every fifth.
    ///
    /// State: the time of the last value let through, per activation (read from
    /// `context.now()`; no timer is needed).
    ///
    /// - Parameters:
    ///   - interval: how long values are dropped after one is emitted (zero or less: none is
    ///     dropped; `Exec.neverDelay` or more: every value after the first is dropped).
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values let through.
    @inlinable
    public func throttleFirst(interval: Duration, context: Exec = .global) -> Signal<T> {
        transform(initialState: Duration?.none) { (last: inout Duration?, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                let now = context.now()
                // An interval of `Exec.neverDelay` or more never elapses, however far the
                // clock moves (a virtual one may move centuries). The window's last instant
                // still belongs to it (`<=`); an interval of zero or less drops nothing.
                if let l = last, interval > .zero,
                   interval >= Exec.neverDelay || Duration.saturatingDifference(now, l) <= interval { return }
                last = now
                next.send(value: v)
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Emits the latest value at the end of each `interval` that began with a value
    /// (`throttleLast`, `auditTime`, `throttle(latest: true)` without the leading value): the
    /// first value starts a window, later values in it replace the waiting one, and the window's
    /// end emits it.
    ///
    /// Ends as RxJS's `audit`/`auditTime` and RxSwift's `throttle(latest: true)` do, and as
    /// `throttle(interval:leading:latest:context:)`: a completion while a value waits is held
    /// until the window's end, which emits the value, then completes; with no value waiting
    /// it passes at once. An error or cancellation passes at once and drops the waiting value.
    ///
    /// At the limits: an `interval` of zero or less ends each window at once (asynchronously,
    /// on `context`), so a value is emitted there, and a completion behind it follows it. One
    /// of `Exec.neverDelay` or more never ends its window: nothing is emitted, and the
    /// completion passes at once (the waiting value could never be sent).
    ///
    /// State: the waiting value, the window's timer and its number, and a held completion,
    /// per activation. Deactivation cancels the window's timer and forgets the waiting value.
    ///
    /// - Parameters:
    ///   - interval: the length of each window.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values let through.
    public func throttleLast(interval: Duration, context: Exec = .global) -> Signal<T> {
        latestWhenTimerFires(interval: interval, context: context, eachValueRestartsTimer: false)
    }

    /// The stage of `debounce` and `throttleLast`: each value replaces the waiting one, and the
    /// timer's firing emits it. The first value starts the timer; with
    /// `eachValueRestartsTimer`, every later value starts it again (an earlier timer that fires
    /// late is told apart by its number and ignored). A completion with a value waiting:
    /// `debounce` (`eachValueRestartsTimer`) emits it and completes at once; `throttleLast`
    /// holds the completion until the timer fires (or, for a window that never ends, drops
    /// the value and completes at once).
    func latestWhenTimerFires(interval: Duration, context: Exec, eachValueRestartsTimer: Bool) -> Signal<T> {
        let holdsCompletion = !eachValueRestartsTimer
        let never = interval >= Exec.neverDelay
        return stage(initialState: WaitingValue<T>(), eventType: Int.self) {
            (s: inout WaitingValue<T>, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<T>) in
            switch e {
            case .activated:
                break
            case .upstream(.success(let v)):
                s.value = v
                if eachValueRestartsTimer || s.timer == nil {
                    s.generation += 1
                    s.timer = channel.schedule(after: interval, on: context, s.generation)
                }
            case .upstream(.failure(.complete)) where holdsCompletion && s.value != nil:
                if never {
                    // The window never ends: the value could never be sent.
                    s = WaitingValue()
                    next.complete()
                } else {
                    s.completed = true
                }
            case .upstream(.failure(let end)):
                s.end(end, next)
            case .event(let generation):
                guard generation == s.generation else { return }
                s.emit(next)
                if s.completed { next.complete() }
            }
        }
    }

    /// Holds each value until `deadline`, a reading of `context`'s clock (RxJS `delay(date)`):
    /// values arriving before it leave together when it comes (in arrival order on a context
    /// that runs work due at the same time in the order it was scheduled, as a serial queue
    /// or `VirtualTimeContext` does; each value has its own timer); values arriving after it
    /// pass at once (asynchronously, on `context`). The completion waits for the
    /// values still waiting and follows the last of them (RxJS: it completes once nothing
    /// waits); errors and cancellation pass at once and drop them.
    ///
    /// At the limits: a `deadline` at or before `context.now()` delays nothing; one of
    /// `Exec.neverDelay` or more after it never comes (values wait until the result ends, and
    /// a completion after a value never arrives; an error or cancellation still passes).
    ///
    /// State: the waiting values with their timers, per activation; deactivation cancels the
    /// timers and drops the values, and the next activation reads the clock afresh against
    /// the same `deadline`. The stage runs serialized with its timers; values may be sent from
    /// any thread.
    ///
    /// - Parameters:
    ///   - deadline: when the values may leave, on `context`'s clock (`context.now()` plus a
    ///     duration).
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the delayed values.
    public func delay(until deadline: Duration, context: Exec = .global) -> Signal<T> {
        delayEach(initialState: ()) { _, _, id, channel in
            channel.schedule(after: Duration.saturatingDifference(deadline, context.now()), on: context, .fired(id))
        }
    }

    /// Connects this signal only once `trigger` sends its first value or completes (RxJS
    /// `delayWhen(selector, subscriptionDelay)`'s subscription delay, the old
    /// `delaySubscription(notifier)`); until then nothing of this signal runs (a cold source
    /// has not started; a hot one's values before then are not seen). The trigger is released
    /// as soon as it has decided; an error or cancellation from it ends the result with that
    /// end, and this signal is never connected. Follow it with `delay(offset:)` for RxJS's
    /// two-argument `delayWhen`.
    ///
    /// State: the trigger's subscription, then this signal's, per activation; the stage runs
    /// serialized, and either signal may send from any thread. Releasing the output (or
    /// cancelling it) releases whichever subscription is open. A signal has one output: once
    /// the first activation's connection is released, a later activation (behind a
    /// `multicast()`) gets none of this signal's values.
    ///
    /// - Parameters:
    ///   - trigger: the signal whose first value or completion connects this one; one that
    ///     never sends nor ends keeps this signal unconnected for ever.
    /// - Returns: this signal's results, from the moment it is connected.
    public func delaySubscription<U: Sendable>(until trigger: Signal<U>) -> Signal<T> {
        // Held through `ReleasedAfterwards`: the processor is the only holder of this signal,
        // which may itself be such a stage, so freeing a chain of them would nest once per
        // stage.
        let source = ReleasedAfterwards(self)
        let trigger = ReleasedAfterwards(trigger)
        typealias S = (trigger: SignalOutput<U>?, source: SignalOutput<T>?, started: Bool)
        typealias E = EitherResult2<U, T>
        return Signal<Never>.never(delivery: delivery).stage(initialState: S(nil, nil, false), eventType: E.self) {
            (s: inout S, e: StageEvent<Never, E>, channel: StageChannel<E>, next: SignalNext<T>) in
            switch e {
            case .activated:
                s.trigger = channel.subscribe(trigger.signal) { .result1($0) }
            case .upstream:
                break
            case .event(.result1(let r)):
                // Only the trigger's first result decides; any later one is already in flight.
                guard !s.started else { return }
                s.started = true
                s.trigger = nil
                switch r {
                case .success, .failure(.complete):
                    s.source = channel.subscribe(source.signal) { .result2($0) }
                case .failure(let end):
                    next.send(end: end)
                }
            case .event(.result2(let r)):
                if case .failure = r { s.source = nil }
                next.send(result: r)
            }
        }
    }

    /// Emits each value, and the completion, `interval` later (`delay`). Errors and
    /// cancellation are passed on at once, dropping values still waiting.
    ///
    /// State: a queue of waiting results with their due times, the timer for the first of them
    /// and a generation number, per activation.
    ///
    /// - Parameters:
    ///   - interval: how much later each value is emitted.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the delayed values.
    public func delay(interval: Duration, context: Exec = .global) -> Signal<T> {
        typealias S = (queue: [(due: Duration, result: Result<T, SignalEnd>)], head: Int, timer: (any Lifetime)?, generation: Int)
        return stage(initialState: S([], 0, nil, 0), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<T>) in
            switch e {
            case .activated:
                break
            case .upstream(let r):
                if case .failure(let end) = r, !end.isComplete {
                    s = ([], 0, nil, s.generation)
                    return next.send(end: end)
                }
                s.queue.append((Duration.saturatingSum(context.now(), interval), r))
                if s.timer == nil {
                    s.generation += 1
                    s.timer = channel.schedule(after: interval, on: context, s.generation)
                }
            case .event(let generation):
                guard generation == s.generation else { return }
                s.timer = nil
                let now = context.now()
                while s.head < s.queue.count, s.queue[s.head].due <= now {
                    let r = s.queue[s.head].result
                    s.head += 1
                    next.send(result: r)
                }
                if s.head == s.queue.count {
                    s.queue.removeAll(keepingCapacity: true)
                    s.head = 0
                } else {
                    if s.head > 64 && s.head * 2 > s.queue.count {
                        s.queue.removeFirst(s.head)
                        s.head = 0
                    }
                    s.generation += 1
                    s.timer = channel.schedule(after: Duration.saturatingDifference(s.queue[s.head].due, now), on: context, s.generation)
                }
            }
        }
    }

    // MARK: - Time stamps

    /// Pairs each value with `context.now()` at the moment it passes (`timestamp`).
    ///
    /// - Parameter context: where its timers run and whose clock it reads (`.global` by default;
    ///   `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of timestamped values.
    @inlinable
    public func timestamp(context: Exec = .global) -> Signal<Timestamped<T>> {
        map { Timestamped(value: $0, time: context.now()) }
    }

    /// Pairs each value with the time since the previous value, or since activation for the
    /// first (`timeInterval`), measured on `context`'s clock.
    ///
    /// State: the time of the previous value (or of activation), per activation.
    ///
    /// - Parameter context: where its timers run and whose clock it reads (`.global` by default;
    ///   `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values with their intervals.
    public func timeInterval(context: Exec = .global) -> Signal<TimeIntervalled<T>> {
        stage(initialState: Duration.zero, eventType: Never.self) {
            (last: inout Duration, e: StageEvent<T, Never>, _, next: SignalNext<TimeIntervalled<T>>) in
            switch e {
            case .activated:
                last = context.now()
            case .upstream(.success(let v)):
                let now = context.now()
                next.send(value: TimeIntervalled(value: v, interval: Duration.saturatingDifference(now, last)))
                last = now
            case .upstream(.failure(let end)):
                next.send(end: end)
            case .event:
                break
            }
        }
    }

    // MARK: - Time-based grouping

    /// Emits the values collected during each `timeSpan` (counting from activation) as an array,
    /// empty if none arrived; an array that reaches `count` values is emitted at once and starts
    /// a new span (`buffer(timeSpan:count:scheduler:)`, `collect(.byTimeOrCount)`). On completion
    /// the open buffer is emitted before it, even empty (every ReactiveX does: spans of 10 s
    /// and a completion at 15 s give `[]` at 10 s, `[]` at 15 s, then the completion); errors
    /// and cancellation drop it.
    ///
    /// State: the array being filled, the span's timer and a generation number, per activation.
    ///
    /// - Parameters:
    ///   - timeSpan: how long each group of values is collected.
    ///   - count: the most values in one array.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of arrays.
    public func buffer(timeSpan: Duration, count: Int = .max, context: Exec = .global) -> Signal<[T]> {
        // At the limits, the rule of buffer(count:) for the count; a span of zero would emit
        // empty arrays without pause.
        if count <= 0 { return endingOnActivation(.complete) }
        if timeSpan <= .zero {
            return argumentError("buffer(timeSpan:count:context:)", "timeSpan", timeSpan, allowed: "more than zero")
        }
        typealias S = (buffer: [T], timer: (any Lifetime)?, generation: Int)
        return stage(initialState: S([], nil, 0), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<[T]>) in
            func restart() {
                s.generation += 1
                s.timer = channel.schedule(after: timeSpan, on: context, s.generation)
            }
            switch e {
            case .activated:
                restart()
            case .upstream(.success(let v)):
                s.buffer.append(v)
                if s.buffer.count >= count {
                    let full = s.buffer
                    s.buffer = []
                    restart()
                    next.send(value: full)
                }
            case .upstream(.failure(.complete)):
                s.timer = nil
                let last = s.buffer
                s.buffer = []
                next.send(value: last)
                next.complete()
            case .upstream(.failure(let end)):
                s = ([], nil, s.generation)
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation else { return }
                let span = s.buffer
                s.buffer = []
                restart()
                next.send(value: span)
            }
        }
    }

    /// Splits the values into consecutive signals, each open for `timeSpan` (counting from
    /// activation) or until it has `count` values, whichever is first (`window(timeSpan:count:)`).
    /// A new window opens as soon as the previous one closes, so windows may be empty.
    ///
    /// Subscribe to each window inside the handler that receives it. The end of this signal
    /// ends the open window too (the window open at a completion completes then, even empty,
    /// as `buffer(timeSpan:count:context:)` emits its open buffer).
    /// State: the open window's input, its count, the span's timer and a generation number,
    /// per activation.
    ///
    /// - Parameters:
    ///   - timeSpan: how long each group of values is collected.
    ///   - count: the most values in one window.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of windows.
    public func window(timeSpan: Duration, count: Int = .max, context: Exec = .global) -> Signal<Signal<T>> {
        if count <= 0 { return endingOnActivation(.complete) }
        if timeSpan <= .zero {
            return argumentError("window(timeSpan:count:context:)", "timeSpan", timeSpan, allowed: "more than zero")
        }
        typealias S = (window: SignalInput<T>?, count: Int, timer: (any Lifetime)?, generation: Int)
        let delivery = self.delivery
        return stage(initialState: S(nil, 0, nil, 0), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<Signal<T>>) in
            func open() {
                s.window?.complete()
                let (input, signal) = Signal<T>.create(delivery: delivery)
                s.window = input
                s.count = 0
                s.generation += 1
                s.timer = channel.schedule(after: timeSpan, on: context, s.generation)
                next.send(value: signal)
            }
            switch e {
            case .activated:
                open()
            case .upstream(.success(let v)):
                s.window?.send(value: v)
                s.count += 1
                if s.count >= count { open() }
            case .upstream(.failure(let end)):
                s.window?.send(end: end)
                s = (nil, 0, nil, s.generation)
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation else { return }
                open()
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

/// The per-activation state of `debounce` and `throttleLast`: the value waiting for its timer,
/// that timer's lifetime, and the number of the latest timer, so that an earlier one that fires
/// late is ignored.
struct WaitingValue<T: Sendable>: Sendable {
    var value: T?
    var timer: (any Lifetime)?
    var generation = 0
    /// A completion held until the timer fires (`throttleLast`).
    var completed = false

    /// The timer fired: emits the waiting value, if any.
    mutating func emit(_ next: SignalNext<T>) {
        timer = nil
        guard let v = value else { return }
        value = nil
        next.send(value: v)
    }

    /// Upstream ended: a completion emits the waiting value first; errors and cancellation
    /// drop it.
    mutating func end(_ end: SignalEnd, _ next: SignalNext<T>) {
        timer = nil
        let waiting = value
        value = nil
        if end.isComplete, let v = waiting { next.send(value: v) }
        next.send(end: end)
    }
}
