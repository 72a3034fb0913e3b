// Aggregates: one result when the signal completes (`count`, `min`, `max`, `sum`,
// `average`, `all`, `contains`, `find`, `sequenceEqual`, `toArray`).
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift).
//
// State: each aggregate keeps its running result in the per-activation state of
// `transform(initialState:)` (sequenceEqual: two queues in `combine(initialState:)`); none
// takes a lock of its own. Errors and cancellation pass through without a result.

extension Signal {
    /// Emits the number of values when the signal completes (`count`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the count.
    @inlinable
    public func count(context: Exec = .direct) -> Signal<Int> {
        reduce(initialValue: 0, context: context) { n, _ in n + 1 }
    }

    /// Emits the smallest value by `areInIncreasingOrder` when the signal completes; completes
    /// without a value if there were none (`min`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areInIncreasingOrder: true if its first argument comes before its second.
    /// - Returns: the signal of the smallest value.
    @inlinable
    public func min<Failure: Error>(context: Exec = .direct, by areInIncreasingOrder: @escaping @Sendable (T, T) throws(Failure) -> Bool) -> Signal<T> {
        keptValue(context: context) { (candidate: T, kept: T) throws(Failure) -> Bool in try areInIncreasingOrder(candidate, kept) }
    }

    /// Emits the largest value by `areInIncreasingOrder` when the signal completes; completes
    /// without a value if there were none (`max`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areInIncreasingOrder: true if its first argument comes before its second.
    /// - Returns: the signal of the largest value.
    @inlinable
    public func max<Failure: Error>(context: Exec = .direct, by areInIncreasingOrder: @escaping @Sendable (T, T) throws(Failure) -> Bool) -> Signal<T> {
        keptValue(context: context) { (candidate: T, kept: T) throws(Failure) -> Bool in try areInIncreasingOrder(kept, candidate) }
    }

    /// Emits the smallest value when the signal completes (`min`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the smallest value.
    @inlinable
    public func min(context: Exec = .direct) -> Signal<T> where T: Comparable {
        min(context: context) { $0 < $1 }
    }

    /// Emits the largest value when the signal completes (`max`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the largest value.
    @inlinable
    public func max(context: Exec = .direct) -> Signal<T> where T: Comparable {
        max(context: context) { $0 < $1 }
    }

    /// The one value of the throwing `min` and `max`: a value replaces the kept one when
    /// `replaces(candidate, kept)` is true; the first value is kept without a call. The kept
    /// value is emitted before the completion.
    @inlinable
    func keptValue<Failure: Error>(context: Exec, _ replaces: @escaping @Sendable (T, T) throws(Failure) -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (kept: inout T?, v: T, _: SignalNext<T>) throws(Failure) in
                if let k = kept {
                    if try replaces(v, k) { kept = v }
                } else {
                    kept = v
                }
                return false
            },
            end: { (kept: inout T?, e: SignalEnd, next: SignalNext<T>) throws(Failure) in
                if case .complete = e, let k = kept { next.send(value: k) }
                next.send(end: e)
            })
    }

    /// Emits the sum of the values (zero if none) when the signal completes (`sum`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the sum.
    @inlinable
    public func sum(context: Exec = .direct) -> Signal<T> where T: AdditiveArithmetic {
        reduce(initialValue: T.zero, context: context) { $0 + $1 }
    }

    /// Emits the mean of the values when the signal completes; completes without a value if
    /// there were none (`average`).
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the mean.
    @inlinable
    public func average(context: Exec = .direct) -> Signal<T> where T: FloatingPoint {
        transform(initialState: (T.zero, 0), context: context) { (s: inout (T, Int), r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                s.0 += v
                s.1 += 1
            case .failure(.complete):
                if s.1 > 0 { next.send(value: s.0 / T(s.1)) }
                next.complete()
            case .failure(let e):
                next.send(end: e)
            }
        }
    }

    /// Emits `false` and completes at the first value for which `predicate` is false, or `true`
    /// when the signal completes (`all`, `allSatisfy`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the verdict.
    @inlinable
    public func all<Failure: Error>(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<Bool> {
        verdict(context: context, decidedBy: false, predicate)
    }

    /// Emits `true` and completes at the first value for which `predicate` is true, or `false`
    /// when the signal completes (`contains(where:)`, `any`).
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the verdict.
    @inlinable
    public func contains<Failure: Error>(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<Bool> {
        verdict(context: context, decidedBy: true, predicate)
    }

    /// Emits whether the signal sends `value` (`contains`).
    ///
    /// - Parameters:
    ///   - value: the value to look for.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the verdict.
    @inlinable
    public func contains(_ value: T, context: Exec = .direct) -> Signal<Bool> where T: Equatable {
        contains(context: context) { $0 == value }
    }

    /// The verdict of the throwing `all` and `contains(where:)`.
    @inlinable
    func verdict<Failure: Error>(context: Exec, decidedBy decisive: Bool, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<Bool> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<Bool>) throws(Failure) in
                guard try predicate(v) == decisive else { return false }
                next.send(value: decisive)
                next.complete()
                return true
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<Bool>) throws(Failure) in
                if case .complete = e { next.send(value: !decisive) }
                next.send(end: e)
            })
    }

    /// Emits the first value for which `predicate` is true, or `nil` if the signal completes
    /// without one, then completes (`find`). Unlike `first(where:)`, it always emits once on
    /// completion.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against.
    /// - Returns: the signal of the value found, or nil.
    @inlinable
    public func find<Failure: Error>(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws(Failure) -> Bool) -> Signal<T?> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T?>) throws(Failure) in
                guard try predicate(v) else { return false }
                next.send(value: v)
                next.complete()
                return true
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T?>) throws(Failure) in
                if case .complete = e { next.send(value: nil) }
                next.send(end: e)
            })
    }

    /// Emits whether this signal and `other` send equal values in the same order and the same
    /// number of them (`sequenceEqual`): `false` as soon as they differ, `true` when both have
    /// completed. An error or cancellation of either ends the result with it.
    ///
    /// State: the values one signal is ahead by and which signals completed, per activation.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the verdict.
    public func sequenceEqual(_ other: Signal<T>, context: Exec = .direct) -> Signal<Bool> where T: Equatable {
        sequenceEqualCore(other, context: context) { $0 == $1 }
    }

    /// `sequenceEqual(_:context:)` comparing pairs with `areEquivalent` instead of `==` (RxJS
    /// `sequenceEqual(compareTo, comparator)`): emits `false` as soon as a pair is not
    /// equivalent or one signal has more values, `true` when both have completed with every
    /// pair equivalent. An error or cancellation of either ends the result with it.
    ///
    /// `areEquivalent` is called once per pair, in order, with this signal's value first and
    /// `other`'s second; it runs serialized (never concurrently with itself) and outside every
    /// lock, and may send into this graph's inputs (a re-entrant send is queued and delivered
    /// after it returns). Both inputs are connected when the result activates (in argument
    /// order) and released when it ends or deactivates.
    ///
    /// State: the values one signal is ahead by and which signals completed, per activation.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areEquivalent: true if the two values (this signal's, then `other`'s) count as
    ///     equal.
    /// - Returns: the signal of the verdict.
    public func sequenceEqual(
        _ other: Signal<T>, context: Exec = .direct, by areEquivalent: @escaping @Sendable (T, T) -> Bool
    ) -> Signal<Bool> {
        sequenceEqualCore(other, context: context, areEquivalent)
    }

    /// `sequenceEqual(_:context:by:)` with a throwing `areEquivalent`: a thrown error ends the
    /// result with `.other(error)` at once, with no verdict; the closure is not called again in
    /// this activation, and both inputs are released with the graph.
    ///
    /// - Parameters:
    ///   - other: the other input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - areEquivalent: true if the two values (this signal's, then `other`'s) count as
    ///     equal; throws to end the result.
    /// - Returns: the signal of the verdict.
    public func sequenceEqual(
        _ other: Signal<T>, context: Exec = .direct, by areEquivalent: @escaping @Sendable (T, T) throws -> Bool
    ) -> Signal<Bool> {
        sequenceEqualCore(other, context: context, areEquivalent)
    }

    /// The one stage of every `sequenceEqual`: the values one signal is ahead by wait for the
    /// other's; each pair is compared as it forms.
    func sequenceEqualCore(
        _ other: Signal<T>, context: Exec, _ areEquivalent: @escaping @Sendable (T, T) throws -> Bool
    ) -> Signal<Bool> {
        typealias S = (ahead: [T], aheadIsFirst: Bool, head: Int, done: InputSet, ended: Bool)
        return combine(other, initialState: S([], true, 0, InputSet(), false), context: context) {
            (s: inout S, e: EitherResult2<T, T>, next: SignalNext<Bool>) in
            if s.ended { return }
            func finish(_ verdict: Bool?, _ end: SignalEnd = .complete) {
                s = ([], true, 0, InputSet(), true)
                if let verdict { next.send(value: verdict) }
                next.send(end: end)
            }
            func value(_ v: T, fromFirst: Bool) {
                let index = fromFirst ? 0 : 1
                if s.done.contains(1 - index) && s.head == s.ahead.count { return finish(false) }
                if s.head == s.ahead.count || s.aheadIsFirst == fromFirst {
                    if s.head == s.ahead.count {
                        s.ahead.removeAll(keepingCapacity: true)
                        s.head = 0
                    }
                    s.aheadIsFirst = fromFirst
                    s.ahead.append(v)
                } else {
                    let expected = s.ahead[s.head]
                    s.head += 1
                    do {
                        let equal = try fromFirst ? areEquivalent(v, expected) : areEquivalent(expected, v)
                        if !equal { finish(false) }
                    } catch {
                        finish(nil, .other(error))
                    }
                }
            }
            func ended(_ end: SignalEnd, fromFirst: Bool) {
                guard case .complete = end else { return finish(nil, end) }
                s.done.insert(fromFirst ? 0 : 1)
                let unmatched = s.ahead.count - s.head
                if s.done.isFull(2) {
                    finish(unmatched == 0)
                } else if unmatched > 0 && s.aheadIsFirst != fromFirst {
                    // The other signal has values this one will never match.
                    finish(false)
                }
            }
            switch e {
            case .result1(.success(let v)): value(v, fromFirst: true)
            case .result2(.success(let v)): value(v, fromFirst: false)
            case .result1(.failure(let end)): ended(end, fromFirst: true)
            case .result2(.failure(let end)): ended(end, fromFirst: false)
            }
        }
    }

    /// Emits all values as one array when the signal completes (`toArray`, `collect()`).
    ///
    /// State: the array, per activation.
    ///
    /// - Parameter context: where the stage runs (`.direct`, the default, runs it inside the
    ///   delivery that reaches it).
    /// - Returns: the signal of the array.
    @inlinable
    public func toArray(context: Exec = .direct) -> Signal<[T]> {
        transform(initialState: [T](), context: context) { (all: inout [T], r: Result<T, SignalEnd>, next: SignalNext<[T]>) in
            switch r {
            case .success(let v):
                all.append(v)
            case .failure(.complete):
                next.send(value: all)
                all = []
                next.complete()
            case .failure(let e):
                all = []
                next.send(end: e)
            }
        }
    }
}
