import Signals
import Synchronization
import Testing

/// Channels, readers and activation operators keep nothing after their end or cancel: the
/// handler (and what it captured) is freed, and the upstream is deactivated (its sends are
/// refused as `.inactive`) once the reader or operator is released.
@Suite struct ReaderAndBuilderLifetimeTests {
    @Test(arguments: DeliveryVariant.allCases)
    func channelSubscriptionReleasesHandlerOnCancel(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let input: SignalInput<Int>
        do {
            let t = counter.token()
            let (i, o) = Signal<Int>.channel(delivery: variant).map { $0 + 1 }.subscribeValues { _ in t.touch() }
            input = i
            #expect(input.send(value: 1) == nil)
            o.cancel()
        }
        #expect(counter.freed == 1)
        #expect(input.send(value: 2) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func channelSubscribeUntilEndReleasesAtTheEnd(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let input: SignalInput<Int>
        do {
            let t = counter.token()
            input = Signal<Int>.channel(delivery: variant).subscribeUntilEnd { _ in t.touch() }
        }
        #expect(input.send(value: 1) == nil)
        #expect(counter.freed == 0)
        _ = input.complete()
        #expect(counter.freed == 1)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func mergedChannelSubscriptionReleasesHandler(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (source, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let (merged, o) = Signal<Int>.mergedChannel(delivery: variant).subscribeValues { _ in t.touch() }
            merged.add(signal)
            #expect(source.send(value: 1) == nil)
            o.cancel()
            withExtendedLifetime(merged) {}
        }
        #expect(counter.freed == 1)
        #expect(source.send(value: 2) != nil)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func signalLatestReleasedDeactivates(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        weak var weakLatest: SignalLatest<Int>?
        do {
            let latest = signal.cacheLatest()
            weakLatest = latest
            #expect(input.send(value: 4) == nil)
            #expect(latest.latestValue == 4)
        }
        #expect(weakLatest == nil)
        #expect(input.send(value: 5) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func signalLatestCancelKeepsLatestAndStops(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let latest = signal.cacheLatest()
        _ = input.send(value: 1)
        latest.cancel()
        #expect(input.send(value: 2) == .inactive)
        #expect(latest.latestValue == 1)
        latest.cancel()
    }

    @Test(arguments: DeliveryVariant.allCases)
    func sequenceCancelAndReleaseDeactivate(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        weak var weakSequence: SignalSequence<Int>?
        do {
            let seq = signal.toSequence()
            weakSequence = seq
            _ = input.send(value: 1)
            #expect(seq.next() == 1)
        }
        #expect(weakSequence == nil)
        #expect(input.send(value: 2) == .inactive)
        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let seq2 = signal2.toSequence()
        _ = input2.send(value: 3)
        seq2.cancel()
        #expect(input2.send(value: 4) == .inactive)
        #expect(seq2.next() == 3)
        #expect(seq2.next() == nil)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func customActivationReleasedDeactivates(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let multi = signal.customActivation { values, _, r in
                t.touch()
                if let v = r.value { values = [v] }
            }
            #expect(input.send(value: 1) == nil)
            #expect(multi.capture().values == [1])
        }
        #expect(counter.freed == 1)
        #expect(input.send(value: 2) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func mapActivationReleasedDeactivates(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        _ = input.send(value: 1)
        do {
            let t = counter.token()
            let mapped = multi.mapActivation(select: .all, activation: { v -> Int in t.touch(); return v * 10 }, remainder: { $0 })
            let c = Recorder<Int>()
            let o = mapped.subscribe(c.handler)
            _ = input.send(value: 2)
            #expect(c.events == [.value(10), .value(2)])
            o.cancel()
        }
        #expect(counter.freed == 1)
        withExtendedLifetime(multi) {}
    }
}
