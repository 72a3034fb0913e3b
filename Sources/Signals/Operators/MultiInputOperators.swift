// Combining operators. `combineLatest` and `zip` of two signals and `merge(with:)` (any number
// of signals) are in the core; this file adds the three- to five-input forms and the
// sequencing operators.
//
// State: the latest values (combineLatest), per-input queues (zip), buffers of a later input
// (concat, switchIfEmpty) or the winner's index (race), all in the per-activation state of
// `combine(initialState:)`; none takes a lock of its own.

/// Bits of a combine state recording which inputs have completed.
@usableFromInline
struct InputSet: Sendable, Equatable {
    @usableFromInline var bits: UInt8 = 0
    /// Inputs that ended with `.cancelled` rather than `.complete`.
    @usableFromInline var cancelledBits: UInt8 = 0
    @usableFromInline init() {}
    @inlinable mutating func insert(_ i: Int) { bits |= 1 << UInt8(i) }
    @inlinable mutating func insert(_ i: Int, end: SignalEnd) {
        insert(i)
        if case .cancelled = end { cancelledBits |= 1 << UInt8(i) }
    }
    /// The end input `i` finished with (`.complete` or `.cancelled`).
    @inlinable func end(of i: Int) -> SignalEnd {
        cancelledBits & (1 << UInt8(i)) != 0 ? .cancelled : .complete
    }
    @inlinable func contains(_ i: Int) -> Bool { bits & (1 << UInt8(i)) != 0 }
    @inlinable func isFull(_ n: Int) -> Bool { bits == (1 << UInt8(n)) - 1 }
}

extension Signal {
    // MARK: - combineLatest (3 to 5 inputs)

    /// Emits `combine` of the latest value of each signal whenever any of them sends a value, once
    /// all have sent at least one (`combineLatest`). Ends when all inputs have ended, or when one
    /// ends without ever sending a value (with that input's end); an error (`.other`) ends it at
    /// once. As in the core's two-input form, `.cancelled` counts as an ordinary end.
    ///
    /// State: the latest value of each input and which inputs completed, per activation.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V) -> R
    ) -> Signal<R> {
        typealias S = (T?, U?, V?, InputSet)
        return self.combine(second, third, initialState: S(nil, nil, nil, InputSet()), context: context) {
            (s: inout S, e: EitherResult3<T, U, V>, next: SignalNext<R>) in
            func end(_ i: Int, _ hasValue: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.3.insert(i)
                if !hasValue || s.3.isFull(3) { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0 = v
            case .result2(.success(let v)): s.1 = v
            case .result3(.success(let v)): s.2 = v
            case .result1(.failure(let e)): return end(0, s.0 != nil, e)
            case .result2(.failure(let e)): return end(1, s.1 != nil, e)
            case .result3(.failure(let e)): return end(2, s.2 != nil, e)
            }
            if let a = s.0, let b = s.1, let c = s.2 { next.send(value: combine(a, b, c)) }
        }
    }

    /// Four-input `combineLatest`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W) -> R
    ) -> Signal<R> {
        typealias S = (T?, U?, V?, W?, InputSet)
        return self.combine(second, third, fourth, initialState: S(nil, nil, nil, nil, InputSet()), context: context) {
            (s: inout S, e: EitherResult4<T, U, V, W>, next: SignalNext<R>) in
            func end(_ i: Int, _ hasValue: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.4.insert(i)
                if !hasValue || s.4.isFull(4) { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0 = v
            case .result2(.success(let v)): s.1 = v
            case .result3(.success(let v)): s.2 = v
            case .result4(.success(let v)): s.3 = v
            case .result1(.failure(let e)): return end(0, s.0 != nil, e)
            case .result2(.failure(let e)): return end(1, s.1 != nil, e)
            case .result3(.failure(let e)): return end(2, s.2 != nil, e)
            case .result4(.failure(let e)): return end(3, s.3 != nil, e)
            }
            if let a = s.0, let b = s.1, let c = s.2, let d = s.3 { next.send(value: combine(a, b, c, d)) }
        }
    }

    /// Five-input `combineLatest`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - fifth: the fifth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, X: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, _ fifth: Signal<X>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W, X) -> R
    ) -> Signal<R> {
        typealias S = (T?, U?, V?, W?, X?, InputSet)
        return self.combine(second, third, fourth, fifth, initialState: S(nil, nil, nil, nil, nil, InputSet()), context: context) {
            (s: inout S, e: EitherResult5<T, U, V, W, X>, next: SignalNext<R>) in
            func end(_ i: Int, _ hasValue: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.5.insert(i)
                if !hasValue || s.5.isFull(5) { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0 = v
            case .result2(.success(let v)): s.1 = v
            case .result3(.success(let v)): s.2 = v
            case .result4(.success(let v)): s.3 = v
            case .result5(.success(let v)): s.4 = v
            case .result1(.failure(let e)): return end(0, s.0 != nil, e)
            case .result2(.failure(let e)): return end(1, s.1 != nil, e)
            case .result3(.failure(let e)): return end(2, s.2 != nil, e)
            case .result4(.failure(let e)): return end(3, s.3 != nil, e)
            case .result5(.failure(let e)): return end(4, s.4 != nil, e)
            }
            if let a = s.0, let b = s.1, let c = s.2, let d = s.3, let x = s.4 {
                next.send(value: combine(a, b, c, d, x))
            }
        }
    }

    // MARK: - zip (3 to 5 inputs)

    /// Pairs the n-th values of each signal (`zip`). Ends as soon as an input has ended and all its
    /// values have been used (with that input's end); an error (`.other`) ends it at once. As in
    /// the core's two-input form, `.cancelled` counts as an ordinary end.
    ///
    /// State: a queue of unpaired values per input and which inputs completed, per activation
    /// (a fast input's queue grows while a slow one lags).
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, context: Exec = .direct
    ) -> Signal<(T, U, V)> {
        typealias S = ([T], [U], [V], InputSet)
        return combine(second, third, initialState: S([], [], [], InputSet()), context: context) {
            (s: inout S, e: EitherResult3<T, U, V>, next: SignalNext<(T, U, V)>) in
            func end(_ i: Int, _ isDrained: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.3.insert(i, end: end)
                if isDrained { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0.append(v)
            case .result2(.success(let v)): s.1.append(v)
            case .result3(.success(let v)): s.2.append(v)
            case .result1(.failure(let e)): return end(0, s.0.isEmpty, e)
            case .result2(.failure(let e)): return end(1, s.1.isEmpty, e)
            case .result3(.failure(let e)): return end(2, s.2.isEmpty, e)
            }
            guard !s.0.isEmpty, !s.1.isEmpty, !s.2.isEmpty else { return }
            next.send(value: (s.0.removeFirst(), s.1.removeFirst(), s.2.removeFirst()))
            let drained = [s.0.isEmpty, s.1.isEmpty, s.2.isEmpty]
            if let i = drained.indices.first(where: { drained[$0] && s.3.contains($0) }) {
                next.send(end: s.3.end(of: i))
            }
        }
    }

    /// Four-input `zip`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable, W: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, context: Exec = .direct
    ) -> Signal<(T, U, V, W)> {
        typealias S = ([T], [U], [V], [W], InputSet)
        return combine(second, third, fourth, initialState: S([], [], [], [], InputSet()), context: context) {
            (s: inout S, e: EitherResult4<T, U, V, W>, next: SignalNext<(T, U, V, W)>) in
            func end(_ i: Int, _ isDrained: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.4.insert(i, end: end)
                if isDrained { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0.append(v)
            case .result2(.success(let v)): s.1.append(v)
            case .result3(.success(let v)): s.2.append(v)
            case .result4(.success(let v)): s.3.append(v)
            case .result1(.failure(let e)): return end(0, s.0.isEmpty, e)
            case .result2(.failure(let e)): return end(1, s.1.isEmpty, e)
            case .result3(.failure(let e)): return end(2, s.2.isEmpty, e)
            case .result4(.failure(let e)): return end(3, s.3.isEmpty, e)
            }
            guard !s.0.isEmpty, !s.1.isEmpty, !s.2.isEmpty, !s.3.isEmpty else { return }
            next.send(value: (s.0.removeFirst(), s.1.removeFirst(), s.2.removeFirst(), s.3.removeFirst()))
            let drained = [s.0.isEmpty, s.1.isEmpty, s.2.isEmpty, s.3.isEmpty]
            if let i = drained.indices.first(where: { drained[$0] && s.4.contains($0) }) {
                next.send(end: s.4.end(of: i))
            }
        }
    }

    /// Five-input `zip`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - fifth: the fifth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable, W: Sendable, X: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, _ fifth: Signal<X>,
        context: Exec = .direct
    ) -> Signal<(T, U, V, W, X)> {
        typealias S = ([T], [U], [V], [W], [X], InputSet)
        return combine(second, third, fourth, fifth, initialState: S([], [], [], [], [], InputSet()), context: context) {
            (s: inout S, e: EitherResult5<T, U, V, W, X>, next: SignalNext<(T, U, V, W, X)>) in
            func end(_ i: Int, _ isDrained: Bool, _ end: SignalEnd) {
                if case .other = end { return next.send(end: end) }
                s.5.insert(i, end: end)
                if isDrained { next.send(end: end) }
            }
            switch e {
            case .result1(.success(let v)): s.0.append(v)
            case .result2(.success(let v)): s.1.append(v)
            case .result3(.success(let v)): s.2.append(v)
            case .result4(.success(let v)): s.3.append(v)
            case .result5(.success(let v)): s.4.append(v)
            case .result1(.failure(let e)): return end(0, s.0.isEmpty, e)
            case .result2(.failure(let e)): return end(1, s.1.isEmpty, e)
            case .result3(.failure(let e)): return end(2, s.2.isEmpty, e)
            case .result4(.failure(let e)): return end(3, s.3.isEmpty, e)
            case .result5(.failure(let e)): return end(4, s.4.isEmpty, e)
            }
            guard !s.0.isEmpty, !s.1.isEmpty, !s.2.isEmpty, !s.3.isEmpty, !s.4.isEmpty else { return }
            next.send(value: (s.0.removeFirst(), s.1.removeFirst(), s.2.removeFirst(), s.3.removeFirst(), s.4.removeFirst()))
            let drained = [s.0.isEmpty, s.1.isEmpty, s.2.isEmpty, s.3.isEmpty, s.4.isEmpty]
            if let i = drained.indices.first(where: { drained[$0] && s.5.contains($0) }) {
                next.send(end: s.5.end(of: i))
            }
        }
    }

    // MARK: - Sequencing

    /// Emits `values` when the signal is activated, before any of its own values (`startWith`,
    /// `prepend`).
    ///
    /// - Parameter values: the values to emit first.
    /// - Returns: the signal with `values` first.
    public func startWith(_ values: T...) -> Signal<T> {
        startWith(contentsOf: values)
    }

    /// Emits the elements of `values` when the signal is activated, before any of its own values.
    ///
    /// State: none beyond the stage's own (upstream results that arrive before the activation
    /// event are held until it; see OperatorSupport.swift).
    ///
    /// - Parameter values: the values to emit first.
    /// - Returns: the signal with `values` first.
    public func startWith(contentsOf values: [T]) -> Signal<T> {
        stage(initialState: (), eventType: Never.self) { (_: inout Void, e: StageEvent<T, Never>, _, next: SignalNext<T>) in
            switch e {
            case .activated: for v in values { next.send(value: v) }
            case .upstream(let r): next.send(result: r)
            case .event: break
            }
        }
    }

    /// Emits `values` after the signal's own values when it completes, then completes (`endWith`,
    /// `append`). Errors and cancellation pass through without them.
    ///
    /// - Parameters:
    ///   - values: the values to emit after completion.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal with `values` last.
    @inlinable
    public func endWith(_ values: T..., context: Exec = .direct) -> Signal<T> {
        transform(context: context) { (r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success: next.send(result: r)
            case .failure(.complete):
                for v in values { next.send(value: v) }
                next.complete()
            case .failure(let e): next.send(end: e)
            }
        }
    }

    /// Emits this signal's values, then, once it completes, those of each of `others` in turn
    /// (`concat`). Completes when the last completes; an error or cancellation ends it at once.
    ///
    /// All signals are connected when the result activates (a `Signal` has exactly one
    /// subscriber for its lifetime, so it cannot be subscribed late): values a later signal sends
    /// before its turn are buffered and emitted when its turn comes.
    /// State: the later signal's buffer and end, per activation.
    ///
    /// - Parameter others: the signals to continue with, in order (their single outputs are taken).
    /// - Returns: the signal of every input's values, one input after another.
    public func concat(_ others: Signal<T>...) -> Signal<T> {
        others.reduce(self) { $0.concatPair($1) }
    }

    func concatPair(_ second: Signal<T>) -> Signal<T> {
        typealias S = (firstDone: Bool, buffer: [T], secondEnd: SignalEnd?)
        return combine(second, initialState: S(false, [], nil)) { (s: inout S, e: EitherResult2<T, T>, next: SignalNext<T>) in
            switch e {
            case .result1(.success(let v)):
                next.send(value: v)
            case .result1(.failure(.complete)):
                s.firstDone = true
                for v in s.buffer { next.send(value: v) }
                s.buffer = []
                if let end = s.secondEnd { next.send(end: end) }
            case .result1(.failure(let end)):
                s.buffer = []
                next.send(end: end)
            case .result2(.success(let v)):
                if s.firstDone { next.send(value: v) } else { s.buffer.append(v) }
            case .result2(.failure(let end)):
                if s.firstDone { next.send(end: end) } else { s.secondEnd = end }
            }
        }
    }

    /// Mirrors whichever of this signal and `others` sends something (a value or an end) first,
    /// ignoring the rest (`race`, `amb`).
    ///
    /// State: which input won, per activation.
    ///
    /// - Parameter others: the other competitors (their single outputs are taken).
    /// - Returns: the signal of the winner's results.
    public func race(_ others: Signal<T>...) -> Signal<T> {
        others.reduce(self) { $0.racePair($1) }
    }

    func racePair(_ second: Signal<T>) -> Signal<T> {
        combine(second, initialState: 0) { (winner: inout Int, e: EitherResult2<T, T>, next: SignalNext<T>) in
            switch e {
            case .result1(let r):
                if winner == 0 { winner = 1 }
                if winner == 1 { next.send(result: r) }
            case .result2(let r):
                if winner == 0 { winner = 2 }
                if winner == 2 { next.send(result: r) }
            }
        }
    }

    /// Mirrors this signal; if it completes without sending a value, mirrors `other` instead
    /// (`switchIfEmpty`, `ifEmpty(switchTo:)`).
    ///
    /// `other` is connected when the result activates; its values are buffered until this signal
    /// completes empty (and discarded once this signal sends a value).
    /// State: whether this signal sent a value, `other`'s buffer and end, per activation.
    ///
    /// - Parameter other: the signal to mirror if this one completes empty.
    /// - Returns: the signal of this signal's values, or of `other`'s.
    public func switchIfEmpty(_ other: Signal<T>) -> Signal<T> {
        typealias S = (sawValue: Bool, switched: Bool, buffer: [T], otherEnd: SignalEnd?)
        return combine(other, initialState: S(false, false, [], nil)) { (s: inout S, e: EitherResult2<T, T>, next: SignalNext<T>) in
            switch e {
            case .result1(.success(let v)):
                s.sawValue = true
                s.buffer = []
                next.send(value: v)
            case .result1(.failure(.complete)) where !s.sawValue:
                s.switched = true
                for v in s.buffer { next.send(value: v) }
                s.buffer = []
                if let end = s.otherEnd { next.send(end: end) }
            case .result1(.failure(let end)):
                next.send(end: end)
            case .result2(.success(let v)):
                if s.switched { next.send(value: v) } else if !s.sawValue { s.buffer.append(v) }
            case .result2(.failure(let end)):
                if s.switched { next.send(end: end) } else { s.otherEnd = end }
            }
        }
    }

    /// Emits `value` if the signal completes without sending a value (`defaultIfEmpty`,
    /// `replaceEmpty(with:)`).
    ///
    /// State: whether a value was seen, per activation.
    ///
    /// - Parameters:
    ///   - value: the value to emit if none was sent.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of this signal's values, or of `value`.
    @inlinable
    public func defaultIfEmpty(_ value: T, context: Exec = .direct) -> Signal<T> {
        transform(initialState: false, context: context) { (sawValue: inout Bool, r: Result<T, SignalEnd>, next: SignalNext<T>) in
            switch r {
            case .success(let v):
                sawValue = true
                next.send(value: v)
            case .failure(.complete):
                if !sawValue { next.send(value: value) }
                next.complete()
            case .failure(let e):
                next.send(end: e)
            }
        }
    }
}
