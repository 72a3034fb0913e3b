#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks the thread that is replaying activation values: a multi's cache given to a new
/// branch, or the kept end of a closed node given to a new attachment.
///
/// Activation values are what a cache replays when a branch attaches, not what a source sends
/// while it is being activated: `Signal.just(1, 2).capture()` captures nothing (its values are
/// ordinary values, held for the capture's subscriber), while `continuous().capture()`
/// captures the latest value. The replay runs synchronously on the attaching thread, through
/// the fused stages below the multi, so a capture recognises an activation value by this
/// thread's mark rather than by when it arrived (CwlSignal's `testFrom`: values a source sends
/// while being activated are ordinary values, not activation values).
///
/// Set only around a replay (per branch attached to a non-empty cache), never per value.
@usableFromInline
enum ActivationReplay {
    /// The thread-local slot; non-nil while the thread replays.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key, nil)
        precondition(made == 0, "pthread_key_create failed: \(made)")
        return key
    }()

    /// Whether the current thread is replaying activation values.
    static var isReplaying: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` with the current thread marked as replaying activation values.
    @usableFromInline
    static func replaying(_ body: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, previous) }
        body()
    }
}
