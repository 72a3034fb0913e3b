import Dispatch
import Signals
import Synchronization
import Testing

/// A context that runs scheduled work at once, inside `schedule` (and records the delays it
/// was asked for): the re-bind and the next attempt's end happen before the end handler that
/// scheduled them returns, deterministically.
final class ImmediateContext: ExecutionContext, @unchecked Sendable {
    let delays = Shared<[Duration]>([])
    func invoke(_ work: @escaping @Sendable () -> Void) { work() }
    func now() -> Duration { .zero }
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime {
        delays.update { $0.append(delay) }
        work()
        return NoLifetime()
    }
    final class NoLifetime: Lifetime { func cancel() {} }
}

/// `retry(count:delayInterval:context:)` at its edges: counts 0, negative and `Int.max`; zero,
/// negative and huge delays; a retry that runs inside the failed attempt's end; and what it
/// keeps after the end and after a cancel.
@Suite struct RetryEdgeTests {
    static let variants = DeliveryVariant.allCases

    /// A source that sends its attempt number, then fails (until `failures` attempts failed;
    /// then it completes).
    static func failing(_ v: DeliveryVariant, attempts: Shared<Int>, failures: Int = .max, context: Exec = .direct) -> Signal<Int> {
        Signal<Int>.generate(context: context, delivery: v) { input in
            guard let input else { return }
            let n = attempts.update { $0 += 1; return $0 }
            input.send(value: n)
            input.send(end: n <= failures ? .other(CoreError.boom) : .complete)
        }
    }

    /// The re-bind runs inside the end handler that scheduled it: the next end must still see
    /// this attempt counted (three retries, not more).
    @Test(arguments: variants) func retryScheduledInsideTheEndCountsEveryAttempt(_ v: DeliveryVariant) {
        let attempts = Shared(0)
        let context = ImmediateContext()
        let (c, out) = Self.failing(v, attempts: attempts).retry(count: 3, delayInterval: .zero, context: .custom(context)).collect()
        #expect(c.events == [.value(1), .value(2), .value(3), .value(4), .boom])
        #expect(context.delays.value == [.zero, .zero, .zero])
        withExtendedLifetime(out) {}
    }

    /// Count 0 and negative: no retry, the first error passes on.
    @Test(arguments: variants, [0, -1, Int.min]) func noRetryForCountZeroOrNegative(_ v: DeliveryVariant, _ count: Int) {
        let attempts = Shared(0)
        let (c, out) = Self.failing(v, attempts: attempts).retry(count: count, delayInterval: .zero, context: .custom(ImmediateContext())).collect()
        #expect(c.events == [.value(1), .boom])
        withExtendedLifetime(out) {}
    }

    /// `Int.max`: retries until the source completes (here after 50 failures).
    @Test(.tags(.startsThreads), arguments: variants) func intMaxRetriesUntilSuccess(_ v: DeliveryVariant) {
        let attempts = Shared(0)
        let (c, out) = Self.failing(v, attempts: attempts, failures: 50)
            .retry(count: .max, delayInterval: .zero, context: .global).collect()
        c.expectEnd(within: 20)
        #expect(c.values == Array(1...51))
        #expect(c.events.last == .complete)
        withExtendedLifetime(out) {}
    }

    /// A negative delay retries at once (scheduled with zero); a huge one never: the result
    /// stays open, and no timer is scheduled.
    @Test(arguments: variants) func negativeDelayIsImmediateHugeDelayIsNever(_ v: DeliveryVariant) {
        let attempts = Shared(0)
        let context = ImmediateContext()
        let (c, out) = Self.failing(v, attempts: attempts).retry(count: 2, delayInterval: .seconds(-5), context: .custom(context)).collect()
        #expect(c.events == [.value(1), .value(2), .value(3), .boom])
        #expect(context.delays.value == [.zero, .zero])
        withExtendedLifetime(out) {}

        for huge in [Duration.seconds(Int64.max), .seconds(Int64(Int32.max) * 1000)] {
            let hugeAttempts = Shared(0)
            let never = ImmediateContext()
            let (h, hugeOut) = Self.failing(v, attempts: hugeAttempts).retry(count: 2, delayInterval: huge, context: .custom(never)).collect()
            #expect(h.events == [.value(1)], "no end: the retry is never due")
            #expect(never.delays.value.isEmpty)
            hugeOut.cancel()
        }
    }

    /// Nothing of the source, the handler or the state is kept after the result ends, or after
    /// it is cancelled while a retry waits.
    @Test(.tags(.startsThreads), arguments: variants) func nothingKeptAfterEndOrCancel(_ v: DeliveryVariant) {
        let deinits = DeinitCounter()
        do {
            let token = deinits.token()
            let attempts = Shared(0)
            let source = Signal<Int>.generate(delivery: v) { input in
                guard let input else { return }
                withExtendedLifetime(token) {}
                input.send(value: attempts.update { $0 += 1; return $0 })
                input.send(end: .other(CoreError.boom))
            }
            let (c, out) = source.retry(count: 1, delayInterval: .zero, context: .custom(ImmediateContext())).collect()
            #expect(c.events == [.value(1), .value(2), .boom])
            withExtendedLifetime(out) {}
        }
        #expect(deinits.freed == 1, "freed after the end")
        do {
            let token = deinits.token()
            let source = Signal<Int>.generate(delivery: v) { input in
                withExtendedLifetime(token) {}
                input?.send(end: .other(CoreError.boom))
            }
            let (c, out) = source.retry(count: 5, delayInterval: .seconds(3600), context: .global).collect()
            #expect(c.events.isEmpty)
            out.cancel()
        }
        #expect(deinits.freed == 2, "freed after a cancel while a retry waits")
    }
}
