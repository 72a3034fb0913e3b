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

/// A thread-safe recorder for handlers (which are `@Sendable` and may run on any thread).
///
/// It also detects overlapping calls: `overlaps` counts entries made while another call was
/// still inside, which must stay 0 since a handler is never entered concurrently.
final class Collector<T: Sendable>: @unchecked Sendable {
    // Unchecked: every field is a Mutex, an Atomic or a (thread-safe) DispatchSemaphore.
    private let state = Mutex<[Result<T, SignalEnd>]>([])
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let arrived = DispatchSemaphore(value: 0)
    /// Extra work to run inside the handler after recording (e.g. a check or a re-send).
    private let extra: (@Sendable (Result<T, SignalEnd>) -> Void)?

    init(_ extra: (@Sendable (Result<T, SignalEnd>) -> Void)? = nil) {
        self.extra = extra
    }

    /// The handler to pass to `subscribe`.
    var handler: @Sendable (Result<T, SignalEnd>) -> Void {
        { [self] r in receive(r) }
    }

    /// The handler to pass to `subscribeValues`.
    var valueHandler: @Sendable (T) -> Void {
        { [self] v in receive(.success(v)) }
    }

    func receive(_ r: Result<T, SignalEnd>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.add(1, ordering: .relaxed)
        }
        state.withLock { $0.append(r) }
        extra?(r)
        inside.store(false, ordering: .releasing)
        arrived.signal()
    }

    var results: [Result<T, SignalEnd>] { state.withLock { $0 } }
    var count: Int { state.withLock { $0.count } }
    var values: [T] { state.withLock { $0.compactMap { $0.value } } }
    var ends: [SignalEnd] { state.withLock { $0.compactMap { $0.end } } }
    var overlaps: Int { overlapCount.load(ordering: .relaxed) }

    /// Waits (without sleeping for a fixed time) until `done` holds for what arrived so far, or
    /// `seconds` pass. Returns whether `done` held.
    @discardableResult
    func wait(seconds: Double = 20, until done: ([Result<T, SignalEnd>]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            if state.withLock({ done($0) }) { return true }
            if arrived.wait(timeout: deadline) == .timedOut {
                return state.withLock { done($0) }
            }
        }
    }

    @discardableResult
    func wait(forCount n: Int, seconds: Double = 20) -> Bool {
        wait(seconds: seconds) { $0.count >= n }
    }

    @discardableResult
    func waitForEnd(seconds: Double = 20) -> Bool {
        wait(seconds: seconds) { $0.contains { $0.end != nil } }
    }
}

extension Collector where T: Equatable {
    var events: [Ev<T>] { results.map(Ev.init) }
}

extension Signal {
    /// Subscribes a new collector; keep the output alive for as long as the test needs it.
    func collect(context: Exec = .direct) -> (Collector<T>, SignalOutput<T>) {
        let c = Collector<T>()
        let out = subscribe(context: context, c.handler)
        return (c, out)
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
