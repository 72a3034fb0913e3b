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

/// Misuse reported as a value by the new operators that take other signals.
@Suite struct PortMisuseTests {
    @Test(arguments: DeliveryVariant.allCases) func duplicateRightOfJoin(_ v: DeliveryVariant) {
        let (left, ls) = Signal<Int>.create(delivery: v)
        let (right, rs) = Signal<Int>.create(delivery: v)
        let taken = rs.subscribeValues { _ in }
        let r = Recorder(ls.join(withRight: rs, leftEnd: { _ in Signal<Void>.never(delivery: v) },
                                 rightEnd: { _ in Signal<Void>.never(delivery: v) }) { $0 })
        #expect(r.end == .error(String(describing: SignalBindError.duplicate)))
        withExtendedLifetime((taken, left, right)) {}
    }

    @Test(arguments: DeliveryVariant.allCases) func duplicateWindowsSignal(_ v: DeliveryVariant) {
        let (input, source) = Signal<Int>.create(delivery: v)
        let (windowInput, windows) = Signal<Signal<Void>>.create(delivery: v)
        let taken = windows.subscribeValues { _ in }
        let r = Recorder(source.buffer(windows: windows))
        #expect(r.end == .error(String(describing: SignalBindError.duplicate)))
        withExtendedLifetime((taken, input, windowInput)) {}
    }

    /// A capture resumed twice: the second is refused as a value (the first keeps working).
    @Test(arguments: DeliveryVariant.allCases) func captureResumedTwice(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous(initialValue: 1) }
        let capture = multi.capture()
        let first = Recorder(capture.resume(resend: .all))
        let second = Recorder(capture.resume(resend: .all))
        input.send(value: 2)
        #expect(first.values == [1, 2])
        #expect(second.end == .error(String(describing: SignalBindError.duplicate)))
    }
}
