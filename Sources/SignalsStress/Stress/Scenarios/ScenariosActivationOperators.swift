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
        let findings = StressFindings()
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
