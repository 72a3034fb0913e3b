import Signals
import Synchronization

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
