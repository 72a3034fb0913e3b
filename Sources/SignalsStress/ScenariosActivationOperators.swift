import Signals
import Synchronization

// The activation operators and the merged channel under a flood: `customActivation` (its
// updater edits the cache in line with deliveries), `mapActivation` (tells the activation value
// from the live ones on each new branch) and `mergedChannel` (a merged input built in one
// expression, its source added while values flow).

/// One sender floods a `customActivation(initialValues: [0])` multi whose updater keeps only
/// the latest value (a hand-made `continuous()`), while T−1 threads take rounds: subscribe a
/// `mapActivation` of it that negates the activation value, or a `mergedChannel` to which they
/// add the multi; each cancels after a few values.
///
/// The merged channel's input is released at once, as a one-expression user would: its source
/// keeps it running (CwlSignal's rule).
///
/// Arbiter: the updater is never entered concurrently with itself; a `mapActivation` branch
/// gets exactly one negated value first (the cached one, ≤ 0) and then the values after it,
/// consecutive; a merged channel's subscriber gets the cached value and then consecutive values;
/// values keep arriving while the sender sends (a few within 5 s); every handler (each captures
/// a counted token) and every graph object is freed after the iteration.
package struct ActivationOperatorsFloodScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "custom-activation-readers",
        "customActivation flooded; T−1 threads subscribe its mapActivation or add it to a mergedChannel, then cancel",
        acceptable: "activation value first (mapped), then consecutive values")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 8)
        let findings = StressLock<[StressFinding]>([])
        let inside = Atomic<Bool>(false)
        let overlaps = StressCounter(0)
        let ledger = it.ledger
        do {
            let (input, signal) = Signal<Int>.create(delivery: it.variant)
            let multi = signal.customActivation(initialValues: [0]) { values, _, incoming in
                if inside.exchange(true, ordering: .acquiring) { _ = overlaps.next() }
                if case .success(let v) = incoming { values = [v] }
                inside.store(false, ordering: .releasing)
            }
            it.track(input, "input")
            it.track(multi, "multi")
            // Bounded, as in `capture-activation`: a reader's subscribe and cancel wait for the
            // values queued before them.
            let backlog = StressBacklogLimit(multi, perturber: it.shared)
            it.runFlood(from: 1, send: { v, stopped in
                backlog.wait(toSend: v, stopped: stopped)
                _ = input.send(value: v)
            }) { a, rng in
                for k in 0..<rounds {
                    let who = "reader \(a) round \(k)"
                    let got = StressLock<[Int]>([])
                    let token = StressToken(ledger)
                    let handler: @Sendable (Int) -> Void = { [token] v in
                        withExtendedLifetime(token) {}
                        got.withLock { $0.append(v) }
                    }
                    _ = consume token
                    let mapped = (k + a) & 1 == 0
                    let output: SignalOutput<Int>
                    if mapped {
                        output = multi.mapActivation(select: .all, activation: { -$0 }, remainder: { $0 }).subscribeValues(handler)
                    } else {
                        let (merged, o) = Signal<Int>.mergedChannel(delivery: it.variant).subscribeValues(handler)
                        it.track(merged, "merged input")
                        merged.add(multi)
                        output = o
                    }
                    let want = 2 + Int(rng.next() % 4)
                    let arrived = it.waitUntil("values for a reader", timeoutSeconds: 5) { got.withLock { $0.count } >= want }
                    output.cancel()
                    let run = got.withLock { $0 }
                    guard let first = run.first, arrived else {
                        findings.add(.forbidden(StressCheck.lost, "\(who) (\(mapped ? "mapActivation" : "mergedChannel")): values stopped after \(run.prefix(4)) while the sender kept sending (5 s)"))
                        continue
                    }
                    // The activation value, unmapped, leads the run in both forms.
                    let unmapped = mapped ? [-first] + run.dropFirst() : run
                    if mapped && (first > 0 || run.dropFirst().contains { $0 <= 0 }) {
                        findings.add(.forbidden(StressCheck.activationNotCaptured, "\(who): mapActivation gave \(run.prefix(6))…"))
                    } else if let b = stressConsecutiveBreak(unmapped) {
                        findings.add(.forbidden(b.check, "\(who) (\(mapped ? "mapActivation" : "mergedChannel")): …\(b.around)…"))
                    }
                    it.progress(a, k)
                }
            }
            backlog.output.cancel()
        }
        var all = findings.all
        if overlaps.load > 0 {
            all.append(.forbidden(StressCheck.concurrentEntry, "customActivation's updater entered \(overlaps.load) times while running"))
        }
        return all
    }
}
