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
        // The holder usually finishes within a delivery: spin on the flag for a bounded time,
        // then park on a semaphore that the holder signals. Never `sched_yield`: on a busy
        // machine a yield gives the core away for the rest of a time slice, while a parked
        // thread is woken when the holder is done, and a preempted holder gets the core
        // (docs/design/churn.md, "Waiting for the holder under load").
        let start = DispatchTime.now().uptimeNanoseconds
        let counting = WaitCounters.counting
        if counting { WaitCounters.add(.controlWait) }
        defer { if counting { WaitCounters.add(.controlWaitNanoseconds, Int(truncatingIfNeeded: WaitCounters.now() &- start)) } }
        var spinTurns = 0
        while true {
            for _ in 0..<128 where finished.load(ordering: .acquiring) {
                if counting { WaitCounters.add(.controlWaitEndedInSpin) }
                return
            }
            // A thread of a controlled scheduler (`bench explore`) cannot spin for a holder
            // that runs only when it yields: its spin is two turns, then it parks as below.
            if SchedulePoint.waitingTurn(.controlWait) {
                spinTurns += 1
                if spinTurns < 2 { continue }
                break
            }
            if DispatchTime.now().uptimeNanoseconds &- start > Self.spinNanosecondsBeforeParking { break }
        }
        let me = currentThreadToken()
        guard Self.registerUnscheduled(me, waitingFor: holder) else { return }
        defer { Self.unregisterUnscheduled(me) }
        // The scheduler's park: turns until the holder has run the control.
        if SchedulePoint.waitInTurns(.controlWait, until: { finished.load(ordering: .acquiring) }) { return }
        let semaphore = DispatchSemaphore(value: 0)
        waiter.withLock { $0 = semaphore }
        if finished.load(ordering: .acquiring) { return }
        if counting { WaitCounters.add(.controlWaitParked) }
        semaphore.wait()
    }

    /// `WaitRegistry.register`, out of the scheduler's view: the registry's `Mutex` is held
    /// while it reads holders, whose locks have schedule points, and a thread suspended there
    /// would block the others outside the scheduler.
    static func registerUnscheduled(_ me: UInt, waitingFor holder: @escaping @Sendable () -> UInt) -> Bool {
        SchedulePoint.unscheduled { WaitRegistry.register(me, waitingFor: holder) }
    }

    static func unregisterUnscheduled(_ me: UInt) {
        SchedulePoint.unscheduled { WaitRegistry.unregister(me) }
    }
}
