// Small sources the operators, tests and examples build on. Each is cold: it starts when
// activated and starts again on the next activation.

extension Signal {
    /// A signal that sends `values` when activated, then completes (`just`, `of`).
    ///
    /// - Parameters:
    ///   - values: the values to send.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func just(_ values: T..., delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        from(values, delivery: delivery)
    }

    /// A signal that sends the elements of `values` when activated, then completes (`from`).
    ///
    /// - Parameters:
    ///   - values: the values to send.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal of the elements.
    public static func from<S: Sequence & Sendable>(_ values: S, delivery: DeliveryVariant = .lockFree) -> Signal<T>
    where S.Element == T {
        generate(delivery: delivery) { input in
            guard let input else { return }
            for v in values { input.send(value: v) }
            input.complete()
        }
    }

    /// A signal that completes as soon as it is activated (`empty`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func empty(delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        generate(delivery: delivery) { input in input?.complete() }
    }

    /// A signal that sends nothing and never ends while active (`never`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func never(delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        // A generate input that is released sends `.cancelled`: keep it until deactivation.
        let holder = SideInputHolder<T>()
        return generate(delivery: delivery) { input in holder.replace(with: input) }
    }

    /// A signal that fails with `error` as soon as it is activated (`error`, `fail`).
    ///
    /// - Parameters:
    ///   - error: the error to end with, as `.other(error)`.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func failing(_ error: any Error, delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        generate(delivery: delivery) { input in input?.send(end: .other(error)) }
    }

    /// A signal that calls `make` on every activation and mirrors the signal it returns
    /// (`deferred`). Use it to make a fresh request per subscription.
    ///
    /// State: the made signal's subscription, per activation.
    ///
    /// - Parameter make: makes the signal to mirror, once per activation.
    /// - Returns: the signal.
    public static func deferred(_ make: @escaping @Sendable () -> Signal<T>) -> Signal<T> {
        Signal<Never>.never().stage(initialState: SignalOutput<T>?.none, eventType: Result<T, SignalEnd>.self) {
            (output: inout SignalOutput<T>?, e: StageEvent<Never, Result<T, SignalEnd>>, channel: StageChannel<Result<T, SignalEnd>>, next: SignalNext<T>) in
            switch e {
            case .activated:
                output = channel.subscribe(make()) { $0 }
            case .upstream:
                break
            case .event(let r):
                if case .failure = r { output = nil }
                next.send(result: r)
            }
        }
    }
}
