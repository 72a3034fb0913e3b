import Dispatch
import Signals
import Synchronization

/// An integer that threads share (relaxed: it orders nothing).
final class StressCounter: Sendable {
    let value: Atomic<Int>
    init(_ v: Int) { value = Atomic(v) }
    var load: Int { value.load(ordering: .relaxed) }
    func store(_ v: Int) { value.store(v, ordering: .relaxed) }
}

/// Per-sender contiguity: between the first and the last value a receiver got from a sender,
/// every value that sender had accepted must be there (no value lost in the middle of a
/// subscription). Also checks order and duplicates.
func stressCheckContiguous(_ who: String, _ events: [StressEvent], senders: [StressSender],
                           lost: (StressSender, Int) -> StressFinding) -> [StressFinding] {
    var findings: [StressFinding] = []
    var bySender: [Int: [Int]] = [:]
    for e in events {
        if case .value(let s, let q, _) = e { bySender[s, default: []].append(q) }
    }
    for sender in senders {
        guard let seqs = bySender[sender.id], let first = seqs.first else { continue }
        var previous = first
        for q in seqs.dropFirst() {
            if q == previous {
                findings.append(.forbidden(StressCheck.duplicate, "\(who): sender \(sender.id) value \(q) twice"))
                break
            }
            if q < previous {
                findings.append(.forbidden(StressCheck.fifo, "\(who): sender \(sender.id) delivered \(q) after \(previous)"))
                break
            }
            let missing = (previous + 1..<q).filter { $0 < sender.status.count && sender.status[$0] == StressSender.accepted }
            if !missing.isEmpty {
                let judged = missing.map { lost(sender, $0) }
                var worst = judged.max { $0.grade < $1.grade }!
                worst.detail = "\(who): sender \(sender.id) got \(previous) then \(q), missing accepted \(missing.count) (first \(missing[0])); " + worst.detail
                findings.append(worst)
            }
            previous = q
        }
        for q in seqs where q >= sender.status.count || sender.status[q] != StressSender.accepted {
            findings.append(.forbidden(StressCheck.refusedDelivered, "\(who): sender \(sender.id) value \(q) was not accepted"))
            break
        }
    }
    return findings
}

// MARK: - SignalMulti

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

// MARK: - Junction

/// Threads send into a signal whose junction another thread keeps disconnecting and binding
/// again to the same input.
///
/// Arbiter: values arrive at most once and in each sender's order (a value in transit across
/// a rebind may be dropped: INTERESTING); the source's end goes through the junction and
/// arrives once, last.
package struct JunctionRebindScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("junction-rebind", "junction bind/disconnect racing with delivery", acceptable: "all delivered once, in order, end last")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let errors = StressLock<[String]>([])
        var findings: [StressFinding] = []
        do {
            let (source, sourceSignal) = it.makeInput("source input", signal: "source signal")
            let junction = sourceSignal.junction()
            it.track(junction, "junction")
            let (target, targetSignal) = it.makeInput("target input", signal: "target signal")
            let output = stream.subscribe(targetSignal)
            if let error = junction.bind(to: target) {
                return [.forbidden(StressCheck.setupFailed, "bind: \(error)")]
            }
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    for k in 0..<max(4, n / 8) {
                        let old = junction.disconnect()
                        if old !== target { errors.withLock { $0.append("disconnect returned \(String(describing: old))") } }
                        rng.perturb()
                        if let error = junction.bind(to: target) {
                            errors.withLock { $0.append("bind again: \(error)") }
                        }
                        rng.perturb()
                        it.progress(a, k)
                    }
                    return
                }
                stream.sendAll(a, random: &rng) { source.send(value: $0) }
            }
            if let e = source.complete() { findings.append(.forbidden(StressCheck.setupFailed, "source complete() returned \(e)")) }
            let recorder = stream.recorder
            it.waitUntil("the end", timeoutSeconds: 2) { recorder.endCount > 0 }
            output.cancel()
            junction.cancel()
        }
        for e in errors.withLock({ $0 }) { findings.append(.forbidden(StressCheck.setupFailed, e)) }
        findings += stream.check("target subscriber", StressStreamPolicy(
            lossName: "value dropped in transit during rebind", expectedEnd: "complete"))
        return findings
    }
}

// MARK: - Capture

/// Threads send into a `continuous()` signal while another captures it and subscribes to the
/// capture, again and again.
///
/// Arbiter, per capture: the captured values followed by what the subscription got keep each
/// sender's order with no gap and no repeat (a value that arrives between `capture()` and
/// `subscribe` is held, not lost or duplicated); nothing after cancel; no overlapping entry.
package struct CaptureSubscribeScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("capture-subscribe", "capture() then subscribe racing with senders", acceptable: "captured + held + live values contiguous, once, in order")

    final class Log: @unchecked Sendable {
        var entries: [(captured: [StressEvent], recorder: StressRecorder, began: Int)] = []
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let clock = StressClock()
        let senders = (0..<senderCount).map { StressSender(id: $0, capacity: n, clock: clock) }
        let log = Log()
        var findings: [StressFinding] = []
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { $0.continuous() }
            it.track(input, "input"); it.track(multi, "multi")
            let ledger = it.ledger
            let shared = it.shared
            it.runChurn(churn: { _, rng in
                let began = clock.tick()
                let capture = multi.capture()
                it.track(capture, "capture")
                let captured = capture.values.map { StressEvent.value(sender: $0.sender, seq: $0.seq, tag: $0.tag) }
                rng.perturb()
                let recorder = StressRecorder(capacity: senderCount * n + 4, perturber: shared)
                let token = ledger.token()
                let output = capture.subscribe { r in withExtendedLifetime(token) { recorder.receive(r) } }
                rng.hold()
                output.cancel()
                recorder.markCancelled()
                log.entries.append((captured, recorder, began))
            }, senders: { a, rng in
                senders[a].sendAll(n, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
            })
            input.complete()
        }
        for (k, entry) in log.entries.enumerated() {
            let live = entry.recorder.events
            let who = "capture \(k) (captured \(entry.captured.map(\.description)), then \(live.prefix(6).map(\.description))…)"
            findings += entry.recorder.entryFindings(who)
            let events = entry.captured + live
            if events.contains(where: { if case .end = $0 { return true } else { return false } }) {
                findings.append(.forbidden(StressCheck.wrongEnd, "\(who): got an end though only cancelled"))
            }
            // A value whose send began after `capture()` was called must arrive. One sent
            // earlier may have been in transit while the previous capture's cancel deactivated
            // the upstream, and dropped there (it never reached the cache either).
            findings += stressCheckContiguous(who, events, senders: senders) { sender, seq in
                sender.startedAt[seq] > entry.began
                    ? .forbidden(StressCheck.lost, "sent at \(sender.startedAt[seq]), after capture() began at \(entry.began)")
                    : .interesting("value dropped in transit as the upstream deactivated", "sent at \(sender.startedAt[seq])-\(sender.returnedAt[seq]), capture() began at \(entry.began)")
            }
        }
        return findings
    }
}

// MARK: - generate

/// Threads send through the input a `generate` closure publishes, while another thread
/// subscribes and cancels (each subscription is one activation of the generator).
///
/// Arbiter: activation callbacks alternate (input, nil, input…) and never overlap; an input
/// whose deactivation was announced accepts nothing; each subscription gets values of one
/// activation only, once and in order across subscriptions; a value accepted just before a
/// deactivation may be dropped (INTERESTING).
package struct GenerateReactivationScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("generate-reactivate", "generate re-activation racing with cancel and senders", acceptable: "one activation per subscription, in order, nothing stale")

    final class State: @unchecked Sendable {
        let current = StressLock<(input: SignalInput<StressMsg>?, generation: Int)>((nil, 0))
        let deactivated = Atomic<Int>(0)
        let callbacks = StressGuard()
        let errors = StressLock<[String]>([])

        func change(_ input: SignalInput<StressMsg>?) {
            callbacks.enter()
            let problem = current.withLock { c -> String? in
                if let input {
                    defer { c = (input, c.generation + 1) }
                    return c.input != nil ? "activated again without a deactivation" : nil
                }
                defer {
                    c.input = nil
                    deactivated.store(c.generation, ordering: .releasing)
                }
                return c.input == nil ? "deactivated while inactive" : nil
            }
            if let problem { errors.withLock { $0.append(problem) } }
            callbacks.exit()
        }
    }

    final class Log: @unchecked Sendable {
        var recorders: [StressRecorder] = []
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let senders = (0..<senderCount).map { StressSender(id: $0, capacity: n) }
        let state = State()
        let log = Log()
        let stale = StressLock<[String]>([])
        do {
            let token = it.ledger.token()
            let generated = Signal<StressMsg>.generate(delivery: it.variant) { input in
                withExtendedLifetime(token) { state.change(input) }
            }
            let multi = generated.multicast()
            it.track(generated, "generate signal"); it.track(multi, "multi")
            let ledger = it.ledger
            let shared = it.shared
            it.runChurn(churn: { _, rng in
                let recorder = StressRecorder(capacity: senderCount * n + 4, perturber: shared)
                let output = multi.stressSubscribe(recorder, ledger: ledger)
                rng.hold()
                output.cancel()
                recorder.markCancelled()
                log.recorders.append(recorder)
                rng.perturb()
            }, senders: { a, rng in
                let s = senders[a]
                for i in 0..<n {
                    let deactivatedBefore = state.deactivated.load(ordering: .acquiring)
                    let (input, generation) = state.current.withLock { $0 }
                    if let input {
                        let error = s.send(tag: generation, ledger: ledger) { input.send(value: $0) }
                        if error == nil && deactivatedBefore >= generation {
                            stale.withLock { $0.append("sender \(a): activation \(generation)'s input accepted \(i) after its deactivation") }
                        }
                    } else {
                        s.record(seq: s.nextSeq, accepted: false)
                    }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            })
        }
        var findings: [StressFinding] = []
        if state.callbacks.overlaps > 0 {
            findings.append(.forbidden(StressCheck.activationOrder, "activation callbacks overlapped \(state.callbacks.overlaps) times"))
        }
        for e in state.errors.withLock({ $0 }) { findings.append(.forbidden(StressCheck.activationOrder, e)) }
        if let s = stale.withLock({ $0.first }) { findings.append(.forbidden(StressCheck.staleInput, s)) }
        var all: [StressEvent] = []
        var lastGeneration = 0
        for (k, recorder) in log.recorders.enumerated() {
            let who = "subscription \(k)"
            findings += recorder.entryFindings(who)
            let events = recorder.events
            let generations = Set(events.compactMap { e -> Int? in if case .value(_, _, let g) = e { return g } else { return nil } })
            if generations.count > 1 {
                findings.append(.forbidden(StressCheck.crossActivation, "\(who): values of activations \(generations.sorted())"))
            }
            if let g = generations.min() {
                if g <= lastGeneration {
                    findings.append(.forbidden(StressCheck.crossActivation, "\(who): activation \(g) after \(lastGeneration)"))
                }
                lastGeneration = generations.max()!
            }
            all += events
        }
        findings += stressCheckEvents("subscriptions", all, senders: senders, policy: StressStreamPolicy(
            lossName: "value dropped: accepted as its activation ended", expectedEnd: nil))
        return findings
    }
}

// MARK: - Execution contexts

/// Threads send into a multicast signal with a `.global` map stage feeding a `.global`
/// subscriber, and a subscriber on a concurrent queue.
///
/// Arbiter: no stage or handler entered concurrently, everything once, in order, end last.
package struct GlobalContextScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("global-handlers", "handlers and a map stage on .global / concurrent queues never overlap", acceptable: "no overlap, all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        // Two subscribers of the same senders: the stream's recorder and one more like it.
        let stream = StressStream(it, senders: it.threads)
        let first = stream.recorder
        let second = StressRecorder(capacity: it.threads * it.operations + 4, perturber: it.shared)
        let stage = StressStage(shared: it.shared)
        let concurrent = DispatchQueue(label: "stress.concurrent", attributes: .concurrent)
        var findings: [StressFinding] = []
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { $0.multicast() }
            it.track(input, "input"); it.track(multi, "multi")
            let token = it.ledger.token()
            let mapped = multi.map(context: .global) { m in withExtendedLifetime(token) { stage.pass(m) } }
            it.track(mapped, "mapped signal")
            let out1 = stream.subscribe(mapped, as: "global output", context: .global)
            let out2 = multi.stressSubscribe(second, ledger: it.ledger, context: .concurrent(concurrent))
            it.track(out2, "concurrent-queue output")
            it.runActors(it.threads) { a, rng in
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            it.waitUntil("the ends") { first.endCount > 0 && second.endCount > 0 }
            out1.cancel()
            out2.cancel()
        }
        findings += stage.findings("map stage on .global")
        findings += stream.check(".global subscriber", StressStreamPolicy(expectedEnd: "complete"))
        findings += stressCheckStream("concurrent-queue subscriber", second, senders: stream.senders, policy: StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}

/// A pass-through stage that checks it is never entered concurrently.
final class StressStage: @unchecked Sendable {
    let guardian = StressGuard()
    let shared: StressSharedRandom
    /// Plain memory, for ThreadSanitizer (see `StressRecorder.plainCount`).
    var plainCount = 0

    init(shared: StressSharedRandom) { self.shared = shared }

    func pass(_ m: StressMsg) -> StressMsg {
        guardian.enter()
        plainCount &+= 1
        shared.perturb()
        guardian.exit()
        return m
    }

    func findings(_ who: String) -> [StressFinding] {
        guardian.overlaps > 0 ? [.forbidden(StressCheck.concurrentEntry, "\(who): \(guardian.overlaps) overlapping entries")] : []
    }
}

/// A chain of stages across a serial queue, a concurrent queue, `.global` and another serial
/// queue, fed by T threads.
///
/// Arbiter: no stage entered concurrently; everything once, in each sender's order, end last.
package struct ContextChainScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("context-chain", "stages across serial, concurrent and global queues keep order", acceptable: "no overlap, all delivered once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let stream = StressStream(it, senders: it.threads)
        let stages = (0..<3).map { _ in StressStage(shared: it.shared) }
        let serialA = DispatchQueue(label: "stress.serial.a")
        let concurrent = DispatchQueue(label: "stress.concurrent", attributes: .concurrent)
        let serialB = DispatchQueue(label: "stress.serial.b")
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput()
            let token = it.ledger.token()
            let chain = signal
                .map(context: .queue(serialA)) { m in withExtendedLifetime(token) { stages[0].pass(m) } }
                .filter(context: .concurrent(concurrent)) { m in stages[1].pass(m).seq >= 0 }
                .map(context: .global) { m in stages[2].pass(m) }
            it.track(chain, "chain")
            let output = stream.subscribe(chain, context: .queue(serialB))
            it.runActors(it.threads) { a, rng in
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            findings += stream.complete(input)
            output.cancel()
        }
        for (i, name) in ["serial-queue map", "concurrent-queue filter", ".global map"].enumerated() {
            findings += stages[i].findings(name)
        }
        findings += stream.check("serial-queue subscriber", StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}

// MARK: - Catalogue

/// Every scenario of `bench stress`, in table order.
package enum StressCatalogue {
    /// All scenarios.
    package static var all: [any StressScenario] {
        [
            ConcurrentSendScenario(),
            MergedMutationScenario(),
            ReentrantSendScenario(),
            MultiChurnScenario(.continuous),
            MultiChurnScenario(.playback),
            MultiChurnScenario(.multicast),
            JunctionRebindScenario(),
            InputReleaseScenario(),
            CancelEndRaceScenario(),
            CaptureSubscribeScenario(),
            GenerateReactivationScenario(),
            MulticastEndedBranchesScenario(),
            GlobalContextScenario(),
            ContextChainScenario(),
            StressVariantQueueScenario(),
            LockParkingScenario(),
            EagerMultiCreateScenario(),
            ResubscribeRaceScenario(),
            CaptureEagerScenario(),
            BindDisconnectRaceScenario(),
            GenerateGlobalCallbacksScenario(),
            CrossCancelScenario(),
            QueueStageCancelScenario(),
            MergedSourceEndScenario(),
            InnerLoopScenario(),
            SendCompleteRaceScenario(),
            MergedEndRaceScenario(),
            InnerCancelScenario(),
            ReentrantOrderScenario(),
            EndRaceRoundsScenario(),
            SingleOutputRaceScenario(),
            LoopBindRaceScenario(),
            StateResetRaceScenario(),
            RebindGenerationScenario(),
            CaptureActivationScenario(),
            RealTimeOrderScenario(),
            SelfRetainingReleaseScenario(),
            CacheUntilActiveScenario(),
            ContinuousKeepingReadersScenario(),
            JunctionEndRebindScenario(),
            JunctionRebindRaceScenario(),
            ReconnectorRaceScenario(),
            CaptureResumeEndScenario(),
            ActivationOperatorsFloodScenario(),
            OperatorInputRaceScenario(),
            DeepChainScenario(),
            DeepMergeOrderScenario(),
            DeepTakeRefusalScenario(),
            GroupByDurationRaceScenario(),
            WindowBoundaryRaceScenario(),
            DelaySubscriptionRaceScenario(),
            RetryWhenErrorsRaceScenario(),
            RepeatRaceScenario(),
            TimerStageRaceScenario(),
        ]
    }
}

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
