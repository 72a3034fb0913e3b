import Synchronization

extension SignalInput {
    /// `send(result:)` made by another node's delivery (a junction bound to this input): a
    /// node-to-node hand-over like `SignalNode.forward`, so past `DepthBounds.maxDepth`
    /// nested hand-overs the result is queued in the input's node at once and the node is
    /// drained by the outermost hand-over on this thread; a chain of any number of bound
    /// junctions delivers in bounded stack and in order. The send's answer is not needed: a
    /// binding drops what its input refuses, as it did before.
    @usableFromInline final func sendHandedOver(_ result: Result<T, SignalEnd>) {
        let bounds = DepthBounds.current
        let depth = bounds.deliveryDepth
        if _fastPath(depth < DepthBounds.maxDepth) {
            bounds.deliveryDepth = depth &+ 1
            send(result: result)
            bounds.deliveryDepth = depth
            if _slowPath(depth == 0 && bounds.hasDeferred) { bounds.runDeferred() }
        } else {
            sendPastTheBound(result, bounds)
        }
    }

    /// `send(result:)` past the bound: the same checks as a send (the status this input
    /// expects; an end closes the node first), then the result is queued in the node, which
    /// this thread drains later if it found it idle (`SignalNode.handOverPastTheBound`).
    @usableFromInline final func sendPastTheBound(_ result: Result<T, SignalEnd>, _ bounds: DepthBounds) {
        switch result {
        case .success(let v):
            guard node.status.load(ordering: .relaxed) == expectedActive else { return }
            if node.newGenerationOnDeactivate {
                // The checked form (`SignalNode.deliver(checked:expectedActive:)`).
                let expected = expectedActive
                let control = NodeControl { [node] in node.deliverIfCurrent(.success(v), expectedActive: expected) }
                node.handOverPastTheBound(.control(control), kind: .value, bounds)
            } else {
                node.handOverPastTheBound(.value(.success(v)), kind: .value, bounds)
            }
        case .failure(let e):
            _ = node.sendEnd(e, expectedActive: expectedActive, pastTheBound: bounds)
        }
    }
}
