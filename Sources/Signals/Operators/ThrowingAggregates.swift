// The shared stages of `min(by:)`/`max(by:)` and of `all`/`contains(where:)`, whose closures
// are `throws(Failure)` (ThrowingTransforms.swift).

extension Signal {
    // MARK: - Aggregates

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

    // MARK: - Taps

}
