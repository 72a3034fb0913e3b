import Synchronization

// Creating a graph whose source comes and goes with activation: `generate` and the feeder
// that runs its closure.

extension Signal {
    /// A signal whose source comes and goes with activation: `activationChange` gets a fresh
    /// input at the end of every activation and nil on every deactivation (after which the
    /// old input is disconnected). It runs on `context`.
    ///
    /// Keep the input while you want to send: like any input, releasing it sends
    /// `.cancelled`, which ends the stream.
    ///
    /// - Parameters:
    ///   - context: where `activationChange` runs.
    ///   - delivery: the delivery variant of this graph and everything derived from it.
    ///   - activationChange: receives a fresh input on each activation and nil on each deactivation.
    /// - Returns: the signal that receives what is sent into the inputs.
    public static func generate(
        context: Exec = .direct, delivery: DeliveryVariant = .lockFree,
        _ activationChange: @escaping @Sendable (SignalInput<T>?) -> Void
    ) -> Signal<T> {
        let node = SignalNode<T>(variant: delivery, newGenerationOnDeactivate: true)
        node.addFeeder(FeederRecord(GenerateFeeder(node: node, context: context, activationChange)))
        return Signal(rootedAt: node)
    }
}

/// Runs a `generate` closure on activation changes.
final class GenerateFeeder<T: Sendable>: NodeFeeder, @unchecked Sendable {
    weak var node: SignalNode<T>?
    let context: Exec
    let activationChange: @Sendable (SignalInput<T>?) -> Void

    init(node: SignalNode<T>, context: Exec, _ activationChange: @escaping @Sendable (SignalInput<T>?) -> Void) {
        self.node = node
        self.context = context
        self.activationChange = activationChange
    }

    var upstreamRoot: NodeBase? { nil }

    func activate() {
        guard let node else { return }
        let input = SignalInput(node: node, expectedActive: node.currentActiveStatus)
        run { [activationChange] in activationChange(input) }
    }

    func deactivate() {
        run { [activationChange] in activationChange(nil) }
    }

    /// Callbacks waiting to run on a non-direct context, oldest first, and whether a job is
    /// draining them. One job at a time runs them in order, so callbacks never overlap and
    /// input/nil keep their order even on a concurrent context (`.global`, `.concurrent`).
    private let pending = Mutex<(work: [@Sendable () -> Void], draining: Bool)>(([], false))

    private func run(_ work: @escaping @Sendable () -> Void) {
        if context.isDirect { work(); return }
        let startDrain = pending.withLock { p -> Bool in
            p.work.append(work)
            if p.draining { return false }
            p.draining = true
            return true
        }
        if startDrain { context.invoke { [self] in drainPending() } }
    }

    /// Runs queued callbacks (outside the lock) until none is left.
    private func drainPending() {
        while true {
            let batch = pending.withLock { p -> [@Sendable () -> Void] in
                let b = p.work
                p.work = []
                if b.isEmpty { p.draining = false }
                return b
            }
            if batch.isEmpty { return }
            for w in batch { w() }
        }
    }
}
