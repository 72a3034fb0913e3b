import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock of the mutex delivery variant: an atomic word taken by one compare-and-swap when
/// free, spinning briefly when held, and parking in a shared table of pthread condition
/// variables only when the holder stays busy.
///
/// Why not `Synchronization.Mutex`: on Linux that is a priority-inheritance futex, whose
/// unlock hands the lock to a sleeping waiter that must be scheduled before anyone can run;
/// with 8 or more senders every value then waits for a context switch (a convoy: 20–48 µs per
/// value measured here). This lock *barges*: `unlock` just frees the word, and whichever
/// running thread gets to it first takes it; a sleeper that loses simply parks again.
///
/// Why not a plain `pthread_mutex` (which also barges): its lock and unlock are calls into
/// libc that the optimizer cannot inline, about 7 ns each, and the mutex queue locks twice per
/// uncontended send (22 → 36 ns per send measured with one); and it needs an allocation per
/// node. Here the uncontended path is one inlined CAS and one inlined exchange, and the word
/// lives inside the queue object.
///
/// States: 0 free, 1 held, 2 held and a thread may be parked. A thread parks only after
/// setting 2 while holding its parking slot's mutex, and `unlock` broadcasts on that slot
/// whenever it frees a word that read 2, so no wake-up is lost. Slots are shared by locks
/// (chosen by a per-lock key), hence broadcast rather than signal. ThreadSanitizer sees the
/// acquire/release atomics, so the variant needs no suppression.
@usableFromInline
struct BargingLock: ~Copyable, @unchecked Sendable {
    // Unchecked: the word is atomic; the key is immutable.
    @usableFromInline let word = Atomic<UInt32>(0)
    /// Which parking slot this lock's sleepers use.
    @usableFromInline let key: Int

    @usableFromInline init() {
        key = BargingLockParking.nextKey.add(1, ordering: .relaxed).newValue
    }

    @inlinable @inline(__always)
    func lock() {
        if _fastPath(word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged) { return }
        lockContended()
    }

    @inlinable @inline(__always)
    func unlock() {
        if _slowPath(word.exchange(0, ordering: .releasing) == 2) { wakeParked() }
    }

    /// Spins a little (the critical sections are a few dozen instructions), then parks.
    @usableFromInline
    func lockContended() {
        var spins = 0
        while spins < 128 {
            if word.load(ordering: .relaxed) == 0,
               word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
            spins = spinWait(spins)
        }
        let slot = BargingLockParking.slot(key)
        pthread_mutex_lock(slot.mutex)
        // Marked "may have sleepers" in the same step that tries to take it: a lock taken
        // here stays at 2, so its unlock wakes any other sleeper of this slot.
        while word.exchange(2, ordering: .acquiring) != 0 {
            pthread_cond_wait(slot.condition, slot.mutex)
        }
        pthread_mutex_unlock(slot.mutex)
    }

    @usableFromInline
    func wakeParked() {
        let slot = BargingLockParking.slot(key)
        pthread_mutex_lock(slot.mutex)
        pthread_cond_broadcast(slot.condition)
        pthread_mutex_unlock(slot.mutex)
    }
}

/// The parking table shared by every `BargingLock`: a fixed number of mutex + condition pairs,
/// made once, never freed (so a lock needs no allocation and no teardown of its own).
@usableFromInline
enum BargingLockParking {
    struct Slot: @unchecked Sendable {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let condition: UnsafeMutablePointer<pthread_cond_t>
    }

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
