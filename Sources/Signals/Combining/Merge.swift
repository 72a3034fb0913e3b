extension Signal {
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
        Signal.merging([self] + others, context: context)
    }

    /// One node fed by every signal of `all` (two or more): a value of any of them crosses
    /// that node alone, however many there are.
    @inlinable
    static func merging(_ all: [Signal<T>], context: Exec) -> Signal<T> {
        let delivery = all[0].delivery
        let node = SignalNode<Tagged<T>>(variant: delivery, newGenerationOnDeactivate: true)
        // Each output is held by its record: a refused input gives back the ones taken before
        // it, and all of them come free when the node goes.
        var records: [FeederRecord] = []
        for (i, s) in all.enumerated() {
            let record = FeederRecord(ChainFeeder(upstream: s, into: node) { n in SignalSink { r in n.forward(.success(Tagged(index: i, result: r))) } })
            guard s.takeOutput(for: record) else { return .duplicate(delivery: delivery, root: node) }
            records.append(record)
        }
        // In one change: the node applies it in one pass (a pass per feeder was quadratic).
        node.addFeeders(records)
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

/// A result tagged with the number of the input it came from: one of `merge`'s inputs, or an
/// inner signal of the flattening operators (`flatMap` and friends).
@usableFromInline
struct Tagged<T: Sendable>: Sendable {
    @usableFromInline let index: Int
    @usableFromInline let result: Result<T, SignalEnd>
    @inlinable init(index: Int, result: Result<T, SignalEnd>) {
        self.index = index
        self.result = result
    }
}

extension Signal {
    /// Every value of every source, completing when the last one completes (CwlSignal's static
    /// `merge`). With no sources it completes at once.
    ///
    /// - Parameters:
    ///   - sources: the signals to merge.
    ///   - delivery: the delivery variant of the (empty) result when there is no source.
    /// - Returns: the merged signal.
    public static func merge(_ sources: Signal<T>..., delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        merge(sequence: sources, delivery: delivery)
    }

    /// `merge(_:)` for a sequence of sources (CwlSignal's `merge(sequence:)`): one node fed by
    /// all of them, so a value crosses one node whatever the number of sources, and any number
    /// of them (100,000 tested) is subscribed and released in bounded stack.
    ///
    /// - Parameters:
    ///   - sequence: the signals to merge.
    ///   - delivery: the delivery variant of the (empty) result when there is no source.
    /// - Returns: the merged signal.
    public static func merge<S: Sequence>(sequence: S, delivery: DeliveryVariant = .lockFree) -> Signal<T>
    where S.Element == Signal<T> {
        let all = Array(sequence)
        if all.isEmpty { return .empty(delivery: delivery) }
        if all.count == 1 { return all[0] }
        // One node with a feeder per source: a value crosses one node, and activating,
        // deactivating or releasing the merge is a loop over its feeders, not a recursion
        // through a node per source.
        return merging(all, context: .direct)
    }
}
