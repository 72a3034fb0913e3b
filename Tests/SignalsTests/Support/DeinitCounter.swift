import Synchronization

/// Counts the deinits of the objects made with it: a handler that captures one shows when the
/// handler itself is freed.
final class DeinitCounter: Sendable {
    let count = Atomic<Int>(0)
    var freed: Int { count.load(ordering: .acquiring) }
    func token() -> Token { Token(self) }

    final class Token: Sendable {
        let counter: DeinitCounter
        init(_ counter: DeinitCounter) { self.counter = counter }
        func touch() {}
        deinit { counter.count.add(1, ordering: .releasing) }
    }
}
