// Throwing forms of the transforming operators (`map`, `compactMap`, `filter` of the core,
// `scan`, `reduce`, `distinctUntilChanged(by:)`, `groupBy` and its element and duration
// forms, `mapErrors`).
//
// The convention, for every operator that takes a closure: an overload with the same name
// and labels whose closure `throws`. Swift picks the non-throwing overload for a closure that
// does not throw (it matches without a function conversion), so existing code, key paths
// and `$0` closures keep the original operator and its cost; a closure whose body has a `try`
// outside a `do`/`catch` (or a throwing function passed by name) picks the throwing one.
//
// The rule, the same in every throwing form: a thrown error ends the result with
// `.other(error)` at once. The stage stops there: its closure is not called again in that
// activation, later upstream results are dropped, and what it held (its state, open groups,
// inner subscriptions) is let go. A new activation starts afresh.
//
// State: like the non-throwing forms, each keeps its state in the per-activation state of
// `transform(initialState:)`, touched only from the serialized processor; no lock.

/// The per-activation state of a throwing stage: the operator's own state and whether the
/// stage has ended (by an end from upstream, one of its own or a throw).
@usableFromInline
struct ThrowingStageState<S: Sendable>: Sendable {
    @usableFromInline var state: S
    @usableFromInline var ended = false
    @inlinable init(_ state: S) { self.state = state }
}

extension Signal {
    /// The stage every throwing operator is built on: `value` handles each value and returns
    /// true when it has ended the stage itself (`first(where:)` completing); `end` handles the
    /// end from upstream; `failure` sends the end for a thrown error (by default
    /// `.other(error)`). After any end the stage ignores everything and its state goes back to
    /// `initialState`, which releases what it held.
    @inlinable
    func throwingStage<S: Sendable, U: Sendable>(
        initialState: S,
        context: Exec,
        value: @escaping @Sendable (inout S, T, SignalNext<U>) throws -> Bool,
        end: @escaping @Sendable (inout S, SignalEnd, SignalNext<U>) throws -> Void = { _, e, next in next.send(end: e) },
        failure: @escaping @Sendable (inout S, any Error, SignalNext<U>) -> Void = { _, error, next in next.send(end: .other(error)) }
    ) -> Signal<U> {
        transform(initialState: ThrowingStageState(initialState), context: context) {
            (s: inout ThrowingStageState<S>, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            if s.ended { return }
            do {
                switch r {
                case .success(let v):
                    s.ended = try value(&s.state, v, next)
                case .failure(let e):
                    s.ended = true
                    try end(&s.state, e, next)
                }
            } catch {
                s.ended = true
                failure(&s.state, error, next)
            }
            if s.ended { s.state = initialState }
        }
    }

    // MARK: - Core transforms

    /// `map(context:_:)` with a throwing `transform`: each value is transformed; a thrown
    /// error ends the result with `.other(error)` at once (`tryMap` in Combine).
    ///
    /// After a throw `transform` is not called again in this activation and later upstream
    /// results are dropped; a new activation starts afresh. A closure that does not throw
    /// picks the non-throwing `map`, whose cost is unchanged.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value, or throws to end the result.
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<U>(context: Exec = .direct, _ transform: @escaping @Sendable (T) throws -> U) -> Signal<U> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<U>) in
            next.send(value: try transform(v))
            return false
        }
    }

    /// `map(initialState:context:_:)` with a throwing `transform`: transforms each value with
    /// state that lives for one activation; a thrown error ends the result with
    /// `.other(error)` at once, and the state goes back to `initialState` for the next
    /// activation.
    ///
    /// - Parameters:
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: updates the state and makes the new value, or throws to end the result
    ///     (changes it made to the state before throwing are dropped with the state).
    /// - Returns: the signal of transformed values.
    @inlinable
    public func map<S: Sendable, U>(
        initialState: S, context: Exec = .direct, _ transform: @escaping @Sendable (inout S, T) throws -> U
    ) -> Signal<U> {
        throwingStage(initialState: initialState, context: context) { (s: inout S, v: T, next: SignalNext<U>) in
            next.send(value: try transform(&s, v))
            return false
        }
    }

    /// `filter(context:_:)` with a throwing `isIncluded`: passes the values for which it
    /// returns true; a thrown error ends the result with `.other(error)` at once (`tryFilter`
    /// in Combine). The value it threw for is not passed.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - isIncluded: true for the values to keep; throws to end the result.
    /// - Returns: the signal of the kept values.
    @inlinable
    public func filter(context: Exec = .direct, _ isIncluded: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) in
            if try isIncluded(v) { next.send(value: v) }
            return false
        }
    }

    /// `compactMap(context:_:)` with a throwing `transform`: passes the non-nil results; a
    /// thrown error ends the result with `.other(error)` at once (`tryCompactMap` in Combine).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new value, nil to drop it, or throws to end the result.
    /// - Returns: the signal of the non-nil results.
    @inlinable
    public func compactMap<U>(context: Exec = .direct, _ transform: @escaping @Sendable (T) throws -> U?) -> Signal<U> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<U>) in
            if let u = try transform(v) { next.send(value: u) }
            return false
        }
    }

    // MARK: - Accumulating

    /// `scan(initialValue:context:_:)` with a throwing `combine`: emits the running result
    /// after every value; a thrown error ends the result with `.other(error)` at once
    /// (`tryScan` in Combine), without a result for that value. The running result starts
    /// again from `initialValue` on the next activation.
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan<U: Sendable>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) throws -> U
    ) -> Signal<U> {
        throwingStage(initialState: initialValue, context: context) { (acc: inout U, v: T, next: SignalNext<U>) in
            acc = try combine(acc, v)
            next.send(value: acc)
            return false
        }
    }

    /// `reduce(initialValue:context:_:)` with a throwing `combine`: emits the one result when
    /// the signal completes; a thrown error ends the result with `.other(error)` at once
    /// (`tryReduce` in Combine), with no result. Errors and cancellation from upstream pass
    /// through without a result.
    ///
    /// - Parameters:
    ///   - initialValue: the starting result.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of the result.
    @inlinable
    public func reduce<U: Sendable>(
        initialValue: U,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (U, T) throws -> U
    ) -> Signal<U> {
        throwingStage(
            initialState: initialValue, context: context,
            value: { (acc: inout U, v: T, _: SignalNext<U>) in
                acc = try combine(acc, v)
                return false
            },
            end: { (acc: inout U, e: SignalEnd, next: SignalNext<U>) in
                if case .complete = e { next.send(value: acc) }
                next.send(end: e)
            })
    }

    /// `scan(context:_:)` (seedless) with a throwing `combine`: emits the first value as it
    /// is, then the running result after every later value; a thrown error ends the result
    /// with `.other(error)` at once, without a result for that value. The first value is
    /// passed without a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of running results.
    @inlinable
    public func scan(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) throws -> T) -> Signal<T> {
        throwingStage(initialState: T?.none, context: context) { (acc: inout T?, v: T, next: SignalNext<T>) in
            let result = try acc.map { try combine($0, v) } ?? v
            acc = result
            next.send(value: result)
            return false
        }
    }

    /// `reduce(context:_:)` (seedless) with a throwing `combine`: emits the one result when
    /// the signal completes (nothing for an empty signal); a thrown error ends the result with
    /// `.other(error)` at once, with no result. The first value is taken without a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: combines the running result with a value, or throws to end the result.
    /// - Returns: the signal of the result (at most one value).
    @inlinable
    public func reduce(context: Exec = .direct, _ combine: @escaping @Sendable (T, T) throws -> T) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (acc: inout T?, v: T, _: SignalNext<T>) in
                acc = try acc.map { try combine($0, v) } ?? v
                return false
            },
            end: { (acc: inout T?, e: SignalEnd, next: SignalNext<T>) in
                if case .complete = e, let a = acc { next.send(value: a) }
                next.send(end: e)
            })
    }

    // MARK: - Dropping repeats

    /// `distinctUntilChanged(context:by:)` with a throwing `isEquivalent`: drops values
    /// equivalent to the last value let through; a thrown error ends the result with
    /// `.other(error)` at once (`tryRemoveDuplicates` in Combine). The first value of each
    /// activation is let through without a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - isEquivalent: true if the two values (the last let through, then the new one)
    ///     count as the same; throws to end the result.
    /// - Returns: the signal of the values let through.
    @inlinable
    public func distinctUntilChanged(
        context: Exec = .direct,
        by isEquivalent: @escaping @Sendable (T, T) throws -> Bool
    ) -> Signal<T> {
        throwingStage(initialState: T?.none, context: context) { (last: inout T?, v: T, next: SignalNext<T>) in
            if let l = last, try isEquivalent(l, v) { return false }
            last = v
            next.send(value: v)
            return false
        }
    }

    // MARK: - Errors

    /// `mapErrors(context:_:)` with a throwing `transform`: the error of a `.other` end is
    /// replaced by what `transform` returns or, if it throws, by the error it threw. Values,
    /// `.complete` and `.cancelled` pass through without a call.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - transform: makes the new error from the old one (returned or thrown).
    /// - Returns: the signal with errors replaced.
    @inlinable
    public func mapErrors(
        context: Exec = .direct,
        _ transform: @escaping @Sendable (any Error) throws -> any Error
    ) -> Signal<T> {
        throwingStage(
            initialState: (), context: context,
            value: { (_: inout Void, v: T, next: SignalNext<T>) in
                next.send(value: v)
                return false
            },
            end: { (_: inout Void, e: SignalEnd, next: SignalNext<T>) in
                if case .other(let error) = e {
                    next.send(end: .other(try transform(error)))
                } else {
                    next.send(end: e)
                }
            })
    }

    // MARK: - Grouping

    /// `groupBy(context:_:)` with a throwing `key`: routes each value to the group of its key;
    /// a thrown error ends every open group and then the result with `.other(error)` at once
    /// (as an error from upstream does). The value it threw for goes nowhere.
    ///
    /// Subscribe to each group's signal inside the handler that receives it.
    /// State: a dictionary from key to the group's input, per activation; released at the end.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value, or throws to end the result and every group.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws -> K
    ) -> Signal<SignalGroup<K, T>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: [K: SignalInput<T>](), context: context,
            value: { (groups: inout [K: SignalInput<T>], v: T, next: SignalNext<SignalGroup<K, T>>) in
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
            end: { (groups: inout [K: SignalInput<T>], e: SignalEnd, next: SignalNext<SignalGroup<K, T>>) in
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

    /// `groupBy(context:_:element:)` with a throwing `key` and `element`: routes each value to
    /// the group of its key, as `element(value)`; a throw from either ends every open group
    /// (oldest first) and then the result with `.other(error)` at once (as an error from
    /// upstream does). The value it threw for goes nowhere; a group opened for it (when
    /// `element` throws for a new key's first value) has been delivered and ends with the
    /// error.
    ///
    /// Subscribe to each group's signal inside the handler that receives it.
    /// State: a dictionary from key to the group's input, per activation; released at the end.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value, or throws to end the result and every group.
    ///   - element: what of each value its group sends, or throws likewise.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws -> K,
        element: @escaping @Sendable (T) throws -> E
    ) -> Signal<SignalGroup<K, E>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: KeyedGroups<K, E>(), context: context,
            value: { (s: inout KeyedGroups<K, E>, v: T, next: SignalNext<SignalGroup<K, E>>) in
                let k = try key(v)
                let input = s.input(for: k, delivery: delivery, next)
                let e = try element(v)
                input.send(value: e)
                return false
            },
            end: { (s: inout KeyedGroups<K, E>, e: SignalEnd, next: SignalNext<SignalGroup<K, E>>) in
                s.end(e, next)
            },
            failure: { (s: inout KeyedGroups<K, E>, error: any Error, next: SignalNext<SignalGroup<K, E>>) in
                s.end(.other(error), next)
            })
    }

    /// `groupBy(_:duration:)` with a throwing `key` and `duration`: every rule of that form
    /// (what ends a group, a duration signal's error failing its group only, a fresh group for
    /// a key seen again, the release of a closed group's state); a throw from either closure
    /// ends every open group (oldest first) and then the result with `.other(error)` at once,
    /// as an error from upstream does (RxJS's rule). When `duration` throws, the group it was
    /// called for has been delivered and ends with the error, without a value.
    ///
    /// State: a dictionary from key to the open group, per activation; released at the end.
    ///
    /// - Parameters:
    ///   - key: the key of each value, or throws to end the result and every group.
    ///   - duration: makes the signal whose first value or end closes a group, or throws
    ///     likewise.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, D: Sendable>(
        _ key: @escaping @Sendable (T) throws -> K,
        duration: @escaping @Sendable (SignalGroup<K, T>) throws -> Signal<D>
    ) -> Signal<SignalGroup<K, T>> {
        groupsWithDuration(key: key, element: { $0 }, duration: duration)
    }

    /// `groupBy(_:element:duration:)` with throwing closures: every rule of that form; a throw
    /// from `key`, `element` or `duration` ends every open group (oldest first) and then the
    /// result with `.other(error)` at once (RxJS's rule), and nothing is called after it in
    /// this activation.
    ///
    /// State: a dictionary from key to the open group, per activation; released at the end.
    ///
    /// - Parameters:
    ///   - key: the key of each value, or throws to end the result and every group.
    ///   - element: what of each value its group sends, or throws likewise.
    ///   - duration: makes the signal whose first value or end closes a group, or throws
    ///     likewise.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable, D: Sendable>(
        _ key: @escaping @Sendable (T) throws -> K,
        element: @escaping @Sendable (T) throws -> E,
        duration: @escaping @Sendable (SignalGroup<K, E>) throws -> Signal<D>
    ) -> Signal<SignalGroup<K, E>> {
        groupsWithDuration(key: key, element: element, duration: duration)
    }
}
