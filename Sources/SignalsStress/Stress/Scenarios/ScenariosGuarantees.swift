// Stress scenarios for the promises of docs/guarantees.md that the other scenarios do not
// reach: every promise there that a race can break has a `bench stress` scenario
// that checks it on both variants.
//
// - `end-race-rounds`: "no value accepted or delivered after the end". Many short rounds per
//   iteration, each a fresh input whose senders race `complete()`, with a fused stage that
//   records everything it is given. `send-complete-race` has one such race per iteration; the
//   window (a value that passed the input's status check just before the end closed it,
//   reaching the queue just after the end) is a few nanoseconds wide, so that scenario saw a
//   value accepted after the end on the mutex variant only rarely. Sixteen ends per iteration,
//   started while the senders are in full flow, see it within seconds.
// - `single-output-race`: "a plain `Signal` has a single output; when binds or adds race,
//   exactly one wins". A subscribe, a junction bind and a merged-input add race for the same
//   signal's output.
// - `loop-bind-race`: "a connection that would create a loop is refused". Two threads bind A's
//   junction to B's input and B's junction to A's input at once: exactly one bind may win.
// - `state-reset-race`: "stateful stages start from fresh state on every activation". Threads
//   subscribe and cancel the same `scan` over `just` again and again, racing each other's
//   activations and deactivations: every subscription sees the scan start from its initial
//   state.

import Signals
import Synchronization

/// "No value accepted or delivered after the end", many times per iteration.
///
/// Each of 16 rounds: a fresh input, a `transform` stage that records every result it is
/// given (so a value after the end is seen even though the subscriber's terminal would drop
/// it), T−1 senders sending until their sends are refused, and the last actor calling
/// `complete()` after a short random spin, so the end lands while the senders are in flow.
///
/// Arbiter, per round, on what the stage saw: every value whose `send` returned nil arrives
/// exactly once, in per-sender order, before the end (`accepted value lost` is FORBIDDEN here);
/// nothing after the end (`value after end`); the end once, `complete`; once a sender's send
/// is refused, all its later sends are refused too.
package struct EndRaceRoundsScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("end-race-rounds", "16 rounds per iteration of senders racing complete() on a fresh input: a stage is given nothing after the end, every accepted value before it", acceptable: "every accepted value before the end, nothing after")

    /// Rounds per iteration.
    static let rounds = 16

    package func run(_ it: StressIteration) -> [StressFinding] {
        let perRound = max(16, it.operations / 2)
        let senderCount = it.threads - 1
        let ledger = it.ledger
        for round in 0..<Self.rounds {
            let stream = StressStream(it, senders: senderCount, operations: perRound)
            let senders = stream.senders, recorder = stream.recorder
            let completeAt = it.random.below(600)
            do {
                let (input, signal) = it.makeInput()
                let token = ledger.token()
                let output = signal.transform { (r: Result<StressMsg, SignalEnd>, next: SignalNext<StressMsg>) in
                    withExtendedLifetime(token) { recorder.receive(r) }
                    next.send(result: r)
                }.subscribe { _ in }
                it.track(output, "output")
                it.runActors(it.threads) { a, rng in
                    if a == senderCount {
                        stressSpin(completeAt)
                        input.complete()
                        return
                    }
                    let s = senders[a]
                    var refusals = 0
                    for i in 0..<perRound {
                        if s.send(ledger: ledger, { input.send(value: $0) }) != nil {
                            refusals += 1
                            if refusals == 4 { break }
                        }
                        // Perturbed rarely: the senders must be in full flow when the end comes.
                        if i & 7 == 7 { rng.perturb() }
                        if i & 31 == 0 { it.progress(a, round * perRound + i) }
                    }
                }
                output.cancel()
            }
            let findings = stream.check("round \(round), transform stage", StressStreamPolicy(lossName: nil, expectedEnd: "complete"))
                + stressCheckRefusalIsFinal("round \(round), input", senders: senders)
            if !findings.isEmpty { return findings }
        }
        return []
    }
}

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
