import Dispatch
import Signals
import Synchronization

// Scenarios for connecting outputs, the graph rules of docs/guarantees.md: a plain `Signal` has
// a single output (a subscribe, a junction bind, a merged add or an operator's input racing for
// it: exactly one wins, the others are refused with `.duplicate` and give back what they hold),
// and a connection that would close a loop is refused (binds racing each other or a
// `disconnect`, a `flatMap` whose inner subscription would feed its own input).

/// Who won a race for one signal's output, and what reached the winners.
final class StressOutputContest: @unchecked Sendable {
    // Unchecked: atomics only.
    /// Contenders whose subscribe, bind or add succeeded.
    let wins = Atomic<Int>(0)
    /// Contenders refused with `.duplicate`.
    let refusals = Atomic<Int>(0)
    /// Deliveries of the probe value, over all contenders.
    let probes = Atomic<Int>(0)
    /// Anything else a contender was told (a wrong error).
    let odd = Atomic<Int>(0)

    static let probe = 7_777
}

/// A flag shared with a handler.
final class StressFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// "A plain `Signal` has a single output": a subscribe, a junction bind and a merged-input add
/// (actor `a` uses kind `a % 3`) race for the same signal's output, 8 rounds per iteration.
///
/// Arbiter, per round: exactly one contender wins and the others are refused with
/// `.duplicate`; a probe value sent afterwards reaches exactly one of them.
package struct SingleOutputRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("single-output-race", "a subscribe, a junction bind and a merged add race for one signal's output: exactly one wins", acceptable: "exactly one winner, the probe reaches it once", minimumThreads: 3)

    package func run(_ it: StressIteration) -> [StressFinding] {
        for round in 0..<8 {
            let contest = StressOutputContest()
            let (source, signal) = Signal<Int>.create(delivery: it.variant)
            it.track(source, "source"); it.track(signal, "signal")
            // Set up before the race, so the race is only about the output.
            let (target, targetSignal) = Signal<Int>.create(delivery: it.variant)
            let (merged, mergedSignal) = Signal<Int>.createMergedInput(delivery: it.variant)
            @Sendable func record(_ r: Result<Int, SignalEnd>) {
                switch r {
                case .success(let v): if v == StressOutputContest.probe { contest.probes.add(1, ordering: .relaxed) }
                case .failure(.other(let e)):
                    if let b = e as? SignalBindError, b == .duplicate {
                        contest.refusals.add(1, ordering: .relaxed)
                    } else {
                        contest.odd.add(1, ordering: .relaxed)
                    }
                case .failure: break
                }
            }
            let targetOutput = targetSignal.subscribe { record($0) }
            let mergedOutput = mergedSignal.subscribe { record($0) }
            let held = StressLock<[AnyObject]>([])
            it.runActors(it.threads) { a, rng in
                rng.perturb()
                switch a % 3 {
                case 0:
                    // A refused subscribe is told `.duplicate` as its first result: judged
                    // after the round, once every queued attachment has run.
                    let told = StressFlag()
                    let out = signal.subscribe { r in
                        if case .failure(.other(let e)) = r, let b = e as? SignalBindError, b == .duplicate {
                            told.value.store(true, ordering: .relaxed)
                        }
                        record(r)
                    }
                    held.withLock { $0.append(out); $0.append(told) }
                case 1:
                    let j = signal.junction()
                    switch j.bind(to: target) {
                    case nil: contest.wins.add(1, ordering: .relaxed)
                    case .duplicate?: contest.refusals.add(1, ordering: .relaxed)
                    default: contest.odd.add(1, ordering: .relaxed)
                    }
                    held.withLock { $0.append(j) }
                default:
                    switch merged.add(signal) {
                    case nil: contest.wins.add(1, ordering: .relaxed)
                    case .duplicate?: contest.refusals.add(1, ordering: .relaxed)
                    default: contest.odd.add(1, ordering: .relaxed)
                    }
                }
            }
            for case let told as StressFlag in held.withLock({ $0 }) where !told.value.load(ordering: .relaxed) {
                contest.wins.add(1, ordering: .relaxed)
            }
            _ = source.send(value: StressOutputContest.probe)
            let wins = contest.wins.load(ordering: .relaxed)
            let probes = contest.probes.load(ordering: .relaxed)
            let refusals = contest.refusals.load(ordering: .relaxed)
            let odd = contest.odd.load(ordering: .relaxed)
            for case let out as SignalOutput<Int> in held.withLock({ $0 }) { out.cancel() }
            for case let j as SignalJunction<Int> in held.withLock({ $0 }) { j.cancel() }
            targetOutput.cancel(); mergedOutput.cancel()
            withExtendedLifetime((target, merged)) {}
            let detail = "round \(round): \(wins) won, \(refusals) refused with .duplicate, \(odd) other refusals, probe delivered \(probes) times"
            if wins > 1 || probes > 1 {
                return [.forbidden("two outputs of one signal", detail)]
            }
            if wins == 0 || probes == 0 || odd > 0 || refusals != it.threads - 1 {
                return [.forbidden("not exactly one winner", detail)]
            }
        }
        return []
    }
}

/// T threads each build, again and again, an operator over an input of their own and one
/// shared signal (`combineLatest` or `merge`, by round), subscribe it, cancel and release it.
/// At most one operator holds the shared signal at a time; the others are refused as
/// `.duplicate`.
///
/// Arbiter: a refused operator gives back its own input (subscribed directly right after, it
/// delivers a value sent into it); a winner delivers the values sent into both inputs; once
/// every operator is gone the shared signal is free (subscribed directly, it delivers); every
/// graph object is freed after the iteration.
package struct OperatorInputRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("operator-input-race", "T threads combine/merge an own input with one shared signal", acceptable: "one holder at a time; inputs given back")

    package func run(_ it: StressIteration) -> [StressFinding] {
        // The shared signal every operator competes for, and how often one held it.
        let (sharedInput, shared) = Signal<Int>.create(delivery: it.variant)
        it.track(sharedInput, "shared input")
        it.track(shared, "shared signal")
        let won = StressCounter(0)
        let findings = StressFindings()
        let rounds = max(8, it.operations / 4)
        it.runActors(it.threads) { a, rng in
            for k in 0..<rounds {
                let who = "actor \(a) round \(k)"
                let (input, own) = Signal<Int>.create(delivery: it.variant)
                let got = StressLock<[Int]>([])
                let refused = StressLock<Bool>(false)
                do {
                    let op = k & 1 == 0 ? own.combineLatest(shared) { x, _ in x } : own.merge(with: shared)
                    let out = op.subscribe { r in
                        switch r {
                        case .success(let v): got.withLock { $0.append(v) }
                        case .failure(let e): if case .other(let err) = e, err as? SignalBindError == .duplicate { refused.withLock { $0 = true } }
                        }
                    }
                    rng.perturb()
                    if !refused.withLock({ $0 }) {
                        _ = won.next()
                        // combineLatest needs a value from the shared side first.
                        _ = sharedInput.send(value: -1)
                        // Another thread may still be delivering into the shared signal's old
                        // edge: the value may arrive on its thread, a moment later.
                        let sent = input.send(value: k)
                        if sent != nil || !it.waitUntil("the holder's value", timeoutSeconds: 5, { got.withLock { $0.contains(k) } }) {
                            findings.add(.forbidden(StressCheck.lost, "\(who): the operator holding the shared signal lost \(k): \(got.withLock { $0 })"))
                        }
                    }
                    out.cancel()
                }
                // Refused or released: the own input is free again.
                let direct = StressLock<[Int]>([])
                let out = own.subscribeValues { v in direct.withLock { $0.append(v) } }
                let sent = input.send(value: 1_000 + k)
                if sent != nil || !it.waitUntil("the given-back input's value", timeoutSeconds: 5, { direct.withLock { $0 } == [1_000 + k] }) {
                    findings.add(.forbidden(StressCheck.setupFailed, "\(who): own input not given back (\(refused.withLock { $0 } ? "refused" : "released") operator): got \(direct.withLock { $0 })"))
                }
                out.cancel()
                it.progress(a, k)
            }
        }
        // Every operator is gone: the shared signal is free.
        let last = StressLock<[Int]>([])
        let out = shared.subscribeValues { v in last.withLock { $0.append(v) } }
        let sent = sharedInput.send(value: 7)
        if sent != nil || !it.waitUntil("the shared signal's value", timeoutSeconds: 5, { last.withLock { $0 } == [7] }) {
            findings.add(.forbidden(StressCheck.setupFailed, "shared signal still taken after every operator was released: \(last.withLock { $0 })"))
        }
        out.cancel()
        var all = findings.all
        if won.load == 0 { all.append(.interesting("no operator won the shared signal", "\(rounds) rounds × \(it.threads) threads")) }
        return all
    }
}

/// "A connection that would create a loop is refused": two threads bind A's junction to B's
/// input and B's junction to A's input at once (16 pairs per iteration). Exactly one bind wins;
/// the other is refused with `.loop`.
package struct LoopBindRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("loop-bind-race", "two threads bind A→B and B→A at once: exactly one wins, the other is refused with .loop", acceptable: "one bind, one .loop")

    package func run(_ it: StressIteration) -> [StressFinding] {
        for round in 0..<16 {
            let (inA, a) = Signal<Int>.create(delivery: it.variant)
            let (inB, b) = Signal<Int>.create(delivery: it.variant)
            let ja = a.junction(), jb = b.junction()
            it.track(ja, "junction A"); it.track(jb, "junction B")
            let results = StressLock<[Int: SignalBindError?]>([:])
            it.runActors(2) { actor, rng in
                rng.perturb()
                let r = actor == 0 ? ja.bind(to: inB) : jb.bind(to: inA)
                results.withLock { $0[actor] = r }
            }
            let r = results.withLock { $0 }
            ja.cancel(); jb.cancel()
            withExtendedLifetime((inA, inB)) {}
            let bound = r.values.filter { $0 == nil }.count
            let loops = r.values.filter { $0 == .loop }.count
            let detail = "round \(round): A→B \(String(describing: r[0] ?? nil)), B→A \(String(describing: r[1] ?? nil))"
            if bound == 2 { return [.forbidden("loop accepted", detail)] }
            if bound != 1 || loops != 1 { return [.forbidden("not one bind and one .loop", detail)] }
        }
        return []
    }
}

/// `SignalJunction.bind` racing `disconnect` (a stale edge once gave a false `.loop`): afterwards, with A's junction
/// disconnected, B's signal may feed A (no stale edge gives a false `.loop`), and A's graph
/// is freed.
package struct BindDisconnectRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("bind-disconnect-race", "junction.bind(to:) racing disconnect(); then the reverse bind", acceptable: "no stale edge")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(64, it.operations)
        var findings: [StressFinding] = []
        do {
            let (inA, sigA) = Signal<Int>.create(delivery: it.variant)
            let (inB, sigB) = Signal<Int>.create(delivery: it.variant)
            it.track(inA, "input A"); it.track(sigA, "signal A")
            let j = sigA.junction()
            let stop = Atomic<Bool>(false)
            it.runActors(it.threads) { a, rng in
                if a == 0 {
                    for i in 0..<n {
                        _ = j.bind(to: inB)
                        rng.perturb()
                        if i & 31 == 0 { it.progress(a, i) }
                    }
                    stop.store(true, ordering: .releasing)
                } else {
                    var i = 0
                    while !stop.load(ordering: .acquiring) {
                        _ = j.disconnect()
                        rng.perturb()
                        i += 1
                        if i & 31 == 0 { it.progress(a, i) }
                    }
                }
            }
            _ = j.disconnect()
            let back = sigB.junction()
            if let e = back.bind(to: inA) {
                findings.append(.forbidden(StressCheck.setupFailed, "B → A refused with \(e) after A → B was disconnected (stale edge)"))
            }
            _ = back.disconnect()
        }
        return findings
    }
}

/// A `flatMap` whose inner signal closes a loop back into its own input,
/// triggered from several threads while others send into that input. The inner subscription
/// must be refused (`.loop`); a value that went round the loop is a broken promise, and an
/// endless cycle is caught by the watchdog. A race the library once had: the scenario finds it
/// if it comes back.
package struct InnerLoopScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("inner-loop", "flatMap inner subscriptions that would close a loop, triggered while values flow", acceptable: "loop refused")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let (inA, a) = Signal<Int>.create(delivery: it.variant)
        let multiA = a.multicast()
        let (trigger, triggers) = Signal<Int>.create(delivery: it.variant)
        let laps = Atomic<Int>(0)
        let junction = triggers.flatMap { _ in
            multiA.map { v -> Int in laps.add(1, ordering: .relaxed); return v + 1 }
        }.junction()
        let watcher = multiA.subscribeValues { _ in }
        let bound = junction.bind(to: inA)
        it.runActors(max(2, it.threads)) { actor, rng in
            it.sendNumbers(n, actor: actor, random: &rng) { v in
                _ = actor == 0 ? trigger.send(value: v) : inA.send(value: v)
            }
        }
        junction.cancel()
        withExtendedLifetime(watcher) {}
        var findings: [StressFinding] = []
        if let bound { findings.append(.forbidden("flatMap junction bind refused", "\(bound)")) }
        let l = laps.load(ordering: .relaxed)
        if l > 0 { findings.append(.forbidden("value went round a loop through an inner subscription", "\(l) laps")) }
        return findings
    }
}
