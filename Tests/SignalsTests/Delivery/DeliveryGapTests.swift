#if DEBUG
import Foundation
import Signals
import Synchronization
import Testing

/// Two races of the delivery queues whose windows are a few instructions wide, so that luck
/// (`bench stress`) finds them only now and then: `DeliveryGapHook` (debug builds only) runs
/// another thread's send exactly in each window. Serialized: the hook is global.
@Suite(.tags(.startsThreads), .serialized) struct DeliveryGapTests {
    /// More than one drain's budget (`drainBudgetBeforeHandoff`, 1,024), so the holder offers
    /// its claim while values are still queued.
    static let queued = 1_100
    /// Values sent while the holder is inside its batch (the mutex queue offers its claim only
    /// when something arrived after the batch was taken).
    static let late = 10

    /// A thread that takes an offered claim while values queued before its own are waiting:
    /// its re-entrant send (from a handler it runs as the new holder) must queue behind its
    /// earlier value, not overtake it (per-sender FIFO).
    @Test(arguments: DeliveryVariant.allCases)
    func reentrantSendOfAThreadThatTookTheClaimStaysBehindItsEarlierValue(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let received = Shared<[Int]>([])
        let taker = Shared<pthread_t?>(nil)
        let reentrantSent = Shared(false)
        let out = signal.subscribe { result in
            guard case .success(let x) = result else { return }
            received.update { $0.append(x) }
            if x == 0 {
                // The holder is busy: another thread queues more than one drain's budget.
                _ = startThread { for i in 1...Self.queued { _ = input.send(value: i) } }.finished(within: 20)
            } else if x == 1_000 {
                _ = startThread { for i in 1...Self.late { _ = input.send(value: Self.queued + i) } }.finished(within: 20)
            }
            if let t = taker.value, pthread_equal(t, pthread_self()) != 0, x != 5_000, !reentrantSent.value {
                // The new holder, while its own 5,000 is still queued.
                reentrantSent.value = true
                _ = input.send(value: 6_000)
            }
        }
        // The hook is global and tests of other suites run at the same time: act only at this
        // test's holder (this thread, which claims the node by sending 0).
        let holder = pthread_self()
        DeliveryGapHook.install { gap in
            guard gap == .handoffOffered, pthread_equal(pthread_self(), holder) != 0 else { return }
            DeliveryGapHook.install(nil)
            // A sender arrives just as the holder offers its claim: it takes it.
            _ = startThread {
                taker.value = pthread_self()
                _ = input.send(value: 5_000)
            }.finished(within: 20)
        }
        defer { DeliveryGapHook.install(nil) }
        _ = input.send(value: 0)
        let r = received.value
        #expect(taker.value != nil, "the holder offered its claim")
        #expect(reentrantSent.value, "the thread that took the claim sent re-entrantly")
        #expect(r.count == 1 + Self.queued + Self.late + 2)
        let earlier = r.firstIndex(of: 5_000), later = r.firstIndex(of: 6_000)
        #expect(earlier != nil && later != nil && earlier! < later!,
                "the taker's 5,000 came at \(earlier ?? -1), its later re-entrant 6,000 at \(later ?? -1)")
        #expect(r.filter { $0 >= 1 && $0 <= Self.queued + Self.late } == Array(1...(Self.queued + Self.late)))
        withExtendedLifetime(out) {}
    }

    /// A send that arrives just after the holder found the queue empty and released the node
    /// finds it idle and delivers itself: it is never queued for a holder that is leaving.
    @Test(arguments: DeliveryVariant.allCases)
    func sendAtTheHoldersReleaseIsDeliveredNotStranded(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let received = Shared<[Int]>([])
        let armed = Shared(false)
        let out = signal.subscribe { result in
            guard case .success(let x) = result else { return }
            received.update { $0.append(x) }
            // A queued value, so the holder drains and releases from `nextOrRelease`.
            if x == 1 { _ = startThread { _ = input.send(value: 2) }.finished(within: 20) }
            if x == 2 { armed.value = true }
        }
        let holder = pthread_self()
        DeliveryGapHook.install { gap in
            guard gap == .released, armed.value, pthread_equal(pthread_self(), holder) != 0 else { return }
            armed.value = false
            DeliveryGapHook.install(nil)
            _ = startThread { _ = input.send(value: 3) }.finished(within: 20)
        }
        defer { DeliveryGapHook.install(nil) }
        _ = input.send(value: 1)
        #expect(!armed.value, "the holder released after its last value")
        #expect(received.value == [1, 2, 3])
        withExtendedLifetime(out) {}
    }
}
#endif
