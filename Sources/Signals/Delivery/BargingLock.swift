import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import SignalsFutex

/// The lock of the mutex delivery variant: an atomic word taken by one compare-and-swap when
/// free, spinning briefly when held, and parking the waiting thread only when the holder stays
/// busy.
///
/// Why not `Synchronization.Mutex`: on Linux that is a priority-inheritance futex, whose
/// unlock hands the lock to a sleeping waiter that must be scheduled before anyone can run;
/// with 8 or more senders every value then waits for a context switch (a convoy). This lock
/// *barges*: `unlock` just frees the word, and whichever running thread gets to it first
/// takes it; a sleeper that loses simply parks again.
///
/// Why not a plain `pthread_mutex` (which also barges): its lock and unlock are calls into
/// libc that the optimizer cannot inline, and the mutex queue locks twice per uncontended
/// send; and it needs an allocation per node. Here the uncontended path is one inlined CAS
/// and one inlined exchange, and the word lives inside the queue object (the figures of both:
/// docs/design/delivery-path.md, "The mutex variant").
///
/// States: 0 free, 1 held, 2 held and a thread may be parked. A thread parks only after
/// setting 2, and `unlock` wakes a parked thread whenever it frees a word that read 2, so no
/// wake-up is lost.
///
/// Where a waiter parks: on Linux on the word itself (`futex(2)`, wake-one), so a wake-up goes
/// to one sleeper of this lock and costs one system call; elsewhere in a shared table of
/// pthread condition variables (chosen by a per-lock key, hence a broadcast to the slot).
/// The word is the faster of the two where it exists (docs/design/lock-under-load.md, "Two
/// changes kept"). ThreadSanitizer sees the acquire/release atomics, so the variant needs no
/// suppression.
@usableFromInline
package struct BargingLock: ~Copyable, @unchecked Sendable {
    // Unchecked: the word is atomic; the key and the parking choice are immutable.
    @usableFromInline package let word = Atomic<UInt32>(0)
    /// Which slot of the condition-variable table this lock's sleepers use (where futexes are
    /// not available).
    @usableFromInline let key: Int
    /// Whether waiters park on the word itself (futex) rather than in the table.
    @usableFromInline package let parksOnWord: Bool
    /// Set while the lock is held for a section whose thread is known to be running it through
    /// (`lockForShortSection`): a waiter then spins instead of yielding its CPU.
    @usableFromInline package let shortSection = Atomic<Bool>(false)

    /// A free lock; waiters park on the word where the platform allows it (Linux).
    @usableFromInline package init() {
        self.init(parksOnWord: BargingLockParking.futexAvailable)
    }

    /// A free lock with the parking chosen (tests exercise the table on Linux with `false`).
    @usableFromInline package init(parksOnWord: Bool) {
        key = BargingLockParking.nextKey.add(1, ordering: .relaxed).newValue
        self.parksOnWord = parksOnWord && BargingLockParking.futexAvailable
    }

    @inlinable @inline(__always)
    package func lock() {
        SchedulePoint.here(.lockAcquire)
        if _fastPath(word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged) { return }
        lockContended()
    }

    /// Takes the lock for a section that a graph change runs straight through (a few dozen
    /// instructions, no allocation), and says so to the waiters.
    @inlinable @inline(__always)
    package func lockForShortSection() {
        lock()
        shortSection.store(true, ordering: .relaxed)
    }

    @inlinable @inline(__always)
    package func unlockShortSection() {
        shortSection.store(false, ordering: .relaxed)
        unlock()
    }

    @inlinable @inline(__always)
    package func unlock() {
        if _slowPath(word.exchange(0, ordering: .releasing) == 2) { wakeParked() }
        SchedulePoint.here(.lockRelease)
    }

    /// Runs `body` holding the lock, as a short section when `shortSection` (for the harness
    /// and the tests, which mix both kinds on one lock; the queue calls the pairs directly).
    @inlinable
    package func withLock<R>(shortSection: Bool, _ body: () -> R) -> R {
        if shortSection { lockForShortSection() } else { lock() }
        defer { if shortSection { unlockShortSection() } else { unlock() } }
        return body()
    }

    /// The word's address, for the futex calls. `Atomic` is `@_rawLayout`: a borrow of it is
    /// always its storage in place, never a copy, so this is the address that the atomic
    /// operations use (`BargingLockConcurrencyTests.parkingAddressIsTheWordItself` checks it).
    package var address: UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }

    @inline(__always)
    func tryTake() -> Bool {
        guard word.load(ordering: .relaxed) == 0 else { return false }
        // The look decides the write: a scheduler that can switch threads between them sees
        // a take that is not one atomic step.
        SchedulePoint.here(.lockTake)
        return word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Spins a little (the critical sections are a few dozen instructions), spins longer while
    /// the lock is held for a short section (`spinForShortSection`), yields (on a machine with
    /// more runnable senders than cores the owner is usually waiting for this very CPU), then
    /// parks.
    @usableFromInline
    func lockContended() {
        // A controlled thread cannot spin or park for a holder that runs only when it yields:
        // it gives the others a turn and tries again.
        while SchedulePoint.waitingTurn(.lockWait) { if tryTake() { return } }
        let counting = WaitCounters.counting
        if counting { WaitCounters.add(.lockContended) }
        var spins = 0
        while spins < 128 {
            if tryTake() { return }
            if spins == 64 && shortSection.load(ordering: .relaxed) {
                if counting { WaitCounters.add(.lockShortSectionSpin) }
                if spinForShortSection() { return }
            }
            spins = spinWait(spins)
        }
        if counting { WaitCounters.add(.lockParked) }
        park()
    }

    /// Spins while the lock is held for a short section, up to `shortSectionSpinNanoseconds`;
    /// returns whether it took the lock.
    ///
    /// Why: the first `sched_yield` of a contended wait hands the CPU to whatever else is
    /// runnable there, for the rest of its time slice when that is a busy thread of another
    /// program (milliseconds). A graph change's section is run straight through by a running
    /// thread, so waiting for it with a spin costs at most its length; and the node's holder
    /// waiting for it must not give its CPU away, since the graph change's thread then waits
    /// for the holder in turn.
    /// Values' sections are not marked: with more senders than cores their owner is often
    /// preempted and runnable on the waiter's own CPU, and a yield runs it at once, where even
    /// a short spin first slows contended sends (both measured: docs/design/lock-under-load.md).
    @usableFromInline
    func spinForShortSection() -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        while shortSection.load(ordering: .relaxed) {
            for _ in 0..<32 where tryTake() { return true }
            if DispatchTime.now().uptimeNanoseconds &- start > BargingLockParking.shortSectionSpinNanoseconds { break }
        }
        return tryTake()
    }

    /// Parks until the word is taken by this thread. Sets 2 in the same step that tries to
    /// take it: a lock taken here stays at 2, so its unlock wakes another sleeper, if any.
    func park() {
        if parksOnWord {
            let address = self.address
            while word.exchange(2, ordering: .acquiring) != 0 {
                // Returns at once if the word is no longer 2 (the kernel compares atomically
                // with going to sleep), so an unlock between the exchange and here is not lost.
                signals_futex_wait(address, 2)
            }
            return
        }
        let slot = BargingLockParking.slot(key)
        pthread_mutex_lock(slot.mutex)
        while word.exchange(2, ordering: .acquiring) != 0 {
            pthread_cond_wait(slot.condition, slot.mutex)
        }
        pthread_mutex_unlock(slot.mutex)
    }

    @usableFromInline
    func wakeParked() {
        if parksOnWord {
            signals_futex_wake_one(address)
            return
        }
        let slot = BargingLockParking.slot(key)
        pthread_mutex_lock(slot.mutex)
        pthread_cond_broadcast(slot.condition)
        pthread_mutex_unlock(slot.mutex)
    }
}

/// What every `BargingLock` shares: whether futexes are there, and the parking table of the
/// platforms without them: a fixed number of mutex + condition pairs, made once, never freed
/// (so a lock needs no allocation and no teardown of its own).
@usableFromInline
enum BargingLockParking {
    struct Slot: @unchecked Sendable {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let condition: UnsafeMutablePointer<pthread_cond_t>
    }

    /// How long a waiter spins for a short section before it goes on to the yields: the
    /// sections are a few dozen instructions, so this bound is reached only when their thread
    /// was preempted inside one.
    static let shortSectionSpinNanoseconds: UInt64 = 2_000

    static let futexAvailable = signals_futex_available() != 0

    static let nextKey = Atomic<Int>(0)
    static let slotCount = 64

    static let slots: [Slot] = (0..<slotCount).map { _ in
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        let c = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        pthread_cond_init(c, nil)
        return Slot(mutex: m, condition: c)
    }

    static func slot(_ key: Int) -> Slot { slots[key & (slotCount - 1)] }
}
