import Synchronization

extension SignalNode {
    /// Delivers `result` into this node from the holder of another node (a chain feeding
    /// it): as `deliver(_:)`, except that past `DepthBounds.maxDepth` nested hand-overs on
    /// this thread it is queued in this node at once and only the draining waits
    /// (`handOverPastTheBound`). Per-sender order holds at any depth: a node's holder hands
    /// its values on in order, and each is queued in the next node in that order, before the
    /// holder lets go of the node it came from.
    @inlinable @inline(__always)
    func forward(_ result: Result<T, SignalEnd>) {
        let bounds = DepthBounds.current
        let depth = bounds.deliveryDepth
        if _fastPath(depth < DepthBounds.maxDepth) {
            bounds.deliveryDepth = depth &+ 1
            deliver(result)
            bounds.deliveryDepth = depth
            if _slowPath(depth == 0 && bounds.hasDeferred) { bounds.runDeferred() }
        } else {
            handOverPastTheBound(.value(result), kind: result.queueKind, bounds)
        }
    }

    /// `forward(.failure(end))` for the end of generation `generation` of a node that starts
    /// a new generation on deactivation: delivered only while that generation is current
    /// (`deliverEnd(_:ofGeneration:)`), so an end its old upstream chain delivers after a
    /// re-activation is dropped instead of closing the new activation's queue.
    @inlinable
    func forwardEnd(_ end: SignalEnd, ofGeneration generation: Int) {
        handingOverEnd { deliverEnd(end, ofGeneration: generation, pastTheBound: $0, recording: false) }
    }

    /// `forward(.failure(end))` for an end forwarded by a chain that feeds a node keeping its
    /// generation (a multi, a capture), connected while the node's `feederEpoch` was `epoch`:
    /// queued only while it still is, so an end that an earlier activation's chain hands on
    /// after the feeder was stopped (and perhaps started again for a new subscription) is
    /// dropped, instead of ending the new subscription and closing the node to the values its
    /// new sources accepted. Ends only: values keep their one-call path.
    @inlinable
    func forwardEnd(_ end: SignalEnd, ofFeederEpoch epoch: Int) {
        handingOverEnd { deliverForwardedEnd(end, ofFeederEpoch: epoch, pastTheBound: $0) }
    }

    /// The depth bound around an end handed from one node's holder into this node, as
    /// `forward` does for values: within the bound, `deliver(nil)` nested one level deeper
    /// (and the deferred hand-overs run by the outermost); past it, `deliver(bounds)`, which
    /// queues the end and leaves the draining to this thread's outermost hand-over.
    @inlinable @inline(__always)
    func handingOverEnd(_ deliver: (DepthBounds?) -> Void) {
        let bounds = DepthBounds.current
        let depth = bounds.deliveryDepth
        if _fastPath(depth < DepthBounds.maxDepth) {
            bounds.deliveryDepth = depth &+ 1
            deliver(nil)
            bounds.deliveryDepth = depth
            if _slowPath(depth == 0 && bounds.hasDeferred) { bounds.runDeferred() }
        } else {
            deliver(bounds)
        }
    }

    /// Queues `end` while `feederEpoch` is `epoch`, under the activation lock, so the check
    /// and the queueing are one decision against the runner's stopping of the feeder (which
    /// moves the epoch under the same lock); then drains, or past the bound leaves the
    /// draining to this thread's outermost hand-over, as `handOverPastTheBound` does. Queuing
    /// runs no user code, so nothing runs under the lock.
    @usableFromInline
    func deliverForwardedEnd(_ end: SignalEnd, ofFeederEpoch epoch: Int, pastTheBound: DepthBounds?) {
        SchedulePoint.here(.forwardedEnd)
        let claimed = activation.withLock { _ -> Bool? in
            guard feederEpoch.load(ordering: .relaxed) == epoch else { return nil }
            // The queue's schedule points are not taken under this lock (see `deliverEnd`).
            return SchedulePoint.unscheduled { enqueueEnd(.value(.failure(end))) }
        }
        guard let claimed else { return }
        if let pastTheBound {
            stopFeedersAfterDeferredEnd()
            guard claimed else { return }
            if isAsync {
                withQueue(lockFree: { scheduleDrain($0) }, mutex: { scheduleDrain($0) })
            } else {
                pastTheBound.deferDelivery { [self] in drainHeld() }
            }
            return
        }
        guard claimed else { return }
        withQueue(lockFree: { drainAfterEnqueue($0) }, mutex: { drainAfterEnqueue($0) })
    }

    /// A hand-over past the bound: `message` is queued in this node now, in line with every
    /// other sender's, so nothing can overtake it. If that found the node idle, this thread
    /// now holds it, and the node is drained later, by the outermost hand-over on this thread
    /// (or the graph change that caused the hand-over: see `DepthBounds.runningDeferred`):
    /// until then every other sender queues behind it, and the node's end can only come after
    /// it. Only the draining is deferred, never the decision. Returns false, queuing nothing,
    /// for a value that comes after an end the node already accepted (as `deliver` does).
    @inlinable @inline(never) @discardableResult
    func handOverPastTheBound(_ message: Message, kind: QueueElementKind, _ bounds: DepthBounds) -> Bool {
        let claimed = withQueue(lockFree: { $0.enqueueAndClaimIfIdle(kind, message) }, mutex: { $0.enqueueAndClaimIfIdle(kind, message) })
        guard let claimed else { return false }
        SchedulePoint.here(.deferral)
        if kind == .end { stopFeedersAfterDeferredEnd() }
        guard claimed else { return true }
        if isAsync {
            // Drained on its context: nothing nests here.
            withQueue(lockFree: { scheduleDrain($0) }, mutex: { scheduleDrain($0) })
        } else {
            bounds.deferDelivery { [self] in drainHeld() }
        }
        return true
    }

    /// An end queued here past the bound closes this node to values, but its delivery waits
    /// for this thread's outermost hand-over (or for the node's holder), and until the end
    /// reaches the subscription, which detaches the graph, everything above this node stays
    /// active: a source up there would accept a send (nil) that the stage that ended (a
    /// `take`) then drops. In a shallow graph the end reaches the subscription before the
    /// sending thread goes on, so those sends are refused. Here the node stops its feeders at
    /// once instead: nothing they send could be accepted after the end anyway, the graph above
    /// deactivates as it does when the subscription detaches, and a send into it is refused
    /// as in the shallow graph. The node keeps its output: the queued values and the end are
    /// still delivered.
    @usableFromInline
    func stopFeedersAfterDeferredEnd() {
        updateActivation { $0.wanted = false }
    }

    /// Drains this node, which this thread holds (claimed by `handOverPastTheBound`).
    @usableFromInline
    func drainHeld() {
        withQueue(lockFree: { drain($0) }, mutex: { drain($0) })
    }
}

extension Result where Failure == SignalEnd {
    /// What this result is to a delivery queue: an end or a value.
    @inlinable var queueKind: QueueElementKind {
        if case .failure = self { return .end }
        return .value
    }
}
