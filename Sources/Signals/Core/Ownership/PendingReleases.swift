import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The holds this thread has still to drop, for releases that would otherwise nest once per
/// stage: freeing a derived signal drops its hold upstream, which can free the signal
/// upstream, whose hold … The outermost `drop(_:)` on a thread drops its hold and then every
/// hold handed to it meanwhile, in a loop; a nested call only appends. All of it happens
/// before the outermost call returns (within the `cancel()` or release that started it), on
/// the releasing thread, and outside every lock.
@usableFromInline
enum PendingReleases {
    /// The thread's list: allocated on a thread's first release, freed when the thread exits.
    final class List {
        var holds: [OutputHold] = []
        var objects: [AnyObject] = []
        var draining = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<List>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<List>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(made == 0, "pthread_key_create failed: \(made)")
        return key
    }()

    private static var current: List {
        if let p = pthread_getspecific(key) { return Unmanaged<List>.fromOpaque(p).takeUnretainedValue() }
        let list = List()
        pthread_setspecific(key, Unmanaged.passRetained(list).toOpaque())
        return list
    }

    /// Drops `hold` now, or after the release this thread is already in the middle of.
    @usableFromInline
    static func drop(_ hold: OutputHold) {
        let list = current
        if list.draining {
            list.holds.append(hold)
            return
        }
        list.draining = true
        hold.drop()
        drain(list)
    }

    /// Releases `objects` now, or after the release this thread is already in the middle of
    /// (a node's feeders, which hold the chains upstream of it).
    /// `take` is called inside, so the list holds the only references when it drains.
    static func release(_ take: () -> [AnyObject]) {
        releasing { current.objects.append(contentsOf: take()) }
    }

    /// Runs `body`, which may free objects whose deinits hand on what they hold upstream
    /// (`drop(_:)`, `release(_:)`): as the outermost such call on this thread, this drops and
    /// releases all of it, in a loop, before it returns.
    static func releasing(_ body: () -> Void) {
        let list = current
        if list.draining {
            body()
            return
        }
        list.draining = true
        body()
        drain(list)
    }

    private static func drain(_ list: List) {
        while true {
            if let next = list.holds.popLast() {
                next.drop()
            } else if !list.objects.isEmpty {
                // Released one at a time, out of the list first: each may hand on more.
                _ = list.objects.removeLast()
            } else {
                break
            }
        }
        list.draining = false
    }
}
