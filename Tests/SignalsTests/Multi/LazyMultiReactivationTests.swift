import Signals
import Synchronization
import Testing

/// The lazy caching multis (`continuousWhileActive()`, `playbackWhileActive()`) start afresh
/// on every activation, even after their source ended: a send that returns nil is delivered.
@Suite struct LazyMultiReactivationTests {
    static let variants = DeliveryVariant.allCases

    final class InputBox: Sendable {
        let input = Mutex<SignalInput<Int>?>(nil)
        func set(_ i: SignalInput<Int>?) { let old = input.withLock { o in defer { o = i }; return o }; withExtendedLifetime(old) {} }
        func send(_ v: Int) -> SignalSendError? { input.withLock { $0 }?.send(value: v) }
        func complete() { _ = input.withLock { $0 }?.complete() }
    }

    func reactivatedAfterTheEnd(_ v: DeliveryVariant, _ make: (Signal<Int>) -> SignalMulti<Int>) {
        let box = InputBox()
        let m = make(Signal<Int>.generate(delivery: v) { box.set($0) })
        let r1 = Recorder(m)
        #expect(box.send(6) == nil)
        box.complete()
        #expect(r1.values == [6])
        #expect(r1.end == .complete)
        r1.cancel()
        let r2 = Recorder(m)
        let refused = box.send(7)
        if refused == nil {
            #expect(r2.values == [7], "a send that returns nil is delivered")
        }
        #expect(refused == nil, "the multi is active again with a fresh source")
        box.complete()
        #expect(r2.end == .complete)
        r2.cancel()
    }

    @Test(arguments: variants) func continuousWhileActiveRestartsAfterItsSourceEnded(_ v: DeliveryVariant) {
        reactivatedAfterTheEnd(v) { $0.continuousWhileActive() }
    }

    @Test(arguments: variants) func playbackWhileActiveRestartsAfterItsSourceEnded(_ v: DeliveryVariant) {
        reactivatedAfterTheEnd(v) { $0.playbackWhileActive() }
    }
}
