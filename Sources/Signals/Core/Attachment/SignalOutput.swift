import Dispatch
import Synchronization

/// A subscription: the handler at the end of a chain. Its lifetime keeps the graph it depends
/// on alive and active; cancelling or releasing it deactivates the part of the graph that fed
/// only it.
///
/// After `cancel()` returns, the handler is not entered again. (Called from inside the handler
/// itself, `cancel()` cannot wait for the delivery in progress, which is the caller; nothing
/// after it is delivered. On a non-direct context, a delivery already running on the context
/// may finish after `cancel()` returns.)
///
/// Once no delivery to it can still run (after `cancel()` or the end, and the detach that
/// follows), the handler and what it captured are no longer held by the signal: releasing
/// this output frees them, and the signal can be subscribed again. A chain that ends while it
/// is still being attached (a `take` behind a `.direct` source that sends inside `subscribe`)
/// stops its sources at once.
public final class SignalOutput<T: Sendable>: Lifetime, @unchecked Sendable {
    // Unchecked Sendable: `terminal` does its own synchronization.
    @usableFromInline let terminal: OutputTerminal

    /// Connects `sink`, the terminal sink built around `terminal` (in `@inlinable` code, so
    /// it is specialized for the client's types).
    @inlinable
    init(signal: Signal<T>, terminal: OutputTerminal, sink: SignalSink<T>) {
        self.terminal = terminal
        guard signal.takeOutput(by: terminal) else {
            // The terminal sink delivers this end and then closes itself.
            sink(.failure(.other(SignalBindError.duplicate)))
            return
        }
        // `DepthBounds.attaching(for:_:)` written out, so that this initializer is inlined into
        // the caller (docs/design/delivery-path.md, "Swift details that cost time").
        let bounds = DepthBounds.current
        let outer = bounds.attachmentReceiver
        bounds.attachmentReceiver = terminal
        let attachment = signal.attachChain(sink)
        bounds.attachmentReceiver = outer
        terminal.setAttachment(attachment)
    }

    /// Ends the subscription now; the handler is not called again. Idempotent.
    ///
    /// When the subscription's end is being delivered on another thread right now (its chain
    /// being detached there), this returns once that detach has finished, so the signal is free
    /// for a new subscriber as soon as `cancel()` returns; not where waiting would close a cycle
    /// of threads, nor from inside that delivery.
    public func cancel() {
        SchedulePoint.here(.cancel)
        terminal.close(end: nil)
    }

    /// Whether the subscription has ended (cancelled, or its stream ended).
    public var isClosed: Bool { terminal.closed.load(ordering: .acquiring) }

    deinit { terminal.close(end: nil) }
}
