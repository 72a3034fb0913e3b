// Sources with CwlSignal's names: `repeatCollection`, `start` and the static `merge`
// (`interval(_:initial:)` is with the other time sources, in Time.swift).

extension Signal {
    /// A source that runs `body` with the input on every activation, then completes. The
    /// skeleton of `repeatCollection` and `start`.
    static func sending(context: Exec, delivery: DeliveryVariant,
                        _ body: @escaping @Sendable (SignalInput<T>) -> Void) -> Signal<T> {
        generate(context: context, delivery: delivery) { input in
            guard let input else { return }
            body(input)
            input.complete()
        }
    }

    /// Sends the values of `values`, `count` times over, then completes (CwlSignal's
    /// `repeatCollection`, ReactiveX `repeat`). Restarts on every activation; stops early if
    /// a send is refused (the graph was deactivated meanwhile).
    ///
    /// - Parameters:
    ///   - values: the values of one round.
    ///   - count: how many rounds (zero or less: it only completes).
    ///   - context: where the values are sent from.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the source.
    public static func repeatCollection<C: Collection & Sendable>(
        _ values: C, count: Int, context: Exec = .direct, delivery: DeliveryVariant = .lockFree
    ) -> Signal<T> where C.Element == T {
        sending(context: context, delivery: delivery) { input in
            rounds: for _ in 0..<Swift.max(0, count) {
                for v in values where input.send(value: v) != nil { break rounds }
            }
        }
    }

    /// Sends the value `f` returns, then completes (CwlSignal's `start`, ReactiveX `start`).
    /// `f` runs on every activation, on `context`.
    ///
    /// - Parameters:
    ///   - context: where `f` runs.
    ///   - delivery: the delivery variant of the new graph.
    ///   - f: makes the value.
    /// - Returns: the source.
    public static func start(context: Exec = .direct, delivery: DeliveryVariant = .lockFree,
                             f: @escaping @Sendable () -> T) -> Signal<T> {
        sending(context: context, delivery: delivery) { input in input.send(value: f()) }
    }

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

    /// `merge(_:)` for a sequence of sources (CwlSignal's `merge(sequence:)`).
    ///
    /// - Parameters:
    ///   - sequence: the signals to merge.
    ///   - delivery: the delivery variant of the (empty) result when there is no source.
    /// - Returns: the merged signal.
    public static func merge<S: Sequence>(sequence: S, delivery: DeliveryVariant = .lockFree) -> Signal<T>
    where S.Element == Signal<T> {
        var iterator = sequence.makeIterator()
        guard let first = iterator.next() else { return .empty(delivery: delivery) }
        var merged = first
        while let next = iterator.next() { merged = merged.merge(with: next) }
        return merged
    }
}
