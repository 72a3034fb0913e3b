extension Signal {

    /// Combines this signal with another: `processor` receives every result of
    /// each, tagged with where it came from, never concurrently with itself, and emits through
    /// `next`. The stage ends when the processor sends an end.
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives each input's results as an `EitherResult2` and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<U2, V>(
        _ s2: Signal<U2>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult2<T, U2>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode2(s2).transform(context: context) { r, next in
            routeCombined(r, next) { processor($0, next) }
        }
    }

    /// `combine` with state that lives for one activation (reset on deactivation).
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives the state, each input's results as an `EitherResult2`, and `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<S: Sendable, U2, V>(
        _ s2: Signal<U2>, initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, EitherResult2<T, U2>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode2(s2).transform(initialState: initialState, context: context) { s, r, next in
            routeCombined(r, next) { processor(&s, $0, next) }
        }
    }

    /// A node that takes every result of each input, tagged; never ends by itself.
    @inlinable
    func combinedNode2<U2>(_ s2: Signal<U2>) -> Signal<EitherResult2<T, U2>> {
        combinedNode2(s2, variant: delivery)
    }

    /// `combinedNode2(_:)` on the delivery variant `variant`: for an operator whose inputs
    /// connect in another order than its receiver and argument (`takeUntil` and
    /// `withLatestFrom` connect the argument first), the result keeps the receiver's variant.
    @inlinable
    func combinedNode2<U2>(_ s2: Signal<U2>, variant: DeliveryVariant) -> Signal<EitherResult2<T, U2>> {
        let node = SignalNode<EitherResult2<T, U2>>(variant: variant, newGenerationOnDeactivate: true)
        let r1 = FeederRecord(ChainFeeder(upstream: self, into: node) { n in SignalSink { r in n.forward(.success(.result1(r))) } })
        let r2 = FeederRecord(ChainFeeder(upstream: s2, into: node) { n in SignalSink { r in n.forward(.success(.result2(r))) } })
        // Each output is held by its record: a refused input gives back the ones taken
        // before it, and all of them come free when the node goes.
        guard takeOutput(for: r1) && s2.takeOutput(for: r2) else {
            return .duplicate(delivery: variant, root: node)
        }
        node.addFeeder(r1)
        node.addFeeder(r2)
        return Signal<EitherResult2<T, U2>>(rootedAt: node)
    }

    /// Combines this signal with 2 others: `processor` receives every result of
    /// each, tagged with where it came from, never concurrently with itself, and emits through
    /// `next`. The stage ends when the processor sends an end.
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives each input's results as an `EitherResult3` and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<U2, U3, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult3<T, U2, U3>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode3(s2, s3).transform(context: context) { r, next in
            routeCombined(r, next) { processor($0, next) }
        }
    }

    /// `combine` with state that lives for one activation (reset on deactivation).
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives the state, each input's results as an `EitherResult3`, and `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<S: Sendable, U2, U3, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, EitherResult3<T, U2, U3>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode3(s2, s3).transform(initialState: initialState, context: context) { s, r, next in
            routeCombined(r, next) { processor(&s, $0, next) }
        }
    }

    /// A node that takes every result of each input, tagged; never ends by itself.
    @inlinable
    func combinedNode3<U2, U3>(_ s2: Signal<U2>, _ s3: Signal<U3>) -> Signal<EitherResult3<T, U2, U3>> {
        let node = SignalNode<EitherResult3<T, U2, U3>>(variant: delivery, newGenerationOnDeactivate: true)
        let r1 = FeederRecord(ChainFeeder(upstream: self, into: node) { n in SignalSink { r in n.forward(.success(.result1(r))) } })
        let r2 = FeederRecord(ChainFeeder(upstream: s2, into: node) { n in SignalSink { r in n.forward(.success(.result2(r))) } })
        let r3 = FeederRecord(ChainFeeder(upstream: s3, into: node) { n in SignalSink { r in n.forward(.success(.result3(r))) } })
        // Each output is held by its record: a refused input gives back the ones taken
        // before it, and all of them come free when the node goes.
        guard takeOutput(for: r1) && s2.takeOutput(for: r2) && s3.takeOutput(for: r3) else {
            return .duplicate(delivery: delivery, root: node)
        }
        node.addFeeder(r1)
        node.addFeeder(r2)
        node.addFeeder(r3)
        return Signal<EitherResult3<T, U2, U3>>(rootedAt: node)
    }

    /// Combines this signal with 3 others: `processor` receives every result of
    /// each, tagged with where it came from, never concurrently with itself, and emits through
    /// `next`. The stage ends when the processor sends an end.
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - s4: the fourth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives each input's results as an `EitherResult4` and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<U2, U3, U4, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult4<T, U2, U3, U4>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode4(s2, s3, s4).transform(context: context) { r, next in
            routeCombined(r, next) { processor($0, next) }
        }
    }

    /// `combine` with state that lives for one activation (reset on deactivation).
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - s4: the fourth input (its single output is taken).
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives the state, each input's results as an `EitherResult4`, and `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<S: Sendable, U2, U3, U4, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>, initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, EitherResult4<T, U2, U3, U4>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode4(s2, s3, s4).transform(initialState: initialState, context: context) { s, r, next in
            routeCombined(r, next) { processor(&s, $0, next) }
        }
    }

    /// A node that takes every result of each input, tagged; never ends by itself.
    @inlinable
    func combinedNode4<U2, U3, U4>(_ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>) -> Signal<EitherResult4<T, U2, U3, U4>> {
        let node = SignalNode<EitherResult4<T, U2, U3, U4>>(variant: delivery, newGenerationOnDeactivate: true)
        let r1 = FeederRecord(ChainFeeder(upstream: self, into: node) { n in SignalSink { r in n.forward(.success(.result1(r))) } })
        let r2 = FeederRecord(ChainFeeder(upstream: s2, into: node) { n in SignalSink { r in n.forward(.success(.result2(r))) } })
        let r3 = FeederRecord(ChainFeeder(upstream: s3, into: node) { n in SignalSink { r in n.forward(.success(.result3(r))) } })
        let r4 = FeederRecord(ChainFeeder(upstream: s4, into: node) { n in SignalSink { r in n.forward(.success(.result4(r))) } })
        // Each output is held by its record: a refused input gives back the ones taken
        // before it, and all of them come free when the node goes.
        guard takeOutput(for: r1) && s2.takeOutput(for: r2) && s3.takeOutput(for: r3) && s4.takeOutput(for: r4) else {
            return .duplicate(delivery: delivery, root: node)
        }
        node.addFeeder(r1)
        node.addFeeder(r2)
        node.addFeeder(r3)
        node.addFeeder(r4)
        return Signal<EitherResult4<T, U2, U3, U4>>(rootedAt: node)
    }

    /// Combines this signal with 4 others: `processor` receives every result of
    /// each, tagged with where it came from, never concurrently with itself, and emits through
    /// `next`. The stage ends when the processor sends an end.
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - s4: the fourth input (its single output is taken).
    ///   - s5: the fifth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives each input's results as an `EitherResult5` and emits through `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<U2, U3, U4, U5, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>, _ s5: Signal<U5>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult5<T, U2, U3, U4, U5>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode5(s2, s3, s4, s5).transform(context: context) { r, next in
            routeCombined(r, next) { processor($0, next) }
        }
    }

    /// `combine` with state that lives for one activation (reset on deactivation).
    ///
    /// - Parameters:
    ///   - s2: the second input (its single output is taken).
    ///   - s3: the third input (its single output is taken).
    ///   - s4: the fourth input (its single output is taken).
    ///   - s5: the fifth input (its single output is taken).
    ///   - initialState: the state each activation starts from.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - processor: receives the state, each input's results as an `EitherResult5`, and `next`.
    /// - Returns: the signal of what `processor` emits.
    @inlinable
    public func combine<S: Sendable, U2, U3, U4, U5, V>(
        _ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>, _ s5: Signal<U5>, initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, EitherResult5<T, U2, U3, U4, U5>, SignalNext<V>) -> Void
    ) -> Signal<V> {
        combinedNode5(s2, s3, s4, s5).transform(initialState: initialState, context: context) { s, r, next in
            routeCombined(r, next) { processor(&s, $0, next) }
        }
    }

    /// A node that takes every result of each input, tagged; never ends by itself.
    @inlinable
    func combinedNode5<U2, U3, U4, U5>(_ s2: Signal<U2>, _ s3: Signal<U3>, _ s4: Signal<U4>, _ s5: Signal<U5>) -> Signal<EitherResult5<T, U2, U3, U4, U5>> {
        let node = SignalNode<EitherResult5<T, U2, U3, U4, U5>>(variant: delivery, newGenerationOnDeactivate: true)
        let r1 = FeederRecord(ChainFeeder(upstream: self, into: node) { n in SignalSink { r in n.forward(.success(.result1(r))) } })
        let r2 = FeederRecord(ChainFeeder(upstream: s2, into: node) { n in SignalSink { r in n.forward(.success(.result2(r))) } })
        let r3 = FeederRecord(ChainFeeder(upstream: s3, into: node) { n in SignalSink { r in n.forward(.success(.result3(r))) } })
        let r4 = FeederRecord(ChainFeeder(upstream: s4, into: node) { n in SignalSink { r in n.forward(.success(.result4(r))) } })
        let r5 = FeederRecord(ChainFeeder(upstream: s5, into: node) { n in SignalSink { r in n.forward(.success(.result5(r))) } })
        // Each output is held by its record: a refused input gives back the ones taken
        // before it, and all of them come free when the node goes.
        guard takeOutput(for: r1) && s2.takeOutput(for: r2) && s3.takeOutput(for: r3) && s4.takeOutput(for: r4) && s5.takeOutput(for: r5) else {
            return .duplicate(delivery: delivery, root: node)
        }
        node.addFeeder(r1)
        node.addFeeder(r2)
        node.addFeeder(r3)
        node.addFeeder(r4)
        node.addFeeder(r5)
        return Signal<EitherResult5<T, U2, U3, U4, U5>>(rootedAt: node)
    }
}

/// Routes a result of a combined node: a tagged input result goes to `process`; a failure of
/// the node itself (it is only ever a refused, duplicate input) ends the stage.
@inlinable @inline(__always)
func routeCombined<E, V>(_ r: Result<E, SignalEnd>, _ next: SignalNext<V>, _ process: (E) -> Void) {
    switch r {
    case .success(let e): process(e)
    case .failure(let end): next.send(end: end)
    }
}
