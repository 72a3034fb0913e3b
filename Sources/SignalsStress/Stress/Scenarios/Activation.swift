import Dispatch
import Signals
import Synchronization

// Scenarios for activation and for graph changes racing delivery:
// eager multis and captures made while senders run, re-subscription of a plain signal racing
// senders, `bind` racing `disconnect`, and `generate` callbacks on a concurrent context.

/// A caching multi (`playback()`) made while senders run: from its creation on, every send is
/// accepted and cached, so a subscriber arriving after the end gets every accepted value once,
/// in each sender's order, then the end; values refused before it existed never appear.
package struct EagerMultiCreateScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("eager-multi-create", "playback() made while T-1 threads send; late subscriber replays all", acceptable: "every accepted value replayed once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let box = StressLock<SignalMulti<StressMsg>?>(nil)
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput(signal: nil)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    rng.hold()
                    let multi = signal.playback()
                    box.withLock { $0 = multi }
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            guard let multi = box.withLock({ $0 }) else { return [.forbidden(StressCheck.setupFailed, "no multi")] }
            it.track(multi, "multi")
            if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
            let recorder = stream.recorder
            let output = multi.stressSubscribe(recorder, ledger: it.ledger)
            _ = it.waitUntil("the end") { recorder.endCount > 0 }
            output.cancel()
            box.withLock { $0 = nil }
        }
        findings += stream.check("late playback subscriber", StressStreamPolicy(expectedEnd: "complete"))
        return findings
    }
}

/// One plain `Signal` subscribed, cancelled and subscribed again while senders run: no
/// `.duplicate`, no delivery after `cancel()` returned, and across the subscriptions together
/// every value at most once and in each sender's order (a value in transit at a cancel may be
/// dropped).
package struct ResubscribeRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("resubscribe-race", "subscribe → cancel → subscribe on one Signal racing T-1 senders", acceptable: "each value at most once, in order, no duplicate error")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let recorders = StressLock<[StressRecorder]>([])
        do {
            let (input, signal) = it.makeInput()
            let ledger = it.ledger
            let shared = it.shared
            let done = Atomic<Int>(0)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    var k = 0
                    while done.load(ordering: .acquiring) < senderCount || k < 4 {
                        let recorder = StressRecorder(capacity: senderCount * n + 4, perturber: shared)
                        recorders.withLock { $0.append(recorder) }
                        let output = signal.stressSubscribe(recorder, ledger: ledger)
                        rng.hold()
                        output.cancel()
                        recorder.markCancelled()
                        k += 1
                        it.progress(a, k)
                    }
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
                done.wrappingAdd(1, ordering: .releasing)
            }
        }
        var findings: [StressFinding] = []
        var all: [StressEvent] = []
        for (k, r) in recorders.withLock({ $0 }).enumerated() {
            findings += r.entryFindings("subscription \(k)")
            for e in r.events {
                if case .end(let name) = e {
                    findings.append(.forbidden(StressCheck.wrongEnd, "subscription \(k): got end \(name) (a duplicate error?) though only cancelled"))
                } else {
                    all.append(e)
                }
            }
        }
        findings += stressCheckEvents("subscriptions in turn", all, senders: stream.senders,
                                      policy: StressStreamPolicy(lossName: "value in transit at a cancel dropped", expectedEnd: nil))
        return findings
    }
}

/// `capture()` of a plain signal made while senders run, then subscribed with `resend`: the
/// capture is active from the moment it is made, so every accepted value arrives (captured,
/// held or live) exactly once, in order, then the end.
package struct CaptureEagerScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("capture-eager-race", "capture() of a plain signal racing T-1 senders, subscribed later", acceptable: "every accepted value once, in order")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senderCount = it.threads - 1
        let stream = StressStream(it, senders: senderCount)
        let recorder = stream.recorder
        var findings: [StressFinding] = []
        do {
            let (input, signal) = it.makeInput(signal: nil)
            let ledger = it.ledger
            let outputBox = StressLock<SignalOutput<StressMsg>?>(nil)
            it.runActors(it.threads) { a, rng in
                if a == senderCount {
                    rng.hold()
                    let capture = signal.capture()
                    it.track(capture, "capture")
                    rng.hold()
                    let token = ledger.token()
                    let output = capture.subscribe(resend: true) { r in withExtendedLifetime(token) { recorder.receive(r) } }
                    outputBox.withLock { $0 = output }
                    return
                }
                stream.sendAll(a, random: &rng) { input.send(value: $0) }
            }
            findings += stream.complete(input)
            outputBox.withLock { $0?.cancel(); $0 = nil }
        }
        findings += stream.check("capture subscriber", StressStreamPolicy(expectedEnd: "complete"))
        return findings
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

/// `generate(context: .global)` activated and deactivated from several threads at once
/// (a context that runs callbacks concurrently): its callbacks never overlap and alternate input, nil.
package struct GenerateGlobalCallbacksScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("generate-global-callbacks", "T threads subscribe/cancel a multicast of generate(context: .global)", acceptable: "callbacks serialized, alternating")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(16, it.operations / 4)
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let calls = StressLock<[Bool]>([])
        var findings: [StressFinding] = []
        do {
            let signal = Signal<Int>.generate(context: .global, delivery: it.variant) { input in
                if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.wrappingAdd(1, ordering: .relaxed) }
                calls.withLock { $0.append(input != nil) }
                inside.store(false, ordering: .releasing)
            }
            let multi = signal.multicast()
            it.runActors(it.threads) { a, rng in
                for i in 0..<n {
                    let out = multi.subscribe { _ in }
                    rng.perturb()
                    out.cancel()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            }
            // Every activation is followed by its deactivation: wait for the last callback.
            _ = it.waitUntil("the last callback") {
                calls.withLock { c in !c.isEmpty && c.count % 2 == 0 && c.last == false }
            }
        }
        if overlaps.load(ordering: .relaxed) > 0 {
            findings.append(.forbidden(StressCheck.concurrentEntry, "\(overlaps.load(ordering: .relaxed)) overlapping activation callbacks"))
        }
        let seq = calls.withLock { $0 }
        if let bad = seq.indices.first(where: { seq[$0] != ($0 % 2 == 0) }) {
            findings.append(.forbidden(StressCheck.activationOrder, "callback \(bad) of \(seq.count) was \(seq[bad] ? "an input" : "nil") out of alternation"))
        }
        return findings
    }
}
