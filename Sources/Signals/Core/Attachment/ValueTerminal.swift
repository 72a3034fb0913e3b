import Synchronization

/// The terminal of a value subscription, holding its handler.
@usableFromInline
final class ValueTerminal<T: Sendable>: OutputTerminal, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (T) -> Void

    @inlinable init(_ handler: @escaping @Sendable (T) -> Void) {
        self.handler = handler
        super.init()
    }

    /// Values go to the handler until cancel or the end; the end only closes the terminal.
    /// The sink names this terminal, so a `map` right in front of it calls `value(_:)` itself.
    @inlinable var sink: SignalSink<T> {
        SignalSink(value: { [self] v in value(v) }, end: { [self] e in endWithoutHandler(e) }, terminal: self)
    }

    /// The sink for a signal that attaches it behind a gate of its own
    /// (`Signal.attachesBehindGate`): values go straight to the handler. Cancelling closes the
    /// terminal and then detaches, which closes that gate before `cancel()` returns, so the
    /// handler is not entered after it; an end arrives after the last value.
    @inlinable var ungatedSink: SignalSink<T> {
        SignalSink(value: handler, end: { [self] e in endWithoutHandler(e) })
    }

    /// The gate and the handler: nothing is delivered once the terminal is closed.
    @inlinable @inline(__always) func value(_ v: T) {
        if closed.load(ordering: .relaxed) { return }
        handler(v)
    }
}

/// The terminal of a result subscription, holding its handler.
@usableFromInline
final class ResultTerminal<T: Sendable>: OutputTerminal, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (Result<T, SignalEnd>) -> Void

    @inlinable init(_ handler: @escaping @Sendable (Result<T, SignalEnd>) -> Void) {
        self.handler = handler
        super.init()
    }

    /// Every result goes to the handler until cancel or the end; the end then disconnects
    /// the chain.
    @inlinable var sink: SignalSink<T> {
        SignalSink(value: { [self] v in value(v) }, end: { [self] e in end(e) })
    }

    @inlinable func value(_ v: T) {
        if closed.load(ordering: .relaxed) { return }
        handler(.success(v))
    }

    @inlinable func end(_ e: SignalEnd) {
        if closed.load(ordering: .relaxed) { return }
        closed.store(true, ordering: .releasing)
        handler(.failure(e))
        requestDetach(end: e)
    }
}
