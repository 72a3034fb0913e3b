// Creating a graph: `create` returns the two ends of a new channel.

extension Signal {
    /// Makes a new graph: an input to send on and the signal that receives.
    ///
    /// - Parameter delivery: the delivery variant of this graph and everything derived from it.
    ///
    /// - Returns: the input that sends and the signal that receives.
    @inlinable
    public static func create(delivery: DeliveryVariant = .lockFree) -> (input: SignalInput<T>, signal: Signal<T>) {
        let node = SignalNode<T>(variant: delivery)
        let input = SignalInput(node: node, expectedActive: NodeStatus.make(generation: 0, state: NodeStatus.active))
        return (input, Signal(rootedAt: node))
    }

    /// Makes a new graph and passes its signal through `compose` (for example
    /// `{ $0.continuous() }`), returning the input and what `compose` returned.
    ///
    /// - Parameters:
    ///   - delivery: the delivery variant of this graph and everything derived from it.
    ///   - compose: transforms the new signal (for example `{ $0.continuous() }`).
    /// - Returns: the input that sends and what `compose` returned.
    @inlinable
    public static func create<U>(
        delivery: DeliveryVariant = .lockFree, compose: (Signal<T>) throws -> U
    ) rethrows -> (input: SignalInput<T>, composed: U) {
        let (input, signal) = create(delivery: delivery)
        return (input, try compose(signal))
    }
}
