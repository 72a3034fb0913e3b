import Dispatch
import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Scenarios for junctions (`SignalJunction`) and the API built on them: binds and disconnects
// racing delivery, a junction's end handler binding again, `rebind()`, the reconnector, rebinds
// over a `generate` source (an earlier activation's end must not reach the next one) and
// `retry`. Each checks the promise its doc comment and docs/guarantees.md make.

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

/// T threads call `rebind()` (and `rebind(onEnd:)`) on one junction bound to a subscribed
/// input while the source keeps its input: the downstream never ends (a library race must not
/// reach it as `.duplicate`), and afterwards the junction is bound: a value sent arrives.
package struct JunctionRebindRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "junction-rebind-race", "T threads rebind() one bound junction at once; then a value must arrive",
        acceptable: "downstream open, still bound")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(16, it.operations / 2)
        let source = StressKeptSource(it.variant)
        let junction = source.signal.junction()
        it.track(junction, "junction")
        let (input, signal) = Signal<Int>.create(delivery: it.variant)
        let down = StressDownstream()
        let out = signal.subscribe(down.receive)
        if let e = junction.bind(to: input) { return [.forbidden(StressCheck.setupFailed, "bind refused: \(e)")] }
        it.runActors(it.threads) { a, rng in
            for i in 0..<n {
                if (i + a) % 5 == 0 {
                    junction.rebind { _, e, i in i.send(end: e) }
                } else {
                    junction.rebind()
                }
                rng.perturb()
                if i & 15 == 0 { it.progress(a, i) }
            }
        }
        let sent = source.send(-1)
        let (values, ends) = down.snapshot
        out.cancel()
        _ = junction.disconnect()
        var findings: [StressFinding] = []
        if !ends.isEmpty { findings.append(.forbidden("downstream ended by racing rebinds", "\(ends)")) }
        if sent != nil || values.last != -1 { findings.append(.forbidden("junction unbound after racing rebinds", "send gave \(String(describing: sent)), got \(values)")) }
        return findings
    }
}

/// Each actor binds a junction over a cold source (0…3 then complete; on the sending thread
/// or on `.global`, so the end races the handler's own bind) with an end handler that binds
/// again three times and then sends the end on; and runs a `retry(count: 3, delayInterval:
/// .zero)` of a source that fails at once. Every downstream gets four whole runs and one
/// `complete`, never `.duplicate`; every retry makes four attempts, then passes the error on.
package struct JunctionEndRebindScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "junction-end-rebind", "T threads: an end handler binds its junction again (sync and .global sources); retry(count: 3)",
        acceptable: "every round delivered whole, one end, every attempt made")

    static let rounds = 4
    static let run = [0, 1, 2, 3]

    struct Failure: Error {}

    package func run(_ it: StressIteration) -> [StressFinding] {
        let cycles = max(4, it.operations / 16)
        let bad = StressLock<[String]>([])
        let pending = StressLock<[(StressDownstream, SignalOutput<Int>, AnyObject, String)]>([])
        it.runActors(it.threads) { a, rng in
            for i in 0..<cycles {
                let global = (i + a) & 1 == 1
                let source = Signal<Int>.generate(context: global ? .global : .direct, delivery: it.variant) { input in
                    guard let input else { return }
                    for x in Self.run { input.send(value: x) }
                    input.complete()
                }
                let junction = source.junction()
                it.track(junction, "junction")
                let (input, signal) = Signal<Int>.create(delivery: it.variant)
                let down = StressDownstream()
                let out = signal.subscribe(down.receive)
                let round = Atomic<Int>(1)
                @Sendable func onEnd(_ j: SignalJunction<Int>, _ e: SignalEnd, _ i: SignalInput<Int>) {
                    if round.wrappingAdd(1, ordering: .relaxed).newValue > Self.rounds { i.send(end: e); return }
                    if let refused = j.bind(to: i, onEnd: onEnd) { bad.withLock { $0.append("handler's bind refused: \(refused)") } }
                }
                if let refused = junction.bind(to: input, onEnd: onEnd) { bad.withLock { $0.append("first bind refused: \(refused)") } }
                rng.perturb()
                pending.withLock { $0.append((down, out, junction, "end handler (\(global ? "global" : "direct"))")) }

                let attempts = Atomic<Int>(0)
                let failing = Signal<Int>.generate(delivery: it.variant) { input in
                    guard let input else { return }
                    input.send(value: attempts.wrappingAdd(1, ordering: .relaxed).newValue)
                    input.send(end: .other(Failure()))
                }
                let retried = StressDownstream()
                let retryOut = failing.retry(count: Self.rounds - 1, delayInterval: .zero, context: .global).subscribe(retried.receive)
                pending.withLock { $0.append((retried, retryOut, retryOut, "retry")) }
                if i & 7 == 0 { it.progress(a, i) }
            }
        }
        let all = pending.withLock { $0 }
        it.waitUntil("every downstream's end", timeoutSeconds: 10) { all.allSatisfy { !$0.0.snapshot.ends.isEmpty } }
        for (down, out, _, what) in all {
            let (values, ends) = down.snapshot
            if what == "retry" {
                if values != Array(1...Self.rounds) || ends.count != 1 || ends.first?.contains("Failure") != true {
                    bad.withLock { $0.append("retry: \(values) then \(ends)") }
                }
            } else if values != Array(repeating: Self.run, count: Self.rounds).flatMap({ $0 }) || ends != ["complete"] {
                bad.withLock { $0.append("\(what): \(values) then \(ends)") }
            }
            out.cancel()
        }
        let found = bad.withLock { $0 }
        if !found.isEmpty { return [.forbidden("round lost, refused or cut short", found.prefix(3).joined(separator: "; "))] }
        return []
    }
}

/// Rounds of two actors, each round over a fresh junction of a `generate` source bound to a
/// first input: actor 0 sends the end into the source's activation input while actor 1
/// disconnects the junction and binds it to a second input (the source's next activation).
/// The end closes its own activation or is refused, never the next: afterwards a value sent
/// into the source's current input is accepted and reaches the second input's subscriber,
/// which has seen no end. (`bench explore`'s `generate-stale-end` is one round of this.)
package struct GenerateEndRebindScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "generate-end-rebind", "an end into a generate source's input against its junction's disconnect and bind, in rounds",
        acceptable: "the next activation bound, open, delivering")

    final class Round: Sendable {
        let source: StressKeptSource
        let junction: SignalJunction<Int>
        let first: SignalInput<Int>
        let second: SignalInput<Int>
        let secondLog: StressDownstream
        let outputs: [SignalOutput<Int>]
        let old: SignalInput<Int>?
        let arrived = Atomic<Int>(0)

        init(source: StressKeptSource, junction: SignalJunction<Int>, first: SignalInput<Int>, second: SignalInput<Int>,
             secondLog: StressDownstream, outputs: [SignalOutput<Int>], old: SignalInput<Int>?) {
            (self.source, self.junction, self.first, self.second) = (source, junction, first, second)
            (self.secondLog, self.outputs, self.old) = (secondLog, outputs, old)
        }
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations / 8)
        var rounds: [Round] = []
        for _ in 0..<n {
            let source = StressKeptSource(it.variant)
            let junction = source.signal.junction()
            it.track(junction, "junction")
            let (first, firstSignal) = Signal<Int>.create(delivery: it.variant)
            let (second, secondSignal) = Signal<Int>.create(delivery: it.variant)
            let secondLog = StressDownstream()
            let outputs = [firstSignal.subscribe { _ in }, secondSignal.subscribe(secondLog.receive)]
            if let e = junction.bind(to: first) { return [.forbidden(StressCheck.setupFailed, "bind refused: \(e)")] }
            rounds.append(Round(source: source, junction: junction, first: first, second: second,
                                secondLog: secondLog, outputs: outputs, old: source.input.withLock { $0 }))
        }
        let bindRefusals = StressLock<[String]>([])
        it.runActors(2) { [rounds] a, rng in
            for (i, r) in rounds.enumerated() {
                // Both actors start each round together; the disconnecting one then waits a
                // log-uniform while (up to 32,768 steps), so it lands anywhere in the end's
                // path, whatever that path costs in this build.
                r.arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
                while r.arrived.load(ordering: .acquiring) < 2 { sched_yield() }
                stressSpin(a == 0 ? rng.below(64) : rng.below(1 << rng.below(16)))
                if a == 0 {
                    _ = r.old?.send(end: .complete)
                } else {
                    _ = r.junction.disconnect()
                    if let e = r.junction.bind(to: r.second) { bindRefusals.withLock { $0.append("round \(i): \(e)") } }
                }
                if i & 15 == 0 { it.progress(a, i) }
            }
        }
        var findings: [StressFinding] = []
        if let e = bindRefusals.withLock({ $0.first }) { findings.append(.forbidden("bind after disconnect refused", e)) }
        for (i, r) in rounds.enumerated() {
            let sent = r.source.send(-1)
            let (values, ends) = r.secondLog.snapshot
            if !ends.isEmpty {
                findings.append(.forbidden("the next activation ended by the old end", "round \(i): \(ends)"))
                break
            }
            if sent != nil || values != [-1] {
                findings.append(.forbidden("the source lost its next activation", "round \(i): send gave \(String(describing: sent)), the second input got \(values)"))
                break
            }
        }
        for r in rounds {
            for o in r.outputs { o.cancel() }
            _ = r.junction.disconnect()
            withExtendedLifetime((r.first, r.second)) {}
        }
        return findings
    }
}

/// T threads call a reconnector's `disconnect()` and `reconnect()` at random; then one
/// `reconnect()`: a value sent arrives, nothing ended the downstream, and `cancel()` ends it
/// with `.cancelled`, once.
package struct ReconnectorRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "reconnector-race", "T threads disconnect()/reconnect() one reconnector; then reconnect, send, cancel",
        acceptable: "connected after reconnect, only cancel ends")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(16, it.operations / 2)
        let source = StressKeptSource(it.variant)
        let (reconnector, signal) = source.signal.reconnector()
        it.track(reconnector, "reconnector")
        let down = StressDownstream()
        let out = signal.subscribe(down.receive)
        var findings: [StressFinding] = []
        for round in 0..<2 {
            it.runActors(it.threads) { a, rng in
                for i in 0..<n {
                    if rng.next() & 1 == 0 { reconnector.disconnect() } else { reconnector.reconnect() }
                    if i & 15 == 0 { it.progress(a, i) }
                }
            }
            reconnector.reconnect()
            let sent = source.send(round)
            let (values, ends) = down.snapshot
            if !ends.isEmpty { findings.append(.forbidden("downstream ended before cancel", "\(ends)")); break }
            if sent != nil || values.last != round {
                findings.append(.forbidden("not connected after reconnect()", "send gave \(String(describing: sent)), got \(values)"))
                break
            }
        }
        reconnector.cancel()
        let ends = down.snapshot.ends
        if findings.isEmpty && ends != ["cancelled"] { findings.append(.forbidden("cancel() did not end the downstream once", "\(ends)")) }
        out.cancel()
        return findings
    }
}

/// CwlSignal's `testAsynchronousJoinAndDetach` as a race: T threads keep disconnecting one
/// junction over a cold `generate` source (0…7 then complete, on every activation) and binding
/// it to a fresh merged input whose chain records what it gets.
///
/// Arbiter, per chain, once every chain has ended: the values are 0, 1, 2, … in order (a
/// prefix: a chain unbound early is cut short), the chain ends exactly once, and a chain that
/// ends with `complete` saw all eight values. A straggling end of an earlier activation (or one
/// that closed the reopened queue to the new activation's values) makes a chain complete early.
package struct RebindGenerationScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("rebind-generation", "T threads rebind one junction over a cold generate source to fresh merged inputs: each chain sees 0…7 in order, then one end", acceptable: "every chain in order, one end, complete only when whole")

    static let length = 8

    /// What one chain received.
    final class Chain: @unchecked Sendable {
        // Unchecked: behind the lock.
        let log = StressLock<(values: [Int], ends: [String])>(([], []))
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let cycles = max(4, it.operations / 8)
        let junction = Signal<Int>.generate(delivery: it.variant) { input in
            guard let input else { return }
            for x in 0..<Self.length { input.send(value: x) }
            input.complete()
        }.junction()
        it.track(junction, "junction")
        let chains = StressLock<[Chain]>([])
        let outputs = StressLock<[SignalOutput<Int>]>([])
        it.runActors(it.threads) { actor, rng in
            for i in 0..<cycles {
                let chain = Chain()
                let (input, merged) = Signal<Int>.createMergedInput(delivery: it.variant)
                let out = merged.subscribe { r in
                    chain.log.withLock { l in
                        switch r {
                        case .success(let v): l.values.append(v)
                        case .failure(let e): l.ends.append(e.isComplete ? "complete" : "\(e)")
                        }
                    }
                }
                chains.withLock { $0.append(chain) }
                outputs.withLock { $0.append(out) }
                _ = junction.disconnect()
                rng.perturb()
                _ = junction.bind(to: input)
                if i & 7 == 0 { it.progress(actor, i) }
            }
        }
        _ = junction.disconnect()
        // Every merged input is gone now (each actor's local): chains that were not completed
        // were cancelled. Their ends are synchronous; give stragglers a moment anyway.
        let all = chains.withLock { $0 }
        it.waitUntil("every chain's end", timeoutSeconds: 5) { all.allSatisfy { $0.log.withLock { !$0.ends.isEmpty } } }
        for out in outputs.withLock({ $0 }) { out.cancel() }
        var bad: [String] = []
        for (n, chain) in all.enumerated() {
            let (values, ends) = chain.log.withLock { $0 }
            if values != Array(0..<values.count) { bad.append("chain \(n): values \(values)") }
            if ends.count != 1 { bad.append("chain \(n): \(ends.count) ends \(ends)") }
            if ends.first == "complete" && values.count != Self.length { bad.append("chain \(n): complete after \(values)") }
            if bad.count >= 3 { break }
        }
        if !bad.isEmpty { return [.forbidden("value or end from another activation", bad.joined(separator: "; "))] }
        return []
    }
}
