// Bridges between signals and Swift concurrency's `AsyncSequence`, both ways.

extension Signal {
    /// The signal's values as an `AsyncSequence` (`values` in Combine).
    ///
    /// Reading this property subscribes to the signal at once (a `Signal` has one output, so
    /// read it once); values are buffered until the sequence is iterated. Iteration finishes
    /// when the signal completes or is cancelled and throws the error of an `.other(error)`
    /// end. Cancelling the iterating task, or dropping the sequence, cancels the subscription.
    public var values: AsyncThrowingStream<T, any Error> {
        let (stream, continuation) = AsyncThrowingStream<T, any Error>.makeStream()
        let output = subscribe { r in
            switch r {
            case .success(let v): continuation.yield(v)
            case .failure(.other(let error)): continuation.finish(throwing: error)
            case .failure: continuation.finish()
            }
        }
        continuation.onTermination = { _ in output.cancel() }
        return stream
    }

    /// A signal that iterates `sequence` on every activation, in a task of its own, and sends
    /// its elements; it completes when the sequence ends and fails with what it throws.
    /// Deactivation cancels the task (`Signal(asyncSequence)`; see also
    /// `Signal.init(_:)`).
    ///
    /// State: the iterating task, per activation; its elements reach the stage through the
    /// stage's private input.
    ///
    /// - Parameters:
    ///   - sequence: the sequence iterated on each activation.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal of the elements.
    public static func from<S: AsyncSequence & Sendable>(
        asyncSequence sequence: S, delivery: DeliveryVariant = .lockFree
    ) -> Signal<T> where S.Element == T {
        Signal<Never>.never(delivery: delivery).stage(initialState: TaskLifetime?.none, eventType: Result<T, SignalEnd>.self) {
            (task: inout TaskLifetime?, e: StageEvent<Never, Result<T, SignalEnd>>, channel: StageChannel<Result<T, SignalEnd>>, next: SignalNext<T>) in
            switch e {
            case .activated:
                task = TaskLifetime(Task {
                    do {
                        for try await v in sequence {
                            if Task.isCancelled { return }
                            channel.send(.success(v))
                        }
                        channel.send(.failure(.complete))
                    } catch {
                        channel.send(.failure(.other(error)))
                    }
                })
            case .upstream:
                break
            case .event(let r):
                if case .failure = r { task = nil }
                next.send(result: r)
            }
        }
    }
}

extension Signal {
    /// A signal that iterates `sequence` on every activation and sends its elements
    /// (`Signal(asyncSequence)`); the same as `Signal.from(asyncSequence:delivery:)`.
    public convenience init<S: AsyncSequence & Sendable>(_ sequence: S, delivery: DeliveryVariant = .lockFree)
    where S.Element == T {
        let source = Signal.from(asyncSequence: sequence, delivery: delivery)
        // This initializer adopts `source`'s chain: take its output so nothing else can.
        _ = source.takeOutput()
        self.init(delivery: source.delivery, root: source.root, attachesBehindGate: source.attachesBehindGate,
                  attachChain: source.attachChain)
    }
}
