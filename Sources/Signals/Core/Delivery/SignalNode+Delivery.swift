import Dispatch
import Synchronization

extension SignalNode {
    // MARK: Delivery

    /// Delivers a result through the node: on this thread at once if the node is idle,
    /// otherwise queued for the thread that holds it. Returns false, and does nothing, for a
    /// value that comes after an end the node already accepted: the end and the enqueue are
    /// one atomic decision in the queue, so no stage ever sees a value after its end, and a
    /// value accepted here (true) is always delivered (unless the output is cancelled).
    @inlinable @inline(__always) @discardableResult
    func deliver(_ result: Result<T, SignalEnd>) -> Bool {
        withQueue(lockFree: { deliver(result, through: $0) }, mutex: { deliver(result, through: $0) })
    }

    @inlinable @inline(__always)
    func deliver<Q: DeliveryQueue>(_ result: Result<T, SignalEnd>, through q: Q) -> Bool where Q.Element == Message {
        if isAsync {
            let kind: QueueElementKind
            if case .failure = result { kind = .end } else { kind = .value }
            guard let claimed = q.enqueueAndClaimIfIdle(kind, .value(result)) else { return false }
            if claimed { scheduleDrain(q) }
            return true
        }
        return deliverDirect(result, through: q)
    }

    /// A value sent by an input whose node takes the outlined path (`sendPath`): a `generate`
    /// node's checked delivery, or an asynchronous node. Out of line, so the inlined send of
    /// the common path carries neither; `@inlinable`, so it is still specialized for `T`.
    @inlinable @inline(never)
    func sendOutlined(_ value: T, expectedActive: Int) -> Bool {
        if newGenerationOnDeactivate { return deliver(checked: .success(value), expectedActive: expectedActive) }
        return deliver(.success(value))
    }

    /// `deliver(_:through:)` for a `.direct` node: the holder delivers on this thread.
    @inlinable @inline(__always)
    func deliverDirect<Q: DeliveryQueue>(_ result: Result<T, SignalEnd>, through q: Q) -> Bool where Q.Element == Message {
        let kind: QueueElementKind
        if case .failure = result { kind = .end } else { kind = .value }
        switch q.claimOrEnqueue(kind, .value(result)) {
        case .claimed:
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(result) } }
            if !q.releaseIfIdle() { drain(q) }
        case .enqueued:
            break
        case .enqueuedAndClaimed:
            drain(q)
        case nil:
            return false
        }
        return true
    }

    /// Delivers a value sent by an input of one activation (a `generate` node's): the status
    /// is checked again while holding the node, so a value that passed the input's check just
    /// before a deactivation never reaches the next activation's chain. Queued values carry
    /// the check with them (one object per contended value, on `generate` nodes only).
    @inlinable @discardableResult
    func deliver(checked result: Result<T, SignalEnd>, expectedActive: Int) -> Bool {
        withQueue(lockFree: { deliver(checked: result, expectedActive: expectedActive, through: $0) },
                  mutex: { deliver(checked: result, expectedActive: expectedActive, through: $0) })
    }

    @inlinable
    func deliver<Q: DeliveryQueue>(checked result: Result<T, SignalEnd>, expectedActive: Int, through q: Q) -> Bool
    where Q.Element == Message {
        // Queued as a value (refused after an end, like any value), in the form of a control
        // that carries the check. That form is built only when the value has to wait: an
        // uncontended send allocates nothing.
        //
        // A value that passed its input's status check just before its activation's end can
        // reach the queue after that end's detach reopened it for the next generation: the
        // holder then drops it. Its send must not report it accepted (a send that returns nil
        // is delivered), so a queued value whose generation is gone once it is in the queue
        // is withdrawn, or reported as the holder decided (`CheckedDelivery`).
        let kind: QueueElementKind
        if case .failure = result { kind = .end } else { kind = .value }
        if isAsync {
            let outcome = CheckedDelivery()
            let c = NodeControl { [self] in
                outcome.deliver(current: isCurrent(expectedActive)) {
                    deliverIfCurrent(result, expectedActive: expectedActive)
                }
            }
            guard let claimed = q.enqueueAndClaimIfIdle(kind, .control(c)) else { return false }
            let accepted = outcome.accepted(stillCurrent: isCurrent(expectedActive))
            if claimed { scheduleDrain(q) }
            return accepted
        }
        var outcome: CheckedDelivery?
        switch q.claimOrEnqueue(kind, .control({
            let o = CheckedDelivery()
            outcome = o
            return NodeControl { [self] in
                o.deliver(current: isCurrent(expectedActive)) {
                    deliverIfCurrent(result, expectedActive: expectedActive)
                }
            }
        }())) {
        case .claimed:
            let delivered = deliverIfCurrent(result, expectedActive: expectedActive)
            if !q.releaseIfIdle() { drain(q) }
            return delivered
        case .enqueued:
            return outcome?.accepted(stillCurrent: isCurrent(expectedActive)) ?? true
        case .enqueuedAndClaimed:
            let accepted = outcome?.accepted(stillCurrent: isCurrent(expectedActive)) ?? true
            drain(q)
            return accepted
        case nil:
            return false
        }
    }

    /// Whether the generation an input of `expectedActive` was made for is still the node's.
    @inlinable @inline(__always)
    func isCurrent(_ expectedActive: Int) -> Bool {
        status.load(ordering: .acquiring) >> 2 == expectedActive >> 2
    }

    /// For the holder: delivers `result` unless the node left the activation it was sent in;
    /// whether it did. A deactivation stores the status before it queues its own change, so a
    /// status still equal to `expectedActive` here means that change (and any later
    /// activation) comes after this value.
    @inlinable @discardableResult
    func deliverIfCurrent(_ result: Result<T, SignalEnd>, expectedActive: Int) -> Bool {
        // The generation, not the whole status: a value queued before its own activation's
        // end must still be delivered once that end has closed the status (comparing the whole
        // word dropped every queued value of the activation, and only its end arrived).
        guard isCurrent(expectedActive), let box = outputBox else { return false }
        box._withUnsafeGuaranteedRef { $0.deliverIfOpen(result) }
        return true
    }

    @inlinable @inline(__always)
    func handle(_ message: Message) {
        // Matched to the value or the end inside the message, so the payload is read in place
        // rather than the `Result` being copied out first.
        switch message {
        case .value(.success(let v)):
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(value: v) } }
        case .value(.failure(let e)):
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(end: e) } }
        case .control(let c):
            c.perform()
        }
    }

    @inlinable
    func drain<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        // A synchronous holder hands the node over after a long drain so that its own call
        // returns while other threads keep sending; an asynchronous node's drain runs on its
        // context and must stay there.
        var budget = isAsync ? Int.max : drainBudgetBeforeHandoff
        while let m = q.nextOrRelease() {
            handle(m)
            // A graph change's sender waits for it and makes its next change itself: do not
            // keep the node watching for that one (see `DeliveryQueue.skipNextCaughtUpWatch()`).
            if case .control = m { q.skipNextCaughtUpWatch() }
            budget &-= 1
            if _slowPath(budget == 0) {
                if q.offerHandoff() { return }
                budget = drainBudgetBeforeHandoff
            }
        }
    }

    @usableFromInline
    func scheduleDrain<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        context!.invoke { [self] in
            q.adoptClaim()
            drain(q)
        }
    }
}
