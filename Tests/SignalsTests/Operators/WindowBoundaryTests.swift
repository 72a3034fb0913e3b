import Signals
import Synchronization
import Testing

/// `window(boundary:)`: a window open from activation, each boundary value closing it and
/// opening the next; the ends of either input; cancelling mid-window; what is released.
@Suite struct WindowBoundaryTests {
    static let variants = DeliveryVariant.allCases

    /// Subscribes to each window as it arrives.
    final class Windows: Sendable {
        let windows = Collected<Recorder<Int>>()
        var values: [[Int]] { windows.all.map(\.values) }
        var ends: [End?] { windows.all.map(\.end) }
        func take(_ window: Signal<Int>) { windows.append(Recorder(window)) }
    }

    @Test(arguments: variants) func boundaryValuesSplitTheWindows(_ v: DeliveryVariant) {
        let w = Windows()
        let (values, boundary, outer) = graph2(v, Int.self, String.self) { s, b in s.window(boundary: b).onValue { w.take($0) } }
        #expect(outer.values.count == 1, "the first window is delivered on activation")
        values.send(value: 1)
        values.send(value: 2)
        boundary.send(value: "x")
        boundary.send(value: "y")
        values.send(value: 3)
        values.complete()
        #expect(w.values == [[1, 2], [], [3]])
        #expect(w.ends == [.complete, .complete, .complete])
        #expect(outer.values.count == 3)
        #expect(outer.end == .complete)
        withExtendedLifetime(boundary) {}
    }

    @Test(arguments: variants) func theBoundarysCompletionOrCancellationIsIgnored(_ v: DeliveryVariant) {
        for end in [SignalEnd.complete, .cancelled] {
            let w = Windows()
            let (values, boundary, outer) = graph2(v, Int.self, Void.self) { s, b in s.window(boundary: b).onValue { w.take($0) } }
            values.send(value: 1)
            boundary.send(value: ())
            boundary.send(end: end)
            values.send(value: 2)
            values.send(value: 3)
            #expect(w.values == [[1], [2, 3]], "\(end)")
            #expect(w.ends == [.complete, nil], "\(end)")
            #expect(outer.end == nil, "\(end)")
            values.send(end: .other(TestError.boom))
            #expect(w.ends == [.complete, .boom], "\(end)")
            #expect(outer.end == .boom, "\(end)")
        }
    }

    @Test(arguments: variants) func theBoundarysErrorFailsTheWindowAndTheResult(_ v: DeliveryVariant) {
        let w = Windows()
        let (values, boundary, outer) = graph2(v, Int.self, Void.self) { s, b in s.window(boundary: b).onValue { w.take($0) } }
        values.send(value: 1)
        boundary.send(end: .other(TestError.boom))
        values.send(value: 2)
        #expect(w.values == [[1]])
        #expect(w.ends == [.boom])
        #expect(outer.end == .boom)
        #expect(outer.values.count == 1)
    }

    @Test(arguments: variants) func anUpstreamErrorFailsTheOpenWindow(_ v: DeliveryVariant) {
        let w = Windows()
        let (values, boundary, outer) = graph2(v, Int.self, Void.self) { s, b in s.window(boundary: b).onValue { w.take($0) } }
        values.send(value: 1)
        boundary.send(value: ())
        values.send(value: 2)
        values.send(end: .other(TestError.boom))
        #expect(w.values == [[1], [2]])
        #expect(w.ends == [.complete, .boom])
        #expect(outer.end == .boom)
        withExtendedLifetime(boundary) {}
    }

    @Test(arguments: variants) func anEmptySourceGivesOneEmptyWindow(_ v: DeliveryVariant) {
        let w = Windows()
        let outer = Recorder(Signal<Int>.empty(delivery: v).window(boundary: Signal<Void>.never(delivery: v)).onValue { w.take($0) })
        #expect(outer.values.count == 1)
        #expect(w.values == [[]])
        #expect(w.ends == [.complete])
        #expect(outer.end == .complete)
    }

    @Test(arguments: variants) func cancellingMidWindowEndsItAndReleasesBothInputs(_ v: DeliveryVariant) {
        let w = Windows()
        let flag = Flagged()
        let (values, signal) = Signal<Int>.create(delivery: v)
        let (boundary, boundarySignal) = Signal<Void>.create(delivery: v)
        do {
            let canary = Canary(flag)
            let outer = Recorder(signal.window(boundary: boundarySignal.onValue { _ in withExtendedLifetime(canary) {} }).onValue { w.take($0) })
            values.send(value: 1)
            boundary.send(value: ())
            values.send(value: 2)
            outer.cancel()
            #expect(w.values == [[1], [2]])
            #expect(w.ends == [.complete, .cancelled], "the open window ends with the cancellation")
            #expect(outer.end == nil)
        }
        #expect(flag.isSet, "the boundary's chain is released with the result")
        #expect(values.send(value: 3) == .inactive, "the source is disconnected")
        #expect(w.values == [[1], [2]])
    }

    @Test(arguments: variants) func statePerActivation(_ v: DeliveryVariant) {
        let (bi, bs) = Signal<Void>.create(delivery: v)
        let reset = reactivate(v, first: [1], second: [2, 3]) { s in
            s.window(boundary: bs).flatMap { $0.toArray() }
        }
        #expect(reset.first == [])
        #expect(reset.second == [], "the second activation's window is open")
        withExtendedLifetime(bi) {}
    }
}
