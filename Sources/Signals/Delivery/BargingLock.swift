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
/// States (bits of `word`): 1 held, 2 held and a thread may be parked, 4 a parked thread asks
/// for a handoff. A thread parks only after setting 2 while holding its parking slot's mutex,
/// and an unlock that finds 2 broadcasts on that slot, so no wake-up is lost. Slots are shared
/// by locks (chosen by a per-lock key), hence broadcast rather than signal. ThreadSanitizer
/// sees the acquire/release atomics, so the variant needs no suppression.
///
/// **Bounded barging** (issue 19 item 6). Barging lets running threads overtake a parked one,
/// which is what makes the lock fast under contention, but nothing bounded how often: with
/// three threads flooding two cores, a woken sleeper found the lock taken again by the time it
/// ran, parked again, and a single `send` took 100–121 ms about once in 500. Now a sleeper that
/// was woken `wakeupsBeforeHandoff` times and still lost sets bit 4 (one sleeper at a time);
/// the next `unlock` takes the word back at once and hands it to that sleeper (`handedOver`),
/// so its wait is bounded by one more wake-up once that unlock comes. A thread that barges in
/// between the unlock's exchange and the taking back inherits the request, and its own unlock
/// hands over. The uncontended path is unchanged: one CAS to lock, one exchange to unlock.
@usableFromInline
struct BargingLock: ~Copyable, @unchecked Sendable {
    // Unchecked: the word and the flag are atomic; the key is immutable.
    @usableFromInline let word = Atomic<UInt32>(0)
    /// Set by an `unlock` that handed the lock to the sleeper that asked for it (bit 4), which
    /// consumes it: from then on that sleeper holds the lock.
    @usableFromInline let handedOver = Atomic<Bool>(false)
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
        let old = word.exchange(0, ordering: .releasing)
        if _slowPath(old != 1) { unlockContended(old) }
    }

    /// How many times a parked thread is woken and loses the race for the lock before it asks
    /// for a handoff.
    @usableFromInline static var wakeupsBeforeHandoff: Int { 2 }

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
        defer { pthread_mutex_unlock(slot.mutex) }
        var wakeups = 0
        var asked = false
        var w = word.load(ordering: .relaxed)
        while true {
            if asked {
                // Bit 4 is ours: the unlock that clears it hands the lock over (or passes the
                // request on to a thread that barged in meanwhile). Never take the word
                // directly now, or that handoff would go to nobody.
                if handedOver.exchange(false, ordering: .acquiring) { return }
                pthread_cond_wait(slot.condition, slot.mutex)
                continue
            }
            if w == 0 {
                // Free: take it marked "may have sleepers", so its unlock wakes the others.
                let (taken, now) = word.compareExchange(expected: 0, desired: 3, ordering: .acquiring)
                if taken { return }
                w = now
                continue
            }
            var desired = w | 2
            let ask = wakeups >= Self.wakeupsBeforeHandoff && w & 4 == 0
            if ask { desired |= 4 }
            if desired != w {
                let (marked, now) = word.compareExchange(expected: w, desired: desired, ordering: .relaxed)
                if !marked { w = now; continue }
                if ask { asked = true; continue }
            }
            // Unlocks that could free or hand over this word broadcast on this slot while
            // holding its mutex, which this thread holds until it waits: no wake-up is lost.
            pthread_cond_wait(slot.condition, slot.mutex)
            wakeups += 1
            w = word.load(ordering: .relaxed)
        }
    }

    /// After an unlock that found more than "held" (`old`): wakes the sleepers (bit 2), or hands
    /// the lock to the sleeper that asked for it (bit 4).
    @usableFromInline
    func unlockContended(_ old: UInt32) {
        if old & 4 == 0 {
            if old & 2 != 0 { wakeParked() }
            return
        }
        // Take the word back for the asking sleeper; if a running thread barged in since the
        // exchange, leave the request on its word: its unlock hands over instead.
        var w: UInt32 = 0
        while true {
            if w == 0 {
                let (took, now) = word.compareExchange(expected: 0, desired: 3, ordering: .acquiringAndReleasing)
                if took {
                    handedOver.store(true, ordering: .releasing)
                    wakeParked()
                    return
                }
                w = now
            } else {
                let (passed, now) = word.compareExchange(expected: w, desired: w | 6, ordering: .relaxed)
                if passed { return }
                w = now
            }
        }
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
