// CwlSignal's `testFrom`: activation values are what a cache replays when the
// capture activates (a multi's cached values, a closed node's end), not what a source sends
// while it is being activated. `just`/`from` are cold sources: a capture of them captures
// nothing, and its subscriber receives every value and the end. `preclosed` is the shareable
// sequence of activation values.

import Signals
import Synchronization
import Testing

/// A result as text: the value, or "end" and the end.
private func describe(_ r: Result<Int, SignalEnd>) -> String {
    switch r {
    case .success(let v): return "\(v)"
    case .failure(let e): return "end \(e)"
    }
}

@Suite("Capture of a cold source")
struct CaptureActivationValuesTests {
    @Test(arguments: DeliveryVariant.allCases)
    func captureOfJustCapturesNothingAndBindDeliversEverything(variant: DeliveryVariant) {
        let capture = Signal<Int>.just(1, 3, 5, 7, 11, delivery: variant).capture()
        #expect(capture.values.isEmpty)
        #expect(capture.end == nil)
        let received = Mutex<[String]>([])
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let out = signal.subscribe { r in received.withLock { $0.append(describe(r)) } }
        let junction = capture.bind(to: input)
        #expect((try? junction.get()) != nil)
        #expect(received.withLock { $0 } == ["1", "3", "5", "7",
                                             "11", "end complete"])
        withExtendedLifetime((out, junction)) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func captureOfGenerateHoldsItsValuesForTheSubscriber(variant: DeliveryVariant) {
        let capture = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            input.send(value: 4)
            input.send(value: 5)
        }.capture()
        #expect(capture.values.isEmpty)
        let received = Mutex<[Int]>([])
        let out = capture.subscribeValues { v in received.withLock { $0.append(v) } }
        #expect(received.withLock { $0 } == [4, 5])
        withExtendedLifetime(out) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func preclosedValuesAreActivationValuesForEverySubscriber(variant: DeliveryVariant) {
        let closed = Signal<Int>.preclosed(1, 2, 3, delivery: variant)
        let first = closed.capture()
        #expect(first.values == [1, 2, 3])
        #expect(first.end?.isComplete == true)
        let second = closed.map { $0 * 10 }.capture()
        #expect(second.values == [10, 20, 30])
        #expect(second.end?.isComplete == true)
        let received = Mutex<[String]>([])
        let out = closed.subscribe { r in received.withLock { $0.append(describe(r)) } }
        #expect(received.withLock { $0 } == ["1", "2", "3", "end complete"])
        withExtendedLifetime(out) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func continuousCaptureStillTakesTheCachedValue(variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        _ = input.send(value: 1)
        _ = input.send(value: 2)
        let capture = multi.map { $0 + 100 }.capture()
        #expect(capture.values == [102])
        _ = input.send(value: 3)
        let received = Mutex<[Int]>([])
        let out = capture.subscribeValues { v in received.withLock { $0.append(v) } }
        #expect(received.withLock { $0 } == [103])
        withExtendedLifetime(out) {}
    }
}
