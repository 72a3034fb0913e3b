import Dispatch
import Synchronization

/// Counts of the library's waits: how often a thread found what it wanted taken and how it
/// waited (spun, yielded, parked), so a workload can say where its time went on a loaded
/// machine (`bench`'s churn reports them per round as counters).
///
/// Off unless a harness turns it on (`isCounting`); then each wait adds to process-wide
/// relaxed counters. Only the waits' slow paths test the flag, never a value's fast path, so
/// counting off costs one relaxed load per wait and nothing per value.
@usableFromInline
package enum WaitCounters {
    package enum Kind: Int, CaseIterable, Sendable {
        /// A graph change (`NodeControl.wait`) that found the node held by another thread.
        case controlWait
        /// … that the holder finished during the spin.
        case controlWaitEndedInSpin
        /// … that parked until the holder signalled.
        case controlWaitParked
        /// Nanoseconds spent in those waits, spins and parks together.
        case controlWaitNanoseconds
        /// A `BargingLock` found held (`lockContended`).
        case lockContended
        /// … of which spun for a short section (`spinForShortSection`).
        case lockShortSectionSpin
        /// … of which parked.
        case lockParked
        /// `sched_yield` calls of a spinning wait (both variants' `spinWait`).
        case yield
        /// A `cancel()` that waited for a detach another thread ran (`OutputTerminal`).
        case detachWait
        /// Nanoseconds spent in those.
        case detachWaitNanoseconds

        /// The counter's name in a report.
        package var name: String {
            switch self {
            case .controlWait: "waitControl"
            case .controlWaitEndedInSpin: "waitControlEndedInSpin"
            case .controlWaitParked: "waitControlParked"
            case .controlWaitNanoseconds: "waitControlNs"
            case .lockContended: "waitLockContended"
            case .lockShortSectionSpin: "waitLockShortSpin"
            case .lockParked: "waitLockParked"
            case .yield: "waitYield"
            case .detachWait: "waitDetach"
            case .detachWaitNanoseconds: "waitDetachNs"
            }
        }
    }

    /// Whether waits are counted (off by default).
    package static let isCounting = Atomic<Bool>(false)

    @inline(__always)
    static var counting: Bool { isCounting.load(ordering: .relaxed) }

    // One atomic each (`Atomic` is not copyable, so no array of them).
    static let controlWait = Atomic<Int>(0)
    static let controlWaitEndedInSpin = Atomic<Int>(0)
    static let controlWaitParked = Atomic<Int>(0)
    static let controlWaitNanoseconds = Atomic<Int>(0)
    static let lockContended = Atomic<Int>(0)
    static let lockShortSectionSpin = Atomic<Int>(0)
    static let lockParked = Atomic<Int>(0)
    static let yield = Atomic<Int>(0)
    static let detachWait = Atomic<Int>(0)
    static let detachWaitNanoseconds = Atomic<Int>(0)

    static func apply(_ kind: Kind, _ body: (borrowing Atomic<Int>) -> Int) -> Int {
        switch kind {
        case .controlWait: body(controlWait)
        case .controlWaitEndedInSpin: body(controlWaitEndedInSpin)
        case .controlWaitParked: body(controlWaitParked)
        case .controlWaitNanoseconds: body(controlWaitNanoseconds)
        case .lockContended: body(lockContended)
        case .lockShortSectionSpin: body(lockShortSectionSpin)
        case .lockParked: body(lockParked)
        case .yield: body(yield)
        case .detachWait: body(detachWait)
        case .detachWaitNanoseconds: body(detachWaitNanoseconds)
        }
    }

    static func add(_ kind: Kind, _ n: Int = 1) {
        _ = apply(kind) { $0.add(n, ordering: .relaxed).newValue }
    }

    /// Counts a `sched_yield` of a spinning wait (out of line: the callers are inlined).
    @usableFromInline static func noteYield() {
        if counting { add(.yield) }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Every counter's value now, by name.
    package static func snapshot() -> [String: Int] {
        var out: [String: Int] = [:]
        for k in Kind.allCases { out[k.name] = apply(k) { $0.load(ordering: .relaxed) } }
        return out
    }

    /// Runs `body` as the counters' only user in the process: the counters are process-wide, so
    /// two users at once (a churn run and a counter test in one test process) would reset and
    /// switch them under each other. Every harness or test that turns counting on does it
    /// inside this. Not for the library's own paths: it blocks while another user runs.
    package static func exclusively<R>(_ body: () throws -> R) rethrows -> R {
        user.wait()
        defer { user.signal() }
        return try body()
    }

    /// Held by the user inside `exclusively`.
    static let user = DispatchSemaphore(value: 1)

    /// Sets every counter to 0.
    package static func reset() {
        for k in Kind.allCases { _ = apply(k) { $0.exchange(0, ordering: .relaxed) } }
    }
}
