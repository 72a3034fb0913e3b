import Synchronization

// Leak accounting: counted tokens that values and handlers carry, and weak references to the
// graph's objects, so the runner can check that an iteration freed everything.

/// Counts the tracked objects of one iteration and keeps weak references to the graph's
/// objects, so the runner can check that everything was freed once the iteration let go.
package final class StressLedger: @unchecked Sendable {
    let live = Atomic<Int>(0)
    let made = Atomic<Int>(0)
    private let weakRefs = StressLock<[StressWeakRef]>([])

    /// An empty ledger.
    package init() {}

    /// A new counted token (carried by a value, or captured by a handler closure).
    package func token() -> StressToken { StressToken(self) }

    /// Tokens alive now.
    package var liveTokens: Int { live.load(ordering: .acquiring) }
    /// Tokens made so far.
    package var madeTokens: Int { made.load(ordering: .relaxed) }

    /// Watches `object` (an input, output, signal, junction, capture…): it must be freed once
    /// the iteration has released everything.
    package func track(_ object: AnyObject, _ name: String) {
        let ref = StressWeakRef(object, name)
        weakRefs.withLock { $0.append(ref) }
    }

    /// The names of watched objects still alive.
    package func survivors() -> [String] {
        weakRefs.withLock { refs in refs.filter { $0.object != nil }.map(\.name) }
    }
}

final class StressWeakRef: @unchecked Sendable {
    weak var object: AnyObject?
    let name: String
    init(_ object: AnyObject, _ name: String) {
        self.object = object
        self.name = name
    }
}

/// An object whose life is counted by a `StressLedger`: init adds one, deinit takes one away.
package final class StressToken: Sendable {
    let ledger: StressLedger
    init(_ ledger: StressLedger) {
        self.ledger = ledger
        ledger.live.wrappingAdd(1, ordering: .relaxed)
        ledger.made.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { ledger.live.wrappingSubtract(1, ordering: .releasing) }
}
