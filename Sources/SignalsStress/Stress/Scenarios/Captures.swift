import Dispatch
import Signals
import SignalsReports
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Scenarios for `capture()`: captures made while senders run (of a plain signal and of a
// `continuous()` multi), subscribed later, resumed or bound with `resend`. What a capture took,
// what it held and what then arrives live is every value once, in order, with no gap.

/// Threads send into a `continuous()` signal while another captures it and subscribes to the
/// capture, again and again.
///
/// Arbiter, per capture: the captured values followed by what the subscription got keep each
/// sender's order with no gap and no repeat (a value that arrives between `capture()` and
/// `subscribe` is held, not lost or duplicated); nothing after cancel; no overlapping entry.
package struct CaptureSubscribeScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("capture-subscribe", "capture() then subscribe racing with senders", acceptable: "captured + held + live values contiguous, once, in order")

    final class Log: @unchecked Sendable {
        var entries: [(captured: [StressEvent], recorder: StressRecorder, began: Int)] = []
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let clock = StressClock()
        let senders = (0..<senderCount).map { StressSender(id: $0, capacity: n, clock: clock) }
        let log = Log()
        var findings: [StressFinding] = []
        do {
            let (input, multi) = Signal<StressMsg>.create(delivery: it.variant) { $0.continuous() }
            it.track(input, "input"); it.track(multi, "multi")
            let ledger = it.ledger
            let shared = it.shared
            it.runChurn(churn: { _, rng in
                let began = clock.tick()
                let capture = multi.capture()
                it.track(capture, "capture")
                let captured = capture.values.map { StressEvent.value(sender: $0.stamp.sender, seq: $0.stamp.seq, tag: $0.tag) }
                rng.perturb()
                let recorder = StressRecorder(capacity: senderCount * n + 4, perturber: shared)
                let token = ledger.token()
                let output = capture.subscribe { r in withExtendedLifetime(token) { recorder.receive(r) } }
                rng.hold()
                output.cancel()
                recorder.markCancelled()
                log.entries.append((captured, recorder, began))
            }, senders: { a, rng in
                senders[a].sendAll(n, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
            })
            input.complete()
        }
        for (k, entry) in log.entries.enumerated() {
            let live = entry.recorder.events
            let who = "capture \(k) (captured \(entry.captured.map(\.description)), then \(live.prefix(6).map(\.description))…)"
            findings += entry.recorder.entryFindings(who)
            let events = entry.captured + live
            if events.contains(where: { if case .end = $0 { return true } else { return false } }) {
                findings.append(.forbidden(StressCheck.wrongEnd, "\(who): got an end though only cancelled"))
            }
            // A value whose send began after `capture()` was called must arrive. One sent
            // earlier may have been in transit while the previous capture's cancel deactivated
            // the upstream, and dropped there (it never reached the cache either).
            findings += stressCheckContiguous(who, events, senders: senders) { sender, seq in
                sender.startedAt[seq] > entry.began
                    ? .forbidden(StressCheck.lost, "sent at \(sender.startedAt[seq]), after capture() began at \(entry.began)")
                    : .interesting("value dropped in transit as the upstream deactivated", "sent at \(sender.startedAt[seq])-\(sender.returnedAt[seq]), capture() began at \(entry.began)")
            }
        }
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

// MARK: - A capture's activation values under a flood
//
// A capture takes its activation values synchronously (CwlSignal's article): the multi's
// cached latest value must be in `capture.values` when `capture()` returns, even while another
// thread holds the multi's node, and what the capture's subscriber then receives must continue
// from it with no gap and no repeat. Before the fix a capture sometimes returned before the
// holder had replayed the cache to it (its wait for the holder was skipped when it had taken
// over the node by a handoff and handed it on again before reaching its own join), and the
// cached value arrived as the first held value instead: `values` was empty.

/// T−1 threads capture a `continuous()` over and over while one thread floods it with 1, 2, 3, …
///
/// A permanent branch whose handler is perturbed (yields and spins) slows whichever thread holds
/// the multi's node, so values queue behind it and holders drain past the handoff budget and
/// hand the node over: the capturing thread's join then runs in line behind a backlog, on
/// whichever thread holds the node when it gets there. Half the captures are of a `map` of the
/// multi, which records the thread that replays the cache (reported as INTERESTING when it was
/// not the capturing thread, to show the contended path was taken).
///
/// Arbiter, per capture: exactly one activation value (the cache is never empty: 0 is sent
/// before the actors start); it, followed by what the capture's subscriber received before
/// `cancel()`, is a run of consecutive integers (nothing lost, repeated or reordered across the
/// hand-over from activation to held to live values); the subscriber receives at least one
/// value while the sender keeps sending.
package struct CaptureActivationScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "capture-activation", "capture() of a continuous() racing a flooding sender: the activation value is captured, then a consecutive run",
        acceptable: "activation value captured, then consecutive values, once")
    /// How far the sender may run ahead of the permanent branch: four handoff budgets.
    static var maxBacklog: Int { 4_096 }

    /// The thread token of the first call of a capture's map stage (the cache replay).
    final class ReplayThread: @unchecked Sendable {
        // Unchecked: behind the lock.
        let token = StressLock<UInt?>(nil)
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(8, it.operations / 4)
        let capturers = max(1, it.threads - 1)
        let findings = StressFindings()
        let replayedElsewhere = StressCounter(0)
        do {
            let (input, multi) = Signal<Int>.create(delivery: it.variant) { $0.continuous() }
            it.track(input, "input")
            it.track(multi, "multi")
            // The cache holds a value before anyone captures: every capture has one.
            _ = input.send(value: 0)
            let shared = it.shared
            // The sender stays at most a few thousand values ahead of a permanent branch, whose
            // perturbed handler slows whichever thread holds the multi.
            let backlog = StressBacklogLimit(multi, limit: Self.maxBacklog, perturber: shared)
            it.runFlood(readers: capturers, from: 1, every: 1024, send: { v, stopped in
                backlog.wait(toSend: v, stopped: stopped)
                _ = input.send(value: v)
            }) { a, rng in
                for k in 0..<rounds {
                    let replay = ReplayThread()
                    let me = stressThreadToken()
                    let capture: SignalCapture<Int>
                    if k & 1 == 0 {
                        capture = multi.capture()
                    } else {
                        capture = multi.map { v -> Int in
                            replay.token.withLock { t in if t == nil { t = stressThreadToken() } }
                            return v
                        }.capture()
                    }
                    it.track(capture, "capture")
                    let captured = capture.values
                    if let t = replay.token.withLock({ $0 }), t != me { _ = replayedElsewhere.next() }
                    rng.perturb()
                    let received = StressLock<[Int]>([])
                    let output = capture.subscribeValues { v in
                        received.withLock { $0.append(v) }
                        shared.perturb()
                    }
                    // The sender keeps sending until every capturer is done: values must come.
                    let deadline = monotonicNanos() + 10_000_000_000
                    var polls = 0
                    while received.withLock({ $0.count }) < 2 && monotonicNanos() < deadline {
                        polls += 1
                        if polls < 100 { sched_yield() } else { usleep(50) }
                    }
                    rng.hold()
                    output.cancel()
                    // Nothing is delivered after cancel() returns: this is all it got.
                    let live = received.withLock { $0 }
                    let who = "capturer \(a) round \(k)\(k & 1 == 0 ? "" : " (through map)")"
                    var found: [StressFinding] = []
                    if captured.count != 1 {
                        found.append(.forbidden(
                            StressCheck.activationNotCaptured,
                            "\(who): capture.values \(captured), then \(live.prefix(6))…"))
                    }
                    if live.isEmpty {
                        found.append(.forbidden(
                            StressCheck.lost, "\(who): nothing reached the subscriber in 10 s while the sender kept sending"))
                    }
                    let run = captured + live
                    if let b = stressConsecutiveBreak(run) {
                        found.append(.forbidden(b.check, "\(who): captured \(captured), then …\(b.around)… (at \(b.index))"))
                    }
                    if !found.isEmpty { findings.add(found) }
                    it.progress(a, k)
                }
            }
            backlog.output.cancel()
        }
        var all = findings.all
        let elsewhere = replayedElsewhere.load
        if elsewhere > 0 {
            all.append(.interesting(
                "cache replayed by the thread holding the multi, not the capturer",
                "\(elsewhere) of \(rounds / 2 * capturers) mapped captures"))
        }
        return all
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
