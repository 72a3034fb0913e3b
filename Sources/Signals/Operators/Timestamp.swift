// Time stamps: `timestamp` and `timeInterval`, read from `context.now()`.

extension Signal {
    /// Pairs each value with `context.now()` at the moment it passes (`timestamp`).
    ///
    /// - Parameter context: where its timers run and whose clock it reads (`.global` by default;
    ///   `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of timestamped values.
    @inlinable
    public func timestamp(context: Exec = .global) -> Signal<Timestamped<T>> {
        map { Timestamped(value: $0, time: context.now()) }
    }

    /// Pairs each value with the time since the previous value, or since activation for the
    /// first (`timeInterval`), measured on `context`'s clock.
    ///
    /// State: the time of the previous value (or of activation), per activation.
    ///
    /// - Parameter context: where its timers run and whose clock it reads (`.global` by default;
    ///   `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of the values with their intervals.
    public func timeInterval(context: Exec = .global) -> Signal<TimeIntervalled<T>> {
        stage(initialState: Duration.zero, eventType: Never.self) {
            (last: inout Duration, e: StageEvent<T, Never>, _, next: SignalNext<TimeIntervalled<T>>) in
            switch e {
            case .activated:
                last = context.now()
            case .upstream(.success(let v)):
                let now = context.now()
                next.send(value: TimeIntervalled(value: v, interval: Duration.saturatingDifference(now, last)))
                last = now
            case .upstream(.failure(let end)):
                next.send(end: end)
            case .event:
                break
            }
        }
    }
}
