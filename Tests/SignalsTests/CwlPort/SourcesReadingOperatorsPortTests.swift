import Dispatch
import Signals
import Testing

/// CwlSignal's sources, readers, sync-queue context and remaining operators, on both variants
/// (time-based ones in virtual time).
@Suite struct SourcesReadingOperatorsPortTests {
    static let variants = DeliveryVariant.allCases

    // MARK: sources

    /// Runs again on every activation; zero rounds only completes.
    @Test(arguments: variants) func repeatCollection(_ v: DeliveryVariant) {
        let source = Signal<Int>.repeatCollection([1, 2], count: 3, delivery: v)
        let r = Recorder(source)
        #expect(r.values == [1, 2, 1, 2, 1, 2])
        #expect(r.end == .complete)
        let none = Recorder(Signal<Int>.repeatCollection([1, 2], count: 0, delivery: v))
        #expect(none.values == [])
        #expect(none.end == .complete)
        // Re-activated after a deactivation in the middle, it starts again from the first round.
        let (input, trigger) = Signal<Void>.create(delivery: v)
        let rounds = trigger.flatMapLatest { Signal<Int>.repeatCollection([7, 8], count: 2, delivery: v) }
        let again = Recorder(rounds)
        input.send(value: ())
        input.send(value: ())
        #expect(again.values == [7, 8, 7, 8, 7, 8, 7, 8])
    }

    @Test(arguments: variants) func start(_ v: DeliveryVariant) {
        let calls = Collected<Int>()
        let source = Signal<String>.start(delivery: v) {
            calls.append(1)
            return "made"
        }
        #expect(calls.all.isEmpty, "nothing runs before activation")
        let r = Recorder(source)
        #expect(r.values == ["made"])
        #expect(r.end == .complete)
        #expect(calls.all == [1])
    }

    /// Completes when the last source completes; an error ends it at once; with no source it
    /// completes at once.
    @Test(arguments: variants) func staticMerge(_ v: DeliveryVariant) {
        let (a, sa) = Signal<Int>.create(delivery: v)
        let (b, sb) = Signal<Int>.create(delivery: v)
        let (c, sc) = Signal<Int>.create(delivery: v)
        let r = Recorder(Signal.merge(sa, sb, sc))
        a.send(value: 1)
        b.send(value: 2)
        c.send(value: 3)
        a.complete()
        b.complete()
        #expect(r.end == nil)
        c.send(value: 4)
        c.complete()
        #expect(r.values == [1, 2, 3, 4])
        #expect(r.end == .complete)

        let (d, sd) = Signal<Int>.create(delivery: v)
        let (_, se) = Signal<Int>.create(delivery: v)
        let failing = Recorder(Signal.merge(sequence: [sd, se]))
        d.send(end: .other(TestError.boom))
        #expect(failing.end == .boom)

        let empty = Recorder(Signal<Int>.merge(delivery: v))
        #expect(empty.values == [])
        #expect(empty.end == .complete)
    }

    @Test(arguments: variants) func intervalWithInitial(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let r = Recorder(Signal<Int>.interval(.seconds(1), initial: .seconds(2), context: .custom(vt), delivery: v))
        vt.advance(by: .milliseconds(1999))
        #expect(r.values == [])
        vt.advance(by: .milliseconds(1))
        #expect(r.values == [0])
        vt.advance(by: .seconds(2))
        #expect(r.values == [0, 1, 2])
        r.cancel()
        #expect(vt.pendingCount == 0, "deactivation cancels the timers")

        let vt2 = VirtualTimeContext()
        let atOnce = Recorder(Signal<Int>.interval(.seconds(1), initial: .zero, context: .custom(vt2), delivery: v))
        #expect(atOnce.values == [0], "a zero initial interval sends during activation")
        vt2.advance(by: .seconds(2))
        #expect(atOnce.values == [0, 1, 2])
        atOnce.cancel()
    }

    // MARK: reading

    @Test(arguments: variants) func signalLatest(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous(initialValue: 1) }
        let latest = multi.cacheLatest()
        #expect(latest.latestValue == 1)
        input.send(value: 2)
        #expect(latest.latestValue == 2)
        input.send(end: .complete)
        #expect(latest.latestValue == nil)
        #expect(latest.latestResult?.end?.isComplete == true)

        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let reader = SignalLatest(signal: signal2)
        #expect(reader.latestResult == nil)
        input2.send(value: 5)
        reader.cancel()
        #expect(input2.send(value: 6) == .inactive)
        #expect(reader.latestValue == 5)
    }

    @Test(arguments: variants) func toSequence(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let sequence = signal.toSequence()
        input.send(value: 1)
        input.send(value: 2)
        input.send(end: .complete)
        #expect(Array(sequence) == [1, 2])
        #expect(sequence.end?.isComplete == true)
        #expect(sequence.next() == nil)
    }

    /// Values sent from another thread while the sequence blocks arrive in order, all of them.
    @Test(.tags(.startsThreads), arguments: variants) func toSequenceAcrossThreads(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let sequence = signal.toSequence()
        DispatchQueue.global().async {
            for i in 0..<2_000 { input.send(value: i) }
            input.complete()
        }
        #expect(Array(sequence) == Array(0..<2_000))
    }

    /// With nothing arriving, `next()` gives up after the timeout (and says so).
    @Test(arguments: variants) func toSequenceTimeout(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let sequence = signal.toSequence(timeout: .milliseconds(20))
        #expect(sequence.next() == nil)
        #expect(sequence.timedOut)
        #expect(sequence.end == nil)
        input.send(value: 3)
        #expect(sequence.next() == 3)
        sequence.cancel()
        #expect(sequence.end?.isCancelled == true)
        #expect(input.send(value: 4) == .inactive)
    }

    // MARK: sync queue context

    /// The handler has run, on the queue, by the time `send` returns.
    @Test(.tags(.startsThreads), arguments: variants) func syncQueueContext(_ v: DeliveryVariant) {
        let context = SyncQueueContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let seen = Collected<String>()
        let out = signal.subscribeValues(context: .custom(context)) { x in seen.append("\(x)@\(context.isCurrent)") }
        input.send(value: 1)
        #expect(seen.all == ["1@true"])
        #expect(DispatchQueue.global().sync { input.send(value: 2) } == nil)
        #expect(seen.all == ["1@true", "2@true"])
        #expect(context.invokeSync { seen.all.count } == 2)
        #expect(!context.isCurrent)
        out.cancel()
        let other = Exec.syncQueue()
        let r = Recorder(Signal<Int>.just(9, delivery: v).map(context: other) { $0 + 1 })
        #expect(r.values == [10])
    }

    // MARK: operators

    @Test(arguments: variants) func transformValues(_ v: DeliveryVariant) {
        let plain = run(v, [1, 2, 3], end: .other(TestError.boom)) {
            $0.transformValues { (x: Int, next: SignalNext<String>) in if x != 2 { next.send(value: "\(x)") } }
        }
        #expect(plain.values == ["1", "3"])
        #expect(plain.end == .boom)
        let stateful = reactivate(v, first: [1, 2], second: [3, 4]) {
            $0.transformValues(initialState: 0) { (sum: inout Int, x: Int, next: SignalNext<Int>) in
                sum += x
                next.send(value: sum)
            }
        }
        #expect(stateful.first == [1, 3])
        #expect(stateful.second == [3, 7], "state starts afresh on re-activation")
    }

    @Test(arguments: variants) func ofTypeCompactOptionalToArray(_ v: DeliveryVariant) {
        let (input, signal) = Signal<any Sendable>.create(delivery: v)
        let ints = Recorder(signal.ofType(Int.self))
        input.send(value: 1)
        input.send(value: "two")
        input.send(value: 3)
        input.complete()
        #expect(ints.values == [1, 3])
        #expect(ints.end == .complete)

        let (oi, os) = Signal<Int?>.create(delivery: v)
        let shared = os.multicast()
        let compacted = Recorder(shared.compact())
        let arrays = Recorder(shared.optionalToArray())
        oi.send(value: 1)
        oi.send(value: nil)
        oi.send(value: 2)
        #expect(compacted.values == [1, 2])
        #expect(arrays.values == [[1], [], [2]])
    }

    @Test(arguments: variants) func flatMapInitialState(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 3]) {
            $0.flatMap(initialState: 0) { (count: inout Int, x: Int) -> Signal<Int> in
                count += 1
                return Signal<Int>.from(Array(repeating: x, count: count), delivery: v)
            }
        }
        #expect(r.values == [1, 2, 2, 3, 3, 3])
        #expect(r.end == .complete)
        let failing = run(v, [1, 2]) {
            $0.flatMap(initialState: ()) { (_: inout Void, x: Int) throws -> Signal<Int> in
                if x == 2 { throw TestError.boom }
                return Signal<Int>.just(x, delivery: v)
            }
        }
        #expect(failing.values == [1])
        #expect(failing.end == .boom)
    }

    @Test(arguments: variants) func skipWhileAndTakeWhileWithState(_ v: DeliveryVariant) {
        let skipped = reactivate(v, first: [1, 2, 3, 1], second: [1, 5, 1]) {
            $0.skipWhile(initialState: 0) { (sum: inout Int, x: Int) in
                sum += x
                return sum < 3
            }
        }
        #expect(skipped.first == [2, 3, 1])
        #expect(skipped.second == [5, 1])
        let taken = run(v, [1, 2, 3, 4]) {
            $0.takeWhile(initialState: 0) { (sum: inout Int, x: Int) in
                sum += x
                return sum < 6
            }
        }
        #expect(taken.values == [1, 2])
        #expect(taken.end == .complete)
        let throwing = run(v, [1, 2]) {
            $0.takeWhile(initialState: ()) { (_: inout Void, x: Int) throws -> Bool in
                if x == 2 { throw TestError.boom }
                return true
            }
        }
        #expect(throwing.values == [1])
        #expect(throwing.end == .boom)
    }

    @Test(arguments: variants) func bufferCountSkip(_ v: DeliveryVariant) {
        let overlapping = run(v, [1, 2, 3, 4, 5]) { $0.buffer(count: 3, skip: 1) }
        #expect(overlapping.values == [[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5], [5]])
        #expect(overlapping.end == .complete)
        let gaps = run(v, [1, 2, 3, 4, 5, 6, 7]) { $0.buffer(count: 2, skip: 3) }
        #expect(gaps.values == [[1, 2], [4, 5], [7]])
        let failed = run(v, [1, 2, 3], end: .other(TestError.boom)) { $0.buffer(count: 2, skip: 2) }
        #expect(failed.values == [[1, 2]], "an error drops the open buffer (ReactiveX's rule; CwlSignal emitted it)")
        #expect(failed.end == .boom)
        let zero = run(v, [1]) { $0.buffer(count: 0, skip: 1) }
        #expect(zero.values == [])
        #expect(zero.end == .complete)
        let again = reactivate(v, first: [1], second: [2, 3]) { $0.buffer(count: 2, skip: 2) }
        #expect(again.second == [[2, 3]], "no leftover from the first activation")
    }

    @Test(arguments: variants) func windowCountSkip(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let windows = Collected<Recorder<Int>>()
        let out = signal.window(count: 2, skip: 1).subscribeValues { windows.append(Recorder($0)) }
        for x in [1, 2, 3] { input.send(value: x) }
        input.send(end: .other(TestError.boom))
        let all = windows.all
        #expect(all.map(\.values) == [[1, 2], [2, 3], [3]])
        #expect(all.map(\.end) == [.complete, .complete, .boom])
        withExtendedLifetime(out) {}
    }

    /// Each value waits its own interval, so a short delay overtakes a long one; completion
    /// waits for the values still waiting; an error does not.
    @Test(arguments: variants) func delayPerValue(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.delay(initialState: 0, context: .custom(vt)) { (n: inout Int, x: Int) -> Duration in
            n += 1
            return .seconds(x)
        })
        input.send(value: 3)
        input.send(value: 1)
        input.send(end: .complete)
        vt.advance(by: .seconds(1))
        #expect(r.values == [1])
        #expect(r.end == nil)
        vt.advance(by: .seconds(2))
        #expect(r.values == [1, 3])
        #expect(r.end == .complete)

        let vt2 = VirtualTimeContext()
        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let r2 = Recorder(signal2.delay(initialState: (), context: .custom(vt2)) { _, x in .seconds(x) })
        input2.send(value: 1)
        input2.send(end: .other(TestError.boom))
        #expect(r2.end == .boom)
        vt2.advance(by: .seconds(2))
        #expect(r2.values == [])
        #expect(vt2.pendingCount == 0)
    }

    /// Each value waits until its own signal sends or ends.
    @Test(arguments: variants) func delayUntilSignal(_ v: DeliveryVariant) {
        let (t1, s1) = Signal<Void>.create(delivery: v)
        let (t2, s2) = Signal<Void>.create(delivery: v)
        let triggers = [1: s1, 2: s2]
        let (input, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.delay { triggers[$0]! })
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        #expect(r.values == [])
        t2.complete()
        #expect(r.values == [2])
        t1.send(value: ())
        #expect(r.values == [2, 1])
        #expect(r.end == .complete)
    }
}

/// A value's release signal that fails fails `delay(offset:)` with its error (RxJS's
/// `delayWhen`); a completion or cancellation without a value releases the value.
@Suite struct SourcesReadingDelayErrorTests {
    @Test(arguments: DeliveryVariant.allCases) func aReleaseSignalErrorFailsTheResult(_ v: DeliveryVariant) {
        let (t1, s1) = Signal<Void>.create(delivery: v)
        let (t2, s2) = Signal<Void>.create(delivery: v)
        let (t3, s3) = Signal<Void>.create(delivery: v)
        let triggers = [1: s1, 2: s2, 3: s3]
        let (input, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.delay { triggers[$0]! })
        for x in [1, 2, 3] { input.send(value: x) }
        t1.send(end: .cancelled)
        #expect(r.values == [1], "a cancelled release signal releases its value")
        t2.send(end: .other(TestError.boom))
        #expect(r.values == [1], "the value waiting on the failed signal is dropped")
        #expect(r.end == .boom)
        #expect(t3.send(value: ()) != nil, "the other waiting value's signal is released")
        withExtendedLifetime(input) {}

        // The stateful form takes the same rule.
        let (u1, w1) = Signal<Void>.create(delivery: v)
        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let r2 = Recorder(signal2.delay(initialState: 0) { (n: inout Int, _: Int) -> Signal<Void> in
            n += 1
            return w1
        })
        input2.send(value: 7)
        u1.send(end: .other(TestError.other))
        #expect(r2.values == [])
        #expect(r2.end == End(.other(TestError.other)))
        withExtendedLifetime(input2) {}
    }
}

/// The smaller additions: `peek`, stateful `compactMap`, stateful per-value signal delay.
@Suite struct SmallAdditionsPortTests {
    @Test(arguments: DeliveryVariant.allCases) func peek(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous() }
        #expect(multi.peek() == nil)
        input.send(value: 4)
        #expect(multi.peek() == 4)
        input.send(value: 5)
        #expect(multi.peek() == 5)
    }

    @Test(arguments: DeliveryVariant.allCases) func compactMapWithState(_ v: DeliveryVariant) {
        let r = reactivate(v, first: [1, 2, 3], second: [4, 5]) {
            $0.compactMap(initialState: 0) { (n: inout Int, x: Int) -> Int? in
                n += 1
                return n % 2 == 0 ? x : nil
            }
        }
        #expect(r.first == [2])
        #expect(r.second == [5], "the count starts again")
    }

    @Test(arguments: DeliveryVariant.allCases) func delayUntilSignalWithState(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let r = Recorder(signal.delay(initialState: 3) { (n: inout Int, _: Int) -> Signal<Void> in
            n -= 1
            return Signal<Void>.timer(interval: .seconds(n), context: .custom(vt), delivery: v)
        })
        for x in [1, 2, 3] { input.send(value: x) }
        input.complete()
        vt.advance(by: .zero)
        #expect(r.values == [3])
        vt.advance(by: .seconds(1))
        #expect(r.values == [3, 2])
        #expect(r.end == nil, "completion waits for the value still delayed")
        vt.advance(by: .seconds(1))
        #expect(r.values == [3, 2, 1])
        #expect(r.end == .complete)
    }
}
