#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain `pthread_mutex` for the mutex delivery variant.
///
/// Not `Synchronization.Mutex`: on Linux that is a priority-inheritance futex, whose unlock
/// hands the lock to a sleeping waiter that must be scheduled before anyone can run; with 8 or
/// more senders every value then waits for a context switch (a convoy: 20–30 µs per value). A
/// plain mutex lets a running thread take a lock just released, as OpenCombine's lock does; on
/// glibc it is the adaptive kind, which spins briefly before sleeping, since the critical
/// sections here are a few dozen instructions. ThreadSanitizer intercepts it, so it needs no
/// suppression.
///
/// Owned by one object, which calls `destroy()` in its `deinit`.
@usableFromInline
struct PlainLock: @unchecked Sendable {
    // Unchecked: a pthread mutex is made to be shared between threads.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    @inlinable @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inlinable @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    @usableFromInline func destroy() {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
}
