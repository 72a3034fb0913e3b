import Synchronization

/// Serializes graph changes that must be checked against the whole graph (bind, merge add):
/// the loop check and the new edge are made atomically with respect to each other.
let topologyLock = Mutex<Void>(())

/// Whether `target` is `start` or feeds it, directly or indirectly. Call with `topologyLock`.
func graphReaches(from start: NodeBase, to target: NodeBase) -> Bool {
    if start === target { return true }
    // A node no feeder has ever named feeds nothing. Every edge of the graph is a feeder
    // (`ChainFeeder`, `EdgeFeeder`, a merged source's wrapped `ChainFeeder`), which marks its
    // upstream node as it is made.
    if !target.feedsANode.load(ordering: .acquiring) { return false }
    var stack = [start]
    var seen = Set<ObjectIdentifier>()
    while let n = stack.popLast() {
        if n === target { return true }
        if !seen.insert(ObjectIdentifier(n)).inserted { continue }
        stack.append(contentsOf: n.upstreamRoots())
    }
    return false
}
