#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/bufferCount-spec.ts, ported: `bufferCount(maxSize, startEvery)` (in this
// copy of the spec, `buffer({ maxSize, startEvery, emitRemainingOnError: false })`) is
// `buffer(count: maxSize, skip: startEvery)`.

@Suite("buffer(count:skip:) — rxjs spec/operators/bufferCount-spec.ts")
struct BufferCountConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit buffers at intervals", arguments: variants) func shouldEmitBuffersAtIntervals(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: [String]] = [
                "v": ["a", "b", "c"],
                "w": ["c", "d", "e"],
                "x": ["e", "f", "g"],
                "y": ["g", "h", "i"],
                "z": ["i"],
            ]
            let e1 = m.hot("  --a--b--c--d--e--f--g--h--i--|")
            let expected = "  --------v-----w-----x-----y--(z|)"
            m.expectSignal(e1.signal.buffer(count: 3, skip: 2)).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers at buffersize of intervals if not specified", arguments: variants) func shouldEmitBuffersAtBuffersizeOfIntervalsIfNotSpecified(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: [String]] = [
                "x": ["a", "b"],
                "y": ["c", "d"],
                "z": ["e", "f"],
            ]
            let e1 = m.hot("  --a--b--c--d--e--f--|")
            let expected = "  -----x-----y-----z--|"
            m.expectSignal(e1.signal.buffer(count: 2, skip: 2)).toBe(expected, values: values)
        }
    }

    @Test("should emit partial buffers if source completes before reaching specified buffer count", arguments: variants) func shouldEmitPartialBuffersIfSourceCompletesBeforeReachingSpecifiedBufferCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--|")
            let expected = "  --------------(x|)"
            m.expectSignal(e1.signal.buffer(count: 5, skip: 5)).toBe(expected, values: ["x": ["a", "b", "c", "d"]])
        }
    }

    @Test("should emit full buffer then last partial buffer if source completes", arguments: variants) func shouldEmitFullBufferThenLastPartialBufferIfSourceCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a^-b--c--d--e--|")
            let e1subs = "       ^-------------!"
            let expected = "     --------y-----(z|)"
            m.expectSignal(e1.signal.buffer(count: 3, skip: 3)).toBe(expected, values: [
                "y": ["b", "c", "d"],
                "z": ["e"],
            ])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit buffers at intervals, but stop when result is unsubscribed early", arguments: variants) func shouldEmitBuffersAtIntervalsButStopWhenResultIsUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: [String]] = [
                "v": ["a", "b", "c"],
                "w": ["c", "d", "e"],
            ]
            let e1 = m.hot("  --a--b--c--d--e--f--g--h--i--|")
            let unsub = "     ------------------!           "
            let subs = "      ^-----------------!           "
            let expected = "  --------v-----w----           "
            m.expectSignal(e1.signal.buffer(count: 3, skip: 2), unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: [String]] = [
                "v": ["a", "b", "c"],
                "w": ["c", "d", "e"],
            ]
            let e1 = m.hot("  --a--b--c--d--e--f--g--h--i--|")
            let subs = "      ^-----------------!           "
            let expected = "  --------v-----w----           "
            let unsub = "     ------------------!           "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .buffer(count: 3, skip: 2)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should raise error if source raise error before reaching specified buffer count", arguments: variants) func shouldRaiseErrorIfSourceRaiseErrorBeforeReachingSpecifiedBufferCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--d--#")
            let e1subs = "    ^-------------!"
            let expected = "  --------------#"
            m.expectSignal(e1.signal.buffer(count: 5, skip: 5)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit buffers with specified skip count when skip count is less than window count", arguments: variants) func shouldEmitBuffersWithSpecifiedSkipCountWhenSkipCountIsLessThanWindowCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: [String]] = [
                "v": ["a", "b", "c"],
                "w": ["b", "c", "d"],
                "x": ["c", "d", "e"],
                "y": ["d", "e"],
                "z": ["e"],
            ]
            let e1 = m.hot("  --a--b--c--d--e--|")
            let e1subs = "    ^----------------!"
            let expected = "  --------v--w--x--(yz|)"
            m.expectSignal(e1.signal.buffer(count: 3, skip: 1)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit buffers with specified skip count when skip count is more than window count", arguments: variants) func shouldEmitBuffersWithSpecifiedSkipCountWhenSkipCountIsMoreThanWindowCount(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--b--c--d--e--|")
            let e1subs = "    ^----------------!"
            let expected = "  -----y--------z--|"
            let values: [Character: [String]] = [
                "y": ["a", "b"],
                "z": ["d", "e"],
            ]
            m.expectSignal(e1.signal.buffer(count: 2, skip: 3)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
