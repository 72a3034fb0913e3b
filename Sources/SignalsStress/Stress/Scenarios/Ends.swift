import Dispatch
import Foundation
import Signals
import Synchronization

// Scenarios for the race between values and the end of the node they go into: a `send` that
// returns nil must be delivered, one that loses the race with the end must be refused, and no
// stage may see anything after its input's end. The end comes from `complete()` (once per
// iteration, or in many short rounds), from a cancel, from the release of an input's last
// reference (its deinit sends `.cancelled`) or from a `generate` source's input.

/// T−1 threads send into one input while the last thread calls `complete()` after a random
/// spin, so the end lands in the middle of the flow.
///
/// Arbiter: every value whose `send` returned nil arrives exactly once, in per-sender order,
/// before the end (a lost accepted value is FORBIDDEN, not a tolerated drop); the end arrives
/// once and is `complete`; once a sender's send is refused, all its later sends are refused.
package struct SendCompleteRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("send-complete-race", "sends racing complete(): nil means delivered, nothing after the end", acceptable: "every accepted value delivered before the end")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let completeAt = it.random.below(2_000)
        do {
            let (input, signal) = it.makeInput()
            let output = stream.subscribe(signal)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    stressSpin(completeAt)
                    input.complete()
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            output.cancel()
        }
        return stream.check("subscriber", StressStreamPolicy(lossName: nil, expectedEnd: "complete"))
            + stressCheckRefusalIsFinal("input", senders: stream.senders)
    }
}

/// "No value accepted or delivered after the end", many times per iteration.
///
/// Each of 16 rounds: a fresh input, a `transform` stage that records every result it is
/// given (so a value after the end is seen even though the subscriber's terminal would drop
/// it), T−1 senders sending until their sends are refused, and the last actor calling
/// `complete()` after a short random spin, so the end lands while the senders are in flow.
/// `send-complete-race` has one such race per iteration, and its window (a value that passed
/// the input's status check just before the end closed it, reaching the queue just after) is a
/// few nanoseconds wide: it saw a value accepted after the end on the mutex variant only
/// rarely. Sixteen ends per iteration, started while the senders are in full flow, see it
/// within seconds.
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

/// Rounds of: one thread sends 0, 1, 2, … into a `generate` source's input until a send is
/// refused, another calls `complete()` on the same input. The last accepted value (and every
/// one before it) must reach the subscriber before the end.
package struct GenerateSendEndRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "generate-send-end-race", "rounds: a generate input's sends racing its own complete(); every accepted value before the end",
        acceptable: "every accepted value delivered before the end")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(8, it.operations / 4)
        var findings: [StressFinding] = []
        for round in 0..<rounds where findings.isEmpty {
            let (signal, holder) = stressGenerateSource(it.variant)
            let got = StressLock<(values: [Int], ended: Bool, afterEnd: Int)>(([], false, 0))
            let output = signal.subscribe { r in
                got.withLock { g in
                    if g.ended { g.afterEnd += 1 }
                    switch r {
                    case .success(let v): g.values.append(v)
                    case .failure: g.ended = true
                    }
                }
            }
            guard let input = holder.withLock({ $0 }) else { return [.forbidden("generate not activated by subscribe")] }
            let lastAccepted = Atomic<Int>(-1)
            let endAt = it.random.below(400)
            it.runActors(2) { a, rng in
                if a == 1 {
                    stressSpin(endAt)
                    input.complete()
                    return
                }
                var v = 0
                while input.send(value: v) == nil {
                    lastAccepted.store(v, ordering: .relaxed)
                    v += 1
                    rng.perturb()
                }
            }
            let last = lastAccepted.load(ordering: .relaxed)
            let g = got.withLock { $0 }
            if last >= 0 && g.values.last != last || g.values != Array(0..<g.values.count) {
                findings.append(.forbidden(
                    "accepted value lost at the end",
                    "round \(round): last accepted \(last), delivered \(g.values.suffix(3)) (\(g.values.count) values), ended \(g.ended)"))
            }
            if !g.ended || g.afterEnd > 0 { findings.append(.forbidden("end not once and last", "round \(round): ended \(g.ended), \(g.afterEnd) after it")) }
            output.cancel()
        }
        return findings
    }
}
