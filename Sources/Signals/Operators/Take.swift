// Taking values: `take`, `takeLast`, `takeWhile` (exclusive, inclusive, and CwlSignal's
// stateful form) and `takeUntil` (by predicate or by trigger).
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).
//
// State: a count, a flag or a ring of values, in the per-activation state of
// `transform(initialState:)` or `combine(initialState:)`; no lock.

extension Signal {
    /// Emits the first `count` values, then completes (`take`, `prefix`).
    ///
    /// State: a countdown, per activation.
    ///
    /// At the limits: a `count` of zero or less completes as soon as the result is activated,
    /// whatever this signal does (RxJS's and RxSwift's `take(0)` are an empty signal; a
    /// negative count is taken as zero, where RxSwift traps). This signal's output is taken
    /// but never connected (RxJS never subscribes the source of `take(0)`), so a silent
    /// source still leaves the result complete and a cold one never starts. The completion
    /// comes in the activation whatever `context` is (as `buffer(count: 0, context:)`'s
    /// does). A huge `count` passes every value and this signal's end.
    ///
    /// - Parameters:
    ///   - count: how many values to emit.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the values taken.
    @inlinable
    public func take(_ count: Int, context: Exec = .direct) -> Signal<T> {
        if count <= 0 { return completingOnActivationUnconnected() }
        return transform(initialState: count, context: context) { (remaining: inout Int, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if remaining > 0 {
                    remaining -= 1
                    next.send(value: v)
                }
                if remaining == 0 { next.complete() }
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Emits the last `count` values when the signal completes (`takeLast`, `suffix`). Errors
    /// pass through without values.
    ///
    /// State: a ring of the last `count` values, per activation.
    ///
    /// At the limits: a `count` of zero or less keeps no value and completes when this signal
    /// completes (RxSwift's `takeLast(0)`; errors and cancellation still pass). RxJS's
    /// `takeLast(0)` is an empty signal that completes on subscription instead; where the two
    /// disagree this operator keeps its rule, which keeps `takeLast(n)`'s one rule for every
    /// `n`: the result ends when, and as, this signal ends. A huge `count` emits every value
    /// at the completion.
    ///
    /// - Parameters:
    ///   - count: how many of the last values to emit.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeLast(_ count: Int, context: Exec = .direct) -> Signal<T> {
        transform(initialState: ([T](), 0), context: context) { (s: inout ([T], Int), r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                guard count > 0 else { return }
                if s.0.count < count {
                    s.0.append(v)
                } else {
                    s.0[s.1] = v
                    s.1 = (s.1 + 1) % count
                }
            case .failure(.complete):
                for i in 0..<s.0.count { next.send(value: s.0[(s.1 + i) % s.0.count]) }
                s = ([], 0)
                next.complete()
            case .failure(let e):
                s = ([], 0)
                next.send(end: e)
            }
        }
    }

    /// Emits values while `predicate` is true and completes at the first value for which it is
    /// false (`takeWhile`, `prefix(while:)`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeWhile<Failure: Error>(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            guard try predicate(v) else {
                next.complete()
                return true
            }
            next.send(value: v)
            return false
        }
    }

    /// Emits values while `predicate` is true; at the first value for which it is false,
    /// sends that value too when `inclusive` is true, then completes (RxJS
    /// `takeWhile(predicate, inclusive)`). With `inclusive` false it is
    /// `takeWhile(context:_:)`.
    ///
    /// `predicate` runs once per value, serialized (never concurrently with itself), on
    /// `context`; nothing reaches it after the value that completed the result.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - inclusive: whether the value that fails `predicate` is sent before the completion.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeWhile<Failure: Error>(inclusive: Bool, context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            guard try predicate(v) else {
                if inclusive { next.send(value: v) }
                next.complete()
                return true
            }
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

    /// Emits values until one makes `predicate` true, then completes; that value is sent
    /// before the completion when `inclusive` is true (RxSwift `take(until:behavior:)` with
    /// `.inclusive` or `.exclusive`; RxJS `takeWhile` of the negated predicate). A trigger
    /// signal ends the result with `takeUntil(_:context:)` instead.
    ///
    /// `predicate` runs once per value, serialized (never concurrently with itself), on
    /// `context`; nothing reaches it after the value that completed the result.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - inclusive: whether the value that makes `predicate` true is sent before the
    ///     completion.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: true for the value that ends the result.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeUntil<Failure: Error>(inclusive: Bool, context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        takeWhile(inclusive: inclusive, context: context) { (v: T) throws(Failure) -> Bool in try !predicate(v) }
    }

    /// Emits values until `trigger` sends its first value, then completes (`takeUntil`,
    /// `prefix(untilOutputFrom:)`). An error from the trigger ends the result with that error;
    /// its completion or cancellation is ignored.
    ///
    /// The trigger is connected before this signal, as RxJS and RxSwift subscribe the
    /// notifier before the source: a trigger that sends (or fails) as it is connected ends
    /// the result before this signal is connected, so a cold source never starts; and when
    /// one delivery (a multicast's value, say) reaches both, the trigger sees it first. The
    /// result has this signal's delivery variant.
    ///
    /// - Parameters:
    ///   - trigger: the signal whose first value completes the result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the values taken.
    public func takeUntil<U: Sendable>(_ trigger: Signal<U>, context: Exec = .direct) -> Signal<T> {
        // `trigger` is the first input so that it is connected first (inputs are connected in
        // order).
        trigger.combinedNode2(self, variant: delivery).transform(context: context) { r, next in
            routeCombined(r, next) { (e: EitherResult2<U, T>) in
                switch e {
                case .result2(let r):
                    next.send(result: r)
                case .result1(.success):
                    next.complete()
                case .result1(.failure(.other(let error))):
                    next.send(end: .other(error))
                case .result1(.failure):
                    break
                }
            }
        }
    }
}
