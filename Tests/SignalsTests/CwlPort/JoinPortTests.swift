import Signals
import Testing

/// `join` and `groupJoin` (CwlSignal's `intersect` and `groupIntersect`), on both variants.
@Suite struct JoinPortTests {
    static let variants = DeliveryVariant.allCases

    /// Windows are closed by hand through inputs kept per value.
    final class Windows: Sendable {
        let closers = Collected<(Int, SignalInput<Void>)>()
        let delivery: DeliveryVariant
        init(_ delivery: DeliveryVariant) { self.delivery = delivery }
        func window(for value: Int) -> Signal<Void> {
            let (input, signal) = Signal<Void>.create(delivery: delivery)
            closers.append((value, input))
            return signal
        }
        func close(_ value: Int) { closers.all.first { $0.0 == value }?.1.send(value: ()) }
    }

    @Test(arguments: variants) func join(_ v: DeliveryVariant) {
        let windows = Windows(v)
        let (left, ls) = Signal<Int>.create(delivery: v)
        let (right, rs) = Signal<Int>.create(delivery: v)
        let r = Recorder(ls.join(withRight: rs, leftEnd: { windows.window(for: $0) }, rightEnd: { windows.window(for: $0) }) { "\($0.0)-\($0.1)" })
        left.send(value: 1)
        right.send(value: 10)        // meets 1
        left.send(value: 2)          // meets 10
        windows.close(1)
        right.send(value: 20)        // meets 2 only
        windows.close(10)
        left.send(value: 3)          // meets 20 only
        #expect(r.values == ["1-10", "2-10", "2-20", "3-20"])
        right.send(end: .other(TestError.boom))
        #expect(r.end == .complete, "as in CwlSignal, either side's end completes")
    }

    @Test(arguments: variants) func groupJoin(_ v: DeliveryVariant) {
        let windows = Windows(v)
        let (left, ls) = Signal<Int>.create(delivery: v)
        let (right, rs) = Signal<Int>.create(delivery: v)
        let groups = Collected<(Int, Signal<Int>)>()
        let out = ls.groupJoin(withRight: rs, leftEnd: { windows.window(for: $0) }, rightEnd: { windows.window(for: $0) }) { $0 }
            .subscribeValues { groups.append($0) }
        right.send(value: 10)
        left.send(value: 1)          // group of 1 starts with 10
        right.send(value: 20)
        windows.close(1)             // group of 1 completes
        right.send(value: 30)
        left.send(value: 2)          // 10, 20, 30 are all still open
        windows.close(20)
        right.send(value: 40)
        // Subscribed late: each group kept what it was sent.
        let recorded = groups.all.map { (value: $0.0, group: Recorder($0.1)) }
        #expect(recorded.map(\.value) == [1, 2])
        #expect(recorded[0].group.values == [10, 20])
        #expect(recorded[0].group.end == .complete)
        #expect(recorded[1].group.values == [10, 20, 30, 40])
        #expect(recorded[1].group.end == nil)
        left.complete()
        #expect(recorded[1].group.end == .complete, "the end completes the open groups")
        withExtendedLifetime(out) {}
    }
}
