// Transforming operators. `map`, `compactMap` and `filter` are in the core.
//
// State: every stateful operator here keeps its state in the `initialState` of
// `transform(initialState:)` (or of a `stage`, see OperatorSupport.swift), which the core
// creates afresh on each activation and touches only from the serialized processor. No
// operator here takes a lock of its own.

/// A key and the signal of the values that `groupBy(_:)` routed to it.
public struct SignalGroup<Key: Sendable, Value: Sendable>: Sendable {
    /// The key shared by every value in `signal`.
    public let key: Key
    /// The values with this key; subscribe to it when it is delivered (values sent while it has
    /// no subscriber are dropped).
    public let signal: Signal<Value>
}

/// How the flattening operators treat a new inner signal while others are running.
@usableFromInline
enum FlattenStrategy: Sendable {
    /// Up to `limit` inner signals at once; later ones wait their turn (concatMap is a limit of 1).
    case merge(limit: Int)
    case latest, first
}

/// Per-activation state of the flattening operators.
@usableFromInline
struct FlattenState<U: Sendable>: Sendable {
    @usableFromInline var nextID = 0
    @usableFromInline var active: [Int: SignalOutput<U>] = [:]
    /// Inner signals waiting their turn, not yet subscribed (ReactiveX's rule: a waiting
    /// inner signal is subscribed only when a running one ends, so its work does not start
    /// early); dropping one leaves it unsubscribed. `waitingHead` is the next to start: the
    /// array is trimmed only when the head has passed half of it, so starting one is O(1).
    @usableFromInline var waiting: [Signal<U>] = []
    @usableFromInline var waitingHead = 0
    /// The outer signal's end, once it has ended with `.complete` or `.cancelled`.
    @usableFromInline var outerEnd: SignalEnd?
    @usableFromInline init() {}
}

extension Signal {
    // MARK: - Accumulating

    /// Emits `initialValue` combined with each value by `combine`, then the running result for
    /// every later value (`scan` in ReactiveX and Combine).
    ///
    /// State: the running result, in the stage's per-activation state.
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan<U: Sendable>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) -> U
    ) -> Signal<U> {
        accumulate(initialValue: initialValue, context: context, emitsEveryResult: true, combine)
    }

    /// Combines every value into one result, which it emits when the signal completes
    /// (`reduce` in ReactiveX and Combine). Errors and cancellation pass through without a
    /// result.
    ///
    /// State: the running result, in the stage's per-activation state.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of the result.
    @inlinable
    public func reduce<U: Sendable, Failure: Error>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) throws(Failure) -> U
    ) -> Signal<U> {
        throwingStage(
            initialState: initialValue, context: context,
            value: { (acc: inout U, v: T, _: SignalNext<U>) throws(Failure) in
                acc = try combine(acc, v)
                return false
            },
            end: { (acc: inout U, e: SignalEnd, next: SignalNext<U>) throws(Failure) in
                if case .complete = e { next.send(value: acc) }
                next.send(end: e)
            })
    }

    /// Emits the first value as it is, then, for every later value, `combine` of the running
    /// result and that value (RxJS `scan` without a seed, Kotlin's `runningReduce`): the first
    /// value is the starting result, and `combine` is first called with the second.
    ///
    /// State: the running result (none before the first value), per activation; a new
    /// activation starts again without one. Ends pass through at once, and an end lets the
    /// result go.
    ///
    /// `combine` runs serialized (never concurrently with itself) and outside every lock; it
    /// may send into this graph's inputs (a re-entrant send is queued and delivered after it
    /// returns). Releasing the output (or cancelling it) deactivates the stage and lets the
    /// running result go; `combine` is kept with the graph.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) -> T) -> Signal<T> {
        accumulateSeedless(context: context, emitsEveryResult: true, combine)
    }

    /// Combines every value into one result, the first value being the starting result, and
    /// emits it when the signal completes (RxJS `reduce` without a seed, Swift's
    /// `reduce` on the first element): `combine` is first called with the second value. An
    /// empty signal completes without a value (RxJS does too); errors and cancellation pass
    /// through without a result.
    ///
    /// State: the running result (none before the first value), per activation; a new
    /// activation starts again without one.
    ///
    /// `combine` runs serialized (never concurrently with itself) and outside every lock; it
    /// may send into this graph's inputs (a re-entrant send is queued and delivered after it
    /// returns). Releasing the output (or cancelling it) deactivates the stage and lets the
    /// running result go.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value.
    /// - Returns: the signal of the result (at most one value).
    @inlinable
    public func reduce<Failure: Error>(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) throws(Failure) -> T) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (acc: inout T?, v: T, _: SignalNext<T>) throws(Failure) in
                if let a = acc { acc = try combine(a, v) } else { acc = v }
                return false
            },
            end: { (acc: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .complete = e, let a = acc { next.send(value: a) }
                next.send(end: e)
            })
    }

    /// The running result of the seedless `scan` and `reduce`: the first value starts it.
    @inlinable
    func accumulateSeedless(context: Exec, emitsEveryResult: Bool, _ combine: @escaping @Sendable (T, T) -> T) -> Signal<T> {
        transform(initialState: T?.none, context: context) { (acc: inout T?, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                let result = acc.map { combine($0, v) } ?? v
                acc = result
                if emitsEveryResult { next.send(value: result) }
            case .failure(let e):
                let last = acc
                acc = nil
                if !emitsEveryResult, case .complete = e, let last { next.send(value: last) }
                next.send(end: e)
            }
        }
    }

    /// The running result of `scan` and `reduce`: emitted after every value
    /// (`emitsEveryResult`), or once, before the completion (errors and cancellation pass
    /// through without it).
    @inlinable
    func accumulate<U: Sendable>(
        initialValue: U,
        context: Exec,
        emitsEveryResult: Bool,
        _ combine: @escaping @Sendable (U, T) -> U
    ) -> Signal<U> {
        transform(initialState: initialValue, context: context) { (acc: inout U, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let v):
                acc = combine(acc, v)
                if emitsEveryResult { next.send(value: acc) }
            case .failure(.complete) where !emitsEveryResult:
                next.send(value: acc)
                next.complete()
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    // MARK: - Flattening

    /// Subscribes to the signal that `transform` makes of each value and merges all their values
    /// (`flatMap` in ReactiveX; `flatMap(.merge)` in ReactiveSwift).
    ///
    /// Ends once this signal and every inner signal have ended, with this signal's end; the
    /// first error (`.other`) of this signal or of an inner signal ends the result at once. As in
    /// the core's `merge`, `.cancelled` counts as an ordinary end here (an inner signal whose
    /// input was released is simply done).
    /// State: the inner subscriptions, in the stage's per-activation state; inner values reach
    /// the stage through its private input, serialized with upstream values.
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.merge(limit: .max), transform)
    }

    /// Like `flatMap(_:)`, but with at most `maxConcurrent` inner signals subscribed at once;
    /// the signals made from later values wait, in order, for a running one to complete
    /// (`flatMap(maxPublishers:)`, `merge(maxConcurrent:)`).
    ///
    /// A waiting inner signal is made (`transform` runs) when its value arrives but subscribed
    /// only when a running one ends, as in RxJS, RxSwift and Combine: a timer or a request
    /// starts then, not early. An inner signal fed by an input refuses what is sent to it
    /// before its turn (`SignalSendError.inactive`). An error ends the result at once and drops
    /// the waiting signals unsubscribed.
    ///
    /// A `maxConcurrent` of zero or less ends the result as soon as it is activated with
    /// `SignalArgumentError` (no inner signal could ever run); `Int.max` is `flatMap(_:)`.
    ///
    /// - Parameters:
    ///   - maxConcurrent: the most inner signals subscribed at once.
    ///   - transform: makes an inner signal from each value.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(
        maxConcurrent: Int,
        _ transform: @escaping @Sendable (T) -> Signal<U>
    ) -> Signal<U> {
        if maxConcurrent <= 0 {
            return argumentError("flatMap(maxConcurrent:_:)", "maxConcurrent", maxConcurrent, allowed: "1 or more")
        }
        return flatten(.merge(limit: maxConcurrent), transform)
    }

    /// Like `flatMap(_:)`, but a new value cancels the inner signal made from the previous one
    /// (`flatMapLatest` in RxSwift, `switchToLatest` in Combine).
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapLatest<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.latest, transform)
    }

    /// Like `flatMap(_:)`, but values that arrive while an inner signal is running are ignored
    /// (`flatMapFirst` in RxSwift, `exhaustMap` in RxJS).
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapFirst<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.first, transform)
    }

    /// Like `flatMap(_:)`, but inner signals run one after another, in order: the next inner
    /// signal is subscribed when the previous one completes (`concatMap`).
    ///
    /// `transform` runs when the value arrives; its signal is subscribed only when the running
    /// one ends (RxJS, RxSwift, Combine), so a timer or a request made from a value starts
    /// then. An inner signal fed by an input refuses what is sent to it before its turn
    /// (`SignalSendError.inactive`); an error drops the waiting signals unsubscribed.
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values, in order.
    public func concatMap<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.merge(limit: 1), transform)
    }

    /// Forwards the values of the latest signal this signal has delivered, cancelling the previous
    /// one (`switchLatest` in RxSwift, `switchToLatest` in Combine).
    ///
    /// - Returns: the signal of the latest inner signal's values.
    public func switchLatest<U: Sendable>() -> Signal<U> where T == Signal<U> {
        flatten(.latest) { $0 }
    }

    @usableFromInline
    func flatten<U: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (T) -> Signal<U>
    ) -> Signal<U> {
        stage(initialState: FlattenState<U>(), eventType: Tagged<U>.self) {
            (s: inout FlattenState<U>, event: StageEvent<T, Tagged<U>>, channel: StageChannel<Tagged<U>>, next: SignalNext<U>) in
            func start(_ inner: Signal<U>) {
                let id = s.nextID
                s.nextID += 1
                s.active[id] = channel.subscribe(inner) { Tagged(index: id, result: $0) }
            }
            func finish(_ end: SignalEnd) {
                s.active = [:]
                s.waiting = []
                s.waitingHead = 0
                next.send(end: end)
            }
            switch event {
            case .activated:
                break
            case .upstream(.success(let v)):
                switch strategy {
                case .merge(let limit):
                    if s.active.count < limit {
                        start(transform(v))
                    } else {
                        // Made now, subscribed when its turn comes (RxJS, RxSwift and
                        // Combine's `flatMap(maxPublishers:)` alike): a cold or timed inner
                        // signal starts its work then, and an input-fed one refuses what it is
                        // sent before its turn (`.inactive`).
                        s.waiting.append(transform(v))
                    }
                case .latest:
                    s.active = [:]  // releasing the outputs cancels them
                    start(transform(v))
                case .first:
                    if s.active.isEmpty { start(transform(v)) }
                }
            case .upstream(.failure(.other(let error))):
                finish(.other(error))
            case .upstream(.failure(let end)):
                // `.complete` or `.cancelled`: no more inner signals; wait for the running ones.
                s.outerEnd = end
                if s.active.isEmpty && s.waitingHead == s.waiting.count { finish(end) }
            case .event(let inner):
                guard s.active[inner.index] != nil else { return }  // cancelled or stale
                switch inner.result {
                case .success(let u):
                    next.send(value: u)
                case .failure(.other(let error)):
                    finish(.other(error))
                case .failure:
                    // `.complete` or `.cancelled` (its input was released): this inner is done.
                    s.active[inner.index] = nil
                    if s.waitingHead < s.waiting.count {
                        let inner = s.waiting[s.waitingHead]
                        s.waitingHead += 1
                        if s.waitingHead * 2 >= s.waiting.count {
                            s.waiting.removeFirst(s.waitingHead)
                            s.waitingHead = 0
                        }
                        start(inner)
                    } else if s.active.isEmpty, let end = s.outerEnd {
                        finish(end)
                    }
                }
            }
        }
    }

    // MARK: - Ends as values

    /// Turns every result, including the end, into a value; the result then completes
    /// (`materialize`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of results as values.
    @inlinable
    public func materialize(context: Exec = .direct) -> Signal<Result<T, SignalEnd>> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<Result<T, SignalEnd>>) in
            next.send(value: r)
            if case .failure = r { next.complete() }
        }
    }

    /// The inverse of `materialize()`: sends each `Result` as a value or an end.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the values and end.
    @inlinable
    public func dematerialize<U: Sendable>(context: Exec = .direct) -> Signal<U> where T == Result<U, SignalEnd> {
        transform(context: context) { (r: Result<Result<U, SignalEnd>, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let inner): next.send(result: inner)
            case .failure(let e): next.send(end: e)
            }
        }
    }

    /// Replaces the error of a `.other` end with `transform(error)`; values, `.complete` and
    /// `.cancelled` pass through (`mapError`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new error from the old one.
    /// - Returns: the signal with errors replaced.
    @inlinable
    public func mapErrors<Failure: Error>(
        context: Exec = .direct,
        _ transform: @escaping @Sendable (any Error) throws(Failure) -> any Error
    ) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) throws(Failure) in
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .other(let error) = e {
                    next.send(end: .other(try transform(error)))
                } else {
                    next.send(end: e)
                }
            })
    }

    // MARK: - Dropping repeats

    /// Drops values for which `isEquivalent(previous, value)` is true, where `previous` is the
    /// last value let through (`distinctUntilChanged`, `removeDuplicates`).
    ///
    /// State: the last value let through, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - isEquivalent: true if the two values count as the same.
    /// - Returns: the signal of the values let through.
    @inlinable
    public func distinctUntilChanged<Failure: Error>(
        context: Exec = .direct,
        by isEquivalent: @escaping @Sendable (T, T) throws(Failure) -> Bool
    ) -> Signal<T> {
        throwingStage(initialState: T?.none, context: context) { (last: inout T?, v: T, next: SignalNext<T>) throws(Failure) in
            if let l = last, try isEquivalent(l, v) { return false }
            last = v
            next.send(value: v)
            return false
        }
    }

    /// Drops values equal to the previous value let through.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the values let through.
    @inlinable
    public func distinctUntilChanged(context: Exec = .direct) -> Signal<T> where T: Equatable {
        distinctUntilChanged(context: context) { $0 == $1 }
    }

    /// Drops every value equal to one let through before, during this activation (`distinct`).
    ///
    /// State: a `Set` of every value seen, per activation (it grows with the number of distinct
    /// values).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the values let through.
    @inlinable
    public func distinct(context: Exec = .direct) -> Signal<T> where T: Hashable {
        transform(initialState: Set<T>(), context: context) { (seen: inout Set<T>, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                if seen.insert(v).inserted { next.send(value: v) }
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Drops every value whose `key` equals that of a value let through before, during this
    /// activation (RxJS `distinct(keySelector)`, Kotlin's `distinctBy`).
    ///
    /// State: a `Set` of the keys seen, per activation (it grows with the number of distinct
    /// keys; an end or deactivation lets it go, and a new activation starts empty).
    ///
    /// `key` runs serialized (never concurrently with itself), once per value, outside every
    /// lock; it may send into this graph's inputs (a re-entrant send is queued and delivered
    /// after it returns). Ends pass through at once.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key a value is told apart by.
    /// - Returns: the signal of the values let through.
    public func distinct<K: Hashable & Sendable, Failure: Error>(context: Exec = .direct, by key: @escaping @Sendable (T) throws(Failure) -> K) -> Signal<T> {
        distinctKeyed(context: context, key)
    }

    /// Drops every value equal to one let through since activation or since `flushes` last
    /// sent a value (RxJS `distinct(undefined, flushes)`): each value of `flushes` forgets
    /// the values seen.
    ///
    /// Ends: this signal's end ends the result; an error of `flushes` ends it at once with
    /// that error; the completion or cancellation of `flushes` is ignored (no more flushes,
    /// as RxJS). `flushes` is connected with this signal when the result activates and
    /// released when the result ends or deactivates (inputs connect in argument order).
    ///
    /// State: a `Set` of the values seen since the last flush, per activation.
    ///
    /// - Parameters:
    ///   - flushes: each of its values empties the set of values seen (its single output
    ///     is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the values let through.
    public func distinct<F: Sendable>(flushes: Signal<F>, context: Exec = .direct) -> Signal<T> where T: Hashable {
        distinctFlushed(flushes: flushes, context: context) { $0 }
    }

    /// `distinct(flushes:context:)` telling values apart by `key` (RxJS
    /// `distinct(keySelector, flushes)`): drops every value whose key was seen since
    /// activation or the last flush. `key` runs serialized, once per value, outside every
    /// lock.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - flushes: each of its values empties the set of keys seen (its single output is
    ///     taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key a value is told apart by.
    /// - Returns: the signal of the values let through.
    public func distinct<F: Sendable, K: Hashable & Sendable, Failure: Error>(
        flushes: Signal<F>, context: Exec = .direct, by key: @escaping @Sendable (T) throws(Failure) -> K
    ) -> Signal<T> {
        distinctFlushed(flushes: flushes, context: context, key)
    }

    /// The keyed `distinct` without flushes.
    func distinctKeyed<K: Hashable & Sendable>(context: Exec, _ key: @escaping @Sendable (T) throws -> K) -> Signal<T> {
        throwingStage(initialState: Set<K>(), context: context) { (seen: inout Set<K>, v: T, next: SignalNext<T>) in
            let k = try key(v)
            if seen.insert(k).inserted { next.send(value: v) }
            return false
        }
    }

    /// The `distinct` forms with flushes: every value of `flushes` empties the set of keys.
    func distinctFlushed<F: Sendable, K: Hashable & Sendable>(
        flushes: Signal<F>, context: Exec, _ key: @escaping @Sendable (T) throws -> K
    ) -> Signal<T> {
        typealias S = (seen: Set<K>, ended: Bool)
        return combine(flushes, initialState: S([], false), context: context) {
            (s: inout S, e: EitherResult2<T, F>, next: SignalNext<T>) in
            if s.ended { return }
            func end(_ end: SignalEnd) {
                s = ([], true)
                next.send(end: end)
            }
            switch e {
            case .result1(.success(let v)):
                do {
                    let k = try key(v)
                    if s.seen.insert(k).inserted { next.send(value: v) }
                } catch {
                    end(.other(error))
                }
            case .result1(.failure(let e)):
                end(e)
            case .result2(.success):
                s.seen.removeAll()
            case .result2(.failure(.other(let error))):
                end(.other(error))
            case .result2(.failure):
                break
            }
        }
    }

    // MARK: - Grouping

    /// Collects values into arrays of `count` (`buffer(count:)`, `collect(_:)`); when the signal
    /// completes, a last, shorter array is emitted if values are left over. Errors drop them.
    ///
    /// State: the array being filled, per activation.
    ///
    /// A `count` of zero or less completes as soon as the result is activated (CwlSignal's
    /// `buffer(count: 0)`; the same rule as `window(count:)` and `buffer(count:skip:)`); a huge
    /// `count` collects everything into one array, emitted at the completion.
    ///
    /// - Parameters:
    ///   - count: the most values in one array.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of arrays.
    @inlinable
    public func buffer(count: Int, context: Exec = .direct) -> Signal<[T]> {
        if count <= 0 { return hop(to: context).completingOnActivation() }
        return transform(initialState: [T](), context: context) { (buf: inout [T], r: Result<T, SignalEnd>, next: SignalNext<[T]>) in
            switch r {
            case .success(let v):
                buf.append(v)
                if buf.count == count {
                    let full = buf
                    buf.removeAll(keepingCapacity: true)
                    next.send(value: full)
                }
            case .failure(.complete):
                if !buf.isEmpty { next.send(value: buf) }
                buf = []
                next.complete()
            case .failure(let e):
                buf = []
                next.send(end: e)
            }
        }
    }

    /// Emits the values collected since the previous emission each time `boundary` sends a value,
    /// empty arrays included (`buffer(boundary:)`, RxJS `buffer(notifier)`). When this signal
    /// completes, the values left (if any) are emitted before the completion; errors drop them.
    /// The boundary's completion or cancellation is ignored; its error ends the result.
    ///
    /// State: the array being filled, per activation.
    ///
    /// - Parameters:
    ///   - boundary: the signal whose values emit each array (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of arrays.
    public func buffer<U: Sendable>(boundary: Signal<U>, context: Exec = .direct) -> Signal<[T]> {
        combine(boundary, initialState: [T](), context: context) { (buf: inout [T], e: EitherResult2<T, U>, next: SignalNext<[T]>) in
            switch e {
            case .result1(.success(let v)):
                buf.append(v)
            case .result1(.failure(.complete)):
                if !buf.isEmpty { next.send(value: buf) }
                buf = []
                next.complete()
            case .result1(.failure(let end)):
                buf = []
                next.send(end: end)
            case .result2(.success):
                let full = buf
                buf = []
                next.send(value: full)
            case .result2(.failure(.other(let error))):
                buf = []
                next.send(end: .other(error))
            case .result2(.failure):
                break
            }
        }
    }

    /// Splits the values into consecutive signals of `count` values each (`window(count:)`).
    ///
    /// Windows use this signal's delivery variant. Each window is delivered before its first
    /// value is sent into it: subscribe to it inside
    /// the handler that receives it (values sent to a window without a subscriber are dropped).
    /// The end of this signal ends the open window too.
    /// State: the open window's input and its count, per activation.
    ///
    /// A `count` of zero or less completes as soon as the result is activated (the same rule
    /// as `buffer(count:)`); a huge `count` keeps one window open until the end.
    ///
    /// - Parameters:
    ///   - count: the most values in one window.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of windows.
    public func window(count: Int, context: Exec = .direct) -> Signal<Signal<T>> {
        if count <= 0 { return hop(to: context).endingOnActivation(.complete) }
        let delivery = self.delivery
        return transform(initialState: (SignalInput<T>?.none, 0), context: context) {
            (s: inout (SignalInput<T>?, Int), r: Result<T, SignalEnd>, next: SignalNext<Signal<T>>) in
            switch r {
            case .success(let v):
                let input: SignalInput<T>
                if let open = s.0 {
                    input = open
                } else {
                    let (i, signal) = Signal<T>.create(delivery: delivery)
                    input = i
                    s = (i, 0)
                    next.send(value: signal)
                }
                input.send(value: v)
                s.1 += 1
                if s.1 == count {
                    input.complete()
                    s = (nil, 0)
                }
            case .failure(let e):
                s.0?.send(end: e)
                s = (nil, 0)
                next.send(end: e)
            }
        }
    }

    /// Routes each value to a signal per key (`groupBy`): a `SignalGroup` is delivered the first
    /// time a key is seen, then that key's values go to its signal. The end of this signal ends
    /// every group.
    ///
    /// Subscribe to each group's signal inside the handler that receives it.
    /// State: a dictionary from key to the group's input, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, Failure: Error>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws(Failure) -> K
    ) -> Signal<SignalGroup<K, T>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: [K: SignalInput<T>](), context: context,
            value: { (groups: inout [K: SignalInput<T>], v: T, next: SignalNext<SignalGroup<K, T>>) throws(Failure) in
                let k = try key(v)
                if let input = groups[k] {
                    input.send(value: v)
                } else {
                    let (input, signal) = Signal<T>.create(delivery: delivery)
                    groups[k] = input
                    next.send(value: SignalGroup(key: k, signal: signal))
                    input.send(value: v)
                }
                return false
            },
            end: { (groups: inout [K: SignalInput<T>], e: SignalEnd, next: SignalNext<SignalGroup<K, T>>) throws(Failure) in
                for input in groups.values { input.send(end: e) }
                groups = [:]
                next.send(end: e)
            },
            failure: { (groups: inout [K: SignalInput<T>], error: any Error, next: SignalNext<SignalGroup<K, T>>) in
                for input in groups.values { input.send(end: .other(error)) }
                groups = [:]
                next.send(end: .other(error))
            })
    }

    /// `groupBy(context:_:)` with an element selector (RxJS `groupBy(key, { element })`): routes
    /// each value to the group of its key, as `element(value)`. A `SignalGroup` is delivered the
    /// first time a key is seen, before `element` runs for that value; then that key's
    /// elements go to its signal. The end of this signal ends every group (oldest first) and
    /// then the result with the same end.
    ///
    /// Subscribe to each group's signal inside the handler that receives it. `key` and
    /// `element` run on the stage, one value at a time (never concurrently), once per value.
    /// Releasing the result's output ends every open group with `.cancelled`.
    /// State: a dictionary from key to the group's input, per activation; released at the end.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value.
    ///   - element: what of each value its group sends.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable, Failure: Error>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        element: @escaping @Sendable (T) throws(Failure) -> E
    ) -> Signal<SignalGroup<K, E>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: KeyedGroups<K, E>(), context: context,
            value: { (s: inout KeyedGroups<K, E>, v: T, next: SignalNext<SignalGroup<K, E>>) throws(Failure) in
                let k = try key(v)
                let input = s.input(for: k, delivery: delivery, next)
                let e = try element(v)
                input.send(value: e)
                return false
            },
            end: { (s: inout KeyedGroups<K, E>, e: SignalEnd, next: SignalNext<SignalGroup<K, E>>) throws(Failure) in
                s.end(e, next)
            },
            failure: { (s: inout KeyedGroups<K, E>, error: any Error, next: SignalNext<SignalGroup<K, E>>) in
                s.end(.other(error), next)
            })
    }

    /// `groupBy(_:)` with a duration selector (RxJS `groupBy(key, { duration })`): routes each
    /// value to the group of its key, and each group lasts until the signal `duration` makes
    /// for it sends its first value or ends. A later value with that key opens a fresh group
    /// (a new `SignalGroup`, and `duration` called again), as RxJS does.
    ///
    /// What ends a group: its duration signal's first value, completion or cancellation
    /// (the group completes); its duration signal's error (the group fails with it, the
    /// result and the other groups go on: RxJS's rule); the end of this signal (every open
    /// group, oldest first, then the result, with that end); or releasing the result's output
    /// (every open group ends with `.cancelled`). A duration signal that cannot be subscribed
    /// (its output already taken: `SignalBindError.duplicate`; a loop:
    /// `SignalBindError.loop`) fails its group with that error.
    ///
    /// `duration` is called once per group, right after the group is delivered and before
    /// its first value is sent, with a `SignalGroup` of the same key whose signal sends the
    /// group's values too (after the group's own subscriber gets each), so a duration can
    /// count them (`{ $0.signal.skip(2) }`); it may also ignore it (a timer). The duration
    /// signal's results reach the stage through its serialized queue, so a group always
    /// gets the value its duration reacts to before it closes.
    ///
    /// Lifetimes: a closed group's state (its input, its duration subscription and the
    /// view's input) is released when it closes, so a long-lived source with many
    /// short-lived keys holds only the open groups. Subscribe to each group's signal inside
    /// the handler that receives it.
    /// State: a dictionary from key to the open group, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - key: the key of each value.
    ///   - duration: makes the signal whose first value or end closes a group.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, D: Sendable, Failure: Error>(
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        duration: @escaping @Sendable (SignalGroup<K, T>) throws(Failure) -> Signal<D>
    ) -> Signal<SignalGroup<K, T>> {
        groupsWithDuration(key: key, element: { $0 }, duration: duration)
    }

    /// `groupBy(_:duration:)` with an element selector (RxJS `groupBy(key, element,
    /// duration)` and `groupBy(key, { element, duration })`): each group sends
    /// `element(value)` for the values of its key, and lasts until the signal `duration` makes
    /// for it sends its first value or ends (every rule of `groupBy(_:duration:)`: what ends
    /// a group, the duration signal's error failing its group only, a fresh group for a key
    /// seen again, the release of a closed group's state).
    ///
    /// For a new key the order is RxJS's: the group is delivered, `duration` is called with
    /// a `SignalGroup` whose signal sends the group's elements, then `element` runs and its
    /// result is sent. Each closure runs on the stage, one value at a time.
    /// State: a dictionary from key to the open group, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - key: the key of each value.
    ///   - element: what of each value its group sends.
    ///   - duration: makes the signal whose first value or end closes a group.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable, D: Sendable, Failure: Error>(
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        element: @escaping @Sendable (T) throws(Failure) -> E,
        duration: @escaping @Sendable (SignalGroup<K, E>) throws(Failure) -> Signal<D>
    ) -> Signal<SignalGroup<K, E>> {
        groupsWithDuration(key: key, element: element, duration: duration)
    }

    /// The duration forms of `groupBy`, throwing closures or not: a thrown error ends every
    /// open group (oldest first) and then the result with `.other(error)`, and the stage
    /// ignores everything after (see ThrowingTransforms.swift). State per activation: the
    /// open groups by key, the next group id, whether the stage has ended.
    func groupsWithDuration<K: Hashable & Sendable, E: Sendable, D: Sendable>(
        key: @escaping @Sendable (T) throws -> K,
        element: @escaping @Sendable (T) throws -> E,
        duration: @escaping @Sendable (SignalGroup<K, E>) throws -> Signal<D>
    ) -> Signal<SignalGroup<K, E>> {
        let delivery = self.delivery
        typealias S = DurationGroups<K, E>
        return stage(initialState: S(), eventType: GroupDurationEnd<K>.self) {
            (s: inout S, e: StageEvent<T, GroupDurationEnd<K>>, channel: StageChannel<GroupDurationEnd<K>>, next: SignalNext<SignalGroup<K, E>>) in
            if s.ended { return }
            switch e {
            case .activated:
                break
            case .upstream(.success(let v)):
                do {
                    let k = try key(v)
                    if s.open[k] == nil {
                        let id = s.nextID
                        s.nextID &+= 1
                        let (input, signal) = Signal<E>.create(delivery: delivery)
                        let (view, viewSignal) = Signal<E>.create(delivery: delivery)
                        s.open[k] = DurationGroup(id: id, input: input, view: view)
                        next.send(value: SignalGroup(key: k, signal: signal))
                        let closing = try duration(SignalGroup(key: k, signal: viewSignal))
                        // Every result of the duration signal comes back as an event; the
                        // first one closes the group, later ones find another id (or none).
                        s.open[k]?.duration = channel.subscribe(closing) { r in
                            if case .failure(.other(let error)) = r {
                                return GroupDurationEnd(key: k, id: id, end: .other(error))
                            }
                            return GroupDurationEnd(key: k, id: id, end: .complete)
                        }
                    }
                    let value = try element(v)
                    if let group = s.open[k] {
                        group.input.send(value: value)
                        group.view.send(value: value)
                    }
                } catch {
                    s.end(.other(error), next)
                }
            case .upstream(.failure(let end)):
                s.end(end, next)
            case .event(let closed):
                guard let group = s.open[closed.key], group.id == closed.id else { return }
                s.open[closed.key] = nil
                group.duration?.cancel()
                group.input.send(end: closed.end)
                group.view.send(end: closed.end)
            }
        }
    }

    /// Pairs each value with its index, counting from zero on each activation (`enumerated`).
    ///
    /// State: the next index, per activation.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of indexed values.
    @inlinable
    public func enumerated(context: Exec = .direct) -> Signal<(index: Int, element: T)> {
        transform(initialState: 0, context: context) { (n: inout Int, r: Result<T, SignalEnd>, next: SignalNext<(index: Int, element: T)>) in
            switch r {
            case .success(let v):
                next.send(value: (index: n, element: v))
                n += 1
            case .failure(let e):
                next.send(end: e)
            }
        }
    }
}

/// The open groups of `groupBy(_:element:)` (a transform): the input of each by key, and the
/// order they opened in, for ending them oldest first.
struct KeyedGroups<K: Hashable & Sendable, E: Sendable>: Sendable {
    var inputs: [K: SignalInput<E>] = [:]
    var order: [K] = []

    /// The input of `key`'s group, opening the group (and delivering it) if it is new.
    mutating func input(for key: K, delivery: DeliveryVariant, _ next: SignalNext<SignalGroup<K, E>>) -> SignalInput<E> {
        if let input = inputs[key] { return input }
        let (input, signal) = Signal<E>.create(delivery: delivery)
        inputs[key] = input
        order.append(key)
        next.send(value: SignalGroup(key: key, signal: signal))
        return input
    }

    /// Ends every group, oldest first, then the result; lets them go.
    mutating func end(_ end: SignalEnd, _ next: SignalNext<SignalGroup<K, E>>) {
        let (inputs, order) = (self.inputs, self.order)
        self = KeyedGroups()
        for k in order { inputs[k]?.send(end: end) }
        next.send(end: end)
    }
}

/// An open group of the duration forms of `groupBy`: its id (a key seen again after its
/// group closed gets a new one), its input, the input of the view its duration closure was
/// given, and the subscription to its duration signal.
struct DurationGroup<E: Sendable>: Sendable {
    let id: Int
    let input: SignalInput<E>
    let view: SignalInput<E>
    var duration: (any Lifetime)? = nil
}

/// A duration signal's first result, as an event of its `groupBy` stage: the group it closes
/// and the end it closes it with.
struct GroupDurationEnd<K: Hashable & Sendable>: Sendable {
    let key: K
    let id: Int
    let end: SignalEnd
}

/// The per-activation state of the duration forms of `groupBy`.
struct DurationGroups<K: Hashable & Sendable, E: Sendable>: Sendable {
    var open: [K: DurationGroup<E>] = [:]
    var nextID = 0
    var ended = false

    /// Ends every open group (their duration subscriptions first, then the groups oldest
    /// first), then the result; lets them go and ignores everything after.
    mutating func end(_ end: SignalEnd, _ next: SignalNext<SignalGroup<K, E>>) {
        let groups = open.values.sorted { $0.id < $1.id }
        self = DurationGroups(ended: true)
        for g in groups { g.duration?.cancel() }
        for g in groups {
            g.input.send(end: end)
            g.view.send(end: end)
        }
        next.send(end: end)
    }
}
