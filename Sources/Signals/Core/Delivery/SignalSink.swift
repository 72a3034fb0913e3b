import Synchronization

/// The receiving end of every stage: one closure for values and one for the end. Sinks run
/// while their node is held, so a sink is never entered concurrently with itself.
///
/// Two closures rather than one that takes a `Result`: a value crosses a fused stage as one
/// indirect call (the value passed by address, the generic convention a closure stored here
/// keeps), instead of a `Result` built, passed by address, switched on and destroyed at every
/// stage; and a stage that only forwards the end (a `map`, a `filter`) hands the downstream
/// `end` closure on as it is, so the end costs it nothing.
///
/// A struct rather than bare function types: sinks pass through generic function types
/// (`attachChain`, stage builders), and a bare closure would be re-abstracted there (a thunk
/// per stage per value); inside a struct it keeps the one representation it was made with.
@usableFromInline package struct SignalSink<T: Sendable>: Sendable {
    /// Receives each value.
    @usableFromInline let value: @Sendable (T) -> Void
    /// Receives the end (at most once: a node delivers nothing after an end).
    @usableFromInline let end: @Sendable (SignalEnd) -> Void
    /// The value subscription whose gated entry this sink is (`ValueTerminal.sink`, so a
    /// `ValueTerminal<T>`); nil for every other sink. A `map` stage right in front of it checks
    /// the terminal's gate and calls its handler itself (`MapIntoTerminalStage`): `value` would
    /// do the same one closure call further on (docs/design/fused-stages-and-fan-out.md).
    ///
    /// Unowned and not generic, so a sink stays as cheap to copy as its two closures (a strong
    /// reference costs a retain and a release per copy: docs/design/fused-stages-and-fan-out.md,
    /// "Designs measured"). Valid for as long as the sink is: its `value` closure holds the
    /// terminal; a stage that keeps the terminal takes its own strong reference.
    @usableFromInline unowned(unsafe) let terminal: OutputTerminal?

    /// A sink with a path for values and one for the end.
    @inlinable package init(value: @escaping @Sendable (T) -> Void, end: @escaping @Sendable (SignalEnd) -> Void) {
        self.value = value
        self.end = end
        self.terminal = nil
    }

    /// A value subscription's gated sink: `value` and `end` are the terminal's own paths.
    @inlinable init(value: @escaping @Sendable (T) -> Void, end: @escaping @Sendable (SignalEnd) -> Void,
                    terminal: ValueTerminal<T>) {
        self.value = value
        self.end = end
        self.terminal = terminal
    }

    /// A sink that runs `body` for each result: for the stages that treat values and ends
    /// alike (off the per-value paths that matter; it costs one more call per value).
    @inlinable package init(_ body: @escaping @Sendable (Result<T, SignalEnd>) -> Void) {
        self.value = { body(.success($0)) }
        self.end = { body(.failure($0)) }
        self.terminal = nil
    }

    /// A sink that forwards everything into `node` (a chain feeding a node of its own), in
    /// bounded stack however many nodes are chained (`SignalNode.forward`).
    @inlinable init(forwardingInto node: SignalNode<T>) {
        self.value = { node.forward(.success($0)) }
        if node.newGenerationOnDeactivate {
            // Made as the node activates (`ChainFeeder.activate`): an end that this
            // activation's upstream delivers late (held in an `onEnd` while the node was
            // deactivated and activated again) belongs to it, and must not close the next
            // activation's queue (`forwardEnd(_:ofGeneration:)`).
            let generation = node.currentGeneration
            self.end = { node.forwardEnd($0, ofGeneration: generation) }
        } else {
            // Likewise for a node that keeps its generation (a multi, a capture): an end
            // this chain forwards after the node's feeder was stopped is not this
            // activation's (`forwardEnd(_:ofFeederEpoch:)`). Made by the node's runner.
            let epoch = node.feederEpoch.load(ordering: .relaxed)
            self.end = { node.forwardEnd($0, ofFeederEpoch: epoch) }
        }
        self.terminal = nil
    }

    /// Delivers a result: its value to `value`, its end to `end`.
    @inlinable @inline(__always)
    package func callAsFunction(_ result: Result<T, SignalEnd>) {
        switch result {
        case .success(let v): value(v)
        case .failure(let e): end(e)
        }
    }
}

/// Which path an input's `send(value:)` takes into its node (`SignalNode.sendPath`).
@usableFromInline
enum NodeSendPath: UInt8, Sendable {
    /// A `.direct` node of one activation on the lock-free variant: inlined into the send.
    case lockFreeDirect
    /// The same on the mutex variant.
    case mutexDirect
    /// An asynchronous node or a `generate` node's checked delivery: one outlined call.
    case outlined
}
