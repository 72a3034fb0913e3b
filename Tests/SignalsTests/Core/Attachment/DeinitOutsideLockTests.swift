// A user `deinit` must never run under one of the library's locks. Before the fix,
// `Signal.takeOutput(by:)` replaced the previous (already detached) subscription inside
// `holdSlot.withLock`, so the subscription and its handler's captures were freed under that
// mutex: a `deinit` that used the same signal crashed with "Recursive call to lock Mutex".
// The test runs the crashing code in a watchdog thread, so a deadlock variant fails instead
// of hanging; the crash itself would end the test process (reported as a failed run).

import Dispatch
import Signals
import Synchronization
import Testing

/// How often a deinit ran.
private final class DeinitCounts: Sendable {
    let ran = Atomic<Int>(0)
}

/// Uses the signal it was made with from its `deinit`, and records that it did.
private final class SignalUsingOwner: @unchecked Sendable {
    // Unchecked: `signal` is immutable; `deinitRan` is atomic.
    let signal: Signal<Int>
    let counts: DeinitCounts

    init(_ signal: Signal<Int>, counts: DeinitCounts) {
        self.signal = signal
        self.counts = counts
    }

    deinit {
        // Touches the signal's hold slot (takeOutput) from inside the deinit.
        let derived = signal.map { $0 + 1 }
        _ = derived.delivery
        counts.ran.add(1, ordering: .relaxed)
    }
}

@Suite("No deinit under a lock", .tags(.startsThreads))
struct DeinitOutsideLockTests {
    /// The defect's reproduction: the handler's capture is freed when the next subscriber takes
    /// the output, and its deinit uses the same signal.
    @Test(arguments: DeliveryVariant.allCases)
    func handlerCaptureDeinitMayUseTheSameSignal(variant: DeliveryVariant) {
        let counts = DeinitCounts()
        let received = Mutex<[Int]>([])
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let returned = returnsWithin(seconds: 30) {
            var out: SignalOutput<Int>? = {
                let owner = SignalUsingOwner(signal, counts: counts)
                return signal.subscribeValues { _ in _ = owner }
            }()
            _ = input.send(value: 1)
            out?.cancel()
            out = nil
            let second = signal.subscribeValues { v in received.withLock { $0.append(v) } }
            _ = input.send(value: 2)
            withExtendedLifetime(second) {}
        }
        #expect(returned, "taking the output again deadlocked in the released handler's deinit")
        guard returned else { return }
        #expect(counts.ran.load(ordering: .relaxed) == 1)
    }

    /// While a released handler's deinit runs (slowly) on one thread, another thread can still
    /// use the signal and take its output: the hold slot's lock is not held across the deinit.
    @Test(arguments: DeliveryVariant.allCases)
    func otherThreadsAreNotBlockedByAReleasedHandlersDeinit(variant: DeliveryVariant) {
        let inDeinit = DispatchSemaphore(value: 0)
        let mayFinish = DispatchSemaphore(value: 0)
        final class SlowOwner: @unchecked Sendable {
            let entered: DispatchSemaphore
            let proceed: DispatchSemaphore
            init(_ e: DispatchSemaphore, _ p: DispatchSemaphore) { entered = e; proceed = p }
            deinit { entered.signal(); _ = proceed.wait(timeout: .now() + 20) }
        }
        let (_, signal) = Signal<Int>.create(delivery: variant)
        let first = Mutex<SignalOutput<Int>?>({
            let owner = SlowOwner(inDeinit, mayFinish)
            return signal.subscribeValues { _ in _ = owner }
        }())
        // Thread 1 cancels and releases the subscription: the handler's SlowOwner.deinit runs
        // there, and waits until this thread has used the signal.
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let o = first.withLock { $0.take() }
            o?.cancel()
            withExtendedLifetime(o) {}
            released.signal()
        }
        #expect(inDeinit.wait(timeout: .now() + 20) == .success)
        // This thread derives from the signal and subscribes to it while that deinit runs: it
        // must not block on it.
        let holder = Mutex<SignalOutput<Int>?>(nil)
        let asked = returnsWithin(seconds: 5) {
            _ = signal.map { $0 }   // either the duplicate placeholder or a derived signal
            let o = signal.subscribeValues { _ in }
            holder.withLock { $0 = o }
        }
        mayFinish.signal()
        #expect(asked, "a thread using the signal waited for another thread's deinit")
        #expect(released.wait(timeout: .now() + 20) == .success)
        holder.withLock { $0 = nil }
    }
}
