import Dispatch
import Signals
import Synchronization
import Testing

/// The README's first example and the examples of `Signals.docc/GettingStarted.md`, compiled
/// and checked: if one of them stops working, this suite fails. (Each test repeats a snippet
/// with assertions added.)
@Suite("README examples")
struct ReadmeExamplesTests {
    @Test(arguments: DeliveryVariant.allCases)
    func tour(variant: DeliveryVariant) {
        let seen = Collected<String>()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        #expect(input.send(value: 0) == .inactive)          // nothing subscribed yet

        var lifetimes: [any Lifetime] = []
        lifetimes += signal
            .filter { $0 % 2 == 1 }
            .map { "odd \($0)" }
            .subscribeValues { seen.append($0) }

        for i in 1...5 { input.send(value: i) }
        input.complete()
        #expect(seen.all == ["odd 1", "odd 3", "odd 5"])
        #expect(input.send(value: 7) == .disconnected)      // the first end closes the stream
        lifetimes.removeAll()
    }

    @Test(arguments: DeliveryVariant.allCases)
    func multiAndCapture(variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous(initialValue: 5) }
        let first = Collected<Int>()
        let out1 = multi.subscribeValues { first.append($0) }   // gets 5 at once
        input.send(value: 6)
        let capture = multi.capture()                            // activation value: the latest
        #expect(capture.values == [6])
        input.send(value: 7)                                     // held until subscribed
        let second = Collected<Int>()
        let out2 = capture.subscribeValues { second.append($0) }
        #expect(first.all == [5, 6, 7])
        #expect(second.all == [7])
        withExtendedLifetime((out1, out2)) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func duplicateSubscribeIsAValue(variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let out1 = signal.subscribeValues { _ in }
        let refused = Collected<SignalBindError>()
        let out2 = signal.subscribe { r in
            if let e = r.end?.otherError as? SignalBindError { refused.append(e) }
        }
        #expect(refused.all == [.duplicate])
        #expect(input.send(value: 1) == nil)                     // the first subscriber is intact
        withExtendedLifetime((out1, out2)) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func reentrantSendsAreQueuedNotNested(variant: DeliveryVariant) {
        let count = Atomic<Int>(0)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let out = signal.subscribeValues { v in
            count.add(1, ordering: .relaxed)
            if v < 1_000_000 { input.send(value: v + 1) }   // queued; runs after this returns
        }
        input.send(value: 1)
        #expect(count.load(ordering: .relaxed) == 1_000_000)
        withExtendedLifetime(out) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func junctionRefusesALoop(variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let junction = signal.map { $0 + 1 }.junction()
        #expect(junction.bind(to: input) == .loop)           // would feed itself: refused
        let (other, otherSignal) = Signal<Int>.create(delivery: variant)
        let seen = Collected<Int>()
        let out = otherSignal.subscribeValues { seen.append($0) }
        #expect(junction.bind(to: other) == nil)             // nothing was lost: binds elsewhere
        #expect(input.send(value: 1) == nil)
        #expect(seen.all == [2])
        #expect(junction.disconnect() === other)
        withExtendedLifetime(out) {}
    }
}
