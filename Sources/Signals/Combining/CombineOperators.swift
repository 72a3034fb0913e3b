extension Signal {
    /// Emits `combiner(latestA, latestB)` each time either input emits, once both have
    /// emitted. Ends with an error from either input at once; completes when both have ended.
    ///
    /// - Parameters:
    ///   - other: the second input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combiner: makes a value from the latest value of each input.
    /// - Returns: the signal of combined values.
    @inlinable
    public func combineLatest<U: Sendable, V: Sendable>(
        _ other: Signal<U>, context: Exec = .direct, _ combiner: @escaping @Sendable (T, U) -> V
    ) -> Signal<V> {
        combine(other, initialState: LatestPair<T, U>(), context: context) { state, either, next in
            switch either {
            case .result1(.success(let a)):
                state.first = a
                if let b = state.second { next.send(value: combiner(a, b)) }
            case .result2(.success(let b)):
                state.second = b
                if let a = state.first { next.send(value: combiner(a, b)) }
            case .result1(.failure(let e)), .result2(.failure(let e)):
                if case .other = e { next.send(end: e); return }
                state.ended += 1
                if state.ended == 2 { next.send(end: e) }
            }
        }
    }

    /// Pairs the n-th value of this signal with the n-th value of `other`. Ends when either
    /// input has ended and its unpaired values are used up.
    ///
    /// - Parameters:
    ///   - other: the second input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of pairs.
    @inlinable
    public func zip<U: Sendable>(_ other: Signal<U>, context: Exec = .direct) -> Signal<(T, U)> {
        combine(other, initialState: ZipQueues<T, U>(), context: context) { state, either, next in
            switch either {
            case .result1(.success(let a)):
                if state.seconds.isEmpty { state.firsts.append(a) } else { next.send(value: (a, state.seconds.removeFirst())) }
            case .result2(.success(let b)):
                if state.firsts.isEmpty { state.seconds.append(b) } else { next.send(value: (state.firsts.removeFirst(), b)) }
            case .result1(.failure(let e)):
                if state.firsts.isEmpty || e.otherError != nil { next.send(end: e) } else { state.firstEnd = e }
            case .result2(.failure(let e)):
                if state.seconds.isEmpty || e.otherError != nil { next.send(end: e) } else { state.secondEnd = e }
            }
            if let e = state.firstEnd, state.firsts.isEmpty { next.send(end: e) }
            if let e = state.secondEnd, state.seconds.isEmpty { next.send(end: e) }
        }
    }

    /// Interleaves the values of this signal and `others` as they arrive. An error from any
    /// input ends the result at once; it completes when every input has ended.
    ///
    /// - Parameters:
    ///   - others: the other inputs (their single outputs are taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of every input's values.
    @inlinable
    public func merge(with others: Signal<T>..., context: Exec = .direct) -> Signal<T> {
        let all = [self] + others
        let node = SignalNode<Tagged<T>>(variant: delivery, newGenerationOnDeactivate: true)
        for (i, s) in all.enumerated() {
            guard s.takeOutput() else { return .duplicate(delivery: delivery, root: node) }
            node.addFeeder(FeederRecord(ChainFeeder(upstream: s, into: node) { n in SignalSink { r in n.deliver(.success(Tagged(index: i, result: r))) } }))
        }
        let count = all.count
        return Signal<Tagged<T>>(rootedAt: node).transform(initialState: 0, context: context) { ended, r, next in
            routeCombined(r, next) { tagged in
                switch tagged.result {
                case .success: next.send(result: tagged.result)
                case .failure(let e):
                    if case .other = e { next.send(end: e); return }
                    ended += 1
                    if ended == count { next.send(end: e) }
                }
            }
        }
    }
}

/// The latest value of each of two inputs.
@usableFromInline
struct LatestPair<A: Sendable, B: Sendable>: Sendable {
    @usableFromInline var first: A?
    @usableFromInline var second: B?
    @usableFromInline var ended = 0
    @inlinable init() {}
}

/// Unpaired values of each of two zipped inputs.
@usableFromInline
struct ZipQueues<A: Sendable, B: Sendable>: Sendable {
    @usableFromInline var firsts: [A] = []
    @usableFromInline var seconds: [B] = []
    @usableFromInline var firstEnd: SignalEnd?
    @usableFromInline var secondEnd: SignalEnd?
    @inlinable init() {}
}

/// A result tagged with the index of the input it came from.
@usableFromInline
struct Tagged<T: Sendable>: Sendable {
    @usableFromInline let index: Int
    @usableFromInline let result: Result<T, SignalEnd>
    @inlinable init(index: Int, result: Result<T, SignalEnd>) {
        self.index = index
        self.result = result
    }
}
