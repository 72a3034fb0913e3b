import Synchronization

/// How a processor (`transform`, `combine`) emits results downstream. Valid only during the
/// call it was passed to: it delivers into the chain that the calling node is holding.
public struct SignalNext<T: Sendable>: Sendable {
    @usableFromInline let sink: SignalSink<T>

    /// A `next` into `downstream` that drops everything emitted after an end (one per
    /// activation of a processor stage).
    @inlinable init(guardingEnd downstream: SignalSink<T>, stopping root: NodeBase? = nil) {
        let guarded = EndGuardedSink(downstream, stopping: root)
        self.sink = SignalSink(value: { guarded.value($0) }, end: { guarded.end($0) })
    }

    /// Emits a value.
    ///
    /// - Parameter value: the value to emit.
    @inlinable @inline(__always) public func send(value: T) { sink.value(value) }
    /// Emits a value or an end. Anything emitted after an end is dropped.
    ///
    /// - Parameter result: the value or end to emit.
    @inlinable @inline(__always) public func send(result: Result<T, SignalEnd>) { sink(result) }
    /// Emits an end. Anything emitted after it is dropped.
    ///
    /// - Parameter end: the end to emit.
    @inlinable public func send(end: SignalEnd) { sink.end(end) }
    /// Emits `.complete`.
    @inlinable public func complete() { sink.end(.complete) }
}

/// The sink behind a processor's `next`: a processor may emit after its end (or emit an end
/// twice), and nothing downstream may see that. Per activation; touched only inside the
/// stage's deliveries, which its node serializes.
///
/// `stopping`: the node whose output chain this stage is in, when that node has a single output
/// and sources above it (a merge, a combine, a `generate`, a hop): the stage's end ends that
/// output, so the node stops its sources at once, before the end goes on. Otherwise the
/// sources stopped only when the subscription's detach came back up, and past the depth bound,
/// or with a node up there held by another thread, that could be after the thread that carried
/// the end to the subscriber had gone on and sent into one of them: accepted, then dropped.
@usableFromInline
final class EndGuardedSink<T: Sendable>: @unchecked Sendable {
    @usableFromInline let downstream: SignalSink<T>
    @usableFromInline let root: NodeBase?
    @usableFromInline var ended = false

    @inlinable init(_ downstream: SignalSink<T>, stopping root: NodeBase? = nil) {
        self.downstream = downstream
        self.root = root
    }

    @inlinable func value(_ v: T) {
        if !ended { downstream.value(v) }
    }

    @inlinable func end(_ e: SignalEnd) {
        if ended { return }
        ended = true
        root?.stopFeedersAfterStageEnd()
        downstream.end(e)
    }
}
