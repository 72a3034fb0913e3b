import Signals
import Synchronization
import Testing

/// A stopped subscription lets its handler go (and everything the handler captured) as soon as
/// no delivery to it can still run: after `cancel()`, after its output is released, after the
/// end, and, for the self-retaining subscriptions, once the handler asks to stop. The signal it
/// subscribed stays alive meanwhile (so nothing but the subscription could have kept it).
@Suite struct HandlerReleaseTests {
    @Test(arguments: DeliveryVariant.allCases)
    func cancelledValueHandlerIsReleasedWhileSignalLives(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let o = signal.subscribeValues { _ in t.touch() }
            #expect(input.send(value: 1) == nil)
            o.cancel()
        }
        #expect(counter.freed == 1)
        _ = input.send(value: 2)
        #expect(counter.freed == 1)
        withExtendedLifetime(signal) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func releasedResultHandlerIsReleasedWhileSignalLives(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let o = signal.map { $0 + 1 }.subscribe { _ in t.touch() }
            #expect(input.send(value: 1) == nil)
            withExtendedLifetime(o) {}
        }
        #expect(counter.freed == 1)
        withExtendedLifetime(signal) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func endedHandlerIsReleasedOnceOutputIsGone(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let o = signal.subscribe { _ in t.touch() }
            #expect(input.complete() == nil)
            #expect(o.isClosed)
        }
        #expect(counter.freed == 1)
        withExtendedLifetime(signal) {}
    }

    /// The signal can be subscribed again after the handler went, and the new handler gets
    /// the values (the slot was emptied, not broken).
    @Test(arguments: DeliveryVariant.allCases)
    func resubscribeAfterReleaseStillWorks(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            signal.subscribeValues { _ in t.touch() }.cancel()
        }
        #expect(counter.freed == 1)
        let c = Recorder<Int>()
        let o = signal.subscribe(c.handler)
        #expect(input.send(value: 3) == nil)
        #expect(c.events == [.value(3)])
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func subscribeWhileReleasesWhenHandlerStops(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            signal.subscribeWhile { r in t.touch(); return r.value != 2 }
        }
        #expect(input.send(value: 1) == nil)
        #expect(counter.freed == 0)
        _ = input.send(value: 2)
        #expect(counter.freed == 1)
        #expect(input.send(value: 3) == .inactive)
        withExtendedLifetime(signal) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func subscribeValuesWhileReleasesWhenHandlerStops(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            signal.subscribeValuesWhile { v in t.touch(); return v < 2 }
        }
        _ = input.send(value: 1)
        _ = input.send(value: 2)
        #expect(counter.freed == 1)
        withExtendedLifetime(signal) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func subscribeUntilEndReleasesAtTheEnd(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            signal.subscribeUntilEnd { _ in t.touch() }
            let u = counter.token()
            signal2.subscribeValuesUntilEnd { _ in u.touch() }
        }
        _ = input.send(value: 1)
        _ = input2.send(value: 1)
        #expect(counter.freed == 0)
        _ = input.complete()
        _ = input2.send(end: .cancelled)
        #expect(counter.freed == 2)
        withExtendedLifetime((signal, signal2)) {}
    }

    /// A handler that stops inside `subscribe` (values sent synchronously by the activation)
    /// is released too, and the source stops sending.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeWhileStoppingDuringActivationStopsSource(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let seen = Mutex<[Int]>([])
        let source = Signal<Int>.repeatCollection([1, 2, 3], count: Int.max, delivery: variant)
        do {
            let t = counter.token()
            source.subscribeValuesWhile { v in
                t.touch()
                seen.withLock { $0.append(v) }
                return seen.withLock { $0.count } < 5
            }
        }
        #expect(seen.withLock { $0 } == [1, 2, 3, 1, 2])
        #expect(counter.freed == 1)
        withExtendedLifetime(source) {}
    }

    /// A multi's branch already let its handler go: it still does.
    @Test(arguments: DeliveryVariant.allCases)
    func multiBranchHandlerIsReleased(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        do {
            let t = counter.token()
            multi.subscribeValues { _ in t.touch() }.cancel()
        }
        #expect(counter.freed == 1)
        withExtendedLifetime((input, multi)) {}
    }
}

/// A source stops once its downstream has ended, on every context: an endless source behind
/// `take` returns from `subscribe`.
@Suite struct SourceStopsWhenDownstreamEndsTests {
    @Test(arguments: DeliveryVariant.allCases)
    func endlessRepeatCollectionTakeReturnsOnDirect(_ variant: DeliveryVariant) {
        let c = Recorder<Int>()
        let o = Signal<Int>.repeatCollection([1, 2, 3], count: Int.max, delivery: variant).take(25).subscribe(c.handler)
        let expected: [Ev<Int>] = (0..<25).map { .value([1, 2, 3][$0 % 3]) } + [.complete]
        #expect(c.events == expected)
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func endlessGenerateTakeStopsTheSender(_ variant: DeliveryVariant) {
        let sent = Atomic<Int>(0)
        let refused = Atomic<Bool>(false)
        let source = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            var i = 0
            while input.send(value: i) == nil { i += 1; sent.add(1, ordering: .relaxed) }
            refused.store(true, ordering: .relaxed)
        }
        let c = Recorder<Int>()
        let o = source.map { $0 * 2 }.take(3).subscribe(c.handler)
        #expect(c.events == [.value(0), .value(2), .value(4), .complete])
        let wasRefused = refused.load(ordering: .relaxed)
        let sentCount = sent.load(ordering: .relaxed)
        #expect(wasRefused)
        #expect(sentCount == 3)
        withExtendedLifetime(o) {}
    }

    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func endlessSourceOnAContextStops(_ variant: DeliveryVariant) {
        let c = Recorder<Int>()
        let o = Signal<Int>.repeatCollection([1, 2, 3], count: Int.max, context: .global, delivery: variant)
            .take(4).subscribe(c.handler)
        c.expectEnd(within: 10)
        #expect(c.events == [.value(1), .value(2), .value(3), .value(1), .complete])
        withExtendedLifetime(o) {}
    }
}
