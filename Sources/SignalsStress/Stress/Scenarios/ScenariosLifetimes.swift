// Lifetimes, caches and readers of the CwlSignal API: the self-retaining subscriptions (and
// `channel`'s forms of them), `cacheUntilActive`, `continuousWhileActive(discardOnDeactivate:)`,
// `toSequence` and `SignalLatest`, raced by several threads on both variants.
//
// Every handler here captures a `StressToken`, so a handler that the library keeps alive after
// its subscription stopped shows up as a leak at the end of the iteration, and every graph
// object is tracked (`it.track`): nothing may outlive the iteration.

import Dispatch
import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// T threads, each round: a `subscribeValuesWhile` that stops after a random number of values,
/// a `subscribeUntilEnd` (alternately through `channel().subscribeUntilEnd`) ended by a racing
/// sender's `complete()`, and a `subscribeValuesWhile` over an endless `.direct` source
/// (`repeatCollection(count: .max)`) that stops inside `subscribe`.
///
/// Arbiter: a handler is never entered after it asked to stop, never concurrently with itself;
/// the values it gets are the sender's, in order, each once; the endless source stops (the
/// watchdog reports a deadlock otherwise); when a handler has stopped (or seen the end) and the
/// senders are done, the token it captured is freed while its signal is still alive.
package struct SelfRetainingReleaseScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "self-retaining-release", "subscribeWhile/UntilEnd stopping, ending and stopping inside subscribe, raced by senders",
        acceptable: "handler stopped, released, nothing after stop")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 16)
        let findings = StressFindings()
        let ledger = it.ledger
        it.runActors(it.threads) { a, rng in
            for k in 0..<rounds {
                var found: [StressFinding] = []
                let who = "actor \(a) round \(k)"
                // 1. Stops after `limit` values while another thread sends.
                do {
                    let (input, signal) = Signal<Int>.create(delivery: it.variant)
                    let limit = 1 + Int(rng.next() % 8)
                    let seen = StressLock<[Int]>([])
                    let inside = Atomic<Bool>(false)
                    let afterStop = StressCounter(0)
                    let overlap = StressCounter(0)
                    let stopped = Atomic<Bool>(false)
                    let token = StressToken(ledger)
                    let watched = StressWeakToken(token)
                    signal.subscribeValuesWhile { [token] v in
                        withExtendedLifetime(token) {}
                        if inside.exchange(true, ordering: .acquiringAndReleasing) { _ = overlap.next() }
                        if stopped.load(ordering: .acquiring) { _ = afterStop.next() }
                        let n = seen.withLock { $0.append(v); return $0.count }
                        let goOn = n < limit
                        if !goOn { stopped.store(true, ordering: .releasing) }
                        inside.store(false, ordering: .releasing)
                        return goOn
                    }
                    _ = consume token
                    // Two senders: 0..<16 from another thread, 100..<116 from this one.
                    stressRace({ for v in 0..<16 { _ = input.send(value: v) } },
                               { for v in 100..<116 { _ = input.send(value: v) } })
                    let got = seen.withLock { $0 }
                    if afterStop.load > 0 { found.append(.forbidden(StressCheck.valueAfterEnd, "\(who): \(afterStop.load) values after the handler returned false")) }
                    if overlap.load > 0 { found.append(.forbidden(StressCheck.concurrentEntry, "\(who)")) }
                    let low = got.filter { $0 < 100 }
                    let high = got.filter { $0 >= 100 }
                    if got.count != limit || low != Array(0..<low.count) || high != Array(100..<(100 + high.count)) {
                        found.append(.forbidden(StressCheck.fifo, "\(who): got \(got), limit \(limit)"))
                    }
                    if watched.isAlive {
                        found.append(.forbidden(StressCheck.leak, "\(who): subscribeValuesWhile handler alive after it stopped (signal alive)"))
                    }
                    withExtendedLifetime((input, signal)) {}
                }
                // 2. Ended by a racing complete().
                do {
                    let token = StressToken(ledger)
                    let watched = StressWeakToken(token)
                    let ends = StressCounter(0)
                    let input: SignalInput<Int>
                    let keep: AnyObject
                    if k & 1 == 0 {
                        let (i, signal) = Signal<Int>.create(delivery: it.variant)
                        signal.subscribeUntilEnd { [token] r in withExtendedLifetime(token) {}; if r.end != nil { _ = ends.next() } }
                        input = i
                        keep = signal
                    } else {
                        input = Signal<Int>.channel(delivery: it.variant).subscribeUntilEnd { [token] r in
                            withExtendedLifetime(token) {}; if r.end != nil { _ = ends.next() }
                        }
                        keep = input
                    }
                    _ = consume token
                    stressRace({ for v in 0..<8 { _ = input.send(value: v) } }, { _ = input.complete() })
                    if ends.load != 1 { found.append(.forbidden(StressCheck.endMissing, "\(who): \(ends.load) ends")) }
                    if watched.isAlive {
                        found.append(.forbidden(StressCheck.leak, "\(who): subscribeUntilEnd handler alive after the end"))
                    }
                    withExtendedLifetime(keep) {}
                }
                // 3. An endless .direct source stopped inside subscribe.
                do {
                    let source = Signal<Int>.repeatCollection([1, 2, 3], count: .max, delivery: it.variant)
                    let count = StressCounter(0)
                    let limit = 1 + Int(rng.next() % 5)
                    source.subscribeValuesWhile { _ in count.next() + 1 < limit }
                    // subscribeValuesWhile returned: the endless source stopped.
                    if count.load != limit { found.append(.forbidden(StressCheck.valueAfterEnd, "\(who): endless source gave \(count.load), limit \(limit)")) }
                    let taken = StressLock<[Int]>([])
                    let o = source.take(limit).subscribeValues { v in taken.withLock { $0.append(v) } }
                    if taken.withLock({ $0.count }) != limit { found.append(.forbidden(StressCheck.lost, "\(who): take(\(limit)) gave \(taken.withLock { $0 })")) }
                    o.cancel()
                }
                if !found.isEmpty { findings.add(found) }
                it.progress(a, k)
                rng.perturb()
            }
        }
        return findings.all
    }
}

/// One sender floods `cacheUntilActive(precached: [-2, -1])` with 0, 1, 2, … while T−1 threads
/// take turns subscribing to it (turns are kept by the scenario; `.duplicate` is tested by the
/// unit tests), each cancelling after a few values. The first subscriber, before the sender
/// starts, is a `capture()`.
///
/// Arbiter: no send is refused (the cache is active with or without a subscriber); each
/// subscriber gets a consecutive run, the runs in the order the subscribers started are
/// increasing (no value twice; a value racing a `subscribe` handler's cancel may be dropped
/// with that subscriber, as the send contract allows; after a `subscribeValues` subscriber,
/// whose handler has no gate but the branch's, the next run starts right after it), and the last subscriber gets everything held up to the last
/// value sent; the first subscriber's capture takes -2, -1 as activation values; nothing is
/// delivered to a subscriber after its cancel returned; the graph is freed after the iteration.
package struct CacheUntilActiveScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "cache-until-active", "cacheUntilActive(precached:) flooded while subscribers take turns (and capture)",
        acceptable: "no send refused; runs increasing; held values delivered")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 8)
        let findings = StressFindings()
        // `exact`: a `subscribeValues` run, whose handler is behind the branch's own gate only,
        // so its cancel drops nothing: the next run must start right after it.
        let runs = StressLock<[(start: Int, values: [Int], captured: [Int]?, exact: Bool)]>([])
        let order = StressCounter(0)
        let refused = StressCounter(0)
        let sentCount = StressCounter(0)
        do {
            let (input, signal) = Signal<Int>.create(delivery: it.variant)
            let cached = signal.cacheUntilActive(precached: [-2, -1])
            it.track(input, "input")
            it.track(cached, "cached")
            // The first subscriber is a capture, before anything is sent: it takes the
            // precached values as its activation values. (A capture holds the output until it
            // is released, so values sent between its subscriber's cancel and its release would
            // be the capture's: captures are not raced with the sender here.)
            do {
                let c = cached.capture()
                let captured = c.values
                let got = StressLock<[Int]>([])
                let o = c.subscribeValues { v in got.withLock { $0.append(v) } }
                o.cancel()
                runs.withLock { $0.append((order.next(), got.withLock { $0 }, captured, false)) }
            }
            let turn = StressLock<Bool>(false)
            it.runFlood(send: { v, _ in
                if input.send(value: v) != nil { _ = refused.next() }
                _ = sentCount.next()
            }) { a, rng in
                for k in 0..<rounds {
                    // Take turns: a second subscriber at once is refused as .duplicate.
                    while turn.withLock({ t in if t { return false }; t = true; return true }) == false { sched_yield() }
                    defer { turn.withLock { $0 = false } }
                    let start = order.next()
                    let received = StressLock<[Int]>([])
                    let cancelled = Atomic<Bool>(false)
                    let afterCancel = StressCounter(0)
                    let handler: @Sendable (Int) -> Void = { v in
                        if cancelled.load(ordering: .acquiring) { _ = afterCancel.next() }
                        received.withLock { $0.append(v) }
                    }
                    // Alternately through `subscribe` and `subscribeValues`.
                    let output = k & 1 == 0
                        ? cached.subscribeValues(handler)
                        : cached.subscribe { r in if let v = r.value { handler(v) } }
                    let want = 1 + Int(rng.next() % 4)
                    _ = it.waitUntil("values for subscriber", timeoutSeconds: 5) { received.withLock { $0.count } >= want }
                    output.cancel()
                    cancelled.store(true, ordering: .releasing)
                    if afterCancel.load > 0 {
                        findings.add(.forbidden(StressCheck.afterCancel, "actor \(a) round \(k)"))
                    }
                    let values = received.withLock { $0 }
                    runs.withLock { $0.append((start, values, nil, k & 1 == 0)) }
                    it.progress(a, k)
                }
            }
            // Sent with no subscriber, after every cancel: the last subscriber must get them
            // (and whatever else is held), then the end.
            for _ in 0..<4 {
                if input.send(value: sentCount.load) != nil { _ = refused.next() }
                _ = sentCount.next()
            }
            _ = input.complete()
            let rest = StressLock<[Int]>([])
            let ended = Atomic<Bool>(false)
            let last = cached.subscribe { r in
                if let v = r.value { rest.withLock { $0.append(v) } } else { ended.store(true, ordering: .releasing) }
            }
            if !ended.load(ordering: .acquiring) {
                findings.add(.forbidden(StressCheck.endMissing, "last subscriber: no end"))
            }
            last.cancel()
            runs.withLock { $0.append((Int.max, rest.withLock { $0 }, nil, false)) }
        }
        var all = findings.all
        if refused.load > 0 {
            all.append(.forbidden(StressCheck.lost, "\(refused.load) sends refused by cacheUntilActive"))
        }
        let sorted = runs.withLock { $0 }.sorted { $0.start < $1.start }
        if let first = sorted.first, let c = first.captured, Array(c.prefix(2)) != [-2, -1] {
            all.append(.forbidden(StressCheck.activationNotCaptured, "first capture took \(c.prefix(6)) as activation values"))
        }
        // Within a subscription: consecutive. Across subscriptions: increasing (nothing twice,
        // nothing reordered). A value racing a cancel may be dropped with that subscriber (as
        // with any subscription), so a gap is allowed only between two subscriptions. The last
        // subscriber, after the sender stopped, gets everything held since: up to the last value.
        var previous = Int.min
        var previousExact = false
        for r in sorted {
            let run = (r.captured ?? []) + r.values
            if let b = stressConsecutiveBreak(run) { all.append(.forbidden(b.check, "one subscriber got …\(b.around)…")) }
            if let first = run.first {
                if first <= previous {
                    all.append(.forbidden(StressCheck.duplicate, "a subscriber started at \(first) after one that ended at \(previous)"))
                } else if previousExact && first != previous + 1 {
                    all.append(.forbidden(StressCheck.lost, "a subscribeValues subscriber ended at \(previous), the next started at \(first)"))
                }
                previous = run.last!
                previousExact = r.exact
            }
        }
        let lastValue = sentCount.load - 1
        if let last = sorted.last?.values, lastValue >= 0, last.last != lastValue {
            all.append(.forbidden(StressCheck.lost, "the last subscriber got …\(last.suffix(4)), the last value sent was \(lastValue)"))
        }
        return all
    }
}

/// One sender floods `continuousWhileActive(discardOnDeactivate: false)` while T−1 threads
/// subscribe and cancel branches at random, so the multi often has no branch; a reader polls a
/// `SignalLatest` of another branch-free `cacheLatest()` reader made and cancelled each round,
/// and a `toSequence` reader reads a few values and cancels.
///
/// Arbiter: once a value has been accepted, no send is refused (the keeping form stays active
/// without branches); each branch gets the latest value first (after the first value) and then
/// a consecutive run; a `toSequence` reader gets a consecutive run and `next()` returns nil
/// after its `cancel()` once the queue is read; a `SignalLatest` never goes backwards; the
/// graph is freed after the iteration.
package struct ContinuousKeepingReadersScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "continuous-keeping-readers", "continuousWhileActive(discardOnDeactivate: false), toSequence, SignalLatest raced by a flooding sender",
        acceptable: "active without branches; runs consecutive")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 8)
        let findings = StressFindings()
        let refusedAfterFirst = StressCounter(0)
        do {
            let (input, multi) = Signal<Int>.create(delivery: it.variant) { $0.continuousWhileActive(discardOnDeactivate: false) }
            it.track(input, "input")
            it.track(multi, "multi")
            // A first branch so the first value is cached; from then on no send is refused.
            let first = multi.subscribeValues { _ in }
            _ = input.send(value: 0)
            first.cancel()
            it.runFlood(from: 1, send: { v, _ in
                if input.send(value: v) != nil { _ = refusedAfterFirst.next() }
            }) { a, rng in
                for k in 0..<rounds {
                    let who = "reader \(a) round \(k)"
                    var run: [Int] = []
                    switch (k + a) % 3 {
                    case 0:
                        let got = StressLock<[Int]>([])
                        let o = multi.subscribeValues { v in got.withLock { $0.append(v) } }
                        _ = it.waitUntil("branch values", timeoutSeconds: 5) { got.withLock { $0.count } >= 3 }
                        o.cancel()
                        run = got.withLock { $0 }
                        if run.isEmpty { findings.add(.forbidden(StressCheck.staleCache, "\(who): a branch got no cached value")) }
                    case 1:
                        let seq = multi.toSequence(timeout: .seconds(5))
                        for _ in 0..<3 { if let v = seq.next() { run.append(v) } }
                        seq.cancel()
                        while let v = seq.next() { run.append(v) }
                    default:
                        let latest = multi.cacheLatest()
                        var last = -1
                        for _ in 0..<16 {
                            if let v = latest.latestValue {
                                if v < last { findings.add(.forbidden(StressCheck.fifo, "\(who): SignalLatest went from \(last) to \(v)")) }
                                last = v
                            }
                            rng.perturb()
                        }
                        latest.cancel()
                    }
                    if let b = stressConsecutiveBreak(run) { findings.add(.forbidden(b.check, "\(who): \(run)")) }
                    it.progress(a, k)
                }
            }
        }
        var all = findings.all
        if refusedAfterFirst.load > 0 {
            all.append(.forbidden(StressCheck.lost, "\(refusedAfterFirst.load) sends refused after a value was cached (the keeping form must stay active)"))
        }
        return all
    }
}

/// A weak reference to a token, to see whether a handler that captured it is still alive.
final class StressWeakToken: @unchecked Sendable {
    // Unchecked: written once, in init; the runtime's weak references are thread-safe.
    weak var token: StressToken?
    init(_ token: StressToken) { self.token = token }
    var isAlive: Bool { token != nil }
}

/// Runs `there` on another thread while this one runs `here`, and returns when both are done.
func stressRace(_ there: @escaping @Sendable () -> Void, _ here: () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        there()
        done.signal()
    }
    here()
    done.wait()
}
