// Filtering operators. `filter` and `compactMap` are in the core.
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, `Failure == Never` for one that does not throw (`throwingStage`).
//
// State: each stateful operator keeps a small value (a count, a flag, the last value, a ring
// of values) in the per-activation state of `transform(initialState:)` or
// `combine(initialState:)`; none takes a lock of its own.

extension Signal {
    // MARK: - Picking one value

    // `first`, `last` and `single` without a predicate: a generic `Failure` has no default
    // closure to be inferred from, so the form without one is its own overload.

    /// Emits the first value, then completes; completes without a value if the signal ends
    /// first (`first()` in Combine).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func first(context: Exec = .direct) -> Signal<T> {
        first(context: context) { _ in true }
    }

    /// Emits the last value when the signal completes; completes without a value if there was
    /// none. Errors pass through without a value.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func last(context: Exec = .direct) -> Signal<T> {
        last(context: context) { _ in true }
    }

    /// Emits the only value when the signal completes; fails with
    /// `SignalOperatorError.moreThanOneElement` as soon as a second one arrives, and with
    /// `.noElements` if the signal completes without one.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func single(context: Exec = .direct) -> Signal<T> {
        single(context: context) { _ in true }
    }

    /// Emits the first value for which `predicate` is true, then completes; completes without a
    /// value if the signal ends first (`first(where:)` in Combine).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func first<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
            guard try predicate(v) else { return false }
            next.send(value: v)
            next.complete()
            return true
        }
    }

    /// Emits the last value for which `predicate` is true when the signal completes; completes
    /// without a value if there was none. Errors pass through without a value.
    ///
    /// State: the latest matching value, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func last<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (kept: inout T?, v: T, _: SignalNext<T>) throws(Failure) in
                if try predicate(v) { kept = v }
                return false
            },
            end: { (kept: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .complete = e, let k = kept { next.send(value: k) }
                next.send(end: e)
            })
    }

    /// Emits the only value for which `predicate` is true when the signal completes. Fails with
    /// `SignalOperatorError.moreThanOneElement` as soon as a second one arrives, and with
    /// `.noElements` if the signal completes without one (`single` in ReactiveX).
    ///
    /// State: the matching value, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func single<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (found: inout T?, v: T, next: SignalNext<T>) throws(Failure) in
                guard try predicate(v) else { return false }
                if found != nil {
                    next.send(end: .other(SignalOperatorError.moreThanOneElement))
                    return true
                }
                found = v
                return false
            },
            end: { (found: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                switch e {
                case .complete:
                    if let f = found {
                        next.send(value: f)
                        next.complete()
                    } else {
                        next.send(end: .other(SignalOperatorError.noElements))
                    }
                default:
                    next.send(end: e)
                }
            })
    }

    /// Emits the value at `index` (counting from zero), then completes; completes without a value
    /// if the signal ends first (`elementAt`, `output(at:)`).
    ///
    /// State: a countdown, per activation.
    ///
    /// A negative `index` ends the result as soon as it is activated with
    /// `SignalArgumentError`; one past the last value completes with no value.
    ///
    /// - Parameters:
    ///   - index: the position of the value to emit, counting from zero.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of at most one value.
    @inlinable
    public func elementAt(_ index: Int, context: Exec = .direct) -> Signal<T> {
        // A negative index is an argument error (docs/operators.md, "Counts and durations at
        // their limits"), not a trap.
        if index < 0 { return hop(to: context).elementAtArgumentError(index) }
        return transform(initialState: index, context: context) { (remaining: inout Int, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if remaining == 0 {
                    next.send(value: v)
                    next.complete()
                }
                remaining -= 1
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    // MARK: - Skipping

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

    // MARK: - Taking

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

    // MARK: - Sampling

    /// Emits the latest value each time `trigger` sends a value, if a value arrived since the
    /// last sample (`sample`).
    ///
    /// Ends as RxJS does: this signal's end ends the result at once, with that end (a value
    /// still waiting for a sample is dropped; RxSwift sends it at the next trigger value
    /// instead); the trigger's error fails the result; the trigger's completion or
    /// cancellation is ignored (no more samples are taken, and the result ends with this
    /// signal).
    ///
    /// State: the latest unsampled value, per activation.
    ///
    /// - Parameters:
    ///   - trigger: the signal whose values take the samples.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the samples.
    public func sample<U: Sendable>(_ trigger: Signal<U>, context: Exec = .direct) -> Signal<T> {
        combine(trigger, initialState: T?.none, context: context) { (latest: inout T?, e: EitherResult2<T, U>, next: SignalNext<T>) in
            switch e {
            case .result1(.success(let v)):
                latest = v
            case .result2(.success):
                if let l = latest {
                    latest = nil
                    next.send(value: l)
                }
            case .result1(.failure(let end)):
                latest = nil
                next.send(end: end)
            case .result2(.failure(.other(let error))):
                latest = nil
                next.send(end: .other(error))
            case .result2(.failure):
                break
            }
        }
    }

    /// Combines each value with the latest value of `other` (values arriving before `other` has
    /// one are dropped) (`withLatestFrom`). Ends when this signal ends or `other` fails; `other`
    /// completing or being cancelled keeps its last value in use.
    ///
    /// `other` is connected before this signal, so a value it sends as it activates (the
    /// latest of a `continuous()` multi) is there for this signal's own activation value:
    /// `x.continuous(initialValue: 3).withLatestFrom(y.continuous(initialValue: 5)) { "\($0)\($1)" }`
    /// emits `"35"` at once.
    ///
    /// State: `other`'s latest value, per activation.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from each value and the latest of `other`.
    /// - Returns: the signal of the combined values.
    public func withLatestFrom<U: Sendable, V: Sendable>(
        _ other: Signal<U>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U) -> V
    ) -> Signal<V> {
        // `other` is the first input so that it is connected first (inputs are connected in
        // order): a value `other` sends as it activates (a `continuous` multi's latest) is
        // its latest by the time this signal's activation value arrives (RxJS subscribes the
        // other inputs before the source, too).
        other.combinedNode2(self, variant: delivery).transform(initialState: U?.none, context: context) { latest, r, next in
            routeCombined(r, next) { (e: EitherResult2<U, T>) in
                switch e {
                case .result2(.success(let v)):
                    if let u = latest { next.send(value: combine(v, u)) }
                case .result2(.failure(let end)):
                    next.send(end: end)
                case .result1(.success(let u)):
                    latest = u
                case .result1(.failure(.other(let error))):
                    next.send(end: .other(error))
                case .result1(.failure):
                    break
                }
            }
        }
    }

    /// Emits the latest value of `other` each time this signal sends a value (`withLatestFrom`).
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the combined values.
    public func withLatestFrom<U: Sendable>(_ other: Signal<U>, context: Exec = .direct) -> Signal<U> {
        withLatestFrom(other, context: context) { _, u in u }
    }
}
