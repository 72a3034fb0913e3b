import Synchronization

/// The threads blocked in `NodeControl.wait`, each with a way to read the holder of the node
/// it waits for. A thread runs its handlers while holding its node, so a graph change made
/// from inside a handler (a cancel, a subscribe, a branch removal) that waits for another
/// node's holder turns its own node into a lock held while waiting: two threads doing that to
/// each other's nodes would wait for ever (handlers that cancel each other). Before
/// blocking, a thread follows the chain holder → node that holder waits for → its holder …;
/// if the chain comes back to it, it does not wait. Registration and the check are one step under the registry's mutex,
/// so of the threads closing a cycle the last one to arrive sees it. Only threads that would
/// block use the registry: no value path touches it.
enum WaitRegistry {
    static let waiting = Mutex<[UInt: @Sendable () -> UInt]>([:])

    /// Registers `me` as waiting for the holder `holder` reads, and returns true; returns false
    /// (registering nothing) when that wait would close a cycle.
    static func register(_ me: UInt, waitingFor holder: @escaping @Sendable () -> UInt) -> Bool {
        waiting.withLock { w in
            var t = holder()
            var steps = 0
            while t != 0, steps <= w.count {
                if t == me { return false }
                guard let next = w[t] else { break }
                t = next()
                steps += 1
            }
            w[me] = holder
            return true
        }
    }

    static func unregister(_ me: UInt) {
        _ = waiting.withLock { $0.removeValue(forKey: me) }
    }
}
