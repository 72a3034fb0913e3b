import Dispatch
import Signals
import Synchronization
import Testing

/// What a subscription receives, in order: its values and its end, recorded on whatever thread
/// delivers them (handlers are `@Sendable` and may run on any thread). The marble kit of
/// `Conformance/Kit` keeps a recorder of its own, which also records each result's virtual time.
///
/// Two ways to use it:
/// - `Recorder(signal)` subscribes and keeps the subscription until `cancel()` (or until the
///   recorder goes);
/// - `Recorder<T>()`, or `signal.collect()`, gives `handler` and `valueHandler` for a
///   subscription the test keeps itself; `extra` runs inside the handler after each result is
///   recorded (a check, a re-send, a cancel).
///
/// It also detects overlapping calls: `overlaps` counts entries made while another call was
/// still inside, which must stay 0 since a handler is never entered concurrently.
final class Recorder<T: Sendable>: Sendable {
    /// What arrived, apart from the recorder: the handler holds only this, so a recorder that
    /// keeps its own subscription makes no cycle through the handler, and letting it go
    /// releases the subscription.
    private final class Log: @unchecked Sendable {
        // Unchecked: every field is a Mutex, an Atomic, a (thread-safe) DispatchSemaphore or a
        // `@Sendable` closure.
        let results = Mutex<[Result<T, SignalEnd>]>([])
        let inside = Atomic<Bool>(false)
        let overlapCount = Atomic<Int>(0)
        let arrived = DispatchSemaphore(value: 0)
        let extra: (@Sendable (Result<T, SignalEnd>) -> Void)?

        init(extra: (@Sendable (Result<T, SignalEnd>) -> Void)?) {
            self.extra = extra
        }

        func receive(_ r: Result<T, SignalEnd>) {
            if inside.exchange(true, ordering: .acquiringAndReleasing) {
                overlapCount.add(1, ordering: .relaxed)
            }
            results.withLock { $0.append(r) }
            extra?(r)
            inside.store(false, ordering: .releasing)
            arrived.signal()
        }
    }

    private let log: Log
    /// The subscription of `init(_ signal:)`, kept until `cancel()`.
    private let output = Mutex<SignalOutput<T>?>(nil)

    init(_ extra: (@Sendable (Result<T, SignalEnd>) -> Void)? = nil) {
        log = Log(extra: extra)
    }

    /// Subscribes to `signal` and keeps the subscription.
    convenience init(_ signal: Signal<T>) {
        self.init()
        let out = signal.subscribe(handler)
        output.withLock { $0 = out }
    }

    /// The handler to pass to `subscribe`.
    var handler: @Sendable (Result<T, SignalEnd>) -> Void {
        { [log] r in log.receive(r) }
    }

    /// The handler to pass to `subscribeValues`.
    var valueHandler: @Sendable (T) -> Void {
        { [log] v in log.receive(.success(v)) }
    }

    func receive(_ r: Result<T, SignalEnd>) { log.receive(r) }

    var results: [Result<T, SignalEnd>] { log.results.withLock { $0 } }
    /// Values and ends received in total (an end after an end shows here).
    var count: Int { log.results.withLock { $0.count } }
    var values: [T] { log.results.withLock { $0.compactMap { $0.value } } }
    var ends: [SignalEnd] { log.results.withLock { $0.compactMap { $0.end } } }
    /// The last end, reduced to something `==` can compare.
    var end: End? { ends.last.map(End.init) }
    var overlaps: Int { log.overlapCount.load(ordering: .relaxed) }

    /// Ends the subscription of `init(_ signal:)`.
    func cancel() {
        let out = output.withLock { o -> SignalOutput<T>? in
            defer { o = nil }
            return o
        }
        out?.cancel()
    }

    /// Waits (without sleeping for a fixed time) until `done` holds for what arrived so far, or
    /// `seconds` pass. Returns whether `done` held.
    @discardableResult
    func wait(seconds: Double = 20, until done: ([Result<T, SignalEnd>]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            if log.results.withLock({ done($0) }) { return true }
            if log.arrived.wait(timeout: deadline) == .timedOut {
                return log.results.withLock { done($0) }
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

    /// Waits until `n` results have arrived. When `seconds` pass first, records an issue at the
    /// caller saying how many arrived and the last of them, so a timeout reads as what went
    /// missing rather than as a false.
    @discardableResult
    func expectCount(_ n: Int, within seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if wait(forCount: n, seconds: seconds) { return true }
        let got = results
        Issue.record("\(got.count) of \(n) results arrived within \(seconds) s; the last: \(got.suffix(5))",
                     sourceLocation: sourceLocation)
        return false
    }

    /// Waits until an end has arrived. When `seconds` pass first, records an issue at the caller
    /// saying how many values arrived and the last of them.
    @discardableResult
    func expectEnd(within seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if waitForEnd(seconds: seconds) { return true }
        let got = results
        Issue.record("no end within \(seconds) s; \(got.count) values arrived, the last: \(got.suffix(5))",
                     sourceLocation: sourceLocation)
        return false
    }
}

extension Recorder where T: Equatable {
    var events: [Ev<T>] { results.map(Ev.init) }
}

extension Signal {
    /// Subscribes a new recorder; keep the output alive for as long as the test needs it.
    func collect(context: Exec = .direct) -> (Recorder<T>, SignalOutput<T>) {
        let c = Recorder<T>()
        let out = subscribe(context: context, c.handler)
        return (c, out)
    }
}
