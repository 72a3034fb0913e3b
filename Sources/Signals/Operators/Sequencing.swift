// Sequencing operators: `startWith`, `endWith`, `concat`, `race`, `switchIfEmpty`,
// `defaultIfEmpty`. (`combineLatest` and `zip` are in Combining/CombineLatestAndZip.swift,
// `merge` in Combining/Merge.swift.)
//
// State: buffers of a later input (concat, switchIfEmpty) or the winner's index (race), in the
// per-activation state of `combine(initialState:)`; none takes a lock of its own.

extension Signal {
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
    /// before its turn are buffered and emitted when its turn comes. This is CwlSignal's rule;
    /// RxJS subscribes a later signal only when the previous one completes, so a cold later
    /// signal (a timer, a request) starts early here. For that lazy order, make the signals
    /// inside a `concatMap`, which subscribes each only when its turn comes.
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
    /// completes empty (and discarded once this signal sends a value). This is CwlSignal's
    /// rule; RxJS subscribes `other` only when this signal completes empty, so a cold `other`
    /// starts early here (README, "Where Signals differs from CwlSignal", says why).
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
