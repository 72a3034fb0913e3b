import Dispatch
import Signals
import Synchronization

// Scenarios for activation and deactivation racing delivery: a `generate` source's
// re-activations (its callbacks alternate and never overlap, a subscription gets the values of
// one activation only), a plain signal subscribed again while senders send, and stateful
// stages, which start from fresh state on every activation.

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

/// `generate(context: .global)` activated and deactivated from several threads at once
/// (a context that runs callbacks concurrently): its callbacks never overlap and alternate input, nil.
package struct GenerateGlobalCallbacksScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("generate-global-callbacks", "T threads subscribe/cancel a multicast of generate(context: .global)", acceptable: "callbacks serialized, alternating")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(16, it.operations / 4)
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let calls = StressLock<[Bool]>([])
        var findings: [StressFinding] = []
        do {
            let signal = Signal<Int>.generate(context: .global, delivery: it.variant) { input in
                if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.wrappingAdd(1, ordering: .relaxed) }
                calls.withLock { $0.append(input != nil) }
                inside.store(false, ordering: .releasing)
            }
            let multi = signal.multicast()
            it.runActors(it.threads) { a, rng in
                for i in 0..<n {
                    let out = multi.subscribe { _ in }
                    rng.perturb()
                    out.cancel()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            // Every activation is followed by its deactivation: wait for the last callback.
            _ = it.waitUntil("the last callback") {
                calls.withLock { c in !c.isEmpty && c.count % 2 == 0 && c.last == false }
            }
        }
        if overlaps.load(ordering: .relaxed) > 0 {
            findings.append(.forbidden(StressCheck.concurrentEntry, "\(overlaps.load(ordering: .relaxed)) overlapping activation callbacks"))
        }
        let seq = calls.withLock { $0 }
        if let bad = seq.indices.first(where: { seq[$0] != ($0 % 2 == 0) }) {
            findings.append(.forbidden(StressCheck.activationOrder, "callback \(bad) of \(seq.count) was \(seq[bad] ? "an input" : "nil") out of alternation"))
        }
        return findings
    }
}

/// One plain `Signal` subscribed, cancelled and subscribed again while senders run: no
/// `.duplicate`, no delivery after `cancel()` returned, and across the subscriptions together
/// every value at most once and in each sender's order (a value in transit at a cancel may be
/// dropped).
package struct ResubscribeRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("resubscribe-race", "subscribe → cancel → subscribe on one Signal racing T-1 senders", acceptable: "each value at most once, in order, no duplicate error")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let recorders = StressLock<[StressRecorder]>([])
        do {
            let (input, signal) = it.makeInput()
            let ledger = it.ledger
            let shared = it.shared
            let done = Atomic<Int>(0)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    var k = 0
                    while done.load(ordering: .acquiring) < senderCount || k < 4 {
                        let recorder = StressRecorder(capacity: senderCount * n + 4, perturber: shared)
                        recorders.withLock { $0.append(recorder) }
                        let output = signal.stressSubscribe(recorder, ledger: ledger)
                        rng.hold()
                        output.cancel()
                        recorder.markCancelled()
                        k += 1
                        it.progress(a, k)
                    }
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
                done.wrappingAdd(1, ordering: .releasing)
            }
        }
        var findings: [StressFinding] = []
        var all: [StressEvent] = []
        for (k, r) in recorders.withLock({ $0 }).enumerated() {
            findings += r.entryFindings("subscription \(k)")
            for e in r.events {
                if case .end(let name) = e {
                    findings.append(.forbidden(StressCheck.wrongEnd, "subscription \(k): got end \(name) (a duplicate error?) though only cancelled"))
                } else {
                    all.append(e)
                }
            }
        }
        findings += stressCheckEvents("subscriptions in turn", all, senders: stream.senders,
                                      policy: StressStreamPolicy(lossName: "value in transit at a cancel dropped", expectedEnd: nil))
        return findings
    }
}

/// "Stateful stages start from fresh state on every activation": every actor subscribes to the
/// same `just(1, 1, 1).scan(0, +)` and cancels, again and again, so activations and
/// deactivations of the one stage race across threads.
///
/// Arbiter, per subscription, on what it received by the time its `cancel()` returned: either
/// only `.duplicate` (another actor held the output), or a prefix of 1, 2, 3, complete (a value
/// in transit at the cancel may be missing at the end, never at the start). A scan that kept its
/// state from an earlier activation would give 4, 5, 6….
package struct StateResetRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("state-reset-race", "T threads subscribe and cancel one scan over just(1, 1, 1): each activation starts from the initial state", acceptable: "every activation from fresh state")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let signal = Signal<Int>.just(1, 1, 1, delivery: it.variant).scan(initialValue: 0) { $0 + $1 }
        it.track(signal, "signal")
        let bad = StressLock<[String]>([])
        let cycles = max(4, it.operations / 8)
        it.runActors(it.threads) { actor, rng in
            for i in 0..<cycles {
                let log = StressLock<[String]>([])
                let out = signal.subscribe { r in
                    let entry: String
                    switch r {
                    case .success(let v): entry = "\(v)"
                    case .failure(.other(let e)) where (e as? SignalBindError) == .duplicate: entry = "duplicate"
                    case .failure(let e): entry = "\(e)"
                    }
                    log.withLock { $0.append(entry) }
                }
                rng.perturb()
                out.cancel()
                let seen = log.withLock { $0 }
                let full = ["1", "2", "3", "complete"]
                if seen != ["duplicate"] && !full.starts(with: seen) {
                    bad.withLock { if $0.count < 3 { $0.append("actor \(actor) cycle \(i): \(seen)") } }
                }
                if i & 7 == 0 { it.progress(actor, i) }
            }
        }
        let found = bad.withLock { $0 }
        if !found.isEmpty { return [.forbidden("stage state kept from an earlier activation", found.joined(separator: "; "))] }
        return []
    }
}
