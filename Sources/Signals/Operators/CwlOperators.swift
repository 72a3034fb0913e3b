// Operators with CwlSignal's names and shapes that Signals did not have: value-only
// transforms, stateful `skipWhile`/`takeWhile`/`flatMap`, and per-value delays (the
// overlapping buffers and windows are in Windowing.swift).

extension Signal {
    /// A stage whose processor sees only values; ends pass through unchanged (CwlSignal's
    /// `transformValues`).
    ///
    /// - Parameters:
    ///   - context: where the processor runs.
    ///   - processor: receives each value and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    public func transformValues<U: Sendable>(
        context: Exec = .direct, _ processor: @escaping @Sendable (T, SignalNext<U>) -> Void
    ) -> Signal<U> {
        transformValues(initialState: (), context: context) { _, v, next in processor(v, next) }
    }

    /// `transformValues` with a state kept per activation.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where the processor runs.
    ///   - processor: receives the state and each value and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    public func transformValues<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, T, SignalNext<U>) -> Void
    ) -> Signal<U> {
        transform(initialState: initialState, context: context) { (s: inout S, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let v): processor(&s, v, next)
            case .failure(let e): next.send(end: e)
            }
        }
    }

    /// Each value that is `U`, cast to it; the others are dropped (CwlSignal's `ofType`).
    ///
    /// - Parameter type: the type to keep.
    /// - Returns: the signal of the values of that type.
    public func ofType<U: Sendable>(_ type: U.Type) -> Signal<U> {
        compactMap { $0 as? U }
    }

    /// `flatMap` whose closure keeps a state across values (per activation): each value makes
    /// an inner signal, and every inner signal's values are merged (CwlSignal's
    /// `flatMap(initialState:_:)`). A closure that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `processor` runs.
    ///   - processor: makes the inner signal for a value.
    /// - Returns: the merged signal.
    public func flatMap<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, T) throws -> Signal<U>
    ) -> Signal<U> {
        // The throwing `map`'s rule: a throw ends the outer signal, which ends the merge and
        // releases its inner subscriptions (ThrowingTransforms.swift).
        map(initialState: initialState, context: context, processor).flatMap { $0 }
    }

    /// Drops values while `condition` returns true, then passes everything (CwlSignal's
    /// `skipWhile(initialState:condition:)`). The state is per activation; a condition that
    /// throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `condition` runs.
    ///   - condition: whether to keep dropping.
    /// - Returns: the signal from the first value `condition` let through.
    public func skipWhile<S: Sendable>(
        initialState: S, context: Exec = .direct,
        condition: @escaping @Sendable (inout S, T) throws -> Bool
    ) -> Signal<T> {
        throwingStage(initialState: (initialState, false), context: context) { (s: inout (S, Bool), v: T, next: SignalNext<T>) in
            if !s.1, try condition(&s.0, v) { return false }
            s.1 = true
            next.send(value: v)
            return false
        }
    }

    /// Passes values while `condition` returns true, and completes at the first for which it
    /// returns false (CwlSignal's `takeWhile(initialState:condition:)`). The state is per
    /// activation; a condition that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `condition` runs.
    ///   - condition: whether to keep passing.
    /// - Returns: the signal up to the first value `condition` refused.
    public func takeWhile<S: Sendable>(
        initialState: S, context: Exec = .direct,
        condition: @escaping @Sendable (inout S, T) throws -> Bool
    ) -> Signal<T> {
        throwingStage(initialState: initialState, context: context) { (s: inout S, v: T, next: SignalNext<T>) in
            guard try condition(&s, v) else {
                next.complete()
                return true
            }
            next.send(value: v)
            return false
        }
    }

    // MARK: - Per-value delays

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

    /// `compactMap` whose closure keeps a state across values (per activation) (CwlSignal's
    /// `compactMap(initialState:_:)`). A closure that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `processor` runs.
    ///   - processor: maps a value, or returns nil to drop it.
    /// - Returns: the mapped signal.
    public func compactMap<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct, _ processor: @escaping @Sendable (inout S, T) throws -> U?
    ) -> Signal<U> {
        throwingStage(initialState: initialState, context: context) { (s: inout S, v: T, next: SignalNext<U>) in
            if let u = try processor(&s, v) { next.send(value: u) }
            return false
        }
    }
}

extension Signal {
    /// The values that are not nil, unwrapped (CwlSignal's `compact`).
    ///
    /// - Returns: the signal of the unwrapped values.
    public func compact<U: Sendable>() -> Signal<U> where T == U? {
        compactMap { $0 }
    }

    /// Each optional as an array of zero or one element (CwlSignal's `optionalToArray`).
    ///
    /// - Returns: the signal of arrays.
    public func optionalToArray<U: Sendable>() -> Signal<[U]> where T == U? {
        map { $0.map { [$0] } ?? [] }
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
