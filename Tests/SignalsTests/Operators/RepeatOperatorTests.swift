import Signals
import Synchronization
import Testing

/// Counts the objects made and released of one kind (a run's signal, a trigger).
final class ReleaseCount: Sendable {
    let made = Atomic<Int>(0)
    let released = Atomic<Int>(0)
    init() {}
    var alive: Int { made.load(ordering: .relaxed) - released.load(ordering: .relaxed) }
    var count: Int { made.load(ordering: .relaxed) }
}

/// Captured by a run's or a trigger's closure: its deinit shows the signal was let go.
final class CountedCanary: Sendable {
    let count: ReleaseCount
    init(_ count: ReleaseCount) {
        self.count = count
        _ = count.made.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { _ = count.released.wrappingAdd(1, ordering: .relaxed) }
}

/// `Signal.repeat(count:_:)`, `Signal.repeat(when:_:)` and `Signal.repeat(whenCompletions:_:)`:
/// a fresh run of the factory at each completion, never by recursion.
@Suite struct RepeatOperatorTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func countIsTheNumberOfRunsInAll(_ v: DeliveryVariant) {
        let calls = Atomic<Int>(0)
        let rec = Recorder(Signal.repeat(count: 3) { () -> Signal<Int> in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return Signal.just(1, 2, delivery: v)
        })
        #expect(rec.values == [1, 2, 1, 2, 1, 2])
        #expect(rec.end == .complete)
        #expect(calls.load(ordering: .relaxed) == 3)
    }

    @Test(arguments: variants) func zeroOrNegativeCountCompletesWithoutARun(_ v: DeliveryVariant) {
        for count in [0, -1, Int.min] {
            let calls = Atomic<Int>(0)
            let rec = Recorder(Signal.repeat(count: count) { () -> Signal<Int> in
                _ = calls.wrappingAdd(1, ordering: .relaxed)
                return Signal.just(1, delivery: v)
            })
            #expect(rec.values == [], "count \(count)")
            #expect(rec.end == .complete, "count \(count)")
            #expect(calls.load(ordering: .relaxed) == 0, "count \(count): no run")
        }
    }

    @Test(arguments: variants) func aRunsErrorOrCancellationPassesOnAtOnce(_ v: DeliveryVariant) {
        for end in [SignalEnd.other(TestError.boom), .cancelled] {
            let calls = Atomic<Int>(0)
            let rec = Recorder(Signal.repeat(count: .max) { () -> Signal<Int> in
                let n = calls.wrappingAdd(1, ordering: .relaxed).newValue
                return n == 2 ? Signal.just(7, delivery: v).concat(Signal.generate(delivery: v) { _ = $0?.send(end: end) }) : Signal.just(n, delivery: v)
            })
            #expect(rec.values == [1, 7])
            #expect(rec.end == End(end))
            #expect(calls.load(ordering: .relaxed) == 2, "no run after the end")
        }
        let thrown = Atomic<Int>(0)
        let rec = Recorder(Signal.repeat(count: 5) { () throws -> Signal<Int> in
            if thrown.wrappingAdd(1, ordering: .relaxed).newValue == 2 { throw TestError.boom }
            return Signal.just(1, delivery: v)
        })
        #expect(rec.values == [1])
        #expect(rec.end == .boom, "a throw from the factory fails the result")
    }

    /// 100,000 runs that each complete inside their own subscription: each next run starts
    /// from the stage's delivery loop, so the stack does not grow per run (recursion of even a
    /// few bytes per run would overflow the 512 KiB stack). A million runs pass too, but take
    /// minutes in a debug build: each run makes and subscribes a new signal.
    @Test(.tags(.startsThreads), .stackThreadOnly, arguments: variants) func aHundredThousandSynchronousRunsInBoundedStack(_ v: DeliveryVariant) {
        onThread {
            let sum = Atomic<Int>(0)
            let end = Mutex<SignalEnd?>(nil)
            let output = Signal.repeat(count: 100_000) { Signal.just(1, delivery: v) }.subscribe { r in
                switch r {
                case .success(let x): _ = sum.wrappingAdd(x, ordering: .relaxed)
                case .failure(let e): end.withLock { $0 = e }
                }
            }
            #expect(sum.load(ordering: .relaxed) == 100_000)
            #expect(end.withLock { $0.map(End.init) } == .complete)
            withExtendedLifetime(output) {}
        }
    }

    /// An endless repeat of a synchronous source behind `take(3)`: once `take` has ended, no
    /// further run starts (the factory would otherwise be called for ever).
    @Test(.tags(.startsThreads), arguments: variants) func anEndlessRepeatStopsWhenItsDownstreamEnds(_ v: DeliveryVariant) {
        onThread {
            let calls = Atomic<Int>(0)
            let rec = Recorder(Signal.repeat(count: .max) { () -> Signal<Int> in
                // A bound so that a defect fails the test instead of hanging it.
                if calls.wrappingAdd(1, ordering: .relaxed).newValue > 1_000 { return Signal.never(delivery: v) }
                return Signal.just(1, delivery: v)
            }.take(3))
            #expect(rec.values == [1, 1, 1])
            #expect(rec.end == .complete)
            #expect(calls.load(ordering: .relaxed) <= 4, "runs after take ended: \(calls.load(ordering: .relaxed))")
            let whenCalls = Atomic<Int>(0)
            let rec2 = Recorder(Signal.repeat(when: { _ in Signal<Void>.just((), delivery: v) }) { () -> Signal<Int> in
                if whenCalls.wrappingAdd(1, ordering: .relaxed).newValue > 1_000 { return Signal.never(delivery: v) }
                return Signal.just(2, delivery: v)
            }.take(2))
            #expect(rec2.values == [2, 2])
            #expect(rec2.end == .complete)
            #expect(whenCalls.load(ordering: .relaxed) <= 3, "runs after take ended: \(whenCalls.load(ordering: .relaxed))")
        }
    }

    @Test(arguments: variants) func triggersPaceTheRunsAndNilCompletes(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let asked = Collected<Int>()
        let rec = Recorder(Signal.repeat(when: { n in
            asked.append(n)
            return n < 3 ? Signal<Void>.timer(interval: .seconds(n), context: .custom(vt), delivery: v) : nil
        }) { Signal.just(5, delivery: v) })
        #expect(rec.values == [5])
        vt.advance(by: .milliseconds(999))
        #expect(rec.values == [5])
        vt.advance(by: .milliseconds(1))
        #expect(rec.values == [5, 5])
        vt.advance(by: .seconds(2))
        #expect(rec.values == [5, 5, 5])
        #expect(rec.end == .complete)
        #expect(asked.all == [1, 2, 3])
        #expect(vt.pendingCount == 0)
    }

    @Test(arguments: variants) func aTriggersEndWithoutAValueEndsTheResult(_ v: DeliveryVariant) {
        for end in [SignalEnd.complete, .other(TestError.boom), .cancelled] {
            let (trigger, triggers) = Signal<Void>.create(delivery: v)
            let rec = Recorder(Signal.repeat(when: { _ in triggers }) { Signal.just(1, delivery: v) })
            #expect(rec.values == [1])
            #expect(rec.end == nil)
            trigger.send(end: end)
            #expect(rec.end == End(end))
        }
        // A trigger that never sends (a timer at `Exec.neverDelay`): no further run, no end.
        let vt = VirtualTimeContext()
        let rec = Recorder(Signal.repeat(when: { _ in Signal<Void>.timer(interval: Exec.neverDelay, context: .custom(vt), delivery: v) }) {
            Signal.just(1, delivery: v)
        })
        vt.advance(by: .seconds(1_000_000))
        #expect(rec.values == [1])
        #expect(rec.end == nil)
        rec.cancel()
    }

    @Test(arguments: variants) func aThrowFromShouldRepeatFailsTheResult(_ v: DeliveryVariant) {
        let calls = Atomic<Int>(0)
        let rec = Recorder(Signal.repeat(when: { (n: Int) throws -> Signal<Void>? in
            if n == 2 { throw TestError.boom }
            return Signal<Void>.just((), delivery: v)
        }) { () throws -> Signal<Int> in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return Signal.just(3, delivery: v)
        })
        #expect(rec.values == [3, 3])
        #expect(rec.end == .boom)
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test(arguments: variants) func oneNotifierSeesEveryCompletion(_ v: DeliveryVariant) {
        let made = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
        let rec = Recorder(Signal.repeat(whenCompletions: { completions in
            _ = made.wrappingAdd(1, ordering: .relaxed)
            return completions.take(2)
        }) { () -> Signal<Int> in
            Signal.just(calls.wrappingAdd(1, ordering: .relaxed).newValue, delivery: v)
        })
        #expect(rec.values == [1, 2, 3], "two repeats, then the notifier completes")
        #expect(rec.end == .complete)
        #expect(made.load(ordering: .relaxed) == 1, "one notifier for the activation")
    }

    /// The notifier's completion waits for the running run; a value while a run is running
    /// is dropped; its error ends the result at once.
    @Test(arguments: variants) func theNotifiersEndsAndValuesWhileARunRuns(_ v: DeliveryVariant) {
        let (run, runs) = Signal<Int>.create(delivery: v)
        let first = Atomic<Bool>(true)
        let (trigger, triggers) = Signal<Void>.create(delivery: v)
        let calls = Atomic<Int>(0)
        let rec = Recorder(Signal.repeat(whenCompletions: { _ in triggers }) { () -> Signal<Int> in
            _ = calls.wrappingAdd(1, ordering: .relaxed)
            return first.exchange(false, ordering: .relaxed) ? Signal.just(0, delivery: v) : runs
        })
        #expect(rec.values == [0])
        trigger.send(value: ())
        #expect(calls.load(ordering: .relaxed) == 2)
        trigger.send(value: ())
        #expect(calls.load(ordering: .relaxed) == 2, "a value while a run runs is dropped")
        run.send(value: 4)
        trigger.complete()
        #expect(rec.end == nil, "the notifier's completion waits for the running run")
        run.complete()
        #expect(rec.values == [0, 4])
        #expect(rec.end == .complete)

        let (trigger2, triggers2) = Signal<Void>.create(delivery: v)
        let rec2 = Recorder(Signal.repeat(whenCompletions: { _ in triggers2 }) { Signal.just(1, delivery: v) })
        trigger2.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        let thrown = Recorder(Signal.repeat(whenCompletions: { (_: SignalMulti<Void>) throws -> Signal<Void> in throw TestError.boom }) {
            Signal.just(1, delivery: v)
        })
        #expect(thrown.values == [1])
        #expect(thrown.end == .boom, "a throw from the closure fails the result")
    }

    /// After the end and after a cancel, no run's signal and no trigger is kept.
    @Test(arguments: variants) func runsAndTriggersAreReleasedAfterEndAndCancel(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let runs = ReleaseCount()
        let triggers = ReleaseCount()
        @Sendable func run(_ source: Signal<Int>) -> Signal<Int> {
            let canary = CountedCanary(runs)
            return source.map { x in withExtendedLifetime(canary) { x } }
        }
        @Sendable func trigger() -> Signal<Void> {
            let canary = CountedCanary(triggers)
            return Signal<Void>.timer(interval: .seconds(1), context: .custom(vt), delivery: v).map { withExtendedLifetime(canary) {} }
        }

        // Ended: the output is still held, its runs and triggers are gone.
        let ended = Recorder(Signal.repeat(when: { n in n < 3 ? trigger() : nil }) { run(Signal.just(1, delivery: v)) })
        vt.advance(by: .seconds(5))
        #expect(ended.values == [1, 1, 1])
        #expect(ended.end == .complete)
        #expect(runs.count == 3 && runs.alive == 0)
        #expect(triggers.count == 2 && triggers.alive == 0)

        // Cancelled while a run runs, then while a trigger waits.
        let running = Recorder(Signal.repeat(count: 3) { run(Signal<Int>.never(delivery: v)) })
        #expect(runs.alive == 1)
        running.cancel()
        #expect(runs.alive == 0)
        let waiting = Recorder(Signal.repeat(when: { _ in trigger() }) { run(Signal.just(1, delivery: v)) })
        #expect(triggers.alive == 1)
        waiting.cancel()
        #expect(triggers.alive == 0)
        #expect(runs.alive == 0)
        vt.runAll()
        #expect(vt.pendingCount == 0)

        // The notifier form: ended by its notifier, then cancelled.
        let notified = Recorder(Signal.repeat(whenCompletions: { c in
            let canary = CountedCanary(triggers)
            return c.take(1).map { withExtendedLifetime(canary) {} }
        }) {
            run(Signal.just(1, delivery: v))
        })
        #expect(notified.values == [1, 1])
        #expect(notified.end == .complete)
        #expect(runs.alive == 0 && triggers.alive == 0)
        let (open, opens) = Signal<Void>.create(delivery: v)
        let cancelled = Recorder(Signal.repeat(whenCompletions: { _ in opens }) { run(Signal.just(1, delivery: v)) })
        #expect(cancelled.values == [1])
        cancelled.cancel()
        #expect(runs.alive == 0)
        #expect(open.send(value: ()) != nil, "the notifier was released")
    }
}
