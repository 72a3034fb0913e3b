import Signals
import Synchronization
import Testing

/// CwlSignal's instance `retry`, in virtual time, on both variants.
@Suite struct RetryPortTests {
    /// A source that sends its attempt number, then fails, on every activation.
    static func failingSource(_ v: DeliveryVariant, attempts: Collected<Int>) -> Signal<Int> {
        Signal<Int>.generate(delivery: v) { input in
            guard let input else { return }
            attempts.append(1)
            input.send(value: attempts.all.count)
            input.send(end: .other(TestError.boom))
        }
    }

    @Test(arguments: DeliveryVariant.allCases) func retryCountWithDelay(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let attempts = Collected<Int>()
        let r = Recorder(Self.failingSource(v, attempts: attempts).retry(count: 2, delayInterval: .seconds(1), context: .custom(vt)))
        #expect(r.values == [1])
        vt.advance(by: .milliseconds(999))
        #expect(r.values == [1], "waits the delay")
        vt.advance(by: .milliseconds(1))
        #expect(r.values == [1, 2])
        vt.advance(by: .seconds(1))
        #expect(r.values == [1, 2, 3])
        #expect(r.end == .boom, "the last error passes once the retries are spent")
        vt.advance(by: .seconds(5))
        #expect(attempts.all.count == 3)
    }

    /// Completion is not retried; deactivation cancels a waiting retry.
    @Test(arguments: DeliveryVariant.allCases) func retryCompletionAndDeactivation(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let done = Recorder(Signal<Int>.just(1, delivery: v).retry(count: 3, delayInterval: .seconds(1), context: .custom(vt)))
        #expect(done.values == [1])
        #expect(done.end == .complete)

        let attempts = Collected<Int>()
        let r = Recorder(Self.failingSource(v, attempts: attempts).retry(count: 5, delayInterval: .seconds(1), context: .custom(vt)))
        r.cancel()
        vt.advance(by: .seconds(10))
        #expect(attempts.all.count == 1)
        #expect(vt.pendingCount == 0)
    }
}
