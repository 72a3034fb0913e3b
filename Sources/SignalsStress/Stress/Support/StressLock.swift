import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The harness's own shared state: a lock, a shared counter, a thread's identity.

/// A lock around a value, for the harness's own shared state.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer
/// intercepts pthread mutexes, but on Linux it does not see `Mutex`'s futex-based lock, so a
/// harness using `Mutex` would report its own critical sections as races (see
/// Tests/SignalsHarnessTests/Stress/tsan-suppressions.txt).
package final class StressLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// An integer that threads share (relaxed: it orders nothing).
final class StressCounter: Sendable {
    let value: Atomic<Int>
    init(_ v: Int) { value = Atomic(v) }
    var load: Int { value.load(ordering: .relaxed) }
    func store(_ v: Int) { value.store(v, ordering: .relaxed) }
    /// Returns the count before this call and adds one.
    func next() -> Int { value.add(1, ordering: .relaxed).newValue - 1 }
}

/// The calling thread's identity, for scenarios that check which thread ran a handler.
func stressThreadToken() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
