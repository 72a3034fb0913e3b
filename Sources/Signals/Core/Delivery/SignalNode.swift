import Dispatch
import Synchronization

/// A serialization point: values from any number of threads enter here and leave, one at a
/// time and in order, through `output` (a fused chain of `.direct` stages ending at a
/// subscriber or at the next node).
///
/// The node is generic over its value type only; the delivery variant is picked at run time
/// from a stored flag and each branch calls code specialized for its queue type, so the hot
/// path pays one predictable branch instead of an existential or a virtual call.
@usableFromInline
final class SignalNode<T: Sendable>: NodeBase, @unchecked Sendable {
    // Unchecked: `output` is touched only by the holder of the node's queue.
    @usableFromInline typealias Message = NodeMessage<T>
    @usableFromInline typealias LockFreeQueue = LockFreeDeliveryQueue<Message>
    @usableFromInline typealias MutexQueue = MutexDeliveryQueue<Message>

    @usableFromInline let variant: DeliveryVariant
    /// The delivery queue, held by an unmanaged reference so the hot path can use it without
    /// retaining it per value (the node owns it: released in `deinit`).
    @usableFromInline let queue: Unmanaged<AnyObject>
    /// Where this node's holder runs: nil for `.direct` (the sending thread delivers).
    @usableFromInline let context: Exec?
    /// `context != nil`, kept as a plain flag: testing the enum would copy it (and retain its
    /// payload) on every delivery.
    @usableFromInline let isAsync: Bool
    /// How an input's `send(value:)` enters this node, decided once here: the variant's
    /// synchronous path, inlined into the send, for a `.direct` node of one activation (what
    /// `Signal.create` makes, the common case of a lone sender); everything else (an
    /// asynchronous node, a `generate` node's checked delivery) goes through one outlined call.
    /// One byte tested per send instead of three flags (`newGenerationOnDeactivate`, the
    /// variant, `isAsync`).
    @usableFromInline let sendPath: NodeSendPath

    /// The fused chain out of this node, boxed and retained by hand so a delivery calls it
    /// through a guaranteed reference (no retain/release per value); nil while nothing is
    /// attached. Holder-only.
    @exclusivity(unchecked) @usableFromInline var outputBox: Unmanaged<SinkBox<T>>?

    /// Installs or removes the output. Holder-only (or before the node is shared). The old
    /// chain is released here, outside every lock.
    @usableFromInline var output: SignalSink<T>? {
        get { outputBox?.takeUnretainedValue().sink }
        set {
            let old = outputBox
            outputBox = newValue.map { Unmanaged.passRetained(SinkBox($0)) }
            old?.release()
        }
    }

    @usableFromInline
    init(variant: DeliveryVariant, context: Exec? = nil, newGenerationOnDeactivate: Bool = false) {
        self.variant = variant
        switch variant {
        case .lockFree: queue = Unmanaged.passRetained(LockFreeQueue())
        case .mutex: queue = Unmanaged.passRetained(MutexQueue())
        }
        if let c = context, !c.isDirect { self.context = c } else { self.context = nil }
        isAsync = self.context != nil
        if isAsync || newGenerationOnDeactivate {
            sendPath = .outlined
        } else {
            sendPath = variant == .lockFree ? .lockFreeDirect : .mutexDirect
        }
        super.init(newGenerationOnDeactivate: newGenerationOnDeactivate)
    }

    // MARK: The delivery queue

    /// Runs `lockFree` or `mutex` with this node's queue as its concrete type, as `variant`
    /// says: the one place the variant is turned into a queue type. Each closure is
    /// specialized for its queue and inlined here, so the caller pays one predictable branch on
    /// `variant` and calls into neither an existential nor a generic function; the queue is
    /// used through the node's unmanaged reference, so it is not retained for the call.
    @inlinable @inline(__always)
    func withQueue<R>(lockFree: (LockFreeQueue) -> R, mutex: (MutexQueue) -> R) -> R {
        if variant == .lockFree {
            return queue._withUnsafeGuaranteedRef { lockFree(uncheckedCast($0, to: LockFreeQueue.self)) }
        } else {
            return queue._withUnsafeGuaranteedRef { mutex(uncheckedCast($0, to: MutexQueue.self)) }
        }
    }

    /// `withQueue` for a caller that already knows the node is on the lock-free variant (an
    /// input's `sendPath` says so): no branch.
    @inlinable @inline(__always)
    func withLockFreeQueue<R>(_ body: (LockFreeQueue) -> R) -> R {
        queue._withUnsafeGuaranteedRef { body(uncheckedCast($0, to: LockFreeQueue.self)) }
    }

    /// `withQueue` for a caller that already knows the node is on the mutex variant.
    @inlinable @inline(__always)
    func withMutexQueue<R>(_ body: (MutexQueue) -> R) -> R {
        queue._withUnsafeGuaranteedRef { body(uncheckedCast($0, to: MutexQueue.self)) }
    }

    /// A value sent by an input of a `.direct` node on the mutex variant (`sendPath`
    /// `.mutexDirect`). Out of line so that `SignalInput.send(value:)`, which inlines the
    /// lock-free path, keeps that path's registers (the mutex queue's claim, inlined beside
    /// it, cost every lock-free send one more saved register); the claim is inlined here, so
    /// the mutex path is one call and no generic function shared with other element types
    /// (merged specializations took an extra argument per call).
    @inlinable @inline(never)
    func sendMutexDirect(_ value: T) -> Bool {
        withMutexQueue { deliverDirect(.success(value), through: $0) }
    }

    deinit {
        outputBox?.release()
        queue.release()
    }
}
