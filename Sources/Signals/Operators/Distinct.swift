// `distinctUntilChanged` and `distinct` (by value or by key, with or without flushes).
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).
//
// State: the last value let through, or a `Set` of what was seen, per activation; no lock.

extension Signal {
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
}
