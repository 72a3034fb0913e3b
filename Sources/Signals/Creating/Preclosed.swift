// Creating a shareable graph that is already closed: `preclosed`, whose values and end every
// subscriber receives as activation values.

extension Signal {
    /// A shareable signal that is already closed: every subscriber (any number, at any time)
    /// receives `values` and then `end` as activation values, so a `capture()` of it captures
    /// them (`capture.values`, `capture.end`). Compare `just`/`from`, which are cold sources:
    /// their values are ordinary values, sent again on each activation.
    ///
    /// - Parameters:
    ///   - values: the values every subscriber receives first.
    ///   - end: the end that follows them (`.complete` unless given).
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the closed signal; its output can be taken any number of times.
    public static func preclosed(_ values: T..., end: SignalEnd = .complete,
                                 delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        preclosed(sequence: values, end: end, delivery: delivery)
    }

    /// A shareable signal that is already closed, with the elements of `sequence` as its
    /// activation values, then `end` (see `preclosed(_:end:delivery:)`).
    ///
    /// - Parameters:
    ///   - sequence: the values every subscriber receives first.
    ///   - end: the end that follows them (`.complete` unless given).
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the closed signal; its output can be taken any number of times.
    public static func preclosed<S: Sequence>(sequence: S, end: SignalEnd = .complete,
                                              delivery: DeliveryVariant = .lockFree) -> Signal<T>
    where S.Element == T {
        // A playback multi holds every value and the end, and replays them to each branch as
        // its activation; the input is closed here, so nothing else can ever be sent.
        let (input, multi) = Signal<T>.create(delivery: delivery) { $0.playback() }
        for v in sequence { _ = input.send(value: v) }
        _ = input.send(end: end)
        return multi
    }
}
