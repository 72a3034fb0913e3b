import Dispatch
import Signals
import Synchronization
import Testing

/// Counts and durations at their limits (docs/operators.md, "Counts and durations at their
/// limits"): no value traps; each gets its documented result, on both delivery variants.
@Suite struct CountAndDurationLimitTests {
    /// The end a `SignalArgumentError` for `argument` gives, as `Ev` shows it.
    static func argumentEnd(_ function: String, _ argument: String, _ value: String, _ allowed: String) -> Ev<Int> {
        .error(String(describing: SignalArgumentError(function: function, argument: argument, value: value, allowed: allowed)))
    }

    /// Subscribes `signal` (whose values are mapped to a count for comparison), sends 1…5
    /// and completes; returns what arrived.
    static func run<U: Sendable>(_ variant: DeliveryVariant, _ make: (Signal<Int>) -> Signal<U>,
                                 _ reduce: @escaping @Sendable (U) -> Int) -> [Ev<Int>] {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int>()
        let o = make(signal).map(reduce).subscribe(c.handler)
        for v in 1...5 { _ = input.send(value: v) }
        _ = input.complete()
        withExtendedLifetime(o) {}
        return c.events
    }

    // MARK: Counts

    @Test(arguments: DeliveryVariant.allCases, [0, -1, Int.min])
    func bufferCountAtOrBelowZeroCompletes(_ variant: DeliveryVariant, _ count: Int) {
        #expect(Self.run(variant, { $0.buffer(count: count) }, { $0.count }) == [.complete])
        #expect(Self.run(variant, { $0.buffer(count: count, skip: 1) }, { $0.count }) == [.complete])
        #expect(Self.run(variant, { $0.buffer(count: count, skip: 0) }, { $0.count }) == [.complete])
        #expect(Self.run(variant, { $0.window(count: count) }, { _ in 0 }) == [.complete])
        #expect(Self.run(variant, { $0.window(count: count, skip: 1) }, { _ in 0 }) == [.complete])
        #expect(Self.run(variant, { $0.buffer(timeSpan: .seconds(1), count: count, context: .custom(VirtualTimeContext())) }, { $0.count }) == [.complete])
        #expect(Self.run(variant, { $0.window(timeSpan: .seconds(1), count: count, context: .custom(VirtualTimeContext())) }, { _ in 0 }) == [.complete])
    }

    /// `buffer(count: 0)` completes as soon as it is activated, before any upstream value.
    @Test(arguments: DeliveryVariant.allCases)
    func bufferCountZeroCompletesOnActivation(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<[Int]>()
        let o = signal.buffer(count: 0).subscribe(c.handler)
        #expect(c.events == [.complete])
        withExtendedLifetime((o, input)) {}
    }

    @Test(arguments: DeliveryVariant.allCases, [0, -1, Int.min])
    func skipAtOrBelowZeroEndsWithArgumentError(_ variant: DeliveryVariant, _ skip: Int) {
        #expect(Self.run(variant, { $0.buffer(count: 2, skip: skip) }, { $0.count })
            == [Self.argumentEnd("buffer(count:skip:)", "skip", "\(skip)", "1 or more")])
        #expect(Self.run(variant, { $0.window(count: 2, skip: skip) }, { _ in 0 })
            == [Self.argumentEnd("window(count:skip:)", "skip", "\(skip)", "1 or more")])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func hugeCountsCollectUntilTheEnd(_ variant: DeliveryVariant) {
        #expect(Self.run(variant, { $0.buffer(count: .max) }, { $0.count }) == [.value(5), .complete])
        #expect(Self.run(variant, { $0.buffer(count: .max, skip: .max) }, { $0.count }) == [.value(5), .complete])
        #expect(Self.run(variant, { $0.buffer(count: 2, skip: .max) }, { $0.count }) == [.value(2), .complete])
        #expect(Self.run(variant, { $0.window(count: .max) }, { _ in 0 }) == [.value(0), .complete])
        #expect(Self.run(variant, { $0.window(count: .max, skip: .max) }, { _ in 0 }) == [.value(0), .complete])
    }

    @Test(arguments: DeliveryVariant.allCases, [0, -1])
    func flatMapMaxConcurrentAtOrBelowZeroEndsWithArgumentError(_ variant: DeliveryVariant, _ limit: Int) {
        #expect(Self.run(variant, { $0.flatMap(maxConcurrent: limit) { Signal<Int>.just($0) } }, { $0 })
            == [Self.argumentEnd("flatMap(maxConcurrent:_:)", "maxConcurrent", "\(limit)", "1 or more")])
    }

    /// The counts of the filtering operators: zero or less takes or skips nothing, a huge one
    /// everything.
    @Test(arguments: DeliveryVariant.allCases)
    func filteringCountsAtTheirLimits(_ variant: DeliveryVariant) {
        let all: [Ev<Int>] = [.value(1), .value(2), .value(3), .value(4), .value(5), .complete]
        for n in [0, -1, Int.min] {
            #expect(Self.run(variant, { $0.take(n) }, { $0 }) == [.complete])
            #expect(Self.run(variant, { $0.takeLast(n) }, { $0 }) == [.complete])
            #expect(Self.run(variant, { $0.skip(n) }, { $0 }) == all)
            #expect(Self.run(variant, { $0.skipLast(n) }, { $0 }) == all)
        }
        #expect(Self.run(variant, { $0.take(.max) }, { $0 }) == all)
        #expect(Self.run(variant, { $0.takeLast(.max) }, { $0 }) == all)
        #expect(Self.run(variant, { $0.skip(.max) }, { $0 }) == [.complete])
        #expect(Self.run(variant, { $0.skipLast(.max) }, { $0 }) == [.complete])
        #expect(Self.run(variant, { $0.elementAt(.max) }, { $0 }) == [.complete])
    }

    /// `take` of zero or less completes as soon as it is activated, as RxJS's and RxSwift's
    /// `take(0)` (an empty signal) do: a source that never sends still leaves it complete, and
    /// nothing the source sends later passes; a cold source never starts. With a context
    /// too, the completion comes in the activation (as `buffer(count: 0, context:)`'s does).
    @Test(arguments: DeliveryVariant.allCases, [0, -1, Int.min])
    func takeAtOrBelowZeroCompletesOnActivation(_ variant: DeliveryVariant, _ count: Int) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int>()
        let o = signal.take(count).subscribe(c.handler)
        #expect(c.events == [.complete])
        _ = input.send(value: 1)
        #expect(c.events == [.complete])
        let vt = VirtualTimeContext()
        let c2 = Recorder<Int>()
        let o2 = Signal<Int>.never(delivery: variant).take(count, context: .custom(vt)).subscribe(c2.handler)
        #expect(c2.events == [.complete])
        // The source is never connected (RxJS never subscribes the source of `take(0)`).
        let activations = Mutex(0)
        let cold = Signal<Int>.generate(delivery: variant) { input in
            if input != nil { activations.withLock { $0 += 1 } }
        }
        let c3 = Recorder<Int>()
        let o3 = cold.take(count).subscribe(c3.handler)
        #expect(c3.events == [.complete])
        #expect(activations.withLock { $0 } == 0)
        withExtendedLifetime((o, o2, o3, input)) {}
    }

    /// `takeLast` of zero or less keeps no value and ends when, and as, its source ends
    /// (RxSwift's rule; RxJS's `takeLast(0)` completes on subscription: docs/operators.md).
    @Test(arguments: DeliveryVariant.allCases, [0, -1, Int.min])
    func takeLastAtOrBelowZeroEndsWithTheSource(_ variant: DeliveryVariant, _ count: Int) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int>()
        let o = signal.takeLast(count).subscribe(c.handler)
        #expect(c.events == [])
        _ = input.send(value: 1)
        #expect(c.events == [])
        _ = input.complete()
        #expect(c.events == [.complete])
        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let c2 = Recorder<Int>()
        let o2 = signal2.takeLast(count).subscribe(c2.handler)
        _ = input2.send(value: 1)
        _ = input2.send(end: .other(TestError.boom))
        #expect(c2.events == [.error(String(describing: TestError.boom))])
        withExtendedLifetime((o, o2)) {}
    }

    @Test(arguments: DeliveryVariant.allCases, [-1, Int.min])
    func negativeElementAtEndsWithArgumentError(_ variant: DeliveryVariant, _ index: Int) {
        #expect(Self.run(variant, { $0.elementAt(index) }, { $0 })
            == [Self.argumentEnd("elementAt(_:context:)", "index", "\(index)", "0 or more")])
    }

    @Test(arguments: DeliveryVariant.allCases, [0, -1, Int.min])
    func repeatCollectionCountAtOrBelowZeroOnlyCompletes(_ variant: DeliveryVariant, _ count: Int) {
        let c = Recorder<Int>()
        let o = Signal<Int>.repeatCollection([1, 2], count: count, delivery: variant).subscribe(c.handler)
        #expect(c.events == [.complete])
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases, [0, -1])
    func retryCountAtOrBelowZeroDoesNotRetry(_ variant: DeliveryVariant, _ count: Int) {
        let attempts = Atomic<Int>(0)
        let c = Recorder<Int>()
        let o = Signal<Int>.retry(count: count) {
            attempts.add(1, ordering: .relaxed)
            return Signal<Int>.preclosed(end: .other(CoreError.boom), delivery: variant)
        }.subscribe(c.handler)
        #expect(c.events == [.boom])
        #expect(attempts.load(ordering: .relaxed) == 1)
        withExtendedLifetime(o) {}
    }

    // MARK: Durations

    @Test(arguments: DeliveryVariant.allCases, [Duration.zero, .seconds(-1), .seconds(Int64.min)])
    func intervalPeriodAtOrBelowZeroEndsWithArgumentError(_ variant: DeliveryVariant, _ period: Duration) {
        let vt = VirtualTimeContext()
        let a = Recorder<Int>()
        let oa = Signal<Int>.interval(period, context: .custom(vt), delivery: variant).subscribe(a.handler)
        #expect(a.events == [Self.argumentEnd("interval(_:context:delivery:)", "period", "\(period)", "more than zero")])
        let b = Recorder<Int>()
        let ob = Signal<Int>.interval(period, initial: .zero, context: .custom(vt), delivery: variant).subscribe(b.handler)
        #expect(b.events == [Self.argumentEnd("interval(_:initial:context:delivery:)", "period", "\(period)", "more than zero")])
        #expect(vt.pendingCount == 0)
        withExtendedLifetime((oa, ob)) {}
    }

    @Test(arguments: DeliveryVariant.allCases, [Duration.zero, .seconds(-1)])
    func timeshiftAtOrBelowZeroEndsWithArgumentError(_ variant: DeliveryVariant, _ shift: Duration) {
        let vt = Exec.custom(VirtualTimeContext())
        #expect(Self.run(variant, { $0.buffer(interval: .milliseconds(10), timeshift: shift, context: vt) }, { $0.count })
            == [Self.argumentEnd("buffer(interval:timeshift:context:)", "timeshift", "\(shift)", "more than zero")])
        #expect(Self.run(variant, { $0.window(interval: .milliseconds(10), timeshift: shift, context: vt) }, { _ in 0 })
            == [Self.argumentEnd("window(interval:timeshift:context:)", "timeshift", "\(shift)", "more than zero")])
        #expect(Self.run(variant, { $0.buffer(timeSpan: shift, context: vt) }, { $0.count })
            == [Self.argumentEnd("buffer(timeSpan:count:context:)", "timeSpan", "\(shift)", "more than zero")])
        #expect(Self.run(variant, { $0.window(timeSpan: shift, context: vt) }, { _ in 0 })
            == [Self.argumentEnd("window(timeSpan:count:context:)", "timeSpan", "\(shift)", "more than zero")])
    }

    /// A huge duration is "never": nothing is scheduled, nothing overflows, on a dispatch
    /// context and in virtual time.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases, [Duration.seconds(Int64.max), Exec.neverDelay])
    func hugeDurationsNeverFire(_ variant: DeliveryVariant, _ huge: Duration) {
        let vt = VirtualTimeContext()
        for (index, context) in [Exec.global, .custom(vt)].enumerated() {
            let c = Recorder<Int>()
            var outputs: [SignalOutput<Int>] = []
            outputs.append(Signal<Int>.timer(interval: huge, value: 1, context: context, delivery: variant).subscribe(c.handler))
            outputs.append(Signal<Int>.interval(huge, context: context, delivery: variant).subscribe(c.handler))
            outputs.append(Signal<Int>.interval(.seconds(1), initial: huge, context: context, delivery: variant).subscribe(c.handler))
            let (input, signal) = Signal<Int>.create(delivery: variant)
            outputs.append(signal.debounce(interval: huge, context: context).subscribe(c.handler))
            _ = input.send(value: 5)
            let (input2, signal2) = Signal<Int>.create(delivery: variant)
            outputs.append(signal2.delay(interval: huge, context: context).subscribe(c.handler))
            _ = input2.send(value: 6)
            let (input3, signal3) = Signal<Int>.create(delivery: variant)
            outputs.append(signal3.timeout(interval: huge, context: context).subscribe(c.handler))
            let (input4, signal4) = Signal<Int>.create(delivery: variant)
            outputs.append(signal4.buffer(interval: huge, timeshift: huge, context: context).map { $0.count }.subscribe(c.handler))
            _ = input4.send(value: 7)
            vt.advance(by: .seconds(1_000_000))
            if index == 1 { #expect(vt.runAll(limit: 1000) == 0) }
            #expect(c.events.isEmpty)
            withExtendedLifetime((outputs, input, input2, input3, input4)) {}
        }
        // Scheduling itself: no overflow, and the work never runs.
        let ran = Atomic<Bool>(false)
        let l = Exec.global.schedule(after: huge) { ran.store(true, ordering: .relaxed) }
        let v = vt.schedule(after: huge) { ran.store(true, ordering: .relaxed) }
        vt.advance(by: .seconds(Int64.max))
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
        withExtendedLifetime((l, v)) {}
    }

    @Test(.tags(.startsThreads), arguments: [Duration.zero, .seconds(-1), .seconds(Int64.min)])
    func durationsAtOrBelowZeroCountAsZero(_ d: Duration) {
        let done = DispatchSemaphore(value: 0)
        let l = Exec.global.schedule(after: d) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let vt = VirtualTimeContext()
        let ran = Atomic<Int>(0)
        let v = vt.schedule(after: d) { ran.add(1, ordering: .relaxed) }
        vt.runUntilIdle()
        let count = ran.load(ordering: .relaxed)
        #expect(count == 1)
        let c = Recorder<Int>()
        let o = Signal<Int>.timer(interval: d, value: 3, context: .custom(vt)).subscribe(c.handler)
        vt.runUntilIdle()
        #expect(c.events == [.value(3), .complete])
        withExtendedLifetime((l, v, o)) {}
    }

    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func toSequenceTimeoutsAtTheirLimits(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let huge = signal.toSequence(timeout: .seconds(Int64.max))
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { _ = input.send(value: 1) }
        #expect(huge.next() == 1)
        #expect(!huge.timedOut)
        huge.cancel()
        for t in [Duration.zero, .seconds(-1), .seconds(Int64.min)] {
            let (input2, signal2) = Signal<Int>.create(delivery: variant)
            let s = signal2.toSequence(timeout: t)
            #expect(s.next() == nil)
            #expect(s.timedOut)
            _ = input2.send(value: 2)
            #expect(s.next() == 2)
        }
    }

    @Test func virtualTimeRunAllLimitAtOrBelowZeroRunsNothing() {
        let vt = VirtualTimeContext()
        let ran = Atomic<Int>(0)
        let l = vt.schedule(after: .seconds(1)) { ran.add(1, ordering: .relaxed) }
        #expect(vt.runAll(limit: 0) == 0)
        #expect(vt.runAll(limit: -1) == 0)
        vt.advance(by: .seconds(-5))
        let count = ran.load(ordering: .relaxed)
        #expect(count == 0)
        withExtendedLifetime(l) {}
    }
}
