import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Signals
import Synchronization

// Races on the CwlSignal API that changes the graph: a junction's end handler binding again,
// `rebind()`, the reconnector, a capture's `resume(resend:onEnd:)` and `bind(to:resend:onEnd:)`,
// and `retry`. Each checks the promise its doc comment and docs/guarantees.md make.

/// Records what one downstream received: values, then ends (as text).
final class StressDownstream: @unchecked Sendable {
    // Unchecked: behind the lock.
    let log = StressLock<(values: [Int], ends: [String])>(([], []))

    func receive(_ r: Result<Int, SignalEnd>) {
        log.withLock { l in
            switch r {
            case .success(let v): l.values.append(v)
            case .failure(let e): l.ends.append(e.isComplete ? "complete" : e.isCancelled ? "cancelled" : "\(e)")
            }
        }
    }

    var snapshot: (values: [Int], ends: [String]) { log.withLock { $0 } }
}

/// A `generate` source that keeps its current input (a released input would end the stream).
final class StressKeptSource: @unchecked Sendable {
    // Unchecked: behind the lock.
    let input = StressLock<SignalInput<Int>?>(nil)
    let signal: Signal<Int>

    init(_ variant: DeliveryVariant) {
        let input = self.input
        signal = Signal<Int>.generate(delivery: variant) { i in input.withLock { $0 = i } }
    }

    func send(_ v: Int) -> SignalSendError? {
        guard let i = input.withLock({ $0 }) else { return .inactive }
        return i.send(value: v)
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

/// Actor 0 sends 1, 2, 3… into a `continuous()` multi; the others capture it and
/// `resume(resend: .all, onEnd:)` (or `bind(to:resend:onEnd:)` into an input of their own)
/// and subscribe later: the subscriber gets the capture's activation value, then consecutive
/// values (nothing lost between `resume` and the subscription). Then each actor's own
/// `create()` source bound with an end handler ends: the capture reads no values and that end.
package struct CaptureResumeEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "capture-resume-end", "T−1 threads capture a flooded continuous(), resume/bind with onEnd, subscribe later; captures read the end",
        acceptable: "activation value then consecutive values; [] and the end after it")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations / 8)
        let (input, multi) = Signal<Int>.create(delivery: it.variant) { $0.continuous() }
        input.send(value: 0)
        let bad = StressLock<[String]>([])
        it.runFlood(from: 1, send: { v, _ in input.send(value: v) }) { a, rng in
            for i in 0..<n {
                let capture = multi.capture()
                let activation = capture.values
                let down = StressDownstream()
                let out: SignalOutput<Int>
                var junction: SignalJunction<Int>?
                if i & 1 == 0 {
                    let resumed = capture.resume(resend: .all) { _, e, i in i.send(end: e) }
                    rng.perturb()
                    out = resumed.subscribe(down.receive)
                } else {
                    let (into, signal) = Signal<Int>.create(delivery: it.variant)
                    out = signal.subscribe(down.receive)
                    switch capture.bind(to: into, resend: .all, onEnd: { _, e, i in i.send(end: e) }) {
                    case .success(let j): junction = j
                    case .failure(let e): bad.withLock { $0.append("bind refused: \(e)") }
                    }
                }
                let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
                while down.snapshot.values.count < 3 && DispatchTime.now().uptimeNanoseconds < deadline { rng.perturb() }
                out.cancel()
                _ = junction?.disconnect()
                let values = down.snapshot.values
                if activation.count != 1 || values.first != activation.first {
                    bad.withLock { $0.append("activation \(activation), subscriber got \(values.prefix(4))…") }
                } else if let b = stressConsecutiveBreak(values) {
                    bad.withLock { $0.append("\(b.check) after \(values[0]): …\(b.around)…") }
                }

                // A capture of an own source, bound with an end handler, then ended.
                let (ownInput, own) = Signal<Int>.create(delivery: it.variant)
                let ownCapture = own.capture()
                it.track(ownCapture, "capture")
                let (into, signal) = Signal<Int>.create(delivery: it.variant)
                let ownDown = StressDownstream()
                let ownOut = signal.subscribe(ownDown.receive)
                let bound = ownCapture.bind(to: into, resend: .all) { _, e, i in i.send(end: e) }
                ownInput.send(value: i)
                ownInput.complete()
                if !ownCapture.values.isEmpty || ownCapture.end?.isComplete != true || ownDown.snapshot.ends != ["complete"] {
                    bad.withLock { $0.append("after the end: values \(ownCapture.values), end \(String(describing: ownCapture.end)), downstream \(ownDown.snapshot)") }
                }
                withExtendedLifetime(bound) {}
                ownOut.cancel()
                if i & 3 == 0 { it.progress(a, i) }
            }
        }
        let found = bad.withLock { $0 }
        if !found.isEmpty { return [.forbidden("capture lost or misfiled values", found.prefix(3).joined(separator: "; "))] }
        return []
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
