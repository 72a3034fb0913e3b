import Foundation
import Signals
import SignalsReports
import Synchronization

/// The handler of the `reentrant` workload: checks the value, then (outside the checked
/// region, so a library that nests the call is not mistaken for a concurrent one) re-sends
/// the next value of the chain into the same input until the depth is reached.
package final class ReentrantHandler: @unchecked Sendable {
    package let checker: DeliveryChecker
    package let depth: Int
    let done = Atomic<Bool>(false)

    package init(checker: DeliveryChecker, depth: Int) {
        self.checker = checker
        self.depth = depth
    }

    @inline(__always)
    package func handle<S: ValueSender>(_ value: Int, resend: S) {
        checker.receive(value)
        if value >> 32 == 0 {
            if value < depth { resend.send(value &+ 1) } else { done.store(true, ordering: .releasing) }
        }
    }

    package var isDone: Bool { done.load(ordering: .acquiring) }
}

extension RunContext {
    /// The `send`/`chain`/`hop` driver: one thread sends `operations` values, then waits until
    /// the checker has them all (immediate for synchronous delivery).
    package func driveSequential<S: ValueSender>(_ sender: S, checker: DeliveryChecker) {
        startClock()
        sendAll(sender, count: operations)
        waitForDelivery(checker, count: operations)
        stopClock()
        sent = [operations]
    }

    /// The `contended` driver: `spec.threads` threads share `operations` values.
    package func driveContended<S: ValueSender>(checker: DeliveryChecker, _ makeSender: (Int) -> S) {
        let t = max(1, spec.threads)
        let per = max(1, operations / t)
        runSenders(threads: t, perThread: per, makeSender)
        waitForDelivery(checker, count: per * t)
        stopClock()
        completedOperations = per * t
    }

    /// The `reentrant` driver. Sender 0 is the chain (started with one send of 0 from this
    /// thread, so the chain runs on its stack); senders 1... are `spec.threads` busy threads
    /// sending as fast as they can until the chain is done (at most `depth + 1` values each).
    package func driveReentrant<S: ValueSender>(_ handler: ReentrantHandler, _ makeSender: (Int) -> S) {
        let busy = spec.threads
        let stop = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        // Each busy thread writes only its own slot, once, before leaving the group.
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: busy + 1)
        counts.initialize(repeating: 0, count: busy + 1)
        defer { counts.deallocate() }
        nonisolated(unsafe) let countsRef = counts
        let group = DispatchGroup()
        let senders = UncheckedBox((0...busy).map { makeSender($0) })
        for b in 0..<busy {
            group.enter()
            Thread {
                let s = senders.value[b + 1]
                let base = (b + 1) << 32
                var i = 0
                self.flushAllocationCache()
                started.wrappingAdd(1, ordering: .acquiringAndReleasing)
                // Bounded: an unbounded flood into a FIFO queue would push each re-sent chain
                // value behind an ever longer backlog and measure the backlog, not re-entrancy.
                let limit = handler.depth + 1
                while i < limit && !stop.load(ordering: .relaxed) {
                    s.send(base | i)
                    i &+= 1
                }
                countsRef[b + 1] = i
                self.flushAllocationCache()
                group.leave()
            }.start()
        }
        while started.load(ordering: .acquiring) < busy { sched_yield() }
        startClock()
        senders.value[0].send(0)
        // With busy senders, the chain may be carried on by whichever thread holds the node.
        // Watchdog: a chain that makes no progress for `stallSeconds` is reported as stalled
        // (an async peer whose handler awaits its own channel deadlocks here).
        var lastCount = -1
        var lastChange = monotonicNanos()
        while !handler.isDone {
            let now = monotonicNanos()
            let count = handler.checker.received
            if count != lastCount {
                lastCount = count
                lastChange = now
            } else if now - lastChange > UInt64(stallSeconds * 1e9) {
                stalled = "no value delivered for \(stallSeconds) s after \(count) of \(handler.depth + 1) (deadlock)"
                break
            }
            sched_yield()
        }
        stopClock()
        stop.store(true, ordering: .relaxed)
        group.wait()
        recountAllocationsAfterJoin()
        if stalled != nil { return }
        counts[0] = handler.depth + 1
        sent = Array(UnsafeBufferPointer(start: counts, count: busy + 1))
        waitForDelivery(handler.checker, count: sent.reduce(0, +))
        completedOperations = handler.depth + 1
        if busy > 0 { counters["busyValues"] = sent.dropFirst().reduce(0, +) }
    }

    /// Gap between two values of the `churn` workload's flow (at most 50,000 values/s, each
    /// to 10 subscribers): steady traffic well under what the slowest subject delivers. An
    /// unpaced flood would instead measure the backlog: a sender that finds the node busy
    /// queues its value and returns, so a faster-than-delivery sender grows the queue without
    /// bound and whichever thread holds the node (the one subscribing) drains forever.
    ///
    /// The gap is slept, not spun: a spinning pacer burned a whole core, so on a 2-core machine
    /// the subscribing thread shared the other core with everything else and the figure was
    /// bimodal (480 or 1,457 ns per pair depending on where the scheduler put the threads).
    /// With the thread's timer slack set to 1 ns a 20 µs sleep wakes within a few µs, so the
    /// pacer uses a small fraction of a core.
    package static let churnFlowIntervalNs: UInt64 = 20_000

    /// Sets the calling thread's timer slack to 1 ns (`prctl(PR_SET_TIMERSLACK)`). `prctl` is
    /// variadic, which Swift cannot call, so it is called through a fixed-argument pointer
    /// found with `dlsym` (all arguments are integers, passed alike either way on Linux's
    /// x86-64 and arm64 calling conventions). Without it the sleeps are only coarser.
    static func setFineTimerSlack() {
        #if os(Linux)
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let prctl = cFunction(named: "prctl", as: Prctl.self) else { return }
        _ = prctl(29 /* PR_SET_TIMERSLACK */, 1, 0, 0, 0)
        #endif
    }

    /// `SIGNALS_BENCH_CHURN_PACING=spin` brings back the old busy-waiting pacer, so the two
    /// can be compared in one period on one machine (docs/bench: churn pacing).
    static let churnPacingSpins = ProcessInfo.processInfo.environment["SIGNALS_BENCH_CHURN_PACING"] == "spin"

    /// Where the `churn` driver puts its threads (`SIGNALS_BENCH_CHURN_PLACEMENT`):
    /// - `apart` (the default): with two or more CPUs allowed, the subscribing thread on the
    ///   first and the paced sender on the second, so the pairs are always timed with values
    ///   arriving from another core;
    /// - `together`: both on the first CPU, the placement the scheduler sometimes chooses by
    ///   itself, made reproducible;
    /// - `scheduler`: no pinning.
    /// Left to the scheduler, this project's 2-core VM sometimes keeps the sleeping sender on
    /// the subscribing thread's CPU (it wakes where its timer was armed). The timed thread then
    /// also pays for every value the sender sends (a wake-up, a send, a sleep: about 10 µs of
    /// that CPU each on this VM), and how often the scheduler lets the sender in differs by
    /// variant (under mutex it ran a tenth as often), so the per-pair figure measured the
    /// scheduler more than the library: lock-free read 350 ns per pair unpinned against 196
    /// apart (paired, `bench ab`), and in which launches that happened decided a run's figure
    /// (docs/design/churn.md, "The convoy and the placement").
    enum ChurnPlacement: String { case apart, together, scheduler }

    static let churnPlacement: ChurnPlacement = {
        guard let raw = ProcessInfo.processInfo.environment["SIGNALS_BENCH_CHURN_PLACEMENT"] else { return .apart }
        guard let placement = ChurnPlacement(rawValue: raw) else {
            FileHandle.standardError.write(Data("bench: SIGNALS_BENCH_CHURN_PLACEMENT=\(raw) is not one of apart, together, scheduler; using apart\n".utf8))
            return .apart
        }
        return placement
    }()

    /// The two CPUs the churn driver pins to (subscriber, sender), or nil when it does not pin.
    static func churnCPUs() -> (subscriber: Int, sender: Int, original: ThreadAffinity.Mask)? {
        guard let original = ThreadAffinity.current() else { return nil }
        let cpus = original.cpus
        switch churnPlacement {
        case .apart:
            guard cpus.count >= 2 else { return nil }
            return (cpus[0], cpus[1], original)
        case .together:
            guard let first = cpus.first else { return nil }
            return (first, first, original)
        case .scheduler:
            return nil
        }
    }

    /// Sleeps `ns` nanoseconds (relative; the caller's timer slack decides the precision).
    static func sleepNanoseconds(_ ns: UInt64) {
        var req = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var rem = timespec()
        while nanosleep(&req, &rem) != 0 && errno == EINTR { req = rem }
    }

    /// The `churn` driver: one thread sends paced values (sender 0) to the standing
    /// subscribers while this thread performs `operations` subscribe+cancel pairs, which is
    /// what is timed. A watchdog thread stops the flow if the pairs stop making progress, so
    /// a subject that starves the subscriber ends with a report instead of a hang.
    package func driveChurn<S: ValueSender>(_ sender: S, standing: [DeliveryChecker], _ subscribeAndCancel: () -> Void) {
        let stop = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        let progress = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let count = UncheckedBox(0)
        let stallNote = UncheckedBox<String?>(nil)
        let group = DispatchGroup()
        let box = UncheckedBox(sender)
        let spin = RunContext.churnPacingSpins
        let placement = RunContext.churnCPUs()
        group.enter()
        Thread {
            if let placement { ThreadAffinity.pin(toCPU: placement.sender) }
            var i = 0
            // Linux's default 50 µs timer slack would make every 20 µs sleep last ≈ 70 µs.
            RunContext.setFineTimerSlack()
            self.flushAllocationCache()
            started.store(true, ordering: .releasing)
            while !stop.load(ordering: .relaxed) {
                box.value.send(i)
                i &+= 1
                // The gap counts from the end of the send, so a slow subject (or a debug
                // build) is never flooded: the node is idle at least this long between values.
                if spin {
                    let next = monotonicNanos() &+ RunContext.churnFlowIntervalNs
                    while monotonicNanos() < next && !stop.load(ordering: .relaxed) {}
                } else {
                    RunContext.sleepNanoseconds(RunContext.churnFlowIntervalNs)
                }
            }
            count.value = i
            self.flushAllocationCache()
            group.leave()
        }.start()
        let stallNs = UInt64(max(stallSeconds * 2, 2) * 1e9)
        let ops = operations
        let watchdogStarted = Atomic<Bool>(false)
        group.enter()
        Thread {
            // Its start-up allocations (Foundation's thread set-up) are merged here, before
            // the interval, rather than at its exit, after it.
            self.flushAllocationCache()
            watchdogStarted.store(true, ordering: .releasing)
            var last = -1
            var lastChange = monotonicNanos()
            while !finished.load(ordering: .acquiring) {
                usleep(20_000)
                let p = progress.load(ordering: .relaxed)
                let now = monotonicNanos()
                if p != last { last = p; lastChange = now } else if now - lastChange > stallNs {
                    stallNote.value = "subscribe+cancel made no progress for \(stallNs / 1_000_000_000) s (after \(p) of \(ops)) while values flowed; flow stopped"
                    stop.store(true, ordering: .relaxed)
                    break
                }
            }
            self.flushAllocationCache()
            group.leave()
        }.start()
        // Pinned after the threads are started, so they do not inherit the pin; undone below.
        if let placement { ThreadAffinity.pin(toCPU: placement.subscriber) }
        while !started.load(ordering: .acquiring) || !watchdogStarted.load(ordering: .acquiring) { sched_yield() }
        // Where the pairs waited (the library's wait counters, for this interval only).
        WaitCounters.exclusively {
            WaitCounters.reset()
            WaitCounters.isCounting.store(true, ordering: .relaxed)
            startClock()
            for k in 0..<operations {
                subscribeAndCancel()
                progress.store(k &+ 1, ordering: .relaxed)
            }
            stopClock()
            WaitCounters.isCounting.store(false, ordering: .relaxed)
            for (name, n) in WaitCounters.snapshot() where n != 0 { counters[name] = n }
        }
        counters["churnPairs"] = operations
        if let placement { ThreadAffinity.set(placement.original) }
        finished.store(true, ordering: .releasing)
        stop.store(true, ordering: .relaxed)
        group.wait()
        recountAllocationsAfterJoin()
        stalled = stallNote.value
        sent = [count.value]
        for c in standing { waitForDelivery(c, count: count.value) }
        counters["valuesDuringChurn"] = count.value
    }
}

/// Runs async code from the harness's synchronous world (the main thread is not part of the
/// cooperative pool, so blocking it on a semaphore is safe).
package func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = UncheckedBox<T?>(nil)
    let sem = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        sem.signal()
    }
    sem.wait()
    return box.value!
}
