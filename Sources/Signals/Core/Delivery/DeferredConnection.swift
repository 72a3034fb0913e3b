/// A node's activation run deferred past the bound, and the connection it is part of.
struct DeferredActivation {
    let node: NodeBase
    let connection: DeferredConnection?
}

/// The activation runs deferred past the bound while a node connects one of its feeders,
/// when the node has more feeders to connect after it: the feeder is connected only once
/// they have run (a cold source behind 12 nodes has not started before then). The node waits
/// for them before it connects the next feeder, so inputs connect in order at any depth, and
/// a node that an earlier input has ended meanwhile (`takeUntil`'s trigger sending as it is
/// connected) connects none of the later ones. Connections nest: a connection with runs
/// left counts as one in the connection around it. Touched only by its thread.
final class DeferredConnection {
    let parent: DeferredConnection?
    /// Deferred runs of this connection not yet finished, plus one for each connection inside
    /// it that has some. Counted that way, rather than each run in every connection around
    /// it, so that a chain of n nodes nested in each other's connections costs O(n), not
    /// O(n²): a count climbs to the parent only when it leaves or reaches zero.
    var pending = 0
    /// The node's run that waits for this connection (`DepthBounds.resume(_:after:)`).
    var waiter: DeferredActivation?

    init(parent: DeferredConnection?) { self.parent = parent }

    /// Counts one more deferred run of this connection.
    func add() {
        var c: DeferredConnection? = self
        while let each = c {
            each.pending += 1
            // Already counted by the connections around it.
            if each.pending > 1 { return }
            c = each.parent
        }
    }

    /// A deferred run of this connection has finished: a connection that has nothing left
    /// queues the run that waits for it, and counts no more in the one around it.
    func finish(_ bounds: DepthBounds) {
        var c: DeferredConnection? = self
        while let each = c {
            each.pending -= 1
            if each.pending > 0 { return }
            if let waiter = each.waiter.take() { bounds.queue(waiter) }
            c = each.parent
        }
    }
}
