import Dispatch
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What travels through a node's delivery queue: values, and graph changes, which take their
/// place in line so that they happen between two values and never reorder them.
@usableFromInline
enum NodeMessage<T: Sendable>: Sendable {
    case value(Result<T, SignalEnd>)
    case control(NodeControl)
}

/// A graph change run by whoever holds the node, in line with values.
@usableFromInline
final class NodeControl: @unchecked Sendable {
    // Unchecked: `work` runs once, by the holder; `finished` publishes its effects.
    @usableFromInline let work: () -> Void
    let finished = Atomic<Bool>(false)
    let waiter = Mutex<DispatchSemaphore?>(nil)

    @usableFromInline init(_ work: @escaping () -> Void) { self.work = work }

    /// How long `wait` spins on the flag before it parks, in nanoseconds: a few deliveries'
    /// worth (one delivery to ten subscribers takes well under a microsecond here), so a
    /// holder that is running finishes within it.
    static let spinNanosecondsBeforeParking: UInt64 = 20_000

    @usableFromInline func perform() {
        // The hand-overs it defers past the depth bound run before the waiter is let go.
        DepthBounds.current.runningDeferred(work)
        finished.store(true, ordering: .releasing)
        if let s = waiter.withLock({ $0 }) { s.signal() }
    }

    /// Blocks until another thread has performed this control, unless waiting could close a
    /// cycle of threads each waiting for a node the next one holds (see `WaitRegistry`): then
    /// it returns at once and the holder performs the control later.
    @usableFromInline func wait(holder: @escaping @Sendable () -> UInt) {
        // The holder usually finishes within a delivery (well under a microsecond): spin on
        // the flag, for a bounded time, then park on a semaphore that the holder signals.
        // Never `sched_yield`: on a busy machine a yield hands the core to whatever else is
        // runnable there for the rest of its time slice (milliseconds; measured under
        // `--load 2`: two yields cost 27 ms while the holder had finished within a
        // microsecond, docs/design/churn.md), whereas a parked thread is woken when the holder
        // is done. A holder that was preempted is not helped by the spin either; parking
        // gives it the core.
        #if DEBUG
        if waitForTurns(holder: holder) { return }
        #endif
        let start = DispatchTime.now().uptimeNanoseconds
        let counting = WaitCounters.counting
        if counting { WaitCounters.add(.controlWait) }
        defer { if counting { WaitCounters.add(.controlWaitNanoseconds, Int(truncatingIfNeeded: WaitCounters.now() &- start)) } }
        while true {
            for _ in 0..<128 where finished.load(ordering: .acquiring) {
                if counting { WaitCounters.add(.controlWaitEndedInSpin) }
                return
            }
            if DispatchTime.now().uptimeNanoseconds &- start > Self.spinNanosecondsBeforeParking { break }
        }
        let me = currentThreadToken()
        guard WaitRegistry.register(me, waitingFor: holder) else { return }
        defer { WaitRegistry.unregister(me) }
        let semaphore = DispatchSemaphore(value: 0)
        waiter.withLock { $0 = semaphore }
        if finished.load(ordering: .acquiring) { return }
        if counting { WaitCounters.add(.controlWaitParked) }
        semaphore.wait()
    }

    #if DEBUG
    /// `wait` on a thread of a controlled scheduler (`SchedulePoint`), which cannot block for
    /// a holder that runs only when it yields: gives the others turns until the control ran,
    /// with the same cycle check. False on other threads (they wait as usual).
    func waitForTurns(holder: @escaping @Sendable () -> UInt) -> Bool {
        guard SchedulePoint.armed.load(ordering: .relaxed) else { return false }
        let me = currentThreadToken()
        while !finished.load(ordering: .acquiring) {
            guard SchedulePoint.unscheduled({ WaitRegistry.register(me, waitingFor: holder) }) else { return true }
            let yielded = SchedulePoint.waitingTurn(.controlWait)
            SchedulePoint.unscheduled { WaitRegistry.unregister(me) }
            if !yielded { return false }
        }
        return true
    }
    #endif
}
