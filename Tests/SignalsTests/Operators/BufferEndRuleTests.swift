import Signals
import Testing

/// The rule every buffer and window form follows at an end: a completion emits the open
/// arrays (and completes the open windows); an error or cancellation drops the open arrays
/// and ends the open windows with it (RxJS's `bufferCount`, `bufferTime`).
@Suite struct BufferEndRuleTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func countAndSkipDropsOpenArraysOnError(_ v: DeliveryVariant) {
        let failed = run(v, [1, 2, 3], end: .other(TestError.boom)) { $0.buffer(count: 2, skip: 1) }
        #expect(failed.values == [[1, 2], [2, 3]], "the arrays [3] and the full ones before stay as they were")
        #expect(failed.end == .boom)
        let cancelled = run(v, [1, 2, 3], end: .cancelled) { $0.buffer(count: 5, skip: 5) }
        #expect(cancelled.values == [])
        #expect(cancelled.end == .cancelled)
        let completed = run(v, [1, 2, 3]) { $0.buffer(count: 2, skip: 1) }
        #expect(completed.values == [[1, 2], [2, 3], [3]], "a completion still emits them")
        #expect(completed.end == .complete)
    }

    @Test(arguments: variants) func intervalAndTimeshiftDropsOpenArraysOnError(_ v: DeliveryVariant) {
        // Arrays open at 0, 4, 8; the first closes at 10 with [1, 2]; those from 4 and 8 are
        // open at 11.
        marbleTest(v) { m in
            let arrays: [Character: [String]] = ["a": ["1", "2"], "b": ["2"], "e": []]
            let failing = m.hot("   -1---2-----#")
            let completing = m.hot("-1---2-----|")
            let span = m.duration(10), shift = m.duration(4)
            m.expectSignal(failing.signal.buffer(interval: span, timeshift: shift, context: m.context)).toBe("----------a#", values: arrays)
            m.expectSignal(completing.signal.buffer(interval: span, timeshift: shift, context: m.context)).toBe("----------a(be|)", values: arrays)
        }
    }

    @Test(arguments: variants) func windowsSignalDropsOpenArraysOnAnyError(_ v: DeliveryVariant) {
        let (windowsInput, windows) = Signal<Signal<Void>>.create(delivery: v)
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.buffer(windows: windows))
        let (closer, window) = Signal<Void>.create(delivery: v)
        windowsInput.send(value: window)
        input.send(value: 1)
        windowsInput.send(end: .other(TestError.boom))
        #expect(rec.values == [])
        #expect(rec.end == .boom)
        withExtendedLifetime((input, closer)) {}

        let (windowsInput2, windows2) = Signal<Signal<Void>>.create(delivery: v)
        let (input2, signal2) = Signal<Int>.create(delivery: v)
        let rec2 = Recorder(signal2.buffer(windows: windows2))
        let (closer2, window2) = Signal<Void>.create(delivery: v)
        windowsInput2.send(value: window2)
        input2.send(value: 1)
        input2.complete()
        #expect(rec2.values == [[1]], "a completion emits the open array")
        #expect(rec2.end == .complete)
        withExtendedLifetime((windowsInput2, closer2)) {}
    }

    @Test(arguments: variants) func windowsEndWithTheSourcesEnd(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let inner = Collected<Recorder<Int>>()
        let rec = Recorder(signal.window(count: 3, skip: 1).map { w -> Int in
            inner.append(Recorder(w))
            return 0
        })
        input.send(value: 1)
        input.send(value: 2)
        input.send(end: .other(TestError.boom))
        #expect(rec.end == .boom)
        #expect(inner.all.map(\.values) == [[1, 2], [2]])
        #expect(inner.all.map(\.end) == [.boom, .boom], "each open window ends with the error")
    }
}
