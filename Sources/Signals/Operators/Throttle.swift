// `throttle(interval:latest:context:)` and `throttle(interval:leading:latest:context:)`:
// ReactiveX's throttle, beside `throttleFirst` and
// `throttleLast` (Time.swift).
//
// State: the window's timer and its number, the latest value waiting for the window's end,
// and whether the source completed while one waits, in the stage's per-activation state.

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
