import Signals

// Scenarios for the race between values and the end of the node they go into: a `send` that returns nil must be delivered, one that loses the race with the
// end must return `.disconnected`, and no stage may see anything after its input's end.

/// Checks that no sender had a send accepted after one of its own sends was refused: once the
/// end wins, it wins for every later send.
func stressCheckRefusalIsFinal(_ who: String, senders: [StressSender]) -> [StressFinding] {
    for s in senders {
        guard let firstRefused = s.status.firstIndex(of: StressSender.refused) else { continue }
        if let q = s.status[firstRefused...].firstIndex(of: StressSender.accepted) {
            return [.forbidden(
                "send accepted after refusal",
                "\(who): sender \(s.id) accepted \(q) after \(firstRefused) was refused")]
        }
    }
    return []
}

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

/// A merged input with a source added with `.none` propagation: one thread sends into the
/// source, others into the merged input itself, and the last thread calls the merged input's
/// `complete()`. The stage under test is a `transform` on the merged signal that records every
/// result it is given (so a value after the end is seen even though the subscriber would drop
/// it).
///
/// Arbiter, on what the stage saw: nothing after the end, the end once (`complete`), per-sender
/// order, no duplicates; every value the merged input accepted arrives (the source's values
/// may be dropped when they come after the merged end: its `send` was accepted by the source,
/// whose subscriber, the merged input, ended).
package struct MergedEndRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("merged-end-race", "a merged source's values racing the merged input's complete(): a stage sees nothing after the end", acceptable: "nothing after the end", minimumThreads: 3)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let senders = stream.senders, recorder = stream.recorder
        let completeAt = it.random.below(2_000)
        do {
            let (merged, signal) = Signal<StressMsg>.createMergedInput(delivery: it.variant)
            it.track(merged, "merged input")
            let (source, sourceSignal) = it.makeInput("source input", signal: nil)
            let token = it.ledger.token()
            let output = signal.transform { (r: Result<StressMsg, SignalEnd>, next: SignalNext<StressMsg>) in
                withExtendedLifetime(token) { recorder.receive(r) }
                next.send(result: r)
            }.subscribe { _ in }
            it.track(output, "output")
            if merged.add(sourceSignal, closePropagation: .none) != nil {
                return [.forbidden("merge refused", "a fresh source was refused")]
            }
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    stressSpin(completeAt)
                    merged.complete()
                    return
                }
                // Sender 0 feeds the source (its values reach the merged node through the
                // source's feeder); the others send into the merged input directly.
                let into: SignalInput<StressMsg> = a == 0 ? source : merged
                stream.sendAll(a, random: &rng) { into.send(value: $0) }
            }
            output.cancel()
            source.complete()
        }
        // The source's accepted values may go unseen (see the type's comment); the merged
        // input's may not.
        for s in senders where s.id != 0 { s.mustArriveBelow = s.status.count }
        return stream.check("transform stage", StressStreamPolicy(
            lossName: "source value after the merged end, dropped", expectedEnd: "complete"))
            + stressCheckRefusalIsFinal("merged input", senders: Array(senders.dropFirst()))
    }
}
