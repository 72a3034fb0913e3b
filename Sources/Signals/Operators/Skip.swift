// Dropping values: `skip`, `skipLast`, `skipWhile` (and CwlSignal's stateful form),
// `skipUntil` and `ignoreElements`.
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).
//
// State: a count, a flag or a ring of values, in the per-activation state of
// `transform(initialState:)` or `combine(initialState:)`; no lock.

extension Signal {
    /// Drops the first `count` values (`skip`, `dropFirst`).
    ///
    /// State: a countdown, per activation.
    ///
    /// - Parameters:
    ///   - count: how many values to drop.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the remaining values.
    @inlinable
    public func skip(_ count: Int, context: Exec = .direct) -> Signal<T> {
        transform(initialState: count, context: context) { (remaining: inout Int, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if remaining > 0 { remaining -= 1 } else { next.send(value: v) }
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Drops the last `count` values: each value is held back until `count` newer ones have
    /// arrived (`skipLast`, `dropLast`).
    ///
    /// State: a ring of the last `count` values, per activation.
    ///
    /// - Parameters:
    ///   - count: how many of the last values to drop.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the remaining values.
    @inlinable
    public func skipLast(_ count: Int, context: Exec = .direct) -> Signal<T> {
        guard count > 0 else { return transform(context: context) { r, next in next.send(result: r) } }
        return transform(initialState: ([T](), 0), context: context) { (s: inout ([T], Int), r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if s.0.count < count {
                    s.0.append(v)
                } else {
                    // The ring is full: the oldest value (at s.1) is now `count` values old.
                    next.send(value: s.0[s.1])
                    s.0[s.1] = v
                    s.1 = (s.1 + 1) % count
                }
            case .failure(let e):
                s = ([], 0)
                next.send(end: e)
            }
        }
    }

    /// Drops values while `predicate` is true; from the first value for which it is false, lets
    /// everything through (`skipWhile`, `drop(while:)`).
    ///
    /// State: whether the gate has opened, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the remaining values.
    @inlinable
    public func skipWhile<Failure: Error>(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: false, context: context) { (open: inout Bool, v: T, next: SignalNext<T>) throws(Failure) in
            if !open, try predicate(v) { return false }
            open = true
            next.send(value: v)
            return false
        }
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

    /// Drops values until `trigger` sends its first value (`skipUntil`, `drop(untilOutputFrom:)`).
    ///
    /// Ends as RxJS and RxSwift do: an error of the trigger before its first value fails the
    /// result at once; once it has fired, nothing more of it matters. Its completion or
    /// cancellation without a value is ignored: every value is then dropped, and the
    /// source's end (completion included) is passed on when it comes (RxJS; RxSwift stays
    /// silent at the source's completion while still skipping).
    ///
    /// State: whether the trigger has fired, per activation.
    ///
    /// - Parameters:
    ///   - trigger: the signal whose first value lets values through.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the remaining values.
    public func skipUntil<U: Sendable>(_ trigger: Signal<U>, context: Exec = .direct) -> Signal<T> {
        combine(trigger, initialState: false, context: context) { (open: inout Bool, e: EitherResult2<T, U>, next: SignalNext<T>) in
            switch e {
            case .result1(.success(let v)):
                if open { next.send(value: v) }
            case .result1(.failure(let end)):
                next.send(end: end)
            case .result2(.success):
                open = true
            case .result2(.failure(.other(let error))):
                if !open { next.send(end: .other(error)) }
            case .result2(.failure):
                break
            }
        }
    }

    /// Drops every value and passes the end through (`ignoreElements`, `ignoreOutput`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the end alone.
    @inlinable
    public func ignoreElements(context: Exec = .direct) -> Signal<T> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<T>) in
            if case .failure(let e) = r { next.send(end: e) }
        }
    }
}
