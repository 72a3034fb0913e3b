import Dispatch
import Foundation
import Signals
import Synchronization

/// Errors the core tests send through streams.
enum CoreError: Error, Equatable, Sendable {
    case boom
    case timeout
}

/// A result reduced to something `==` can compare: a value or a kind of end.
enum Ev<T: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    case value(T)
    case complete
    case cancelled
    case error(String)

    init(_ result: Result<T, SignalEnd>) {
        switch result {
        case .success(let v): self = .value(v)
        case .failure(let e): self = Ev(end: e)
        }
    }

    init(end: SignalEnd) {
        switch end {
        case .complete: self = .complete
        case .cancelled: self = .cancelled
        case .other(let e): self = .error(String(describing: e))
        }
    }

    /// The end a second subscriber to a plain `Signal` receives.
    static var duplicate: Ev { .error(String(describing: SignalBindError.duplicate)) }
    static var boom: Ev { .error(String(describing: CoreError.boom)) }
    static var timeout: Ev { .error(String(describing: CoreError.timeout)) }

    var description: String {
        switch self {
        case .value(let v): return "\(v)"
        case .complete: return "complete"
        case .cancelled: return "cancelled"
        case .error(let s): return "error(\(s))"
        }
    }
}

/// A value shared between a test and its handlers.
final class Shared<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
    @discardableResult
    func update<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

/// Runs `body(index)` on `count` new threads (not Dispatch workers, so blocked test threads
/// never starve them), released together, and waits for all of them. Returns false if they did
/// not all finish within `seconds`.
@discardableResult
func runThreads(_ count: Int, seconds: Double = 60, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            gate.wait()
            body(i)
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<count { gate.signal() }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Starts `body` on a new thread and returns a group to wait on.
func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread {
        body()
        group.leave()
    }.start()
    return group
}

extension DispatchGroup {
    /// Waits up to `seconds`; true if everything finished.
    func finished(within seconds: Double = 60) -> Bool {
        wait(timeout: .now() + seconds) == .success
    }
}

/// Marks a dispatch queue so a handler can check it runs there.
struct QueueMark: Sendable {
    static let key = DispatchSpecificKey<Int>()
    let id: Int

    /// A serial queue carrying this mark.
    static func serialQueue(_ label: String, id: Int) -> (DispatchQueue, QueueMark) {
        let q = DispatchQueue(label: label)
        q.setSpecific(key: key, value: id)
        return (q, QueueMark(id: id))
    }

    /// A concurrent queue carrying this mark.
    static func concurrentQueue(_ label: String, id: Int) -> (DispatchQueue, QueueMark) {
        let q = DispatchQueue(label: label, attributes: .concurrent)
        q.setSpecific(key: key, value: id)
        return (q, QueueMark(id: id))
    }

    /// Whether the current code runs on the queue with this mark.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: QueueMark.key) == id }
}

/// An atomic counter that escaping closures can capture.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    init() {}
    func add(_ n: Int = 1) { atomic.add(n, ordering: .acquiringAndReleasing) }
    var value: Int { atomic.load(ordering: .acquiring) }
}

/// An atomic flag that escaping closures can capture.
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)
    init() {}
    func set() { atomic.store(true, ordering: .releasing) }
    var isSet: Bool { atomic.load(ordering: .acquiring) }
}
