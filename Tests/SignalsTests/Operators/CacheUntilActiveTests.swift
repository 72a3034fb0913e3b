import Signals
import Synchronization
import Testing

/// `cacheUntilActive`: values sent while nothing is subscribed are held for the next
/// subscriber, as its activation values, after the first subscriber has gone too.
@Suite struct CacheUntilActiveTests {
    @Test(arguments: DeliveryVariant.allCases)
    func deliversAgainAfterFirstSubscriberGoes(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let cached = signal.cacheUntilActive()
        #expect(input.send(value: 5) == nil)
        let first = Recorder<Int>()
        do {
            let o = cached.subscribe(first.handler)
            withExtendedLifetime(o) {}
        }
        #expect(first.events == [.value(5)])
        #expect(input.send(value: 7) == nil)
        let second = Recorder<Int>()
        let o2 = cached.subscribe(second.handler)
        #expect(input.send(value: 8) == nil)
        #expect(second.events == [.value(7), .value(8)])
        withExtendedLifetime(o2) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func precachedValuesAreActivationValues(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let capture = signal.cacheUntilActive(precached: [1, 2]).capture()
        #expect(capture.values == [1, 2])
        withExtendedLifetime(input) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func heldValuesAreActivationValues(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let cached = signal.cacheUntilActive(precached: [1])
        _ = input.send(value: 2)
        let mapped = cached.mapActivation(select: .all, activation: { "a\($0)" }, remainder: { "r\($0)" })
        let c = Recorder<String>()
        let o = mapped.subscribe(c.handler)
        _ = input.send(value: 3)
        #expect(c.events == [.value("a1"), .value("a2"), .value("r3")])
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func secondConcurrentSubscriberIsDuplicate(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let cached = signal.cacheUntilActive()
        let a = Recorder<Int>()
        let b = Recorder<Int>()
        let oa = cached.subscribe(a.handler)
        let ob = cached.subscribe(b.handler)
        #expect(b.events == [.duplicate])
        _ = input.send(value: 1)
        #expect(a.events == [.value(1)])
        withExtendedLifetime((oa, ob)) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func endIsKeptForLaterSubscribers(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let cached = signal.cacheUntilActive()
        _ = input.send(value: 1)
        _ = input.complete()
        let a = Recorder<Int>()
        do { let o = cached.subscribe(a.handler); withExtendedLifetime(o) {} }
        #expect(a.events == [.value(1), .complete])
        let b = Recorder<Int>()
        let o = cached.subscribe(b.handler)
        #expect(b.events == [.complete])
        withExtendedLifetime(o) {}
    }

    /// Behind a merged input that keeps its source on deactivation, the values sent between
    /// two subscriptions reach the second.
    @Test(arguments: DeliveryVariant.allCases)
    func behindMergedInputKeptOnDeactivate(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let cached = signal.cacheUntilActive()
        let (merged, out) = Signal<Int>.createMergedInput(delivery: variant)
        merged.add(cached, removeOnDeactivate: false)
        _ = input.send(value: 1)
        let a = Recorder<Int>()
        do { let o = out.subscribe(a.handler); withExtendedLifetime(o) {} }
        #expect(a.events == [.value(1)])
        #expect(input.send(value: 2) == nil)
        let b = Recorder<Int>()
        let o = out.subscribe(b.handler)
        _ = input.send(value: 3)
        #expect(b.events == [.value(2), .value(3)])
        withExtendedLifetime((o, merged)) {}
    }

    /// Nothing is kept after the end and the release of the signal: the upstream is
    /// deactivated (its sends refused) once the caching signal is gone.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingTheCacheDeactivatesUpstream(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let cached = signal.cacheUntilActive()
            #expect(input.send(value: 1) == nil)
            let t = counter.token()
            let o = cached.subscribeValues { _ in t.touch() }
            o.cancel()
        }
        #expect(counter.freed == 1)
        #expect(input.send(value: 2) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func emptyAndNilPrecached(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let a = signal.cacheUntilActive(precached: []).capture()
        #expect(a.values == [])
        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let b = signal2.cacheUntilActive(precached: nil).capture()
        #expect(b.values == [])
        withExtendedLifetime((input, input2)) {}
    }
}

/// `continuousWhileActive(discardOnDeactivate:)`: the discarding form forgets the latest value
/// with its last branch; the keeping form stays active once it has a value.
@Suite struct ContinuousWhileActiveTests {
    @Test(arguments: DeliveryVariant.allCases)
    func discardingFormForgets(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive(discardOnDeactivate: true) }
        #expect(input.send(value: 1) == .inactive)
        do { let o = multi.subscribeValues { _ in }; _ = input.send(value: 2); withExtendedLifetime(o) {} }
        #expect(input.send(value: 3) == .inactive)
        let c = Recorder<Int>()
        let o = multi.subscribe(c.handler)
        #expect(c.events == [])
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func keepingFormKeepsLatestAndStaysActive(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive(discardOnDeactivate: false) }
        #expect(input.send(value: 1) == .inactive)
        let first = Recorder<Int>()
        do { let o = multi.subscribe(first.handler); _ = input.send(value: 2); withExtendedLifetime(o) {} }
        #expect(first.events == [.value(2)])
        #expect(input.send(value: 3) == nil)
        let c = Recorder<Int>()
        let o = multi.subscribe(c.handler)
        _ = input.send(value: 4)
        #expect(c.events == [.value(3), .value(4)])
        #expect(multi.capture().values == [4])
        withExtendedLifetime(o) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func keepingFormWithoutValueDeactivates(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive(discardOnDeactivate: false) }
        do { let o = multi.subscribeValues { _ in }; withExtendedLifetime(o) {} }
        #expect(input.send(value: 1) == .inactive)
        withExtendedLifetime(multi) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func keepingFormReleasedDeactivates(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let multi = signal.continuousWhileActive(discardOnDeactivate: false)
            let t = counter.token()
            let o = multi.subscribeValues { _ in t.touch() }
            #expect(input.send(value: 1) == nil)
            o.cancel()
            #expect(input.send(value: 2) == nil)
        }
        #expect(counter.freed == 1)
        #expect(input.send(value: 3) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func keepingFormEndReachesLateBranches(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive(discardOnDeactivate: false) }
        do { let o = multi.subscribeValues { _ in }; _ = input.send(value: 1); withExtendedLifetime(o) {} }
        _ = input.complete()
        let c = Recorder<Int>()
        let o = multi.subscribe(c.handler)
        #expect(c.events == [.complete])
        withExtendedLifetime(o) {}
    }
}
