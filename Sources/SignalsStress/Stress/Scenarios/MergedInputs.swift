import Dispatch
import Signals
import Synchronization

// Scenarios for merged inputs (`SignalMergedInput`): sources added and removed while values
// flow, sources that end while the others send (an ended source must be gone), and the merged
// input's own `complete()` racing its sources' values.

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

/// Sources of a merged input complete while values flow through the others
/// (`.none` or `.errors` propagation); every ended source must be gone. A race the library
/// once had: the scenario finds it if it comes back.
package struct MergedSourceEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("merged-source-end", "merged sources complete while others send; ended sources must be removed", acceptable: "ended sources removed")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let actors = max(2, it.threads)
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: it.variant)
        let output = signal.subscribeValues { _ in }
        let sources = (0..<actors).map { _ in Signal<Int>.create(delivery: it.variant) }
        let propagation: SignalEndPropagation = it.random.below(2) == 0 ? .none : .errors
        for s in sources { _ = merged.add(s.signal, closePropagation: propagation) }
        let endAt = (0..<actors).map { _ in it.random.below(n) }
        it.runActors(actors) { actor, rng in
            let input = sources[actor].input
            for v in 0..<n {
                // Completes (neither propagation closes the merged signal on `.complete`, so it
                // stays active and sees every end; an error that closes it is the unit test's
                // `failedMergedSourceIsRemoved`).
                if v == endAt[actor] { _ = input.complete() }
                _ = input.send(value: v)
                rng.perturb()
            }
        }
        withExtendedLifetime(output) {}
        let stillAttached = sources.indices.filter { merged.remove(sources[$0].signal) }
        if !stillAttached.isEmpty {
            return [.forbidden("ended merged source still attached", "sources \(stillAttached)")]
        }
        return []
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
