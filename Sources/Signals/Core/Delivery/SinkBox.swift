import Synchronization

/// A node's output chain in a box of its own, so the node can hold it by an unmanaged
/// reference and call it without retaining it per value.
@usableFromInline
final class SinkBox<T: Sendable>: @unchecked Sendable {
    @usableFromInline let sink: SignalSink<T>
    /// Cleared when the chain is detached: from then on the holder skips it, even for values
    /// queued before the detach (nothing runs after `cancel()`: no stage of a cancelled chain runs
    /// after `cancel()` returns, although the node drops the chain only later).
    @usableFromInline let open = Atomic<Bool>(true)
    @usableFromInline init(_ sink: SignalSink<T>) { self.sink = sink }

    /// Delivers `result` unless the chain was closed: its value to the chain's value path,
    /// its end to the end path.
    @inlinable @inline(__always)
    func deliverIfOpen(_ result: Result<T, SignalEnd>) {
        if _fastPath(open.load(ordering: .relaxed)) { sink(result) }
    }

    /// Delivers a value unless the chain was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(value: T) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.value(value) }
    }

    /// Delivers the end unless the chain was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(end: SignalEnd) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.end(end) }
    }

    @usableFromInline func close() { open.store(false, ordering: .releasing) }
}
