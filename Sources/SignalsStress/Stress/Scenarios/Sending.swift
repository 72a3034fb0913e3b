import Dispatch
import Signals
import Synchronization

/// T threads send into one input with one subscriber. In half of the iterations actor 0 ends
/// the stream part-way, so the other senders race the end.
///
/// Arbiter: exactly once or refused, per-sender FIFO, no overlapping handler entry, one end and
/// last. Values actor 0 sent before its own `complete()` must arrive; another sender's value
/// accepted while the end raced it may be dropped (INTERESTING).
package struct ConcurrentSendScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("send-concurrent", "T threads send into one input (half the time one of them ends it midway)", acceptable: "all delivered once, in order, end last")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let stream = StressStream(it, senders: it.threads)
        let endRace = it.random.below(2) == 0
        let completeAt = endRace ? it.random.below(n) : -1
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput()
            let output = stream.subscribe(signal)
            let ledger = it.ledger
            it.runActors(it.threads) { a, rng in
                let s = stream.senders[a]
                for i in 0..<n {
                    if a == 0 && i == completeAt {
                        s.mustArriveBelow = i
                        input.complete()
                    }
                    s.send(ledger: ledger) { input.send(value: $0) }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            if !endRace, let e = input.complete() {
                findings.append(.forbidden(StressCheck.setupFailed, "complete() after the senders returned \(e)"))
            }
            it.waitUntil("the end") { stream.recorder.endCount > 0 }
            output.cancel()
        }
        findings += stream.check("subscriber", StressStreamPolicy(
            lossName: endRace ? "accepted value dropped: its send raced the end" : nil, expectedEnd: "complete"))
        return findings
    }
}

/// Senders feed a merged input directly and through sources (multis and plain signals) that
/// another thread keeps adding and removing.
///
/// Arbiter: the direct sender's values exactly once; source values once at most (a value in
/// transit when its source is removed may be dropped: INTERESTING), per-sender FIFO, no
/// overlapping entry, one end, last.
package struct MergedMutationScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("merged-add-remove", "senders into a merged input while another thread adds and removes its sources", acceptable: "all delivered once, in order, end last", minimumThreads: 3)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let sourceCount = it.threads - 2
        let stream = StressStream(it, senders: sourceCount + 1)
        let senders = stream.senders
        var findings: [StressFinding] = []
        let mutatorErrors = StressLock<[String]>([])
        do {
            let (merged, signal) = Signal<StressMsg>.createMergedInput(delivery: it.variant)
            it.track(merged, "merged input"); it.track(signal, "merged signal")
            let output = stream.subscribe(signal)
            var sourceInputs: [SignalInput<StressMsg>] = []
            var sources: [Signal<StressMsg>] = []
            // Every other source (the first one or the second, by iteration) is a plain signal:
            // its single output must be free again once removed, or adding it back is refused
            // as `.duplicate`.
            let plain = it.random.below(2)
            for s in 0..<sourceCount {
                let (i, m): (SignalInput<StressMsg>, Signal<StressMsg>) = s & 1 != plain
                    ? Signal<StressMsg>.create(delivery: it.variant) { $0.multicast() }
                    : Signal<StressMsg>.create(delivery: it.variant)
                it.track(i, "source input \(s)"); it.track(m, "source \(s)")
                sourceInputs.append(i)
                sources.append(m)
                if let error = merged.add(m, closePropagation: .none) {
                    findings.append(.forbidden(StressCheck.setupFailed, "add: \(error)"))
                }
            }
            let ledger = it.ledger
            let attachedSources = sources
            let inputs = sourceInputs
            it.runActors(it.threads) { a, rng in
                if a == it.threads - 1 {
                    // The mutator.
                    var attached = [Bool](repeating: true, count: sourceCount)
                    for k in 0..<max(4, n / 8) {
                        let s = rng.below(sourceCount)
                        if attached[s] {
                            if !merged.remove(attachedSources[s]) { mutatorErrors.withLock { $0.append("remove of an attached source failed") } }
                        } else {
                            if let error = merged.add(attachedSources[s], closePropagation: .none) {
                                mutatorErrors.withLock { $0.append("add: \(error)") }
                            }
                        }
                        attached[s].toggle()
                        rng.perturb()
                        it.progress(a, k)
                    }
                    return
                }
                let s = senders[a]
                for i in 0..<n {
                    if a == 0 {
                        s.send(ledger: ledger) { merged.send(value: $0) }
                    } else {
                        let input = inputs[a - 1]
                        s.send(ledger: ledger) { input.send(value: $0) }
                    }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            findings += stream.complete(merged)
            output.cancel()
        }
        for e in mutatorErrors.withLock({ $0 }) { findings.append(.forbidden(StressCheck.setupFailed, e)) }
        senders[0].mustArriveBelow = n
        findings += stream.check("subscriber", StressStreamPolicy(
            lossName: "source value dropped in transit during add/remove", expectedEnd: "complete"))
        return findings
    }
}

/// The handler re-sends into its own input (up to depth 3) while other threads send.
///
/// Arbiter: a re-entrant send is queued, never nested (no overlapping or nested entry), the
/// re-sent values keep their order (pseudo-sender T), everything exactly once, end last.
package struct ReentrantSendScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("reentrant-send", "a handler re-sends into its own input while other threads send", acceptable: "re-entrant sends queued, all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        // Room for the re-sent values too: up to three generations of them.
        let stream = StressStream(it, senders: it.threads, spare: it.threads * n * 3 + 8)
        let recorder = stream.recorder
        let resender = StressSender(id: it.threads, capacity: it.threads * n * 3 + 4)
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput()
            let ledger = it.ledger
            let token = ledger.token()
            // The handler holds the input weakly (a strong reference would keep it alive).
            let weakInput = StressWeakBox(input)
            let output = signal.subscribe { r in
                withExtendedLifetime(token) {
                    recorder.receive(r)
                    if case .success(let m) = r, m.tag < 3, m.seq % 3 == 0, let input = weakInput.object {
                        resender.send(tag: m.tag + 1, ledger: ledger) { input.send(value: $0) }
                    }
                }
            }
            it.track(output, "output")
            it.runActors(it.threads) { a, rng in
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            findings += stream.complete(input)
            output.cancel()
        }
        findings += stressCheckStream("subscriber", recorder, senders: stream.senders + [resender], policy: StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}

/// A weak reference that closures can capture.
package final class StressWeakBox<O: AnyObject>: @unchecked Sendable {
    /// The object, while it lives.
    package weak var object: O?
    /// A box for `object`.
    package init(_ object: O) { self.object = object }
}

/// A strong reference owned by one thread at a time.
final class StressStrongBox<O: AnyObject>: @unchecked Sendable {
    var object: O?
    init(_ object: O) { self.object = object }
}

/// The only strong reference to an input is released by one thread while others send through
/// weak references (each send holds the input for its duration), so its `deinit` (which sends
/// `.cancelled`) runs on whichever thread lets go last.
///
/// Arbiter: every accepted value arrives, once, in order, before exactly one `.cancelled`.
package struct InputReleaseScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("input-release", "an input's last reference released on one thread while others send", acceptable: "all accepted values, then one cancelled end")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let stream = StressStream(it, senders: it.threads)
        let releaseAt = it.random.below(stream.operations)
        let n = stream.operations
        do {
            let output: SignalOutput<StressMsg>
            let strong: StressStrongBox<SignalInput<StressMsg>>
            let weak: StressWeakBox<SignalInput<StressMsg>>
            do {
                let (input, signal) = it.makeInput()
                output = stream.subscribe(signal)
                strong = StressStrongBox(input)
                weak = StressWeakBox(input)
            }
            let ledger = it.ledger
            it.runActors(it.threads) { a, rng in
                let s = stream.senders[a]
                for i in 0..<n {
                    if a == 0 {
                        if i == releaseAt { strong.object = nil }
                        if let input = strong.object {
                            s.send(ledger: ledger) { input.send(value: $0) }
                        }
                    } else {
                        guard let input = weak.object else { break }
                        s.send(ledger: ledger) { input.send(value: $0) }
                    }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            it.waitUntil("the end") { stream.recorder.endCount > 0 }
            output.cancel()
        }
        return stream.check("subscriber", StressStreamPolicy(expectedEnd: "cancelled"))
    }
}

// MARK: - The delivery queue on its own

/// Drives a `DeliveryQueue` the way the library's nodes do: claim or enqueue, deliver, drain
/// with `nextOrRelease` until nil; asynchronous senders enqueue, and the one that finds the
/// queue idle drains it on a dispatch queue after `adoptClaim()`. Lets the tests plug in a
/// deliberately broken queue.
package final class StressQueueDriver<Q: DeliveryQueue>: @unchecked Sendable where Q.Element == StressMsg {
    let queue = Q()
    let handler: @Sendable (StressMsg, StressQueueDriver<Q>) -> Void

    /// A driver over a fresh queue; `handler` receives each element (and may send again).
    package init(_ handler: @escaping @Sendable (StressMsg, StressQueueDriver<Q>) -> Void) {
        self.handler = handler
    }

    /// Sends synchronously, like a `.direct` node.
    package func send(_ m: StressMsg) {
        switch queue.claimOrEnqueue(m) {
        case .claimed:
            handler(m, self)
            if !queue.releaseIfIdle() { drain() }
        case .enqueued:
            break
        case .enqueuedAndClaimed:
            drain()
        }
    }

    /// Sends asynchronously, like a node on an execution context.
    package func sendAsync(_ m: StressMsg) {
        if queue.enqueueAndClaimIfIdle(m) {
            DispatchQueue.global().async { [self] in
                queue.adoptClaim()
                drain()
            }
        }
    }

    func drain() {
        while let e = queue.nextOrRelease() { handler(e, self) }
    }
}

/// T threads send straight into a `DeliveryQueue` (half of them through the asynchronous
/// path), and the handler re-sends some values.
///
/// Arbiter: exactly once, per-sender FIFO, no overlapping entry.
package struct DeliveryQueueScenario<Q: DeliveryQueue>: StressScenario where Q.Element == StressMsg {
    package let name: String
    package init(name: String, queue: Q.Type) { self.name = name }
    package var summary: String { "T threads into a bare DeliveryQueue (sync and async drains, re-entrant sends)" }
    package var acceptableName: String { "all delivered once, in order" }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senders = (0..<it.threads).map { StressSender(id: $0, capacity: n) }
        let resender = StressSender(id: it.threads, capacity: it.threads * n + 4)
        let recorder = StressRecorder(capacity: it.threads * n * 2 + 8, perturber: it.shared)
        let ledger = it.ledger
        do {
            let fence = StressFence()
            let driver = StressQueueDriver<Q> { m, d in
                if m.tag == StressFence.tag {
                    fence.passed.store(true, ordering: .releasing)
                    return
                }
                recorder.receive(.success(m))
                if m.tag == 0 && m.seq % 4 == 0 {
                    let seq = resender.nextSeq
                    resender.record(seq: seq, accepted: true)
                    fence.resent.wrappingAdd(1, ordering: .relaxed)
                    d.send(StressMsg(sender: resender.id, seq: seq, tag: 1, token: ledger.token()))
                }
            }
            it.runActors(it.threads) { a, rng in
                let s = senders[a]
                for i in 0..<n {
                    let m = StressMsg(sender: a, seq: i, token: ledger.token())
                    s.record(seq: i, accepted: true)
                    if a % 2 == 1 { driver.sendAsync(m) } else { driver.send(m) }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            let expected = it.threads * n
            it.waitUntil("the asynchronous drains", timeoutSeconds: 2) {
                recorder.deliveries >= expected + fence.resent.load(ordering: .relaxed) || recorder.entry.overlaps > 0
            }
            // A last element through the queue orders everything the handler did before the
            // arbiter reads it (the handler itself uses relaxed atomics only).
            driver.send(StressMsg(sender: 0, seq: 0, tag: StressFence.tag, token: ledger.token()))
            it.waitUntil("the fence", timeoutSeconds: 2) { fence.passed.load(ordering: .acquiring) }
        }
        return stressCheckStream("handler", recorder, senders: senders + [resender], policy: StressStreamPolicy(expectedEnd: nil))
    }
}

final class StressFence: Sendable {
    static let tag = 0xFFFF
    let passed = Atomic<Bool>(false)
    let resent = Atomic<Int>(0)
}

/// A subscription is cancelled while senders deliver and one of them ends the stream (the two
/// start after random spins of the same range, so they often collide); then the input is
/// released, and its `deinit` sends `.cancelled` into whatever state the race left.
///
/// Arbiter: nothing after `cancel()` returns, at most one end and last, per-sender FIFO, no
/// duplicates; values in flight when the cancel started may be dropped (INTERESTING). The
/// release must return (the watchdog reports a hang).
package struct CancelEndRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("cancel-end-race", "cancel() racing with sends and complete(); then the input is released", acceptable: "nothing after cancel, end at most once and last")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let recorder = stream.recorder
        // The end and the cancel start after random spins of the same range, so they often
        // collide; other senders keep values in flight meanwhile.
        let cancelAt = it.random.below(600)
        let completeAt = it.random.below(600)
        do {
            let holder: StressStrongBox<SignalInput<StressMsg>>
            let output: SignalOutput<StressMsg>
            do {
                let (input, signal) = it.makeInput()
                output = stream.subscribe(signal)
                holder = StressStrongBox(input)
            }
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    stressSpin(cancelAt)
                    output.cancel()
                    recorder.markCancelled()
                    return
                }
                guard let input = holder.object else { return }
                if a == 0 {
                    stressSpin(completeAt)
                    input.complete()
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            it.setPhase("releasing the input")
            holder.object = nil
            output.cancel()
        }
        return stream.check("subscriber", StressStreamPolicy(
            lossName: "value in flight when cancel() began, not delivered", expectedEnd: "any"))
    }
}

// MARK: - The variant's own delivery queue

/// `DeliveryQueueScenario` on the queue type of the variant under test.
package struct StressVariantQueueScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("delivery-queue", "T threads into the variant's bare DeliveryQueue (sync, async, re-entrant)", acceptable: "all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        switch it.variant {
        case .lockFree: return DeliveryQueueScenario(name: name, queue: LockFreeDeliveryQueue<StressMsg>.self).run(it)
        case .mutex: return DeliveryQueueScenario(name: name, queue: MutexDeliveryQueue<StressMsg>.self).run(it)
        }
    }
}
