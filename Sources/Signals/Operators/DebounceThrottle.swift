// Rate limiting: `debounce`, `throttleFirst`, `throttleLast` and ReactiveX's `throttle`
// (`throttle(interval:latest:context:)`, `throttle(interval:leading:latest:context:)`).
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
//
// State of `throttle`: the window's timer and its number, the latest value waiting for the
// window's end, and whether the source completed while one waits, in the stage's
// per-activation state.

extension Signal {
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

extension Signal {
    /// Emits a value at once, then nothing more until `interval` has passed; with `latest`,
    /// the latest value that arrived during that window is emitted when it ends, and starts a
    /// new window (RxSwift `throttle(_:latest:)`, RxJS `throttleTime(d, { leading: true,
    /// trailing: latest })`). With `latest` false it is `throttleFirst(interval:context:)`.
    ///
    /// A window starts with each value emitted, whether at once or at a window's end; a value
    /// arriving with no window open is emitted at once. A value arriving exactly `interval`
    /// after the window opened belongs to that window, as in RxJS: without `latest` it is
    /// dropped; with `latest` it is emitted at that instant either way (as the window's
    /// latest value, or at once if the window's timer ran first) and opens the next window.
    ///
    /// Ends as RxJS does: a completion while a value waits for its window's end (`latest`
    /// true) is held until that end, which emits the value, then completes; otherwise it
    /// passes at once. An error or cancellation passes at once and drops the waiting value.
    ///
    /// An `interval` of zero or less throttles nothing: every value is emitted at once. One of
    /// `Exec.neverDelay` or more never ends its window: only the first value is emitted, and
    /// the completion passes at once (a waiting value could never be sent).
    ///
    /// The stage runs serialized with its timer (never concurrently with itself); values may
    /// be sent from any thread. Deactivation (the output released or cancelled) cancels the
    /// window's timer and forgets the waiting value; the next activation starts afresh.
    ///
    /// - Parameters:
    ///   - interval: how long a window lasts after each value emitted.
    ///   - latest: whether the latest value of a window is emitted at its end.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values let through.
    public func throttle(interval: Duration, latest: Bool, context: Exec = .global) -> Signal<T> {
        throttle(interval: interval, leading: true, latest: latest, context: context)
    }

    /// `throttle(interval:latest:context:)` with a choice of whether the value that opens a
    /// window is emitted at once (`leading`, RxJS `throttleTime(d, { leading, trailing:
    /// latest })`). With `leading` false a value arriving with no window open is held and
    /// opens a window; with `latest` the window's latest value (that one, or a later one) is
    /// emitted when the window ends, and starts a new window (RxJS `restartOnTrailing`); a
    /// window with no value in it ends without starting another. With both false nothing is
    /// ever emitted (the end still passes at once), as in RxJS.
    ///
    /// At the instant a window ends, a value the stage sees before the window's timer belongs
    /// to that window (emitted at its end); one it sees after it opens the next window (with
    /// `leading` false it waits for that window's end). On `VirtualTimeContext` and a serial
    /// queue the earlier-scheduled of the two runs first.
    ///
    /// Ends, limits, concurrency and release as `throttle(interval:latest:context:)`: a
    /// completion while a value waits for its window's end (`latest` true) is held until that
    /// end; an error or cancellation passes at once and drops the waiting value. An `interval`
    /// of zero or less emits every value at once (when `leading` or `latest`); one of
    /// `Exec.neverDelay` or more never ends the first window: with `leading` only the first
    /// value is emitted, without it none, and the completion passes at once.
    ///
    /// - Parameters:
    ///   - interval: how long a window lasts after the value or emission that opens it.
    ///   - leading: whether a value arriving with no window open is emitted at once.
    ///   - latest: whether the latest value of a window is emitted at its end.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values let through.
    public func throttle(interval: Duration, leading: Bool, latest: Bool, context: Exec = .global) -> Signal<T> {
        // Neither edge: RxJS emits nothing and passes the end.
        if !leading && !latest { return ignoreElements() }
        // Leading only is `throttleFirst`, whose window includes its last instant on the
        // clock: a value exactly `interval` after the last one is dropped however it is
        // ordered against this stage's timer at that instant.
        if !latest { return throttleFirst(interval: interval, context: context) }
        if interval <= .zero { return transform { (r: Result<T, SignalEnd>, next: SignalNext<T>) in next.send(result: r) } }
        let never = interval >= Exec.neverDelay
        typealias S = (waiting: T?, window: (any Lifetime)?, generation: Int, completed: Bool)
        return stage(initialState: S(nil, nil, 0, false), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<T>) in
            func emitAndOpenWindow(_ v: T) {
                s.generation += 1
                // `Exec.neverDelay` or more: the context schedules nothing; the window stays open.
                s.window = channel.schedule(after: interval, on: context, s.generation)
                next.send(value: v)
            }
            switch e {
            case .activated:
                break
            case .upstream(.success(let v)):
                if s.window == nil && leading {
                    emitAndOpenWindow(v)
                } else {
                    if s.window == nil {
                        // Trailing only: the value opens a window and waits for its end.
                        s.generation += 1
                        s.window = channel.schedule(after: interval, on: context, s.generation)
                    }
                    // A window of `Exec.neverDelay` or more never ends: nothing waits for it.
                    if !never { s.waiting = v }
                }
            case .upstream(.failure(.complete)) where s.waiting != nil && s.window != nil:
                s.completed = true
            case .upstream(.failure(let end)):
                s = (nil, nil, s.generation, false)
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation else { return }
                s.window = nil
                guard let v = s.waiting else { return }
                s.waiting = nil
                if s.completed {
                    next.send(value: v)
                    next.complete()
                } else {
                    emitAndOpenWindow(v)
                }
            }
        }
    }
}
