import Foundation
import Signals
import Testing

/// A `map` right in front of a value subscription checks the subscription's gate and calls its
/// handler itself (`MapIntoTerminalStage`), one closure call fewer per value. These tests pin
/// what that stage must keep: the gate after the transform, the end, and the other sinks
/// (a result subscription, a second map, a filter) that still go through the sink's closure.
@Suite struct MapIntoSubscriptionTests {
    /// A `cancel()` made inside the transform, for the value the stage is carrying: the value
    /// has passed the node's gate already, so only the subscription's own gate, checked after
    /// the transform, keeps it from the handler. Nothing reaches the handler once `cancel()`
    /// has returned, and later sends are `.inactive`.
    @Test(arguments: DeliveryVariant.allCases)
    func cancelInsideTheTransformKeepsTheValueFromTheHandler(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let holder = Shared<SignalOutput<Int>?>(nil)
        let received = Shared<[Int]>([])
        holder.value = signal.map { v -> Int in
            if v == 2 { holder.value?.cancel() }
            return v * 10
        }.subscribeValues { v in received.update { $0.append(v) } }
        #expect(input.send(value: 1) == nil)
        #expect(input.send(value: 2) == nil)
        #expect(received.value == [10])
        #expect(input.send(value: 3) == .inactive)
        #expect(received.value == [10])
        #expect(holder.value?.isClosed == true)
        holder.value = nil
    }

    /// Values reach the handler transformed and in order; the end closes the subscription
    /// (a value subscription ignores the end) and later sends are `.disconnected`.
    @Test(arguments: DeliveryVariant.allCases)
    func valuesThenTheEndReachTheSubscription(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let received = Shared<[Int]>([])
        let out = signal.map { $0 + 1 }.subscribeValues { v in received.update { $0.append(v) } }
        for i in 0..<5 { #expect(input.send(value: i) == nil) }
        #expect(!out.isClosed)
        #expect(input.complete() == nil)
        #expect(out.isClosed)
        #expect(input.send(value: 9) == .disconnected)
        #expect(received.value == [1, 2, 3, 4, 5])
    }

    /// Only the last `map` calls into the subscription; stages in front of it, a filter, and a
    /// result subscription behind a map go through the sink's closures as before.
    @Test(arguments: DeliveryVariant.allCases)
    func mixedChainsDeliverTheSameValues(_ variant: DeliveryVariant) {
        let (input1, signal1) = Signal<Int>.create(delivery: variant)
        let values = Shared<[Int]>([])
        let out1 = signal1.map { $0 * 2 }.filter { $0 % 4 == 0 }.map { $0 + 1 }.map { $0 * 3 }
            .subscribeValues { v in values.update { $0.append(v) } }
        for i in 0..<6 { input1.send(value: i) }
        #expect(values.value == [3, 15, 27])

        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let (c, out2) = signal2.map { $0 - 1 }.collect()
        input2.send(value: 1)
        input2.send(value: 2)
        input2.complete()
        #expect(c.events == [.value(0), .value(1), .complete])
        withExtendedLifetime((out1, out2)) {}
    }

    /// A map in front of a value subscription whose handler is slow enough that `cancel()`
    /// from another thread parks while a delivery runs: once `cancel()` has returned, the
    /// handler is never entered again.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func noDeliveryAfterCancelReturnsFromAnotherThread(_ variant: DeliveryVariant) {
        for round in 0..<20 {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let cancelled = Flag()
            let late = Counter()
            let seen = Counter()
            let out = signal.map { $0 &+ 1 }.subscribeValues { _ in
                if cancelled.isSet { late.add() }
                seen.add()
                usleep(100)
            }
            let sender = startThread {
                var i = 0
                while i < 100_000, input.send(value: i) == nil { i += 1 }
            }
            while seen.value < 5 { usleep(50) }
            out.cancel()
            cancelled.set()
            #expect(sender.finished())
            #expect(late.value == 0, "round \(round)")
        }
    }

    /// The subscription's handler and what it captured are freed once the subscription is
    /// cancelled, while the signal lives on (the stage holds the subscription only as the
    /// sink's closure did).
    @Test(arguments: DeliveryVariant.allCases)
    func cancelledHandlerIsReleased(_ variant: DeliveryVariant) {
        final class Token: Sendable {}
        let (input, signal) = Signal<Int>.create(delivery: variant)
        weak var weakToken: Token?
        let mapped = signal.map { $0 + 1 }
        var out: SignalOutput<Int>?
        do {
            let token = Token()
            weakToken = token
            out = mapped.subscribeValues { _ in withExtendedLifetime(token) {} }
        }
        input.send(value: 1)
        #expect(weakToken != nil)
        out?.cancel()
        out = nil
        #expect(weakToken == nil)
        withExtendedLifetime((input, mapped)) {}
    }
}
