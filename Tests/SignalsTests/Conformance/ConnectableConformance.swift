#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// What the ports of RxJS's connectable operators (publish, publishBehavior, publishReplay,
// publishLast, multicast, shareReplay, refCount, connect) share: the bounded replay RxJS's
// `ReplaySubject(n)` stands for. The reasons for their known differences are in
// Kit/KnownDifferences.swift.

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

#endif
