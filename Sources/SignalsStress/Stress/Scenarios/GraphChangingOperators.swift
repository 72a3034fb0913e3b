import Foundation
import Signals
import Synchronization

// The operators that change the graph or a lifetime while values flow: the duration forms of
// `groupBy` (a group per key, closed by its duration signal, a fresh one for a key seen
// again), `window(boundary:)` (a window per boundary value), `delaySubscription(until:)` (the
// source connected by a trigger), `Signal.retry(whenErrors:_:)` (an attempt per error), the
// `Signal.repeat` forms (a run per completion) and the timer stages (`timeout(first:each:)`, `timeout(firstBy:each:)`, `throttle` with its
// trailing value), each raced against its own inputs and a cancel from another thread.

/// The checks of these scenarios, beside the common ones (`StressCheck`).
enum GraphOperatorCheck {
    static let twoLive = "two live groups of one key"
    static let wrongKey = "value in a group of another key"
    static let innerEnd = "inner signal's end wrong or missing"
    static let stateKept = "closed group's state kept"
    static let keptAfterCancel = "input still connected after cancel"
    static let triggerKept = "trigger kept after it decided"
    static let extraAttempt = "attempts not one per error"
    static let extraRun = "runs not one per completion"
    static let earlyTimeout = "timed out after a value"
    static let trailingLost = "trailing value lost at completion"
}

/// Counts live objects of one kind (a group's duration state): a mark adds one while it lives.
final class StressLiveMark: Sendable {
    let counter: StressCounter
    init(_ counter: StressCounter) {
        self.counter = counter
        counter.value.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { counter.value.wrappingSubtract(1, ordering: .releasing) }
}

/// What one inner signal (a group or a window) received, in order. Its handler runs inside the
/// operator's serialized delivery.
final class StressInnerLog: Sendable {
    let key: Int
    let events = StressLock<[StressEvent]>([])
    let output = StressLock<SignalOutput<StressMsg>?>(nil)
    init(key: Int) { self.key = key }
    var ended: Bool { events.withLock { $0.contains { if case .end = $0 { true } else { false } } } }
}

/// The inner signals an operator delivered, in delivery order, each subscribed inside the
/// handler that received it: every value any of them got goes to one recorder too (checked
/// against the senders), and each keeps its own events (checked per inner signal).
final class StressInnerLogs: Sendable {
    let logs = StressLock<[StressInnerLog]>([])
    let values: StressRecorder
    let problems = StressFindings()
    let keyOf: @Sendable (StressMsg) -> Int
    let what: String

    init(_ what: String, capacity: Int, perturber: StressSharedRandom, key: @escaping @Sendable (StressMsg) -> Int) {
        self.what = what
        values = StressRecorder(capacity: capacity, perturber: perturber)
        keyOf = key
    }

    var count: Int { logs.withLock { $0.count } }

    /// A new inner signal of `key`: the previous one of that key must have ended first.
    func open(key: Int, _ signal: Signal<StressMsg>, ledger: StressLedger) {
        let log = StressInnerLog(key: key)
        let (index, previous) = logs.withLock { l -> (Int, StressInnerLog?) in
            defer { l.append(log) }
            return (l.count, l.last { $0.key == key })
        }
        if let previous, !previous.ended {
            problems.add(.forbidden(GraphOperatorCheck.twoLive, "\(what) \(index) (key \(key)) opened while the one before it was live: \(previous.events.withLock { $0.suffix(4) })"))
        }
        let token = ledger.token()
        let values = self.values
        let keyOf = self.keyOf
        let problems = self.problems
        let what = self.what
        let output = signal.subscribe { r in
            withExtendedLifetime(token) {}
            switch r {
            case .success(let m):
                if keyOf(m) != key {
                    problems.add(.forbidden(GraphOperatorCheck.wrongKey, "\(what) \(index) (key \(key)) got \(m.stamp) of key \(keyOf(m))"))
                }
                values.receive(r)
                log.events.withLock { $0.append(.value(sender: m.stamp.sender, seq: m.stamp.seq, tag: m.tag)) }
            case .failure(let e):
                let name: String
                switch e {
                case .complete: name = "complete"
                case .cancelled: name = "cancelled"
                case .other: name = "other"
                }
                log.events.withLock { $0.append(.end(name)) }
            }
        }
        log.output.withLock { $0 = output }
    }

    /// Per inner signal: nothing after its end, one end at most, and, when `allEnded`, one
    /// end each: `complete` for every one followed by a later one of its key, `lastEnd` (or
    /// `complete`) for the last of each key.
    func check(_ phase: String, allEnded: Bool, lastEnd: Set<String>) -> [StressFinding] {
        // Problems seen while opening are reported once, by the check after them.
        var findings = problems.filed.withLock { f -> [StressFinding] in defer { f = [] }; return f }
        let all = logs.withLock { $0 }
        var lastOfKey: [Int: Int] = [:]
        for (i, log) in all.enumerated() { lastOfKey[log.key] = i }
        for (i, log) in all.enumerated() {
            let events = log.events.withLock { $0 }
            var ends: [String] = []
            for e in events {
                switch e {
                case .end(let n): ends.append(n)
                case .value:
                    if !ends.isEmpty {
                        findings.append(.forbidden(StressCheck.valueAfterEnd, "\(phase): \(what) \(i) got \(e) after \(ends[0])"))
                    }
                }
            }
            let allowed: Set<String> = lastOfKey[log.key] == i ? lastEnd.union(["complete"]) : ["complete"]
            if ends.count > 1 {
                findings.append(.forbidden(StressCheck.endTwice, "\(phase): \(what) \(i) ended \(ends)"))
            } else if let end = ends.first, !allowed.contains(end) {
                findings.append(.forbidden(GraphOperatorCheck.innerEnd, "\(phase): \(what) \(i) of \(all.count) (key \(log.key)) ended \(end), expected one of \(allowed.sorted())"))
            } else if ends.isEmpty && allEnded {
                findings.append(.forbidden(GraphOperatorCheck.innerEnd, "\(phase): \(what) \(i) of \(all.count) (key \(log.key)) never ended"))
            }
            if findings.count > 4 { break }
        }
        return findings
    }

    /// Whether every inner signal has ended.
    var allEnded: Bool { logs.withLock { $0 }.allSatisfy(\.ended) }

    /// Releases every inner subscription.
    func release() {
        let all = logs.withLock { l -> [StressInnerLog] in defer { l = [] }; return l }
        for log in all { log.output.withLock { $0 = nil } }
    }
}

/// Counts deliveries to a handler after the subscription's `cancel()` returned.
final class StressCancelWatch: Sendable {
    let returned = Atomic<Bool>(false)
    let after = StressCounter(0)
    init() {}
    func entered() { if returned.load(ordering: .relaxed) { _ = after.next() } }
    func markCancelled() { returned.store(true, ordering: .relaxed) }
    func findings(_ who: String) -> [StressFinding] {
        after.load == 0 ? [] : [.forbidden(StressCheck.afterCancel, "\(who): \(after.load) deliveries after cancel() returned")]
    }
}

/// A value the scenarios send only to probe whether an input is still connected.
func stressProbe(_ input: SignalInput<StressMsg>, _ ledger: StressLedger) -> SignalSendError? {
    input.send(value: StressMsg(sender: 4_000, seq: 0, token: ledger.token()))
}

/// `groupBy(_:duration:)` (even iterations) or `groupBy(_:element:duration:)` (odd), keyed by
/// a value's sequence number (three keys), each group lasting until a branch of one closing
/// signal sends. Phase 1: T−1 threads send while the last sends closing values; then one more
/// closing value. Phase 2: the same, and the last thread cancels the output midway.
///
/// Arbiter: every value accepted in phase 1 reaches exactly one group, of its key, in each
/// sender's order across the groups; a group opens for a key only once the one before it has
/// ended; a group ends once, `complete` unless it is the last of its key and the output was
/// cancelled (`cancelled`); after phase 1's last closing value every group's state (the
/// duration signal the stage subscribed) is released while the output still lives; after the
/// cancel, no group is delivered, every group has ended, no group state is left and the
/// source is disconnected; every graph object is freed after the iteration.
package struct GroupByDurationRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "groupby-duration-race",
        "groupBy with durations; T−1 threads send 3 keys while one closes every group, then cancels",
        acceptable: "each value in the live group of its key, in order; closed groups released",
        minimumThreads: 2)

    /// Three keys, each taking two consecutive values of a sender in turn.
    static let key: @Sendable (StressMsg) -> Int = { ($0.stamp.seq / 2) % 3 }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senders = it.threads - 1
        let perSender = max(16, it.operations / 2)
        let ledger = it.ledger
        let marks = StressCounter(0)
        let watch = StressCancelWatch()
        let first = (0..<senders).map { StressSender(id: $0, capacity: perSender) }
        let second = (0..<senders).map { StressSender(id: 100 + $0, capacity: perSender) }
        for s in first { s.mustArriveBelow = perSender }
        let logs = StressInnerLogs("group", capacity: 2 * senders * perSender + 1, perturber: it.shared, key: Self.key)
        var findings: [StressFinding] = []
        do {
            let (input, source) = it.makeInput()
            let (closeInput, closing) = Signal<Void>.create(delivery: it.variant)
            let close = closing.multicast()
            it.track(closeInput, "close input")
            it.track(close, "close multi")
            let duration: @Sendable (SignalGroup<Int, StressMsg>) -> Signal<Void> = { _ in
                let mark = StressLiveMark(marks)
                return close.map { _ in withExtendedLifetime(mark) {} }
            }
            let grouped = it.index & 1 == 0
                ? source.groupBy(Self.key, duration: duration)
                : source.groupBy(Self.key, element: { $0 }, duration: duration)
            it.track(grouped, "groupBy")
            let token = ledger.token()
            let output = grouped.subscribe { r in
                withExtendedLifetime(token) {}
                watch.entered()
                if case .success(let g) = r { logs.open(key: g.key, g.signal, ledger: ledger) }
            }
            let closes = max(4, perSender / 8)
            it.runActors(senders + 1) { a, rng in
                if a < senders {
                    first[a].sendAll(perSender, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                } else {
                    for k in 0..<closes {
                        rng.hold()
                        _ = closeInput.send(value: ())
                        it.progress(a, k)
                    }
                }
            }
            _ = closeInput.send(value: ())
            _ = it.waitUntil("every group closed", timeoutSeconds: 2) { logs.allEnded }
            findings += logs.check("phase 1", allEnded: true, lastEnd: [])
            if !it.waitUntil("closed groups' state released", timeoutSeconds: 2, { marks.load == 0 }) {
                findings.append(.forbidden(GraphOperatorCheck.stateKept, "\(marks.load) duration states alive after all \(logs.count) groups closed"))
            }

            it.runActors(senders + 1) { a, rng in
                if a < senders {
                    second[a].sendAll(perSender, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                } else {
                    for k in 0..<rng.below(closes) {
                        rng.hold()
                        _ = closeInput.send(value: ())
                        it.progress(a, k)
                    }
                    rng.hold()
                    output.cancel()
                    watch.markCancelled()
                }
            }
            _ = it.waitUntil("every group ended after the cancel", timeoutSeconds: 2) { logs.allEnded }
            findings += watch.findings("groupBy's output")
            findings += logs.check("phase 2", allEnded: true, lastEnd: ["cancelled"])
            if !it.waitUntil("group state released after the cancel", timeoutSeconds: 2, { marks.load == 0 }) {
                findings.append(.forbidden(GraphOperatorCheck.stateKept, "\(marks.load) duration states alive after the cancel"))
            }
            if stressProbe(input, ledger) == nil {
                findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "groupBy's source accepted a value after the output's cancel() returned"))
            }
        }
        findings += logs.values.entryFindings("groups")
        findings += stressCheckEvents("groups", logs.values.events, senders: first + second,
                                      policy: StressStreamPolicy(lossName: "value in transit at cancel", expectedEnd: nil))
        logs.release()
        return findings
    }
}

/// `window(boundary:)`: T−1 threads send while the last sends boundary values (phase 1), then
/// the same with the last thread cancelling the output midway (phase 2).
///
/// Arbiter: every value accepted in phase 1 reaches exactly one window, in each sender's
/// order across the windows; a window opens only once the one before it has ended; every
/// window but the last completes, the last is cancelled with the output; after the cancel no
/// window is delivered and neither the source nor the boundary is connected; every graph
/// object is freed after the iteration.
package struct WindowBoundaryRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "window-boundary-race",
        "window(boundary:); T−1 threads send while one sends boundary values, then cancels",
        acceptable: "each value in the live window, in order; one window at a time",
        minimumThreads: 2)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let senders = it.threads - 1
        let perSender = max(16, it.operations / 2)
        let ledger = it.ledger
        let watch = StressCancelWatch()
        let first = (0..<senders).map { StressSender(id: $0, capacity: perSender) }
        let second = (0..<senders).map { StressSender(id: 100 + $0, capacity: perSender) }
        for s in first { s.mustArriveBelow = perSender }
        let logs = StressInnerLogs("window", capacity: 2 * senders * perSender + 1, perturber: it.shared, key: { _ in 0 })
        var findings: [StressFinding] = []
        do {
            let (input, source) = it.makeInput()
            let (boundaryInput, boundary) = Signal<Int>.create(delivery: it.variant)
            it.track(boundaryInput, "boundary input")
            let windows = source.window(boundary: boundary)
            it.track(windows, "window(boundary:)")
            let token = ledger.token()
            let output = windows.subscribe { r in
                withExtendedLifetime(token) {}
                watch.entered()
                if case .success(let w) = r { logs.open(key: 0, w, ledger: ledger) }
            }
            let boundaries = max(4, perSender / 8)
            it.runActors(senders + 1) { a, rng in
                if a < senders {
                    first[a].sendAll(perSender, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                } else {
                    for k in 0..<boundaries {
                        rng.hold()
                        _ = boundaryInput.send(value: k)
                        it.progress(a, k)
                    }
                }
            }
            findings += logs.check("phase 1", allEnded: false, lastEnd: [])
            it.runActors(senders + 1) { a, rng in
                if a < senders {
                    second[a].sendAll(perSender, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                } else {
                    for k in 0..<rng.below(boundaries) {
                        rng.hold()
                        _ = boundaryInput.send(value: k)
                        it.progress(a, k)
                    }
                    rng.hold()
                    output.cancel()
                    watch.markCancelled()
                }
            }
            _ = it.waitUntil("every window ended after the cancel", timeoutSeconds: 2) { logs.allEnded }
            findings += watch.findings("window's output")
            findings += logs.check("phase 2", allEnded: true, lastEnd: ["cancelled"])
            if stressProbe(input, ledger) == nil {
                findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "window's source accepted a value after the output's cancel() returned"))
            }
            if boundaryInput.send(value: -1) == nil {
                findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "window's boundary accepted a value after the output's cancel() returned"))
            }
        }
        findings += logs.values.entryFindings("windows")
        findings += stressCheckEvents("windows", logs.values.events, senders: first + second,
                                      policy: StressStreamPolicy(lossName: "value in transit at cancel", expectedEnd: nil))
        logs.release()
        return findings
    }
}

/// `delaySubscription(until:)`: one thread sends into the source (refused until it is
/// connected), one fires the trigger after a random while (a value, a completion or an error,
/// by iteration), and in odd iteration pairs a third cancels the output after a random while.
///
/// Arbiter: nothing is accepted before the trigger connects the source, and every value
/// accepted after is delivered once, in order (a value in transit at a cancel may be
/// dropped); a trigger error ends the result with an error and no value; the trigger is
/// released once it has decided (a later value into it is refused); after a cancel, nothing
/// is delivered and the source is disconnected; every graph object is freed.
package struct DelaySubscriptionRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "delay-subscription-race",
        "delaySubscription(until:); a sender, the trigger and a cancel race",
        acceptable: "source connected by the trigger, all accepted values in order",
        minimumThreads: 3)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let ledger = it.ledger
        let mode = it.index % 3
        let cancels = (it.index / 3) & 1 == 1
        let count = max(16, it.operations)
        let sender = StressSender(id: 0, capacity: count)
        let recorder = StressRecorder(capacity: count + 2, perturber: it.shared)
        var findings: [StressFinding] = []
        do {
            let (input, source) = it.makeInput()
            let (triggerInput, trigger) = Signal<StressMsg>.create(delivery: it.variant)
            it.track(triggerInput, "trigger input")
            let delayed = source.delaySubscription(until: trigger)
            it.track(delayed, "delaySubscription")
            let output = delayed.stressSubscribe(recorder, ledger: ledger)
            it.runActors(3) { a, rng in
                switch a {
                case 0:
                    sender.sendAll(count, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                case 1:
                    rng.hold()
                    switch mode {
                    case 0: _ = triggerInput.send(value: StressMsg(sender: 1, seq: 0, token: ledger.token()))
                    case 1: triggerInput.complete()
                    default: triggerInput.send(end: .other(SignalOperatorError.noElements))
                    }
                default:
                    guard cancels else { return }
                    rng.hold()
                    rng.hold()
                    output.cancel()
                    recorder.markCancelled()
                }
            }
            if stressProbe(triggerInput, ledger) == nil {
                findings.append(.forbidden(GraphOperatorCheck.triggerKept, "the trigger accepted a value after it \(["sent", "completed", "failed"][mode])"))
            }
            if cancels && stressProbe(input, ledger) == nil {
                findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "the source accepted a value after the output's cancel() returned"))
            }
            output.cancel()
        }
        findings += recorder.entryFindings("delaySubscription")
        let expectedEnd = cancels ? "any" : (mode == 2 ? "other" : nil)
        findings += stressCheckEvents("delaySubscription", recorder.events, senders: [sender],
                                      policy: StressStreamPolicy(lossName: cancels ? "value in transit at cancel" : nil, expectedEnd: expectedEnd))
        if mode == 2 && sender.acceptedCount > 0 {
            findings.append(.forbidden(StressCheck.refusedDelivered, "the source accepted \(sender.acceptedCount) values though the trigger failed"))
        }
        return findings
    }
}

/// `Signal.retry(whenErrors:_:)` whose notifier answers every error with two values (the second
/// arrives while the new attempt runs and must be dropped): one thread sends into the current
/// attempt's input and fails it every eighth send; in odd iterations another cancels the
/// output after a random while.
///
/// Arbiter: one attempt per error, plus the first (fewer after a cancel); every value
/// accepted by an attempt is delivered once, in order (a value in transit at a cancel may be
/// dropped); after a cancel, nothing is delivered and the current attempt is disconnected;
/// the notifier, the errors signal and every attempt are freed after the iteration.
package struct RetryWhenErrorsRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "retry-when-errors-race",
        "Signal.retry(whenErrors:); a sender fails attempts while another thread cancels",
        acceptable: "one attempt per error, all accepted values in order",
        minimumThreads: 2)

    struct Failed: Error {}

    package func run(_ it: StressIteration) -> [StressFinding] {
        let variant = it.variant
        return stressFactoryRunsRace(it, what: "retry", cancels: it.index & 1 == 1,
                                     check: GraphOperatorCheck.extraAttempt, nouns: ("attempts", "errors", "attempt"),
                                     endRun: { $0.send(end: .other(Failed())) }) { token, attempt in
            Signal<StressMsg>.retry(whenErrors: { errors in
                errors.flatMap { _ in
                    withExtendedLifetime(token) {}
                    return Signal<Void>.just((), (), delivery: variant)
                }
            }, delivery: variant, attempt)
        }
    }
}

/// The race of the factory-based operators (`retry-when-errors-race`, `repeat-race`): the
/// result `build` makes from a factory of fresh inputs on the variant under test (given a
/// token for its closures to keep, so the ledger sees them freed); one thread sends into the
/// current run and ends it with `endRun` every eighth send; when `cancels`, another cancels
/// the output after a random while. Findings: runs not one per accepted end plus the first
/// (`check`; fewer allowed after a cancel); the current run still connected after the cancel;
/// an accepted value not delivered once, in order (one in transit at a cancel may be
/// dropped); an end other than the cancel's.
func stressFactoryRunsRace(
    _ it: StressIteration, what: String, cancels: Bool, check: String,
    nouns: (runs: String, ends: String, run: String),
    endRun: @escaping @Sendable (SignalInput<StressMsg>) -> SignalSendError?,
    build: (_ token: StressToken, _ attempt: @escaping @Sendable () -> Signal<StressMsg>) -> Signal<StressMsg>
) -> [StressFinding] {
    let ledger = it.ledger
    let count = max(16, it.operations)
    let sender = StressSender(id: 0, capacity: count)
    let recorder = StressRecorder(capacity: count + 2, perturber: it.shared)
    let runs = StressLock<(made: Int, input: SignalInput<StressMsg>?)>((0, nil))
    let ends = StressCounter(0)
    let variant = it.variant
    var findings: [StressFinding] = []
    do {
        let result = build(ledger.token()) {
            let (input, signal) = Signal<StressMsg>.create(delivery: variant)
            runs.withLock { $0 = ($0.made + 1, input) }
            return signal
        }
        it.track(result, what)
        let output = result.stressSubscribe(recorder, ledger: ledger)
        it.runActors(2) { a, rng in
            if a == 0 {
                for i in 0..<count {
                    guard let input = runs.withLock({ $0.input }) else { break }
                    if i & 7 == 7 {
                        if endRun(input) == nil { _ = ends.next() }
                        sender.record(seq: i, accepted: false)
                    } else {
                        sender.send(ledger: ledger) { input.send(value: $0) }
                    }
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
            } else if cancels {
                rng.hold()
                rng.hold()
                output.cancel()
                recorder.markCancelled()
            }
        }
        let made = runs.withLock { $0.made }
        if cancels ? made > ends.load + 1 : made != ends.load + 1 {
            findings.append(.forbidden(check, "\(what): \(made) \(nouns.runs) for \(ends.load) \(nouns.ends)\(cancels ? " (cancelled)" : "")"))
        }
        if cancels, let last = runs.withLock({ $0.input }), stressProbe(last, ledger) == nil {
            findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "\(what): the current \(nouns.run) accepted a value after the output's cancel() returned"))
        }
        output.cancel()
        runs.withLock { $0.input = nil }
    }
    findings += recorder.entryFindings(what)
    findings += stressCheckEvents(what, recorder.events, senders: [sender],
                                  policy: StressStreamPolicy(lossName: cancels ? "value in transit at cancel" : nil, expectedEnd: cancels ? "any" : nil))
    return findings
}

/// The `Signal.repeat` forms, by iteration: `repeat(count: .max)` (the next run at once),
/// `repeat(when:)` whose trigger sends two values (the second must not start a run: the
/// trigger is released at its first) and `repeat(whenCompletions:)` whose notifier answers each
/// completion with two values (the second arrives while the new run runs and must be
/// dropped). The result's stage and every run are on the variant under test. One thread sends
/// into the current run's input and completes it every eighth send; in odd iteration pairs
/// another cancels the output after a random while.
///
/// Arbiter: one run per completion, plus the first (fewer after a cancel); every value
/// accepted by a run is delivered once, in order (a value in transit at a cancel may be
/// dropped); no end but a cancel's; after a cancel, nothing is delivered and the current run
/// is disconnected; the closures, triggers, notifier and every run are freed after the
/// iteration.
package struct RepeatRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "repeat-race",
        "Signal.repeat(count:), repeat(when:), repeat(whenCompletions:); a sender completes runs while another thread cancels",
        acceptable: "one run per completion, all accepted values in order",
        minimumThreads: 2)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let mode = it.index % 3
        let variant = it.variant
        let name = ["repeat(count:)", "repeat(when:)", "repeat(whenCompletions:)"][mode]
        return stressFactoryRunsRace(it, what: name, cancels: (it.index / 3) & 1 == 1,
                                     check: GraphOperatorCheck.extraRun, nouns: ("runs", "completions", "run"),
                                     endRun: { $0.complete() }) { token, attempt in
            switch mode {
            case 0:
                return Signal<StressMsg>.repeat(count: .max, delivery: variant, attempt)
            case 1:
                return Signal<StressMsg>.repeat(when: { _ in
                    withExtendedLifetime(token) {}
                    return Signal<Void>.just((), (), delivery: variant)
                }, delivery: variant, attempt)
            default:
                return Signal<StressMsg>.repeat(whenCompletions: { completions in
                    completions.flatMap { _ in
                        withExtendedLifetime(token) {}
                        return Signal<Void>.just((), (), delivery: variant)
                    }
                }, delivery: variant, attempt)
            }
        }
    }
}

/// The timer stages on real time (`.global`): by iteration, `timeout(first:each:)` or
/// `timeout(firstBy:each:)` with a first wait of 0–2 ms and `each` of 10 s, or
/// `throttle(interval:leading: true, latest: true)` with a window of 0.1–1 ms. One thread
/// sends after a random while and completes; in odd iteration pairs another cancels the
/// output after a random while.
///
/// Arbiter: values arrive once, in order; a timeout comes before any value or not at all
/// (after a value only `each`, 10 s, could time out); without a timeout or a cancel every
/// accepted value arrives (timeout) or the last accepted value arrives before the
/// completion (throttle's trailing value); nothing after a cancel, and the source
/// disconnected; every graph object (and timer) freed after the iteration.
package struct TimerStageRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "timer-stage-race",
        "timeout(first:/firstBy:each:) and throttle(leading:latest:) on real time; a sender, the timer and a cancel race",
        acceptable: "timeout only before the first value; throttle's trailing value kept",
        minimumThreads: 2)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let ledger = it.ledger
        let mode = it.index % 3
        let cancels = (it.index / 3) & 1 == 1
        let count = max(16, it.operations / 2)
        let sender = StressSender(id: 0, capacity: count)
        let recorder = StressRecorder(capacity: count + 2, perturber: it.shared)
        var random = it.random
        let wait = Duration.microseconds(random.below(2_000))
        let window = Duration.microseconds(100 + random.below(900))
        var findings: [StressFinding] = []
        let started = ContinuousClock.now
        do {
            let (input, source) = it.makeInput()
            let staged: Signal<StressMsg>
            switch mode {
            case 0: staged = source.timeout(first: wait, each: .seconds(10), context: .global)
            case 1: staged = source.timeout(firstBy: Exec.global.now() + wait, each: .seconds(10), context: .global)
            default: staged = source.throttle(interval: window, leading: true, latest: true, context: .global)
            }
            it.track(staged, ["timeout(first:)", "timeout(firstBy:)", "throttle"][mode])
            let output = staged.stressSubscribe(recorder, ledger: ledger)
            it.runActors(2) { a, rng in
                if a == 0 {
                    usleep(UInt32(rng.below(2_000)))
                    sender.sendAll(count, actor: a, of: it, ledger: ledger, random: &rng) { input.send(value: $0) }
                    input.complete()
                } else if cancels {
                    usleep(UInt32(rng.below(3_000)))
                    output.cancel()
                    recorder.markCancelled()
                }
            }
            // The throttle's trailing value (and its completion) waits for the window's end.
            _ = it.waitUntil("the end", timeoutSeconds: 2) { cancels || recorder.endCount > 0 }
            if cancels && stressProbe(input, ledger) == nil {
                findings.append(.forbidden(GraphOperatorCheck.keptAfterCancel, "the source accepted a value after the output's cancel() returned"))
            }
            output.cancel()
        }
        let events = recorder.events
        findings += recorder.entryFindings("timer stage")
        let timedOut = events.contains(.end("other"))
        let values = events.compactMap { e -> Int? in if case .value(_, let q, _) = e { return q } else { return nil } }
        if mode < 2 {
            if timedOut, let v = values.first, ContinuousClock.now - started < .seconds(10) {
                findings.append(.forbidden(GraphOperatorCheck.earlyTimeout, "timed out after value \(v) (\(values.count) values), with `each` 10 s"))
            }
            let lossName: String? = cancels ? "value in transit at cancel" : (timedOut ? "value in transit at the timeout" : nil)
            findings += stressCheckEvents("timeout", events, senders: [sender],
                                          policy: StressStreamPolicy(lossName: lossName, expectedEnd: cancels ? "any" : (timedOut ? "other" : "complete")))
        } else {
            // Throttled values are dropped on purpose: only order, duplicates and ends count.
            findings += stressCheckEvents("throttle", events, senders: [sender],
                                          policy: StressStreamPolicy(lossName: "throttled", expectedEnd: cancels ? "any" : "complete"))
                .filter { $0.name != "throttled" }
            let last = sender.status.lastIndex(of: StressSender.accepted)
            if !cancels, let last, values.last != last {
                findings.append(.forbidden(GraphOperatorCheck.trailingLost, "last accepted value \(last) not delivered before the completion (got …\(values.suffix(3)))"))
            }
        }
        return findings
    }
}
