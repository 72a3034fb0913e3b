import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mutex-based delivery path: a mutex guards who holds the node and the elements that
/// arrived meanwhile; the holder takes them in batches (one lock per batch, not per element).
///
/// The lock is held only to edit this state: elements are delivered, and released, outside it.
/// It is a `BargingLock` (an inlined CAS when free, parking only under contention), not
/// `Synchronization.Mutex`, whose priority-inheritance futex convoys under contention on Linux.
/// Graph changes take it as a short section (`withLockForGraphChange`), so that a holder
/// waiting for one spins instead of giving its CPU away (`BargingLock.spinForShortSection`).
@usableFromInline package final class MutexDeliveryQueue<Element: Sendable>: DeliveryQueue, @unchecked Sendable {
    @usableFromInline
    struct State: ~Copyable {
        @usableFromInline var holder: UInt = 0
        @usableFromInline var pending: [Element] = []
        /// The holder offers its claim to the next thread that enqueues (`offerHandoff`).
        @usableFromInline var handoffOffered = false
        /// An end was accepted: values are refused from now on (decided under the same lock
        /// as the enqueue, so a value is either before the end or refused).
        @usableFromInline var closed = false
        @usableFromInline init() {}
    }

    // Unchecked Sendable: `Element` is handed between threads only through the mutex, and the
    // batch is touched only by the holder.
    @usableFromInline let lock = BargingLock()
    /// Touched only between `lock.lock()` and `lock.unlock()` (`withLock`).
    @exclusivity(unchecked) @usableFromInline var locked = State()
    /// Set by a sender that takes an offered claim (under the lock), so the offering holder
    /// can watch for it without taking the lock (`offerHandoff`).
    @usableFromInline let handoffTaken = Atomic<Bool>(false)

    /// The holder's current batch, taken from `pending` in one swap. Holder-only.
    @exclusivity(unchecked) @usableFromInline var batch: [Element] = []
    @exclusivity(unchecked) @usableFromInline var batchIndex: Int = 0

    @usableFromInline package init() {}

    /// Runs `body` holding the lock as a graph change does: straight through, so waiters spin
    /// for it rather than yield their CPU (`BargingLock.lockForShortSection`).
    @inlinable @inline(__always)
    func withLockForGraphChange<R>(_ body: (inout State) -> R) -> R {
        lock.lockForShortSection()
        defer { lock.unlockShortSection() }
        return body(&locked)
    }

    /// Runs `body` on the state, holding the lock. `body` never runs user code.
    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&locked)
    }

    /// A graph change: under the lock as a short section (`withLockForGraphChange`).
    @inlinable
    package func claimOrEnqueue(_ element: @autoclosure () -> Element) -> ClaimOutcome {
        let token = currentThreadToken()
        return withLockForGraphChange { s -> ClaimOutcome? in
            claimOrEnqueueLocked(&s, .control, token, element)
        }.unsafelyUnwrapped
    }

    /// A value or an end (the graph-change overload above marks its section short; this one,
    /// on every value's path, does not, and does not test the kind for it either). Always
    /// inlined, so that each element type gets its own code (docs/design/delivery-path.md,
    /// "Swift details that cost time").
    @inlinable @inline(__always)
    package func claimOrEnqueue(_ kind: QueueElementKind, _ element: @autoclosure () -> Element) -> ClaimOutcome? {
        let token = currentThreadToken()
        return withLock { s -> ClaimOutcome? in claimOrEnqueueLocked(&s, kind, token, element) }
    }

    @inlinable @inline(__always)
    func claimOrEnqueueLocked(_ s: inout State, _ kind: QueueElementKind, _ token: UInt, _ element: () -> Element) -> ClaimOutcome? {
        switch kind {
        case .value: if s.closed { return nil }
        case .end: s.closed = true
        case .control: break
        }
        if s.holder == 0 {
            s.holder = token
            return .claimed
        }
        s.pending.append(element())
        if s.handoffOffered {
            // Take the offered claim: this thread drains from now on (the batch in
            // progress included, handed over through the mutex).
            s.handoffOffered = false
            s.holder = token
            handoffTaken.store(true, ordering: .relaxed)
            return .enqueuedAndClaimed
        }
        return .enqueued
    }

    @inlinable
    package func tryClaim() -> Bool {
        let token = currentThreadToken()
        return withLock { s -> Bool in
            if s.holder != 0 { return false }
            s.holder = token
            return true
        }
    }

    /// A graph change: under the lock as a short section (`withLockForGraphChange`).
    @inlinable
    package func enqueueAndClaimIfIdle(_ element: consuming Element) -> Bool {
        let token = currentThreadToken()
        var carried: Element? = consume element
        return withLockForGraphChange { s -> Bool? in
            enqueueAndClaimIfIdleLocked(&s, .control, token, carried.take()!)
        }.unsafelyUnwrapped
    }

    /// A value or an end (not marked short: see `claimOrEnqueue(_:_:)`).
    @inlinable
    package func enqueueAndClaimIfIdle(_ kind: QueueElementKind, _ element: consuming Element) -> Bool? {
        let token = currentThreadToken()
        var carried: Element? = consume element
        return withLock { s -> Bool? in enqueueAndClaimIfIdleLocked(&s, kind, token, carried.take()!) }
    }

    @inlinable @inline(__always)
    func enqueueAndClaimIfIdleLocked(_ s: inout State, _ kind: QueueElementKind, _ token: UInt, _ element: consuming Element) -> Bool? {
        switch kind {
        case .value: if s.closed { return nil }
        case .end: s.closed = true
        case .control: break
        }
        s.pending.append(element)
        if s.holder == 0 {
            s.holder = token
            return true
        }
        return false
    }

    @inlinable
    package func nextOrRelease() -> Element? {
        if batchIndex < batch.count {
            let e = batch[batchIndex]
            batchIndex &+= 1
            return e
        }
        // Elements of the finished batch are released here, outside the lock.
        if !batch.isEmpty { batch.removeAll(keepingCapacity: true) }
        batchIndex = 0
        let released = withLock { s -> Bool in
            if s.pending.isEmpty {
                s.holder = 0
                return true
            }
            swap(&s.pending, &batch)
            return false
        }
        if released {
            DeliveryGapHook.here(.released)
            SchedulePoint.here(.released)
            return nil
        }
        batchIndex = 1
        return batch[0]
    }

    @inlinable
    package func releaseIfIdle() -> Bool {
        withLock { s -> Bool in
            if s.pending.isEmpty {
                s.holder = 0
                return true
            }
            return false
        }
    }

    @usableFromInline package func adoptClaim() {
        let token = currentThreadToken()
        withLock { $0.holder = token }
    }

    @usableFromInline package func offerHandoff() -> Bool {
        let token = currentThreadToken()
        let offered = withLock { s -> Bool in
            // Nothing arrived since the batch was taken: nobody to hand over to.
            if s.pending.isEmpty { return false }
            s.handoffOffered = true
            handoffTaken.store(false, ordering: .relaxed)
            return true
        }
        if !offered { return false }
        DeliveryGapHook.here(.handoffOffered)
        // A point, not a wait: see `LockFreeDeliveryQueue.offerHandoff()`.
        SchedulePoint.here(.handOver)
        // Watch for a taker without the lock (a busy sender comes within tens of
        // nanoseconds), then decide under it: two lock takes per offer, not one per look. On
        // a loaded machine the senders may be preempted: yield to them a few times first.
        var taken = false
        for _ in 0..<128 where handoffTaken.load(ordering: .relaxed) { taken = true; break }
        if !taken {
            for _ in 0..<handoffYields {
                WaitCounters.noteYield()
                sched_yield()
                if handoffTaken.load(ordering: .relaxed) { break }
            }
        }
        return withLock { s -> Bool in
            if s.holder != token { return true }
            s.handoffOffered = false
            return false
        }
    }

    @usableFromInline package func reopen() {
        withLock { $0.closed = false }
    }

    @usableFromInline package var holderToken: UInt { withLockForGraphChange { $0.holder } }

    @usableFromInline package var isHeldByCurrentThread: Bool {
        let token = currentThreadToken()
        return withLockForGraphChange { $0.holder == token }
    }
}
