import Signals
import Synchronization
import Testing

/// `delaySubscription(until:)`: the source is connected only once the trigger decides.
@Suite struct DelaySubscriptionTests {
    static let variants = DeliveryVariant.allCases

    /// A `generate` signal that logs its activations ("open") and deactivations ("close")
    /// and hands out its current input.
    final class Probe: Sendable {
        let log = Collected<String>()
        let current = Mutex<SignalInput<Int>?>(nil)
        func signal(_ v: DeliveryVariant) -> Signal<Int> {
            Signal<Int>.generate(delivery: v) { [self] input in
                log.append(input == nil ? "close" : "open")
                current.withLock { $0 = input }
            }
        }
        func send(_ x: Int) { _ = current.withLock { $0 }?.send(value: x) }
        func end(_ e: SignalEnd) { _ = current.withLock { $0 }?.send(end: e) }
    }

    @Test(arguments: variants) func theSourceIsConnectedAtTheTriggersFirstValueAndTheTriggerReleased(_ v: DeliveryVariant) {
        let source = Probe()
        let trigger = Probe()
        let rec = Recorder(source.signal(v).delaySubscription(until: trigger.signal(v)))
        #expect(source.log.all == [], "nothing of the source runs before the trigger decides")
        #expect(trigger.log.all == ["open"])
        trigger.send(1)
        #expect(source.log.all == ["open"])
        #expect(trigger.log.all == ["open", "close"], "the trigger is released once it has decided")
        source.send(10)
        source.send(11)
        source.end(.complete)
        #expect(rec.values == [10, 11])
        #expect(rec.end == .complete)
        #expect(source.log.all == ["open", "close"])
    }

    @Test(arguments: variants) func aCompletionConnectsAndAnyOtherEndOfTheTriggerEndsTheResult(_ v: DeliveryVariant) {
        let source = Probe()
        let trigger = Probe()
        let rec = Recorder(source.signal(v).delaySubscription(until: trigger.signal(v)))
        trigger.end(.complete)
        #expect(source.log.all == ["open"], "a completion without a value connects the source")
        source.send(1)
        #expect(rec.values == [1])

        for end in [SignalEnd.other(TestError.boom), .cancelled] {
            let source2 = Probe()
            let trigger2 = Probe()
            let rec2 = Recorder(source2.signal(v).delaySubscription(until: trigger2.signal(v)))
            trigger2.end(end)
            #expect(rec2.end == End(end))
            #expect(source2.log.all == [], "the source is never connected")
        }
    }

    @Test(arguments: variants) func cancellingReleasesWhicheverSubscriptionIsOpen(_ v: DeliveryVariant) {
        for connect in [false, true] {
            let source = Probe()
            let trigger = Probe()
            let released = Flagged()
            do {
                let canary = Canary(released)
                let output = source.signal(v).delaySubscription(until: trigger.signal(v))
                    .onValue { _ in withExtendedLifetime(canary) {} }
                    .subscribe { _ in }
                if connect {
                    trigger.send(1)
                    source.send(2)
                }
                output.cancel()
            }
            #expect(released.isSet, "connected \(connect): the graph was not released")
            #expect(trigger.log.all == ["open", "close"])
            #expect(source.log.all == (connect ? ["open", "close"] : []))
        }
    }

    @Test(arguments: variants) func aTriggerThatNeverDecidesKeepsTheSourceUnconnected(_ v: DeliveryVariant) {
        let source = Probe()
        let rec = Recorder(source.signal(v).delaySubscription(until: Signal<Int>.never(delivery: v)))
        #expect(source.log.all == [])
        #expect(rec.end == nil)
        rec.cancel()
        #expect(source.log.all == [])
    }

    @Test(arguments: variants) func aLaterActivationDoesNotReconnectBeforeATrigger(_ v: DeliveryVariant) {
        let source = Probe()
        let trigger = Probe()
        let shared = source.signal(v).delaySubscription(until: trigger.signal(v)).multicast()
        let a = Recorder(shared)
        trigger.send(1)
        source.send(1)
        a.cancel()
        let b = Recorder(shared)
        #expect(source.log.all == ["open", "close"], "the new activation does not connect the source at once")
        trigger.send(2)
        source.send(2)
        #expect(b.values == [], "a signal has one output: the released connection is not made again")
        #expect(a.values == [1])
        b.cancel()
    }
}
