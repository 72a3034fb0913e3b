import Signals
import Synchronization
import Testing

/// `Signal.retry(whenErrors:_:)`: one notifier, made at the first error from the stream of
/// errors, whose values start attempts and whose end ends the result.
@Suite struct RetryWhenErrorsTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func oneNotifierSeesEveryErrorInOrder(_ v: DeliveryVariant) {
        let attempts = Attempts(succeedAt: 3, delivery: v)
        let calls = Atomic<Int>(0)
        let seen = Collected<String>()
        let rec = Recorder(Signal.retry(whenErrors: { errors in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return errors.map { e in seen.append(String(describing: e)) }
        }) { attempts.make() })
        #expect(rec.values == [1, 2, 3])
        #expect(rec.end == .complete, "the attempt's completion ends the result")
        #expect(calls.load(ordering: .relaxed) == 1, "one notifier for the activation")
        #expect(seen.all == ["boom", "boom"])
    }

    @Test(arguments: variants) func aDelayedStreamOfErrorsBacksOff(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let attempts = Attempts(succeedAt: 3, delivery: v)
        let rec = Recorder(Signal.retry(whenErrors: { $0.delay(interval: .seconds(1), context: .custom(vt)) }) { attempts.make() })
        #expect(rec.values == [1])
        vt.advance(by: .milliseconds(999))
        #expect(rec.values == [1])
        vt.advance(by: .milliseconds(1))
        #expect(rec.values == [1, 2])
        vt.advance(by: .seconds(1))
        #expect(rec.values == [1, 2, 3])
        #expect(rec.end == .complete)
        #expect(vt.pendingCount == 0)
    }

    @Test(arguments: variants) func theNotifiersEndEndsTheResult(_ v: DeliveryVariant) {
        for end in [SignalEnd.complete, .other(TestError.other), .cancelled] {
            let attempts = Attempts(succeedAt: 100, delivery: v)
            let (trigger, triggers) = Signal<Void>.create(delivery: v)
            let rec = Recorder(Signal.retry(whenErrors: { _ in triggers }) { attempts.make() })
            #expect(rec.values == [1])
            trigger.send(value: ())
            #expect(rec.values == [1, 2])
            trigger.send(end: end)
            #expect(rec.end == End(end), "the notifier's end, whatever it is")
            #expect(attempts.count == 2)
        }

        let thrown = Attempts(succeedAt: 100, delivery: v)
        let failed = Recorder(Signal.retry(whenErrors: { (_: SignalMulti<any Error>) throws -> Signal<Void> in
            throw TestError.other
        }) { thrown.make() })
        #expect(failed.values == [1])
        #expect(failed.end == End(.other(TestError.other)), "a throw from the closure fails the result")

        let succeeding = Attempts(succeedAt: 1, delivery: v)
        let calls = Atomic<Int>(0)
        let done = Recorder(Signal.retry(whenErrors: { errors in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return errors
        }) { succeeding.make() })
        #expect(done.values == [1])
        #expect(done.end == .complete)
        #expect(calls.load(ordering: .relaxed) == 0, "no error, no notifier")
    }

    /// One attempt at a time: a notifier value while an attempt runs is dropped. The end
    /// releases the running attempt and the notifier.
    @Test(arguments: variants) func oneAttemptAtATimeAndTheEndReleasesBoth(_ v: DeliveryVariant) {
        let made = Atomic<Int>(0)
        let (running, runningSignal) = Signal<Int>.create(delivery: v)
        let (trigger, triggers) = Signal<Void>.create(delivery: v)
        let rec = Recorder(Signal.retry(whenErrors: { _ in triggers }) { () -> Signal<Int> in
            let n = made.wrappingAdd(1, ordering: .relaxed).newValue
            return n == 1 ? Signal<Int>.failing(TestError.boom, delivery: v) : runningSignal
        })
        trigger.send(value: ())
        #expect(made.load(ordering: .relaxed) == 2)
        running.send(value: 5)
        trigger.send(value: ())
        #expect(made.load(ordering: .relaxed) == 2, "a value while an attempt runs is dropped")
        running.send(end: .cancelled)
        #expect(rec.end == .cancelled, "an attempt's cancellation ends the result")
        #expect(rec.values == [5])
        #expect(trigger.send(value: ()) != nil, "the end releases the notifier")
        withExtendedLifetime(running) {}
    }

    /// Each activation starts afresh with its own notifier; deactivation releases the
    /// attempt and the notifier.
    @Test(arguments: variants) func eachActivationHasItsOwnNotifier(_ v: DeliveryVariant) {
        let attempts = Attempts(succeedAt: 100, delivery: v)
        let calls = Atomic<Int>(0)
        let (trigger, triggers) = Signal<Void>.create(delivery: v) { $0.multicast() }
        let shared = Signal.retry(whenErrors: { _ in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return triggers.map { $0 }
        }) { attempts.make() }.multicast()
        let a = Recorder(shared)
        #expect(a.values == [1])
        a.cancel()
        #expect(trigger.send(value: ()) != nil, "deactivation releases the notifier")
        let b = Recorder(shared)
        #expect(b.values == [2])
        #expect(calls.load(ordering: .relaxed) == 2)
        trigger.send(value: ())
        #expect(b.values == [2, 3])
        b.cancel()
    }
}
