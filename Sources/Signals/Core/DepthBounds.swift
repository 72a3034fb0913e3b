#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What keeps activation and node-to-node delivery in bounded stack, however many nodes a
/// graph chains: one object per thread that counts how deep this thread is nested in each, and
/// holds the work deferred past a bound.
///
/// Activating a node starts its feeders, and a feeder attaches to the node above it, which
/// starts its own feeders (deactivating likewise); a value delivered by a node's holder into
/// the next node is delivered by that node's holder, on the same thread, into the next. Both
/// nest once per node, so a chain of 100,000 `multicast()` nodes overflowed a 512 KiB stack.
/// Now each nests at most `maxDepth` levels: past that, an activation run or a hand-over is
/// appended to this thread's list and returns at once, and the outermost frame of that kind
/// on the thread runs the list in a loop, first in first out, before it returns. So all of it
/// still happens within the call that started it (a `subscribe`, a `cancel()`, a `send`), on
/// the same thread, outside every lock; a graph shallower than the bound (every graph the
/// library builds for itself) runs exactly as it did, paying one thread-local read per
/// hand-over and per activation run.
@usableFromInline
final class DepthBounds {
    /// How many activation runs, and separately how many node-to-node hand-overs, nest on one
    /// thread before the next is deferred: deep enough that ordinary graphs rarely reach it,
    /// shallow enough that both together (a replay inside an activation inside a delivery …),
    /// each with a fused chain of up to `Signal.fusedDepthLimit` stages inside, stay well
    /// inside a 512 KiB stack in a debug build (8 × 64 stages nest about 1,100 frames).
    @inlinable static var maxDepth: Int { 8 }

    // Every field is touched only by its own thread (the object is reached only through the
    // thread's key), so none needs the runtime's exclusivity checks: on the hand-over path
    // they cost more than the rest of it (fanout +2.8 instructions per delivery with them).

    /// Hand-overs from one node's holder into the next node now nested on this thread.
    @exclusivity(unchecked) @usableFromInline var deliveryDepth = 0
    /// Hand-overs deferred at the bound, and where the loop that runs them has got to.
    @exclusivity(unchecked) @usableFromInline var deliveries: [() -> Void] = []
    @exclusivity(unchecked) var deliveryHead = 0

    /// Activation runs (`NodeBase.runActivation`) now nested on this thread.
    @exclusivity(unchecked) var activationDepth = 0
    /// Nodes whose activation run was deferred at the bound. Each is marked running (this
    /// thread is its runner), so other threads' changes to it wait in its state for this run.
    @exclusivity(unchecked) var activations: [NodeBase] = []
    @exclusivity(unchecked) var activationHead = 0

    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<DepthBounds>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<DepthBounds>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(made == 0, "pthread_key_create failed: \(made)")
        return key
    }()

    /// This thread's object: made on the thread's first use, freed when the thread exits.
    @inlinable static var current: DepthBounds {
        if let p = pthread_getspecific(key) { return Unmanaged<DepthBounds>.fromOpaque(p).takeUnretainedValue() }
        return makeCurrent()
    }

    @usableFromInline static func makeCurrent() -> DepthBounds {
        let made = DepthBounds()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Appends a hand-over for the outermost one on this thread to run.
    @usableFromInline func deferDelivery(_ work: @escaping () -> Void) {
        deliveries.append(work)
    }

    /// Runs the deferred hand-overs, in the order they were deferred, each from depth one
    /// (so it may nest up to the bound again). Called by the outermost hand-over, at depth 0.
    @usableFromInline func runDeferredDeliveries() {
        while deliveryHead < deliveries.count {
            let work = deliveries[deliveryHead]
            // Let go now: it holds the value and the node.
            deliveries[deliveryHead] = {}
            deliveryHead += 1
            deliveryDepth = 1
            work()
            deliveryDepth = 0
        }
        deliveries.removeAll(keepingCapacity: deliveries.capacity <= 1024)
        deliveryHead = 0
    }

    /// Runs `node`'s activation changes now, or, past the bound, after the outermost
    /// activation run on this thread (see the type's comment). The caller is the node's runner.
    func runActivation(of node: NodeBase) {
        if activationDepth >= Self.maxDepth {
            activations.append(node)
            return
        }
        activationDepth += 1
        node.applyActivationChanges()
        activationDepth -= 1
        if activationDepth == 0 && activationHead < activations.count { runDeferredActivations() }
    }

    private func runDeferredActivations() {
        while activationHead < activations.count {
            let node = activations[activationHead]
            activationHead += 1
            activationDepth = 1
            node.applyActivationChanges()
            activationDepth = 0
        }
        // The nodes are let go here, all together, by the outermost run: one that is freed
        // hands what it holds to the thread's pending releases (no recursion).
        activations.removeAll(keepingCapacity: activations.capacity <= 1024)
        activationHead = 0
    }
}

extension SignalNode {
    /// Delivers `result` into this node from the holder of another node (a chain feeding
    /// it): as `deliver(_:)`, except that past `DepthBounds.maxDepth` nested hand-overs on
    /// this thread it is deferred to the outermost one, which delivers it before it returns
    /// (see `DepthBounds`). Per-sender order holds: a node's holder hands its values on in
    /// order, and the deferred ones are delivered first in first out, each through the next
    /// node's queue as any value is.
    @inlinable @inline(__always)
    func forward(_ result: Result<T, SignalEnd>) {
        let bounds = DepthBounds.current
        let depth = bounds.deliveryDepth
        if _fastPath(depth < DepthBounds.maxDepth) {
            bounds.deliveryDepth = depth &+ 1
            deliver(result)
            bounds.deliveryDepth = depth
            if _slowPath(depth == 0 && !bounds.deliveries.isEmpty) { bounds.runDeferredDeliveries() }
        } else {
            bounds.deferDelivery { [self] in deliver(result) }
        }
    }
}

extension SignalInput {
    /// `send(result:)` made by another node's delivery (a junction bound to this input): a
    /// node-to-node hand-over like `SignalNode.forward`, so past `DepthBounds.maxDepth`
    /// nested hand-overs it is deferred to the outermost one on this thread, and a chain of
    /// any number of bound junctions delivers in bounded stack. The send's answer is not
    /// needed: a binding drops what its input refuses, as it did before.
    @usableFromInline final func sendHandedOver(_ result: Result<T, SignalEnd>) {
        let bounds = DepthBounds.current
        let depth = bounds.deliveryDepth
        if _fastPath(depth < DepthBounds.maxDepth) {
            bounds.deliveryDepth = depth &+ 1
            send(result: result)
            bounds.deliveryDepth = depth
            if _slowPath(depth == 0 && !bounds.deliveries.isEmpty) { bounds.runDeferredDeliveries() }
        } else {
            bounds.deferDelivery { [self] in send(result: result) }
        }
    }
}
