import Dispatch
import Foundation
import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Pieces that scenarios of several subjects build on: a weak box for closures, a probe that
// counts handler calls after `cancel()` returned, a downstream recorder, and `generate` sources
// that keep their current input.

/// A weak reference that closures can capture.
package final class StressWeakBox<O: AnyObject>: @unchecked Sendable {
    /// The object, while it lives.
    package weak var object: O?
    /// A box for `object`.
    package init(_ object: O) { self.object = object }
}

/// A subscription whose handler counts the calls that began after its `cancel()` returned.
final class StressCancelProbe: @unchecked Sendable {
    // Unchecked: the output is set once before the probe is shared; the rest is atomic.
    var output: SignalOutput<Int>?
    let cancelReturned = Atomic<Bool>(false)
    let lateCalls = Atomic<Int>(0)

    /// For the handler (or stage) of the probed subscription.
    func called() {
        if cancelReturned.load(ordering: .acquiring) { lateCalls.add(1, ordering: .relaxed) }
    }

    func cancel() {
        output?.cancel()
        cancelReturned.store(true, ordering: .releasing)
    }
}

/// Records what one downstream received: values, then ends (as text).
final class StressDownstream: @unchecked Sendable {
    // Unchecked: behind the lock.
    let log = StressLock<(values: [Int], ends: [String])>(([], []))

    func receive(_ r: Result<Int, SignalEnd>) {
        log.withLock { l in
            switch r {
            case .success(let v): l.values.append(v)
            case .failure(let e): l.ends.append(e.isComplete ? "complete" : e.isCancelled ? "cancelled" : "\(e)")
            }
        }
    }

    var snapshot: (values: [Int], ends: [String]) { log.withLock { $0 } }
}

/// A `generate` source that keeps its current input (a released input would end the stream).
final class StressKeptSource: @unchecked Sendable {
    // Unchecked: behind the lock.
    let input = StressLock<SignalInput<Int>?>(nil)
    let signal: Signal<Int>

    init(_ variant: DeliveryVariant) {
        let input = self.input
        signal = Signal<Int>.generate(delivery: variant) { i in input.withLock { $0 = i } }
    }

    func send(_ v: Int) -> SignalSendError? {
        guard let i = input.withLock({ $0 }) else { return .inactive }
        return i.send(value: v)
    }
}

/// A `generate` source and the holder of its current input (nil while inactive). Unlike
/// `StressKeptSource`, the input replaced is released after the lock: releasing an input sends
/// `.cancelled`, which can come back to this closure (a source whose end re-activates it).
func stressGenerateSource(_ variant: DeliveryVariant) -> (Signal<Int>, StressLock<SignalInput<Int>?>) {
    let holder = StressLock<SignalInput<Int>?>(nil)
    let signal = Signal<Int>.generate(delivery: variant) { i in
        let old = holder.withLock { h -> SignalInput<Int>? in defer { h = i }; return h }
        withExtendedLifetime(old) {}
    }
    return (signal, holder)
}
