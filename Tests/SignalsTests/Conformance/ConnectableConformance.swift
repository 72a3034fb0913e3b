import Signals
import Testing

// What the ports of RxJS's connectable operators (publish, publishBehavior, publishReplay,
// publishLast, multicast, shareReplay, refCount, connect) share: the reasons for their known
// differences, and the bounded replay RxJS's `ReplaySubject(n)` stands for.

enum Connectable {
    static let noConnectStep: Comment = "difference: a `SignalMulti` has no connect step: `multicast()` is activated by its first branch (docs/operators.md, \"left out\"); RxJS's connectable waits for `connect()`"
    static let lastBranch: Comment = "difference: a `SignalMulti` deactivates with its last branch, so cancelling the connection leaves the source connected while other branches remain (docs/operators.md, \"left out\"); RxJS's `connection.unsubscribe()` disconnects every subscriber"
    static let eager: Comment = "difference: the caching multis (`continuous`, `playback`, `buffer(initials:updater:)`) are active from the moment they are made until released (SignalMulti's doc comment), so the source is connected at once and stays connected while the multi is held; RxJS connects on `connect()` (with `refCount()`, on the first subscriber) and disconnects on `connection.unsubscribe()` (with the last subscriber)"
}

extension Signal {
    /// RxJS's `ReplaySubject(count)` as a multi: each new branch first gets the last `count`
    /// values (`playback()` keeps them all); eager, like `playback()`.
    func playback(last count: Int) -> SignalMulti<T> {
        buffer(initials: []) { values, v in
            values.append(v)
            if values.count > count { values.removeFirst(values.count - count) }
        }
    }
}
