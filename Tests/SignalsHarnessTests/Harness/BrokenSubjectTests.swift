import Foundation
import SignalsReports
import SignalsWorkloads
import Testing

// Each workload's checks are shown to fail: a deliberately broken subject is run through the
// same `Runner` as `bench`, and the case must come out failed, naming the guarantee.
//
// The suite starts threads (`offPool`, the contended senders), so it carries `.startsThreads`
// and CI runs it under ThreadSanitizer too. The unserialized subject enters the handler from
// several threads at once on purpose, but each sender writes only its own slot of the checker
// and the overlap guard is atomic, so TSan has no data race to report there (none was reported
// when the suite joined the TSan run).

/// How a `BrokenSubject` misbehaves.
enum Fault: Sendable {
    /// Value number 5 of every sender never reaches the handler.
    case drop
    /// Values 5 and 6 arrive swapped.
    case reorder
    /// Value 7 arrives twice.
    case duplicate
    /// Every sender thread calls the handler itself, with no serialization.
    case concurrent
    /// Fan-out: subscriber 3 misses value 5.
    case fanoutMiss
    /// Mutation: drops are allowed, but value 6 arrives after 7.
    case mutationReorder
}

/// Delivers straight to the checker, with one fault. Pretends to be `lockfree`, so a failure
/// must fail the run.
final class FaultySender: ValueSender, @unchecked Sendable {
    let checker: DeliveryChecker
    let fault: Fault
    var held: Int?

    init(_ checker: DeliveryChecker, _ fault: Fault) {
        self.checker = checker
        self.fault = fault
    }

    func send(_ value: Int) {
        let seq = value & 0xFFFF_FFFF
        switch fault {
        case .drop:
            if seq == 5 { return }
        case .reorder, .mutationReorder:
            let first = fault == .reorder ? 5 : 6
            if seq == first { held = value; return }
            checker.receive(value)
            if seq == first + 1, let h = held { checker.receive(h); held = nil }
            return
        case .duplicate:
            if seq == 7 { checker.receive(value) }
        case .concurrent, .fanoutMiss:
            break
        }
        checker.receive(value)
    }
}

struct FanoutSender: ValueSender {
    let checkers: [DeliveryChecker]
    func send(_ value: Int) {
        for (i, c) in checkers.enumerated() where !(i == 3 && value == 5) { c.receive(value) }
    }
}

struct BrokenSubject: BenchSubject {
    let fault: Fault
    var id: SubjectID { .lockfree }
    func support(for spec: CaseSpec) -> Support { .inProcess }

    func run(_ ctx: RunContext) throws {
        switch ctx.spec.workload {
        case .contended:
            let c = ctx.makeChecker(senders: ctx.spec.threads)
            ctx.driveContended(checker: c) { _ in FaultySender(c, fault) }
        case .fanout:
            let cs = (0..<ctx.spec.subscribers).map { ctx.makeChecker(senders: 1, name: "subscriber \($0)") }
            ctx.driveSequential(FanoutSender(checkers: cs), checker: cs[cs.count - 1])
            ctx.completedOperations = ctx.operations * cs.count
        case .mutation:
            let c = ctx.makeChecker(senders: 1, allowDrops: true)
            let s = FaultySender(c, fault)
            ctx.startClock()
            // Drops are fine here: skip every tenth value.
            for i in 0..<ctx.operations where i % 10 != 9 { s.send(i) }
            ctx.stopClock()
            ctx.sent = [ctx.operations]
        default:
            let c = ctx.makeChecker(senders: 1)
            ctx.driveSequential(FaultySender(c, fault), checker: c)
        }
    }
}

/// Runs blocking harness code on a thread of its own. Swift Testing runs tests on the
/// cooperative pool (two threads here): a test that blocked a pool thread while an async peer
/// needs the pool for its consumer task could starve it.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Small, fast parameters: short repetitions, a short stall timeout.
func tinyParameters() -> Parameters {
    var p = Parameters.quick
    p.repetitions = 1
    p.targetRepetitionMilliseconds = 2
    p.stallSeconds = 0.2
    p.depth = 10_000
    return p
}

@Suite("Workload checks catch broken subjects", .tags(.startsThreads))
struct BrokenSubjectTests {
    func run(_ fault: Fault, _ spec: CaseSpec) async -> CaseResult {
        await offPool {
            Runner(parameters: tinyParameters(), subjects: [BrokenSubject(fault: fault)])
                .measure(BrokenSubject(fault: fault), spec)
        }
    }

    @Test func droppedValueFailsExactlyOnce() async {
        let r = await run(.drop, CaseSpec(workload: .send))
        #expect(r.status == .failed)
        #expect(r.failsRun)
        let v = r.violations.first { $0.guarantee == "exactly once" }
        #expect(v != nil)
        #expect((v?.counts["missing"] ?? 0) >= 1)
    }

    @Test func reorderedValuesFailPerSenderOrder() async {
        let r = await run(.reorder, CaseSpec(workload: .sendMap, stages: 1))
        #expect(r.status == .failed)
        #expect(r.violations.contains { $0.guarantee == "per-sender order" && $0.counts["backwardValues"] == 1 })
    }

    @Test func duplicatedValueFails() async {
        let r = await run(.duplicate, CaseSpec(workload: .chain, caseLabel: "10 stages", stages: 10))
        #expect(r.status == .failed)
        #expect(r.violations.contains { $0.guarantee == "per-sender order" })
    }

    @Test func unserializedSendersFailContended() async throws {
        // Two threads call the handler directly: overlapping entries (and, usually, lost
        // counts) must be reported. Enough values that the threads really overlap, and
        // several attempts, since a loaded machine may run them one after the other (with two
        // busy threads beside it on 2 cores, 5 attempts once all ran serially; the loop ends
        // at the first overlap, so the attempts cost only on such a machine).
        var sawOverlap = false
        var sawAnyViolation = false
        for _ in 0..<20 where !sawOverlap {
            let violations = await offPool { () -> [Violation] in
                let spec = CaseSpec(workload: .contended, caseLabel: "2 threads", threads: 2)
                let ctx = RunContext(spec: spec, operations: 2_000_000, stallSeconds: 0.2)
                try? BrokenSubject(fault: .concurrent).run(ctx)
                return ctx.verify().violations
            }
            if !violations.isEmpty { sawAnyViolation = true }
            if violations.contains(where: { $0.guarantee == "no concurrent entry" }) { sawOverlap = true }
        }
        #expect(sawAnyViolation)
        #expect(sawOverlap)
    }

    @Test func fanoutMissNamesTheSubscriber() async {
        let r = await run(.fanoutMiss, CaseSpec(workload: .fanout, caseLabel: "8 subscribers", subscribers: 8))
        #expect(r.status == .failed)
        #expect(r.violations.contains { $0.guarantee == "exactly once" && $0.detail.contains("subscriber 3") })
    }

    @Test func mutationAllowsDropsButNotReordering() async {
        let ok = await run(.drop, CaseSpec(workload: .mutation, caseLabel: "1 senders", threads: 1))
        #expect(ok.status == .ok)
        #expect((ok.counters["droppedInTransit"] ?? 0) > 0)
        let bad = await run(.mutationReorder, CaseSpec(workload: .mutation, caseLabel: "1 senders", threads: 1))
        #expect(bad.status == .failed)
        #expect(bad.violations.contains { $0.guarantee == "per-sender order" })
    }

    @Test func overlapGuardSeesNestedEntry() async {
        let g = OverlapGuard()
        g.enter()
        g.enter()
        g.exit()
        #expect(g.overlapCount == 1)
    }

    @Test func checkerAcceptsCorrectDelivery() async {
        let c = DeliveryChecker(senders: 2)
        for i in 0..<100 { c.receive(i); c.receive(1 << 32 | i) }
        let r = c.verify(sent: [100, 100])
        #expect(r.violations.isEmpty)
        #expect(c.received == 200)
    }

    @Test func stalledReentrantChainIsReportedNotHung() async {
        // A subject that never re-sends: the chain stops at 0, the watchdog reports it.
        struct Stuck: BenchSubject {
            var id: SubjectID { .mutex }
            func support(for spec: CaseSpec) -> Support { .inProcess }
            func run(_ ctx: RunContext) throws {
                let c = ctx.makeChecker(senders: 1)
                let h = ReentrantHandler(checker: c, depth: ctx.spec.depth)
                struct Once: ValueSender { let c: DeliveryChecker; func send(_ v: Int) { c.receive(v) } }
                ctx.driveReentrant(h) { _ in Once(c: c) }
            }
        }
        let r = await offPool {
            Runner(parameters: tinyParameters(), subjects: [Stuck()])
                .measure(Stuck(), CaseSpec(workload: .reentrant, caseLabel: "depth 100, alone", threads: 0, depth: 100))
        }
        #expect(r.status == .timedOut)
        #expect(r.failsRun)
    }
}
