import Foundation
import SignalsReports
import Synchronization

/// One repetition of one case: what to run, and what was observed.
///
/// Created by the runner for each repetition; the subject registers its handlers' checkers
/// here, the shared drivers record how many values each sender sent, and the runner verifies
/// the checkers against those counts afterwards.
package final class RunContext: @unchecked Sendable {
    package let spec: CaseSpec
    /// Operations requested: values per run (`send`, `chain`, ...), subscribe+cancel pairs
    /// (`churn`), the depth (`reentrant`).
    package let operations: Int
    /// Present on the latency and open-loop rounds only, so throughput repetitions carry no timing code.
    package let sampler: LatencySampler?
    let meter: AllocationMeter?

    /// Values sent by each sender number; set by the drivers (or by the subject).
    package var sent: [Int] = []
    /// Operations the throughput figure divides by; defaults to `operations`.
    package var completedOperations: Int?
    /// Extra counts to report (e.g. dropped values).
    package var counters: [String: Int] = [:]
    /// Set by a driver whose watchdog found no progress; the runner reports the case as timed out.
    package var stalled: String?
    /// How long a driver waits without progress before declaring a stall.
    package var stallSeconds: Double = 2
    /// Checkers whose values may be dropped in transit (`mutation`) instead of lost.
    var checkers: [(name: String, checker: DeliveryChecker, allowDrops: Bool, sent: [Int]?)] = []

    var startNs: UInt64 = 0
    var stopNs: UInt64 = 0
    var allocStart: AllocationMeter.Snapshot?
    var allocStop: AllocationMeter.Snapshot?

    package init(spec: CaseSpec, operations: Int, sampler: LatencySampler? = nil, meter: AllocationMeter? = nil,
                stallSeconds: Double = 2) {
        self.stallSeconds = stallSeconds
        self.spec = spec
        self.operations = operations
        self.sampler = sampler
        self.meter = meter
    }

    /// A checker for one handler, verified by the runner after the repetition. `sent`
    /// overrides the context's per-sender counts for this checker (e.g. a subscriber that
    /// joined late).
    package func makeChecker(senders: Int, name: String = "subscriber", receiverIndex: Int = 0,
                            allowDrops: Bool = false, sampled: Bool = true) -> DeliveryChecker {
        // A send-call round's handler stores nothing: it is the throughput rounds' handler.
        let stamps = sampled && sampler?.handlerStamps == true
        let c = DeliveryChecker(senders: senders, sampler: stamps ? sampler : nil, receiverIndex: receiverIndex)
        checkers.append((name, c, allowDrops, nil))
        return c
    }

    /// Replaces the expected counts of a checker made earlier.
    package func expect(_ checker: DeliveryChecker, sent: [Int]) {
        if let i = checkers.firstIndex(where: { $0.checker === checker }) { checkers[i].sent = sent }
    }

    /// Call right before the measured part.
    @inline(never)
    package func startClock() {
        allocStart = meter?.snapshot()
        if let sm = sampler, case .openLoop(let schedule) = sm.mode { schedule.start = LatencyClock.now() }
        startNs = monotonicNanos()
    }

    /// Call once the measured part is over (every value delivered).
    @inline(never)
    package func stopClock() {
        stopNs = monotonicNanos()
        allocStop = meter?.snapshot()
    }

    package var elapsedNs: UInt64 { stopNs >= startNs ? stopNs - startNs : 0 }

    /// Call on a thread the harness started for the measured part: before it is released
    /// (so requests from its setup are merged before `startClock`'s snapshot) and once its
    /// measured work is done (so the end snapshot sees them; see `AllocationMeter`).
    package func flushAllocationCache() {
        meter?.flushThreadCache()
    }

    /// Allocations counted between `startClock` and `stopClock` (or the recount after the
    /// join); nil without jemalloc.
    package var allocationsCounted: AllocationMeter.Snapshot? {
        guard let a = allocStart, let b = allocStop else { return nil }
        return .init(count: b.count &- a.count, bytes: b.bytes &- a.bytes)
    }

    /// Call after joining threads that flushed their caches after `stopClock`: takes the end
    /// snapshot again so their requests are counted. Requests the calling thread makes in
    /// between (joining) are counted too, which is why drivers join without allocating.
    package func recountAllocationsAfterJoin() {
        if allocStop != nil { allocStop = meter?.snapshot() }
    }

    /// Verifies every registered checker.
    package func verify() -> (violations: [Violation], dropped: Int) {
        var all: [Violation] = []
        var dropped = 0
        for entry in checkers {
            let r = entry.checker.verify(sent: entry.sent ?? sent, allowDrops: entry.allowDrops, name: entry.name)
            all += r.violations
            dropped += r.dropped
        }
        return (all, dropped)
    }

    // MARK: Drivers shared by the subjects

    /// Sends `count` values numbered for `sender`: as fast as it can, except in a latency
    /// round, where one value in `sampler.sampleEvery` is sampled (`LatencySampler.Mode`), and
    /// in an open-loop round, where every value waits for its scheduled time. Generic so each
    /// subject's sender is called directly.
    @inline(__always)
    package func sendAll<S: ValueSender>(_ s: S, count: Int, sender: Int = 0) {
        let base = sender << 32
        if let sm = sampler {
            switch sm.mode {
            case .sendCall:
                for i in 0..<count {
                    let v = base | i
                    if sm.isSampled(i) {
                        let t0 = LatencyClock.now()
                        s.send(v)
                        let t1 = LatencyClock.now()
                        sm.store(sender: sender, index: i, t1 &- t0)
                    } else {
                        s.send(v)
                    }
                }
            case .endToEnd:
                for i in 0..<count {
                    let v = base | i
                    if sm.isSampled(i) { sm.store(sender: sender, index: i, LatencyClock.now()) }
                    s.send(v)
                }
            case .openLoop(let schedule):
                // The clock is read only while ahead of the schedule (and for a sample): a
                // producer that fell behind sends back to back until it has caught up.
                var t: UInt64 = 0
                for i in 0..<count {
                    let due = schedule.due(sender: sender, index: i)
                    while t < due { t = LatencyClock.now() }
                    if sm.isSampled(i) {
                        t = LatencyClock.now()
                        sm.store(sender: sender, index: i, t)
                    }
                    s.send(base | i)
                }
            }
        } else if ExtraWork.iterationsPerValue > 0 {
            // Calibration only (`bench ab --calibrate`): a known extra cost per value.
            let k = ExtraWork.iterationsPerValue
            for i in 0..<count {
                s.send(base | i)
                ExtraWork.burn(k, i)
            }
        } else {
            for i in 0..<count { s.send(base | i) }
        }
    }

    /// Runs `threads` sender threads, each sending `perThread` values as sender 0..<threads
    /// through its own `makeSender(i)` result, released together after all have started. The
    /// clock starts at the release; it is not stopped here (call `waitForDelivery`, then
    /// `stopClock`).
    /// `during`, if given, runs on the calling thread while the senders run, and is passed a
    /// function telling whether they have all finished.
    package func runSenders<S: ValueSender>(threads: Int, perThread: Int,
                                           during: ((_ sendersDone: () -> Bool) -> Void)? = nil,
                                           _ makeSender: (Int) -> S) {
        let senders = (0..<threads).map { makeSender($0) }
        let ready = Atomic<Int>(0)
        let go = Atomic<Bool>(false)
        let finished = Atomic<Int>(0)
        let done = DispatchGroup()
        let box = UncheckedBox(senders)
        for i in 0..<threads {
            done.enter()
            let t = Thread { [self] in
                self.flushAllocationCache()
                ready.wrappingAdd(1, ordering: .acquiringAndReleasing)
                while !go.load(ordering: .acquiring) { sched_yield() }
                self.sendAll(box.value[i], count: perThread, sender: i)
                // Before `done.leave()`: the callers stop the clock only after `done.wait()`.
                self.flushAllocationCache()
                finished.wrappingAdd(1, ordering: .releasing)
                done.leave()
            }
            t.start()
        }
        while ready.load(ordering: .acquiring) < threads { sched_yield() }
        startClock()
        go.store(true, ordering: .releasing)
        during? { finished.load(ordering: .acquiring) >= threads }
        done.wait()
        sent = Array(repeating: perThread, count: threads)
    }

    /// Waits until `checker` has seen `count` values, or the timeout passes (then the
    /// verification reports what is missing rather than the harness hanging).
    @discardableResult
    package func waitForDelivery(_ checker: DeliveryChecker, count: Int, timeoutSeconds: Double = 20) -> Bool {
        if checker.received >= count { return true }
        let deadline = monotonicNanos() + UInt64(timeoutSeconds * 1e9)
        // Also give up once nothing has arrived for `stallSeconds`: a subject that lost
        // values would otherwise hold the run for the whole timeout.
        let stallNs = UInt64(stallSeconds * 1e9)
        var spins = 0
        var last = checker.received
        var lastChange = monotonicNanos()
        while last < count {
            spins += 1
            if spins < 1000 { sched_yield() } else { usleep(50) }
            let now = monotonicNanos()
            let r = checker.received
            if r != last { last = r; lastChange = now }
            if now > deadline || now - lastChange > stallNs { return false }
        }
        return true
    }
}

/// Carries a non-Sendable value into a thread the harness controls.
package final class UncheckedBox<T>: @unchecked Sendable {
    package var value: T
    package init(_ value: T) { self.value = value }
}
