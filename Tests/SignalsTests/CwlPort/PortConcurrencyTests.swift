import Dispatch
import Signals
import Synchronization
import Testing

/// Stress tests for the concurrency claims of the CwlSignal additions (bounded counts; run
/// under ThreadSanitizer, as every test tagged `.startsThreads`).
@Suite(.tags(.startsThreads)) struct PortConcurrencyTests {
    /// A `subscribeValuesWhile` handler that says stop at its third value never gets a
    /// fourth, while another thread keeps sending; and each subscription, which nothing holds,
    /// stays alive until then.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeWhileStopsUnderConcurrentSends(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        let stop = Flag()
        // Sends until the rounds are over (a fixed count could run out first in a release
        // build, leaving the later rounds without values).
        let sender = startThread {
            var i = 0
            while !stop.isSet {
                input.send(value: i)
                i &+= 1
            }
        }
        for _ in 0..<200 {
            let seen = Mutex<[Int]>([])
            let done = DispatchSemaphore(value: 0)
            multi.subscribeValuesWhile { value in
                let count = seen.withLock { s -> Int in
                    s.append(value)
                    return s.count
                }
                if count == 3 { done.signal() }
                return count < 3
            }
            guard done.wait(timeout: .now() + 10) == .success else {
                Issue.record("no third value within 10 s")
                break
            }
            // Anything after the third value would have arrived after the handler's cancel.
            let values = seen.withLock { $0 }
            #expect(values.count == 3, "\(values)")
        }
        stop.set()
        #expect(sender.finished())
    }

    /// Handlers on a sync-queue context run one at a time, under the queue, whatever thread
    /// sends: a plain counter touched only there loses no update, and each send returns after
    /// its handler ran.
    @Test(arguments: DeliveryVariant.allCases)
    func syncQueueSerializesHandlers(_ v: DeliveryVariant) {
        final class Counter: @unchecked Sendable { var value = 0 }
        let counter = Counter()
        let context = SyncQueueContext()
        let merged = Signal<Int>.createMergedInput(delivery: v)
        let out = merged.signal.subscribeValues(context: .custom(context)) { _ in counter.value += 1 }
        let threads = (0..<4).map { _ in
            startThread {
                for i in 0..<2_000 { merged.input.send(value: i) }
            }
        }
        for t in threads { #expect(t.finished()) }
        #expect(context.invokeSync { counter.value } == 8_000)
        out.cancel()
    }
}
