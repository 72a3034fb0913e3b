// CwlSignal's channel builders: the input and the signal of a new graph carried together
// while the signal is composed, so one expression makes both ends.
//
//     let (input, output) = Signal<Int>.channel().map { $0 + 1 }.subscribeValues { print($0) }
//
// `next(_:)` applies any composition; the most used steps are spelled out. The end of a chain
// (`subscribe…`, `tuple`) returns the input with what the chain made.

/// An input and the signal composed from it so far (CwlSignal's `SignalChannel`).
public struct SignalChannel<Input: Sendable, Value: Sendable, Output: Signal<Value>>: Sendable {
    /// The input of the graph.
    public let input: Input
    /// The signal composed so far.
    public let signal: Output

    /// Pairs an input with a signal.
    ///
    /// - Parameters:
    ///   - input: the input.
    ///   - signal: the signal composed from it.
    public init(input: Input, signal: Output) {
        self.input = input
        self.signal = signal
    }

    /// Both ends.
    public var tuple: (input: Input, signal: Output) { (input, signal) }

    /// Composes the signal further (any operator).
    ///
    /// - Parameter compose: makes the next signal from the current one.
    /// - Returns: the channel with the new signal.
    public func next<U: Sendable, O: Signal<U>>(_ compose: (Output) throws -> O) rethrows -> SignalChannel<Input, U, O> {
        SignalChannel<Input, U, O>(input: input, signal: try compose(signal))
    }

    /// `next { $0.map(context:_:) }`.
    ///
    /// - Parameters:
    ///   - context: where `transform` runs.
    ///   - transform: maps each value.
    /// - Returns: the channel with the mapped signal.
    public func map<U: Sendable>(context: Exec = .direct, _ transform: @escaping @Sendable (Value) -> U) -> SignalChannel<Input, U, Signal<U>> {
        next { $0.map(context: context, transform) }
    }

    /// `next { $0.filter(context:_:) }`.
    ///
    /// - Parameters:
    ///   - context: where `isIncluded` runs.
    ///   - isIncluded: whether a value passes.
    /// - Returns: the channel with the filtered signal.
    public func filter(context: Exec = .direct, _ isIncluded: @escaping @Sendable (Value) -> Bool) -> SignalChannel<Input, Value, Signal<Value>> {
        next { $0.filter(context: context, isIncluded) }
    }

    /// `next { $0.continuous() }`.
    ///
    /// - Returns: the channel with the multi.
    public func continuous() -> SignalChannel<Input, Value, SignalMulti<Value>> {
        next { $0.continuous() }
    }

    /// `next { $0.playback() }`.
    ///
    /// - Returns: the channel with the multi.
    public func playback() -> SignalChannel<Input, Value, SignalMulti<Value>> {
        next { $0.playback() }
    }

    /// `next { $0.multicast() }`.
    ///
    /// - Returns: the channel with the multi.
    public func multicast() -> SignalChannel<Input, Value, SignalMulti<Value>> {
        next { $0.multicast() }
    }

    /// Subscribes the signal; returns the input and the output.
    ///
    /// - Parameters:
    ///   - context: where the handler runs.
    ///   - handler: receives each result.
    /// - Returns: the input and the output (keep the output).
    public func subscribe(context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, SignalEnd>) -> Void) -> (input: Input, output: SignalOutput<Value>) {
        (input, signal.subscribe(context: context, handler))
    }

    /// Subscribes the signal for values; returns the input and the output.
    ///
    /// - Parameters:
    ///   - context: where the handler runs.
    ///   - handler: receives each value.
    /// - Returns: the input and the output (keep the output).
    public func subscribeValues(context: Exec = .direct, _ handler: @escaping @Sendable (Value) -> Void) -> (input: Input, output: SignalOutput<Value>) {
        (input, signal.subscribeValues(context: context, handler))
    }

    /// `subscribeWhile` on the signal; returns the input.
    ///
    /// - Parameters:
    ///   - context: where the handler runs.
    ///   - handler: receives each result; returns whether to go on.
    /// - Returns: the input.
    public func subscribeWhile(context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, SignalEnd>) -> Bool) -> Input {
        signal.subscribeWhile(context: context, handler)
        return input
    }

    /// `subscribeUntilEnd` on the signal; returns the input.
    ///
    /// - Parameters:
    ///   - context: where the handler runs.
    ///   - handler: receives each result.
    /// - Returns: the input.
    public func subscribeUntilEnd(context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, SignalEnd>) -> Void) -> Input {
        signal.subscribeUntilEnd(context: context, handler)
        return input
    }
}

extension Signal {
    /// A channel: a new input and its signal, to compose in one expression (CwlSignal's
    /// `Signal.channel()`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the channel.
    public static func channel(delivery: DeliveryVariant = .lockFree) -> SignalChannel<SignalInput<T>, T, Signal<T>> {
        let (input, signal) = create(delivery: delivery)
        return SignalChannel(input: input, signal: signal)
    }

    /// A channel whose input is a `SignalMergedInput` (CwlSignal's `Signal.mergedChannel()`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the channel.
    public static func mergedChannel(delivery: DeliveryVariant = .lockFree) -> SignalChannel<SignalMergedInput<T>, T, Signal<T>> {
        let (input, signal) = createMergedInput(delivery: delivery)
        return SignalChannel(input: input, signal: signal)
    }
}
