import Synchronization

/// Subscribes to a signal and keeps its latest result, for reading synchronously from any
/// thread (CwlSignal's `SignalLatest`). Keep it: releasing or cancelling it ends the
/// subscription.
///
/// Polling undoes what a signal is for; prefer a subscriber where something must react to
/// changes. This is for code that only needs "the value now".
public final class SignalLatest<T: Sendable>: Lifetime, Sendable {
    let latest: Mutex<Result<T, SignalEnd>?>
    let output: Mutex<SignalOutput<T>?>

    /// Subscribes to `signal` (taking its output) and starts keeping its latest result.
    ///
    /// - Parameter signal: the signal to follow; use a `continuous()` multi to read a value
    ///   that was sent before this was made.
    public init(signal: Signal<T>) {
        let latest = Mutex<Result<T, SignalEnd>?>(nil)
        self.latest = latest
        self.output = Mutex(nil)
        let out = signal.subscribe { [weak self] result in
            self?.latest.withLock { $0 = result }
        }
        output.withLock { $0 = out }
    }

    /// The latest result: a value, or the end once the signal has ended; nil before anything
    /// arrived.
    public var latestResult: Result<T, SignalEnd>? { latest.withLock { $0 } }

    /// The latest value, or nil before any value and once the signal has ended.
    public var latestValue: T? { latest.withLock { $0?.value } }

    /// Ends the subscription (the latest result is kept).
    public func cancel() {
        let out = output.withLock { o -> SignalOutput<T>? in
            defer { o = nil }
            return o
        }
        out?.cancel()
    }

    deinit { cancel() }
}

extension Signal {
    /// A `SignalLatest` following this signal (CwlSignal's `cacheLatest`).
    ///
    /// - Returns: the reader; keep it.
    public func cacheLatest() -> SignalLatest<T> {
        SignalLatest(signal: self)
    }
}
