import Dispatch
import Signals
import SignalsStress
import Synchronization
import Testing

// A harness that never fails proves nothing: each invariant check is fed a deliberately broken
// subject here, through the same runner and arbiter as `bench stress`, and must report
// FORBIDDEN under the invariant's name.
//
// The suite starts threads (the runner's actors), so it carries `.startsThreads` and CI runs it
// under ThreadSanitizer too. The broken queues keep their state in a `Mutex`, whose critical
// sections TSan does not see as ordered on Linux (suppressed, tsan-suppressions.txt); the one
// queue that skips the claim lets two senders into the handler at once on purpose, a real
// race that TSan reports, so that test is disabled under TSan.

// MARK: - Broken delivery queues

/// How a `BrokenQueue` misbehaves.
enum QueueFault: Sendable {
    /// Every sender "claims" the node: handlers run concurrently.
    case skipsClaim
    /// Queued elements come out newest first.
    case reorders
    /// Every 5th queued element vanishes.
    case loses
    /// Every 5th queued element is delivered twice.
    case duplicates
}

/// A mutex-guarded delivery queue with one deliberate fault, chosen by the subclass.
class BrokenQueueBase: @unchecked Sendable {
    struct State {
        var held = false
        var items: [StressMsg] = []
        var queued = 0
    }
    let state = Mutex(State())
    var fault: QueueFault { .reorders }
    let held = Atomic<UInt>(0)

    required init() {}

    private func push(_ m: StressMsg, into s: inout State) {
        s.queued += 1
        // The fence of `DeliveryQueueScenario` is never lost, so the run does not stall.
        if fault == .loses && s.queued % 5 == 0 && m.tag != 0xFFFF { return }
        s.items.append(m)
        if fault == .duplicates && s.queued % 5 == 0 && m.tag != 0xFFFF { s.items.append(m) }
    }

    func claimOrEnqueue(_ element: @autoclosure () -> StressMsg) -> ClaimOutcome {
        if fault == .skipsClaim { return .claimed }
        return state.withLock { s -> ClaimOutcome in
            if !s.held { s.held = true; return .claimed }
            push(element(), into: &s)
            return .enqueued
        }
    }

    func tryClaim() -> Bool {
        if fault == .skipsClaim { return true }
        return state.withLock { s -> Bool in
            if s.held { return false }
            s.held = true
            return true
        }
    }

    func enqueueAndClaimIfIdle(_ element: consuming StressMsg) -> Bool {
        let m = element
        return state.withLock { s -> Bool in
            push(m, into: &s)
            if fault == .skipsClaim { return true }
            if s.held { return false }
            s.held = true
            return true
        }
    }

    func nextOrRelease() -> StressMsg? {
        state.withLock { s -> StressMsg? in
            if s.items.isEmpty {
                s.held = false
                return nil
            }
            return fault == .reorders ? s.items.removeLast() : s.items.removeFirst()
        }
    }

    func releaseIfIdle() -> Bool {
        state.withLock { s -> Bool in
            if !s.items.isEmpty && fault != .skipsClaim { return false }
            s.held = false
            return true
        }
    }

    func adoptClaim() {}
    var isHeldByCurrentThread: Bool { false }
}

final class SkipsClaimQueue: BrokenQueueBase, DeliveryQueue, @unchecked Sendable {
    typealias Element = StressMsg
    override var fault: QueueFault { .skipsClaim }
}
final class ReorderingQueue: BrokenQueueBase, DeliveryQueue, @unchecked Sendable {
    typealias Element = StressMsg
    override var fault: QueueFault { .reorders }
}
final class LosingQueue: BrokenQueueBase, DeliveryQueue, @unchecked Sendable {
    typealias Element = StressMsg
    override var fault: QueueFault { .loses }
}
final class DuplicatingQueue: BrokenQueueBase, DeliveryQueue, @unchecked Sendable {
    typealias Element = StressMsg
    override var fault: QueueFault { .duplicates }
}

// MARK: - Broken graph pieces

/// A "junction" that does not invalidate the value in flight when it is rebound: it relays a
/// source into a target input and, on rebind, delivers its last in-flight value again to the
/// new binding (as a junction would if an old binding's late delivery were not discarded).
struct StaleJunctionScenario: StressScenario {
    var name: String { "broken-stale-junction" }
    var summary: String { "a relay that re-delivers its in-flight value after a rebind" }

    func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senders = [StressSender(id: 0, capacity: n)]
        let recorder = StressRecorder(capacity: 4 * n + 8, perturber: it.shared)
        let inFlight = Mutex<StressMsg?>(nil)
        do {
            let (source, sourceSignal) = Signal<StressMsg>.create(delivery: it.variant)
            let (target, targetSignal) = Signal<StressMsg>.create(delivery: it.variant)
            let output = targetSignal.stressSubscribe(recorder, ledger: it.ledger)
            let relay = sourceSignal.subscribeValues { m in
                inFlight.withLock { $0 = m }
                target.send(value: m)
            }
            let ledger = it.ledger
            it.runActors(2) { a, rng in
                if a == 1 {
                    for _ in 0..<max(4, n / 8) {
                        // Rebind: the old binding's in-flight value reaches the new one too.
                        if let stale = inFlight.withLock({ $0 }) { target.send(value: stale) }
                        rng.perturb()
                    }
                    return
                }
                for _ in 0..<n {
                    senders[0].send(ledger: ledger) { source.send(value: $0) }
                    rng.perturb()
                }
            }
            inFlight.withLock { $0 = nil }
            relay.cancel()
            target.complete()
            output.cancel()
        }
        return stressCheckStream("target", recorder, senders: senders, policy: StressStreamPolicy(
            lossName: "value dropped in transit during rebind", expectedEnd: "complete"))
    }
}

/// An output whose `cancel()` returns without detaching the handler.
struct IgnoredCancelScenario: StressScenario {
    var name: String { "broken-ignored-cancel" }
    var summary: String { "cancel() that does not stop deliveries" }

    func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senders = [StressSender(id: 0, capacity: n)]
        let recorder = StressRecorder(capacity: n + 4, perturber: nil)
        do {
            let (input, signal) = Signal<StressMsg>.create(delivery: it.variant)
            let output = signal.stressSubscribe(recorder, ledger: it.ledger)
            let ledger = it.ledger
            it.runActors(2) { a, _ in
                if a == 1 {
                    // The broken cancel: reports success, detaches nothing.
                    recorder.markCancelled()
                    return
                }
                for _ in 0..<n { senders[0].send(ledger: ledger) { input.send(value: $0) } }
            }
            input.send(value: StressMsg(sender: 0, seq: n - 1, token: it.ledger.token()))
            output.cancel()
        }
        return recorder.entryFindings("subscriber")
    }
}

/// A stage that lets a value through after its end and repeats the end.
struct LeakyEndScenario: StressScenario {
    let repeatsEnd: Bool
    var name: String { repeatsEnd ? "broken-end-twice" : "broken-value-after-end" }
    var summary: String { "a stage that does not close after its end" }

    func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senders = [StressSender(id: 0, capacity: n)]
        let recorder = StressRecorder(capacity: n + 8, perturber: nil)
        let repeatsEnd = self.repeatsEnd
        do {
            let (input, signal) = Signal<StressMsg>.create(delivery: it.variant)
            let lastValue = Mutex<StressMsg?>(nil)
            let output = signal.subscribe { r in
                recorder.receive(r)
                switch r {
                case .success(let m): lastValue.withLock { $0 = m }
                case .failure:
                    if repeatsEnd { recorder.receive(r) } else if let m = lastValue.withLock({ $0 }) { recorder.receive(.success(m)) }
                    lastValue.withLock { $0 = nil }
                }
            }
            let ledger = it.ledger
            it.runActors(1) { _, _ in
                for _ in 0..<n { senders[0].send(ledger: ledger) { input.send(value: $0) } }
            }
            input.complete()
            output.cancel()
        }
        return stressCheckStream("subscriber", recorder, senders: senders, policy: StressStreamPolicy(expectedEnd: "complete"))
    }
}

/// Keeps a counted value, and the signal, alive after the iteration.
struct HoardingScenario: StressScenario {
    static let hoard = Mutex<[AnyObject]>([])
    var name: String { "broken-hoard" }
    var summary: String { "keeps a value and a signal after the iteration" }

    func run(_ it: StressIteration) -> [StressFinding] {
        let (input, signal) = Signal<StressMsg>.create(delivery: it.variant)
        it.track(input, "input"); it.track(signal, "signal")
        let kept = it.ledger.token()
        HoardingScenario.hoard.withLock { $0 += [kept, signal] }
        return []
    }
}

/// An actor that waits for something that never happens.
struct StuckScenario: StressScenario {
    var name: String { "broken-stuck" }
    var summary: String { "an actor blocked forever" }

    func run(_ it: StressIteration) -> [StressFinding] {
        let never = DispatchSemaphore(value: 0)
        it.runActors(2) { a, _ in
            it.progress(a, 7)
            if a == 1 { never.wait() }
        }
        return []
    }
}

// MARK: - Tests

@Suite(.tags(.startsThreads), .serialized)
struct StressArbiterTests {
    func run(_ scenario: any StressScenario, variant: DeliveryVariant = .lockFree, iterations: Int = 300,
             watchdog: Double = 20) -> StressRunResult {
        var options = StressOptions(
            seed: 0xBAD, secondsPerRun: 20, iterations: iterations, threads: 3, operations: 64,
            watchdogSeconds: watchdog, leakGraceSeconds: 0.2, exitOnDeadlock: false, log: { _ in })
        options.stopOnForbidden = true
        return StressRunner(options: options).run(scenario, delivery: variant)
    }

    func expectForbidden(_ r: StressRunResult, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.passed, "expected FORBIDDEN \(name); got \(r.outcomes.map { "\($0.grade.rawValue) \($0.name)" })", sourceLocation: sourceLocation)
        #expect(r.saw(.forbidden, name), "expected FORBIDDEN \(name); got \(r.outcomes.map { "\($0.grade.rawValue) \($0.name)" })", sourceLocation: sourceLocation)
        #expect(r.failures.first?.replay.contains("--seed 2989") == true, sourceLocation: sourceLocation)
    }

    @Test(.disabled(if: ThreadSanitizer.isActive, "the queue lets two senders into the handler at once on purpose: TSan reports the race it plants"))
    func queueThatSkipsTheClaimIsCaughtAsConcurrentEntry() {
        expectForbidden(run(DeliveryQueueScenario(name: "skips-claim", queue: SkipsClaimQueue.self)), StressCheck.concurrentEntry)
    }

    @Test func queueThatReordersIsCaughtAsFIFOViolation() {
        expectForbidden(run(DeliveryQueueScenario(name: "reorders", queue: ReorderingQueue.self)), StressCheck.fifo)
    }

    @Test func queueThatLosesIsCaughtAsLostValue() {
        expectForbidden(run(DeliveryQueueScenario(name: "loses", queue: LosingQueue.self)), StressCheck.lost)
    }

    @Test func queueThatDuplicatesIsCaughtAsDuplicate() {
        expectForbidden(run(DeliveryQueueScenario(name: "duplicates", queue: DuplicatingQueue.self)), StressCheck.duplicate)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func junctionThatKeepsInFlightValuesIsCaught(_ variant: DeliveryVariant) {
        let r = run(StaleJunctionScenario(), variant: variant)
        #expect(r.saw(.forbidden, StressCheck.duplicate) || r.saw(.forbidden, StressCheck.fifo),
                "got \(r.outcomes.map { "\($0.grade.rawValue) \($0.name)" })")
    }

    @Test func cancelThatDoesNotDetachIsCaught() {
        expectForbidden(run(IgnoredCancelScenario()), StressCheck.afterCancel)
    }

    @Test func endDeliveredTwiceIsCaught() {
        expectForbidden(run(LeakyEndScenario(repeatsEnd: true)), StressCheck.endTwice)
    }

    @Test func valueAfterEndIsCaught() {
        expectForbidden(run(LeakyEndScenario(repeatsEnd: false)), StressCheck.valueAfterEnd)
    }

    @Test func leakIsCaughtAndNamed() {
        let r = run(HoardingScenario(), iterations: 2)
        expectForbidden(r, StressCheck.leak)
        let detail = r.failures.first?.detail ?? ""
        #expect(detail.contains("signal") && detail.contains("counted values/handlers alive"), "\(detail)")
        #expect(!detail.contains("input"), "the input was released: \(detail)")
    }

    @Test func deadlockIsCaughtByTheWatchdog() {
        let lines = Mutex<[String]>([])
        var options = StressOptions(seed: 0xBAD, iterations: 3, threads: 2, operations: 8, watchdogSeconds: 1,
                                    exitOnDeadlock: false, log: { l in lines.withLock { $0.append(l) } })
        options.stopOnForbidden = true
        let r = StressRunner(options: options).run(StuckScenario(), delivery: .mutex)
        #expect(r.deadlocked)
        #expect(r.saw(.forbidden, StressCheck.deadlock))
        let report = lines.withLock { $0.joined(separator: "\n") }
        #expect(report.contains("broken-stuck") && report.contains("iteration 0") && report.contains("seed"), "\(report)")
        #expect(report.contains("actor 1: running, progress 7"), "\(report)")
    }

    @Test func arbiterNamesEachViolationInASyntheticStream() {
        let s = StressSender(id: 0, capacity: 6)
        for q in 0..<5 { s.record(seq: q, accepted: true) }
        s.record(seq: 5, accepted: false)
        let events: [StressEvent] = [.value(sender: 0, seq: 0, tag: 0), .value(sender: 0, seq: 2, tag: 0),
                                     .value(sender: 0, seq: 1, tag: 0), .value(sender: 0, seq: 2, tag: 0),
                                     .value(sender: 0, seq: 5, tag: 0), .end("complete"), .value(sender: 7, seq: 0, tag: 0),
                                     .end("complete")]
        let names = Set(stressCheckEvents("t", events, senders: [s], policy: StressStreamPolicy()).map(\.name))
        #expect(names == [StressCheck.fifo, StressCheck.duplicate, StressCheck.refusedDelivered, StressCheck.valueAfterEnd,
                          StressCheck.unknownDelivered, StressCheck.endTwice, StressCheck.lost])
        // A tolerated drop is INTERESTING, not FORBIDDEN.
        let tolerant = stressCheckEvents("t", [.value(sender: 0, seq: 0, tag: 0), .end("complete")], senders: [s],
                                         policy: StressStreamPolicy(lossName: "dropped"))
        #expect(tolerant.map(\.grade) == [.interesting])
    }
}
