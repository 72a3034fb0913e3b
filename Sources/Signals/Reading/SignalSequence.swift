import Dispatch
import Synchronization

/// A signal read as a blocking `Sequence` (CwlSignal's `SignalSequence`): `next()` waits for
/// the next value, and returns nil at the end or when `timeout` passes without a value.
///
/// Blocking a thread to wait for a signal deadlocks if that thread is the one the signal
/// needs to make progress (a stage on `.main` while iterating on the main thread, say); use
/// it only where the graph runs elsewhere. `signal.values` is the non-blocking form.
public final class SignalSequence<T: Sendable>: Sequence, IteratorProtocol, Lifetime, Sendable {
    let state = Mutex<(queued: [T], end: SignalEnd?, timedOut: Bool)>(([], nil, false))
    let available = DispatchSemaphore(value: 0)
    let output = Mutex<SignalOutput<T>?>(nil)
    /// The longest `next()` waits for a value; nil waits for ever.
    public let timeout: Duration?

    init(signal: Signal<T>, timeout: Duration?) {
        self.timeout = timeout
        let out = signal.subscribe { [weak self] result in
            guard let self else { return }
            self.state.withLock { s in
                switch result {
                case .success(let v): s.queued.append(v)
                case .failure(let e): if s.end == nil { s.end = e }
                }
            }
            self.available.signal()
        }
        output.withLock { $0 = out }
    }

    /// The end, once the signal has ended (or `.cancelled` after `cancel()`); nil before.
    public var end: SignalEnd? { state.withLock { $0.end } }

    /// Whether a `next()` gave up because `timeout` passed.
    public var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Waits for the next value: nil once the signal has ended and every value was read, or
    /// when `timeout` passes first.
    ///
    /// - Returns: the next value, or nil.
    public func next() -> T? {
        // A timeout of `Exec.neverDelay` or more waits for ever (no deadline to overflow); zero
        // or less gives up at once unless a value is queued.
        let deadline: DispatchTime? = timeout.flatMap { t in
            Exec.dispatchNanoseconds(t).map { DispatchTime.now() + .nanoseconds($0) }
        }
        while true {
            let (value, done) = state.withLock { s -> (T?, Bool) in
                if !s.queued.isEmpty { return (s.queued.removeFirst(), true) }
                return (nil, s.end != nil)
            }
            if value != nil || done { return value }
            if let deadline {
                if available.wait(timeout: deadline) == .timedOut {
                    state.withLock { $0.timedOut = true }
                    return nil
                }
            } else {
                available.wait()
            }
        }
    }

    /// Stops following the signal; `next()` returns what is queued, then nil.
    public func cancel() {
        let out = output.withLock { o -> SignalOutput<T>? in
            defer { o = nil }
            return o
        }
        out?.cancel()
        state.withLock { s in if s.end == nil { s.end = .cancelled } }
        available.signal()
    }

    deinit { cancel() }
}

extension Signal {
    /// This signal as a blocking sequence (CwlSignal's `toSequence`). See `SignalSequence`.
    ///
    /// - Parameter timeout: how long each `next()` waits at most; nil (the default), or a
    ///   duration of `Exec.neverDelay` or more, waits for ever; zero or less returns a queued
    ///   value or gives up at once.
    /// - Returns: the sequence; it subscribes at once.
    public func toSequence(timeout: Duration? = nil) -> SignalSequence<T> {
        SignalSequence(signal: self, timeout: timeout)
    }
}
