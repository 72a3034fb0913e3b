// Delays: `delay` by interval or until a deadline, `delaySubscription`, and CwlSignal's
// per-value delays (by a closure's interval or signal, with or without state).
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

    /// The skeleton of the per-value delays: each value waits for its own trigger, started by
    /// `start` with the value's id and kept (as a lifetime) until it fires. Values leave in
    /// the order their triggers fire. Completion waits for the values still waiting; an error
    /// or cancellation ends at once and drops them. A throw from `start`, or a trigger that
    /// reports an error (`.failed`), ends the result with that error at once, drops the
    /// waiting values (cancelling their triggers) and takes nothing more in that activation.
    func delayEach<S: Sendable>(
        initialState: S,
        _ start: @escaping @Sendable (inout S, T, Int, StageChannel<DelayTrigger>) throws -> any Lifetime
    ) -> Signal<T> {
        typealias State = (user: S, waiting: [Int: (value: T, trigger: any Lifetime)], nextID: Int, end: SignalEnd?, failed: Bool)
        return stage(initialState: State(initialState, [:], 0, nil, false), eventType: DelayTrigger.self) {
            (s: inout State, e: StageEvent<T, DelayTrigger>, channel: StageChannel<DelayTrigger>, next: SignalNext<T>) in
            if s.failed { return }
            switch e {
            case .activated:
                break
            case .upstream(.success(let v)):
                let id = s.nextID
                s.nextID += 1
                do {
                    s.waiting[id] = (v, try start(&s.user, v, id, channel))
                } catch {
                    s.failed = true
                    s.waiting = [:]
                    next.send(end: .other(error))
                }
            case .upstream(.failure(.complete)):
                if s.waiting.isEmpty { next.complete() } else { s.end = .complete }
            case .upstream(.failure(let end)):
                s.waiting = [:]
                next.send(end: end)
            case .event(.failed(let error)):
                s.failed = true
                s.waiting = [:]
                next.send(end: .other(error))
            case .event(.fired(let id)):
                guard let fired = s.waiting.removeValue(forKey: id) else { return }
                next.send(value: fired.value)
                if let end = s.end, s.waiting.isEmpty { next.send(end: end) }
            }
        }
    }

    /// Delays each value by its own interval, which `offset` computes from a state and the
    /// value (CwlSignal's `delay(initialState:offset:)`). Values leave when their time comes,
    /// so a shorter delay can overtake a longer one. Completion waits for the waiting values;
    /// an error ends at once.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the timers run and whose clock is read.
    ///   - offset: the delay for a value.
    /// - Returns: the delayed signal.
    public func delay<S: Sendable>(
        initialState: S, context: Exec = .global,
        offset: @escaping @Sendable (inout S, T) -> Duration
    ) -> Signal<T> {
        delayEach(initialState: initialState) { s, v, id, channel in
            channel.schedule(after: offset(&s, v), on: context, .fired(id))
        }
    }

    /// Delays each value until the signal `offset` makes for it sends a value or ends
    /// (CwlSignal's `delay(offset:)` with a signal). Completion waits for the waiting values;
    /// an error ends at once.
    ///
    /// The value's signal releases it at its first value, and also when it completes or is
    /// cancelled without one (CwlSignal's rule; RxJS's `delayWhen` would drop the value). Its
    /// error (`.other`) fails the result with that error at once, dropping the values still
    /// waiting (RxJS's `delayWhen`).
    ///
    /// - Parameters:
    ///   - context: where `offset` runs.
    ///   - offset: makes the signal that releases a value.
    /// - Returns: the delayed signal.
    public func delay<U: Sendable>(
        context: Exec = .direct, offset: @escaping @Sendable (T) -> Signal<U>
    ) -> Signal<T> {
        delay(initialState: (), context: context) { (_: inout Void, v: T) in offset(v) }
    }

    /// `delay(context:offset:)` whose closure keeps a state across values (per activation)
    /// (CwlSignal's `delay(initialState:offset:)` with a signal). A value's signal releases it
    /// as in `delay(context:offset:)`: at its first value or any end but an error, which fails
    /// the result.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `offset` runs.
    ///   - offset: makes the signal that releases a value.
    /// - Returns: the delayed signal.
    public func delay<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct, offset: @escaping @Sendable (inout S, T) -> Signal<U>
    ) -> Signal<T> {
        hop(to: context).delayEach(initialState: initialState) { s, v, id, channel in
            channel.subscribe(offset(&s, v)) { DelayTrigger(id, $0) }
        }
    }

    /// `delay(initialState:context:offset:)` (an interval per value) with a throwing
    /// `offset`: a thrown error ends the result with `.other(error)` at once, the values still
    /// waiting are dropped (their timers cancelled), and `offset` is not called again in this
    /// activation. Intervals at their limits are as in the non-throwing form.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the timers run and whose clock is read.
    ///   - offset: the delay for a value; throws to end the result.
    /// - Returns: the delayed signal.
    public func delay<S: Sendable>(
        initialState: S, context: Exec = .global,
        offset: @escaping @Sendable (inout S, T) throws -> Duration
    ) -> Signal<T> {
        delayEach(initialState: initialState) { s, v, id, channel in
            channel.schedule(after: try offset(&s, v), on: context, .fired(id))
        }
    }

    /// `delay(context:offset:)` (a signal per value) with a throwing `offset`: a thrown error
    /// ends the result with `.other(error)` at once, the values still waiting are dropped
    /// (their signals released), and `offset` is not called again in this activation.
    ///
    /// - Parameters:
    ///   - context: where `offset` runs.
    ///   - offset: makes the signal that releases a value; throws to end the result.
    /// - Returns: the delayed signal.
    public func delay<U: Sendable>(
        context: Exec = .direct, offset: @escaping @Sendable (T) throws -> Signal<U>
    ) -> Signal<T> {
        delay(initialState: (), context: context) { (_: inout Void, v: T) throws -> Signal<U> in try offset(v) }
    }

    /// `delay(initialState:context:offset:)` (a signal per value) with a throwing `offset`: a
    /// thrown error ends the result with `.other(error)` at once, the values still waiting
    /// are dropped (their signals released), and `offset` is not called again in this
    /// activation.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `offset` runs.
    ///   - offset: makes the signal that releases a value; throws to end the result.
    /// - Returns: the delayed signal.
    public func delay<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct, offset: @escaping @Sendable (inout S, T) throws -> Signal<U>
    ) -> Signal<T> {
        hop(to: context).delayEach(initialState: initialState) { s, v, id, channel in
            channel.subscribe(try offset(&s, v)) { DelayTrigger(id, $0) }
        }
    }
}

/// What a per-value delay's trigger reports: the value with this id may leave, or the trigger
/// failed (its signal's `.other` error, which fails the delayed signal).
enum DelayTrigger: Sendable {
    case fired(Int)
    case failed(any Error)

    /// The report of a value's release signal: its error fails the result; a value or any
    /// other end releases the value.
    init<U>(_ id: Int, _ result: Result<U, SignalEnd>) {
        if case .failure(.other(let error)) = result { self = .failed(error) } else { self = .fired(id) }
    }
}
