import Dispatch
import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Scenarios for multis and caches: `SignalMulti` (`continuous`, `playback`, `multicast`) with
// branches added and removed while values flow or after its upstream ended, caches made while
// senders run, `customActivation` and `mapActivation`, `cacheUntilActive`,
// `continuousWhileActive(discardOnDeactivate:)` and its readers (`SignalLatest`, `toSequence`).
// Handlers capture a `StressToken` and graph objects are tracked: nothing may outlive the
// iteration.

/// Which kind of `SignalMulti`.
package enum StressMultiKind: String, Sendable, CaseIterable {
    case continuous, playback, multicast
}

/// One thread sends into a `SignalMulti` (with one standing subscriber) while others
/// subscribe new branches and cancel them.
///
/// Arbiter, per branch: what `subscribe()` delivered before returning is the cache (the latest
/// value for `continuous`, all values for `playback`, none for `multicast`), once; then live
/// values with no gap, repeat or reordering; nothing after `cancel()` returns; no
/// overlapping entry. The standing subscriber gets everything once, in order, end last.
package struct MultiChurnScenario: LabelledStressScenario {
    package let kind: StressMultiKind
    package init(_ kind: StressMultiKind) { self.kind = kind }
    package var label: StressScenarioLabel {
        StressScenarioLabel("multi-\(kind.rawValue)", "subscribe/cancel racing with delivery on a \(kind.rawValue)() SignalMulti",
                            acceptable: "cache first and once, then live values, nothing after cancel")
    }

    final class Log: @unchecked Sendable {
        var entries: [(before: Int, immediate: Int, recorder: StressRecorder)] = []
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let sender = StressSender(id: 0, capacity: n)
        let lastReturned = StressCounter(-1)
        let standing = StressRecorder(capacity: n + 4, perturber: it.shared)
        let logs = (0..<it.threads).map { _ in Log() }
        let subscriptions = max(4, n / 16)
        var findings: [StressFinding] = []
        let kind = self.kind
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { s -> SignalMulti<StressMsg> in
                switch kind {
                case .continuous: return s.continuous()
                case .playback: return s.playback()
                case .multicast: return s.multicast()
                }
            }
            it.track(input, "input"); it.track(multi, "multi")
            let standingOutput = multi.stressSubscribe(standing, ledger: it.ledger)
            it.track(standingOutput, "standing output")
            let ledger = it.ledger
            let shared = it.shared
            it.runActors(it.threads) { a, rng in
                if a == 0 {
                    for i in 0..<n {
                        if sender.send(ledger: ledger, { input.send(value: $0) }) == nil { lastReturned.store(i) }
                        rng.perturb()
                        if i & 31 == 0 { it.progress(a, i) }
                    }
                    return
                }
                for k in 0..<subscriptions {
                    let before = lastReturned.load
                    let recorder = StressRecorder(capacity: n + 4, perturber: shared)
                    let output = multi.stressSubscribe(recorder, ledger: ledger)
                    let immediate = recorder.deliveries
                    rng.hold()
                    output.cancel()
                    recorder.markCancelled()
                    logs[a].entries.append((before, immediate, recorder))
                    rng.perturb()
                    it.progress(a, k)
                }
            }
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            it.waitUntil("the end") { standing.endCount > 0 }
            standingOutput.cancel()
        }
        findings += stressCheckStream("standing subscriber", standing, senders: [sender], policy: StressStreamPolicy(expectedEnd: "complete"))
        for (a, log) in logs.enumerated() {
            for (k, entry) in log.entries.enumerated() {
                let who = "branch \(a).\(k)"
                findings += entry.recorder.entryFindings(who)
                let events = entry.recorder.events
                let values = events.compactMap { e -> Int? in if case .value(_, let q, _) = e { return q } else { return nil } }
                if events.contains(where: { if case .end = $0 { return true } else { return false } }) {
                    findings.append(.forbidden(StressCheck.wrongEnd, "\(who): got an end though only cancelled"))
                }
                if let i = values.indices.dropFirst().first(where: { values[$0] != values[$0 - 1] + 1 }) {
                    findings.append(.forbidden(StressCheck.cacheOrder, "\(who): \(values[i - 1]) then \(values[i])"))
                }
                let before = entry.before
                switch kind {
                case .playback:
                    if let f = values.first, f != 0 {
                        findings.append(.forbidden(StressCheck.cacheOrder, "\(who): playback started at \(f)"))
                    }
                    if before >= 0 && entry.immediate < before + 1 {
                        findings.append(.forbidden(StressCheck.staleCache, "\(who): subscribe() delivered \(entry.immediate) cached values, \(before + 1) were sent"))
                    }
                case .continuous:
                    if before >= 0 {
                        if entry.immediate < 1 {
                            findings.append(.forbidden(StressCheck.staleCache, "\(who): subscribe() delivered no cached value; \(before) was sent"))
                        } else if let f = values.first, f < before {
                            findings.append(.forbidden(StressCheck.staleCache, "\(who): cached \(f), but \(before) had been sent"))
                        }
                    }
                case .multicast:
                    if let f = values.first, f <= before {
                        findings.append(.forbidden(StressCheck.staleCache, "\(who): got \(f), sent before subscribe() (\(before) had returned)"))
                    }
                }
            }
        }
        return findings
    }
}

/// Branches of a `multicast()` whose upstream has ended: the multi keeps the end for every
/// later branch and never activates the ended upstream again (an activated `generate` would
/// get a fresh input whose sends the ended multi could only drop).
///
/// Two shapes, chosen per iteration:
/// - *ended first*: a standing branch takes the values and the end of a `generate` upstream;
///   then every actor subscribes and cancels late branches while actor 0 also cancels the
///   standing branch at a random point, so the multi goes from one branch to none and back
///   many times. Arbiter: each late branch gets exactly the end, and the generate closure is
///   called with an input once in the whole iteration.
/// - *end racing*: actor 0 sends the values and completes while the others subscribe and
///   cancel branches (the standing branch held throughout). Arbiter: each branch gets
///   consecutive values, then the end at most once, nothing after it; the standing branch
///   gets everything, then the end.
package struct MulticastEndedBranchesScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("multicast-ended-branches", "branches of an ended multicast() added and removed across threads", acceptable: "late branches get only the end; the ended upstream is never activated again")

    final class Upstream: @unchecked Sendable {
        let activations = StressCounter(0)
        let input = StressLock<SignalInput<StressMsg>?>(nil)
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let endedFirst = it.random.below(2) == 0
        let upstream = Upstream()
        let ledger = it.ledger
        let shared = it.shared
        let late = StressLock<[StressRecorder]>([])
        let standing = StressRecorder(capacity: n + 2, perturber: nil)
        var findings: [StressFinding] = []
        do {
            let token = ledger.token()
            let generated = Signal<StressMsg>.generate(delivery: it.variant) { input in
                withExtendedLifetime(token) {
                    if input != nil { upstream.activations.value.wrappingAdd(1, ordering: .relaxed) }
                    upstream.input.withLock { $0 = input }
                }
            }
            let multi = generated.multicast()
            it.track(generated, "generate signal"); it.track(multi, "multi")
            let standingOutput = StressHandOff(multi.stressSubscribe(standing, ledger: ledger))
            let send: @Sendable () -> Void = {
                guard let input = upstream.input.withLock({ $0 }) else { return }
                for i in 0..<n { _ = input.send(value: StressMsg(sender: 0, seq: i, token: ledger.token())) }
                input.complete()
            }
            if endedFirst { send() }
            let rounds = max(4, n / 16)
            it.runActors(it.threads) { a, rng in
                if !endedFirst && a == 0 { return send() }
                let cancelAt = a == 0 ? rng.below(rounds) : -1
                for k in 0..<rounds {
                    if k == cancelAt { standingOutput.take()?.cancel() }
                    let recorder = StressRecorder(capacity: n + 2, perturber: shared)
                    let output = multi.stressSubscribe(recorder, ledger: ledger)
                    rng.hold()
                    output.cancel()
                    recorder.markCancelled()
                    late.withLock { $0.append(recorder) }
                    it.progress(a, k)
                }
            }
            standingOutput.take()?.cancel()
            upstream.input.withLock { $0 = nil }
        }
        findings += standing.entryFindings("standing branch")
        let all = (0..<n).map { StressEvent.value(sender: 0, seq: $0, tag: 0) } + [.end("complete")]
        if standing.events != all {
            findings.append(.forbidden(StressCheck.lost, "standing branch: \(standing.events.count) events, not the \(n) values and the end"))
        }
        let activations = upstream.activations.load
        if activations != 1 {
            findings.append(.forbidden(StressCheck.activationOrder, "ended upstream activated again: \(activations) activations of the generate closure"))
        }
        for (k, recorder) in late.withLock({ $0 }).enumerated() {
            let who = "late branch \(k)"
            findings += recorder.entryFindings(who)
            let events = recorder.events
            if endedFirst {
                if events != [.end("complete")] {
                    findings.append(.forbidden(StressCheck.wrongEnd, "\(who): \(events.prefix(4)) where only the kept end was due"))
                }
                continue
            }
            let seqs = events.compactMap { e -> Int? in if case .value(_, let q, _) = e { return q } else { return nil } }
            if let b = stressConsecutiveBreak(seqs) {
                findings.append(.forbidden(b.check, "\(who): \(Array(b.around))"))
            }
            let ends = events.indices.filter { if case .end = events[$0] { return true } else { return false } }
            if ends.count > 1 { findings.append(.forbidden(StressCheck.endTwice, "\(who): \(ends.count) ends")) }
            if let e = ends.first, e != events.count - 1 {
                findings.append(.forbidden(StressCheck.valueAfterEnd, "\(who): a value after the end"))
            }
            if let e = ends.first, events[e] != .end("complete") {
                findings.append(.forbidden(StressCheck.wrongEnd, "\(who): \(events[e])"))
            }
        }
        return findings
    }
}

/// A reference held by one actor until it takes it.
final class StressHandOff<Value>: @unchecked Sendable {
    private let lock = StressLock<Value?>(nil)
    init(_ value: Value) { lock.withLock { $0 = value } }
    /// The value, once: later calls get nil.
    func take() -> Value? { lock.withLock { v in defer { v = nil }; return v } }
}

/// A caching multi (`playback()`) made while senders run: from its creation on, every send is
/// accepted and cached, so a subscriber arriving after the end gets every accepted value once,
/// in each sender's order, then the end; values refused before it existed never appear.
package struct EagerMultiCreateScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("eager-multi-create", "playback() made while T-1 threads send; late subscriber replays all", acceptable: "every accepted value replayed once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let box = StressLock<SignalMulti<StressMsg>?>(nil)
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput(signal: nil)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    rng.hold()
                    let multi = signal.playback()
                    box.withLock { $0 = multi }
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            guard let multi = box.withLock({ $0 }) else { return [.forbidden(StressCheck.setupFailed, "no multi")] }
            it.track(multi, "multi")
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            let recorder = stream.recorder
            let output = multi.stressSubscribe(recorder, ledger: it.ledger)
            _ = it.waitUntil("the end") { recorder.endCount > 0 }
            output.cancel()
            box.withLock { $0 = nil }
        }
        findings += stream.check("late playback subscriber", StressStreamPolicy(expectedEnd: "complete"))
        return findings
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

/// One sender floods a `customActivation(initialValues: [0])` multi whose updater keeps only
/// the latest value (a hand-made `continuous()`), while T−1 threads take rounds: subscribe a
/// `mapActivation` of it that negates the activation value, or a `mergedChannel` to which they
/// add the multi; each cancels after a few values.
///
/// The merged channel's input is released at once, as a one-expression user would: its source
/// keeps it running (CwlSignal's rule).
///
/// Arbiter: the updater is never entered concurrently with itself; a `mapActivation` branch
/// gets exactly one negated value first (the cached one, ≤ 0) and then the values after it,
/// consecutive; a merged channel's subscriber gets the cached value and then consecutive values;
/// values keep arriving while the sender sends (a few within 5 s); every handler (each captures
/// a counted token) and every graph object is freed after the iteration.
package struct ActivationOperatorsFloodScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "custom-activation-readers",
        "customActivation flooded; T−1 threads subscribe its mapActivation or add it to a mergedChannel, then cancel",
        acceptable: "activation value first (mapped), then consecutive values")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 8)
        let findings = StressFindings()
        let inside = Atomic<Bool>(false)
        let overlaps = StressCounter(0)
        let ledger = it.ledger
        do {
            let (input, signal) = Signal<Int>.create(delivery: it.variant)
            let multi = signal.customActivation(initialValues: [0]) { values, _, incoming in
                if inside.exchange(true, ordering: .acquiring) { _ = overlaps.next() }
                if case .success(let v) = incoming { values = [v] }
                inside.store(false, ordering: .releasing)
            }
            it.track(input, "input")
            it.track(multi, "multi")
            // Bounded, as in `capture-activation`: a reader's subscribe and cancel wait for the
            // values queued before them.
            let backlog = StressBacklogLimit(multi, perturber: it.shared)
            it.runFlood(from: 1, send: { v, stopped in
                backlog.wait(toSend: v, stopped: stopped)
                _ = input.send(value: v)
            }) { a, rng in
                for k in 0..<rounds {
                    let who = "reader \(a) round \(k)"
                    let got = StressLock<[Int]>([])
                    let token = StressToken(ledger)
                    let handler: @Sendable (Int) -> Void = { [token] v in
                        withExtendedLifetime(token) {}
                        got.withLock { $0.append(v) }
                    }
                    _ = consume token
                    let mapped = (k + a) & 1 == 0
                    let output: SignalOutput<Int>
                    if mapped {
                        output = multi.mapActivation(select: .all, activation: { -$0 }, remainder: { $0 }).subscribeValues(handler)
                    } else {
                        let (merged, o) = Signal<Int>.mergedChannel(delivery: it.variant).subscribeValues(handler)
                        it.track(merged, "merged input")
                        merged.add(multi)
                        output = o
                    }
                    let want = 2 + Int(rng.next() % 4)
                    let arrived = it.waitUntil("values for a reader", timeoutSeconds: 5) { got.withLock { $0.count } >= want }
                    output.cancel()
                    let run = got.withLock { $0 }
                    guard let first = run.first, arrived else {
                        findings.add(.forbidden(StressCheck.lost, "\(who) (\(mapped ? "mapActivation" : "mergedChannel")): values stopped after \(run.prefix(4)) while the sender kept sending (5 s)"))
                        continue
                    }
                    // The activation value, unmapped, leads the run in both forms.
                    let unmapped = mapped ? [-first] + run.dropFirst() : run
                    if mapped && (first > 0 || run.dropFirst().contains { $0 <= 0 }) {
                        findings.add(.forbidden(StressCheck.activationNotCaptured, "\(who): mapActivation gave \(run.prefix(6))…"))
                    } else if let b = stressConsecutiveBreak(unmapped) {
                        findings.add(.forbidden(b.check, "\(who) (\(mapped ? "mapActivation" : "mergedChannel")): …\(b.around)…"))
                    }
                    it.progress(a, k)
                }
            }
            backlog.output.cancel()
        }
        var all = findings.all
        if overlaps.load > 0 {
            all.append(.forbidden(StressCheck.concurrentEntry, "customActivation's updater entered \(overlaps.load) times while running"))
        }
        return all
    }
}
