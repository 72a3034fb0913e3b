#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/bufferTime-spec.ts, ported: `bufferTime(t, null, maxBufferSize)` is
// `buffer(timeSpan: t, count: maxBufferSize, context: m.context)` (`Infinity` is `.max`, the
// default); `bufferTime(t, creationInterval, Infinity)` is
// `buffer(interval: t, timeshift: creationInterval, context: m.context)`, and with a
// `maxBufferSize` `buffer(interval: t, timeshift: creationInterval, count: maxBufferSize,
// context: m.context)`.
//
// Not written (needs a form Signals lacks): none.
//
// Not ported (JavaScript only):
// - "should not mutate the buffer on reentrant next": a JS `Subject` fed again from `tap`
//   inside its own delivery.

@Suite("buffer(timeSpan:count:) — rxjs spec/operators/bufferTime-spec.ts")
struct BufferTimeConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit buffers at intervals", arguments: variants) func shouldEmitBuffersAtIntervals(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ")
            let subs = "      ^--------------------------------!   "
            let t = m.time("  ----------|                          ")
            let expected = "  ----------w---------x---------y--(z|)"
            let values: [Character: [String]] = [
                "w": ["a", "b"],
                "x": ["c", "d", "e"],
                "y": ["f", "g"],
                "z": [],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should emit buffers at intervals test 2", arguments: variants) func shouldEmitBuffersAtIntervalsTest2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---------a---------b---------c---------d---------e---------g--------|   ")
            let t = m.time("  --------------------------------|                                       ")
            let expected = "  --------------------------------x-------------------------------y---(z|)"
            let values: [Character: [String]] = [
                "x": ["a", "b", "c"],
                "y": ["d", "e", "g"],
                "z": [],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers at intervals or when the buffer is full", arguments: variants) func shouldEmitBuffersAtIntervalsOrWhenTheBufferIsFull(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ")
            let subs = "      ^--------------------------------!   "
            let t = m.time("  ----------|                          ")
            //                       ----------|
            //                               ----------|
            //                                       ----------|
            let expected = "  -------w-------x-------y---------(z|)"
            let values: [Character: [String]] = [
                "w": ["a", "b"],
                "x": ["c", "d"],
                "y": ["e", "f"],
                "z": ["g"],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: 2, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should emit buffers at intervals or when the buffer is full test 2", arguments: variants) func shouldEmitBuffersAtIntervalsOrWhenTheBufferIsFullTest2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ")
            let subs = "      ^--------------------------------!   "
            let t = m.time("  ----------|                          ")
            //                          ---------|---------|---------|
            let expected = "  ----------w--------x---------y---(z|)"
            let values: [Character: [String]] = [
                "w": ["a", "b"],
                "x": ["c", "d", "e"],
                "y": ["f", "g"],
                "z": [],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: 3, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should emit buffers that have been created at intervals and close after the specified delay", arguments: variants) func shouldEmitBuffersThatHaveBeenCreatedAtIntervalsAndCloseAfterTheSpecifiedDelay(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("       ---a---b---c----d----e----f----g----h----i----(k|)")
            //                     --------------------*--------------------*----  start interval
            //                     ---------------------|                          timespans
            //                                         ---------------------|
            //                                                              -----|
            let t = m.time("       ---------------------|                            ")
            let interval = m.time("--------------------|                             ")
            let expected = "       ---------------------x-------------------y----(z|)"
            let values: [Character: [String]] = [
                "x": ["a", "b", "c", "d", "e"],
                "y": ["e", "f", "g", "h", "i"],
                "z": ["i", "k"],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers that have been created at intervals and close after the specified delay or when the buffer is full", arguments: variants) func shouldEmitBuffersThatHaveBeenCreatedAtIntervalsAndCloseAfterTheSpecifiedDelayOrWhenTheBufferIsFull(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c----d----e----f----g----h----i----(k|)")
            //                --------------------*--------------------*----  start interval
            //                ---------------------|                          timespans
            //                                    ---------------------|
            //                                                         -----|
            let t = m.time("  ---------------------|                            ")
            let interval = m.time("                --------------------|        ")
            let expected = "  ----------------x-------------------y---------(z|)"
            let values: [Character: [String]] = [
                "x": ["a", "b", "c", "d"],
                "y": ["e", "f", "g", "h"],
                "z": ["i", "k"],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, count: 4, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers with timeSpan 10 and creationInterval 7", arguments: variants) func shouldEmitBuffersWithTimeSpan10AndCreationInterval7(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|   ")
            //                   -------*------*------*------*------*----- creation interval
            //                   ----------|                               timespans
            //                          ----------|
            //                                 ----------|
            //                                        ----------|
            //                                               ----------|
            //                                                      ----------|
            let e1subs = "       ^---------------------------------------!   "
            let t = m.time("     ----------|")
            let interval = m.time("        -------|")
            let expected = "     ----------a------b------c------d------e-(f|)"
            let values: [Character: [String]] = [
                "a": ["2", "3", "4"],
                "b": ["4", "5", "6"],
                "c": ["6", "7", "8"],
                "d": ["8", "9"],
                "e": [],
                "f": [],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit buffers but handle source ending with an error", arguments: variants) func shouldEmitBuffersButHandleSourceEndingWithAnError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------#")
            //                   -------*------*------*------*------*----- creation interval
            //                   ----------|                               timespans
            //                          ----------|
            //                                 ----------|
            //                                        ----------|
            //                                               ----------|
            //                                                      ----------|
            let t = m.time("     ----------|")
            let interval = m.time("        -------|")
            let expected = "     ----------a------b------c------d------e-#"
            let values: [Character: [String]] = [
                "a": ["2", "3", "4"],
                "b": ["4", "5", "6"],
                "c": ["6", "7", "8"],
                "d": ["8", "9"],
                "e": [],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
        }
    }

    @Test("should emit buffers and allow result to unsubscribed early", arguments: variants) func shouldEmitBuffersAndAllowResultToUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|")
            let unsub = "        -----------------!                       "
            let subs = "         ^----------------!                       "
            //                   -------*------*------*------*------*----- creation interval
            //                   ----------|                               timespans
            //                          ----------|
            //                                 ----------|
            let t = m.time("     ----------|                              ")
            let interval = m.time("        -------|                       ")
            let expected = "     ----------a------                        "
            let values: [Character: [String]] = [
                "a": ["2", "3", "4"],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|")
            let subs = "         ^---------------!                        "
            //                   -------*------*------*------*------*----- creation interval
            //                   ----------|                               timespans
            //                          ----------|
            //                                 ----------|
            let t = m.time("     ----------|")
            let interval = m.time("        -------|")
            let expected = "     ----------a------                        "
            let unsub = "        ----------------!                        "
            let values: [Character: [String]] = [
                "a": ["2", "3", "4"],
            ]
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .buffer(interval: t, timeshift: interval, context: m.context)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs = "    (^!)"
            let expected = "  (b|)"
            let values: [Character: [String]] = ["b": []]
            let t = m.time("----------|")
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-")
            let unsub = "     --------------------------------------------!"
            let t = m.time("  ----------|                                  ")
            let expected = "  ----------a---------a---------a---------a----"
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: ["a": []])
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("#", error: MarbleError("haha"))
            let expected = "  #"
            let t = m.time("----------|")
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result).toBe(expected, error: MarbleError("haha"))
        }
    }

    @Test("should handle errors", arguments: variants) func shouldHandleErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---#")
            let e1subs = "    ^--------------!"
            let t = m.time("  ----------|")
            let expected = "  ----------w----#"
            let values: [Character: [String]] = [
                "w": ["a", "b"],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit buffers that have been created at intervals and close after the specified delay with errors", arguments: variants) func shouldEmitBuffersThatHaveBeenCreatedAtIntervalsAndCloseAfterTheSpecifiedDelayWithErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("       ---a---b---c----d----e----f----g----h----i--#")
            //                     --------------------|-------------------|-------------------| interval
            //                     ---------------------|
            //                                         ---------------------|
            //                                                             ---------------------| timespan
            let e1subs = "         ^-------------------------------------------!"
            let t = m.time("       ---------------------|                       ")
            let interval = m.time("                --------------------|   ")
            let expected = "       ---------------------x-------------------y--#"
            let values: [Character: [String]] = [
                "x": ["a", "b", "c", "d", "e"],
                "y": ["e", "f", "g", "h", "i"],
            ]
            let result = e1.signal.buffer(interval: t, timeshift: interval, context: m.context)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not throw when subscription synchronously unsubscribed after emit", arguments: variants) func shouldNotThrowWhenSubscriptionSynchronouslyUnsubscribedAfterEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a---b---c---d---e---f---g-----|")
            let subs = "      ^-------------------!             "
            let t = m.time("  ----------|                       ")
            let expected = "  ----------w---------(x|)          "
            let values: [Character: [String]] = [
                "w": ["a", "b"],
                "x": ["c", "d", "e"],
            ]
            let result = e1.signal.buffer(timeSpan: t, count: .max, context: m.context).take(2)
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should not have errors when take follows and maxBufferSize is provided", arguments: variants) func shouldNotHaveErrorsWhenTakeFollowsAndMaxBufferSizeIsProvided(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let tick = m.duration(1)
            let buffTime = m.duration(5)
            let expected = "-----a----b----c----d----(e|)"
            let values: [Character: [Int]] = [
                "a": [0, 1, 2, 3],
                "b": [4, 5, 6, 7, 8],
                "c": [9, 10, 11, 12, 13],
                "d": [14, 15, 16, 17, 18],
                "e": [19, 20, 21, 22, 23],
            ]
            let source = Signal<Int>.interval(tick, context: m.context, delivery: variant)
                .buffer(timeSpan: buffTime, count: 10, context: m.context).take(5)
            m.expectSignal(source).toBe(expected, values: values)
        }
    }
}

#endif
