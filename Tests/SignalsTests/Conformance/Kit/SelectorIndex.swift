import Signals
import Synchronization

/// RxJS's `let i = 0; … closings[i++]` from a `@Sendable` closure.
final class SelectorIndex: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    /// The current count, then one more.
    func next() -> Int { count.withLock { c in defer { c += 1 }; return c } }

    /// RxJS's `closings[i++]`: a new signal of the next diagram; past the end (JavaScript's
    /// `undefined`, which RxJS refuses with a TypeError) a signal that fails.
    func pick<T: Sendable>(_ list: [ColdMarbles<T>]) -> Signal<T> {
        let n = next()
        if n < list.count { return list[n].signal }
        return Signal<T>.preclosed(end: .other(MarbleError("TypeError: no closing \(n)")), delivery: list[0].variant)
    }
}
