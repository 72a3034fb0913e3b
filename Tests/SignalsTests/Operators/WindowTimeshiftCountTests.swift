import Signals
import Synchronization
import Testing

/// `window(interval:timeshift:count:context:)`: overlapping time windows with a size limit.
@Suite struct WindowTimeshiftCountTests {
    static let variants = DeliveryVariant.allCases

    /// Sends `(value, time in seconds)` pairs, completes at `endAt`; returns the windows'
    /// events as "w<n>:<event>@seconds" (n counts windows from 0) and the result's as
    /// "<event>@seconds", in the order they happened.
    func timeline(
        _ v: DeliveryVariant, _ sends: [(Int, Int)], endAt: Int, _ op: (Signal<Int>, Exec) -> Signal<Signal<Int>>
    ) -> [String] {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let log = Collected<String>()
        let windowOutputs = Collected<SignalOutput<Int>>()
        let count = Mutex(0)
        let output = op(signal, .custom(vt)).subscribe { r in
            let t = vt.now().components.seconds
            switch r {
            case .success(let window):
                let n = count.withLock { c in defer { c += 1 }; return c }
                windowOutputs.append(window.subscribe { r in
                    let t = vt.now().components.seconds
                    switch r {
                    case .success(let x): log.append("w\(n):\(x)@\(t)")
                    case .failure(let e): log.append("w\(n):\(End(e))@\(t)")
                    }
                })
            case .failure(let e): log.append("\(End(e))@\(t)")
            }
        }
        for (x, t) in sends {
            vt.advance(to: .seconds(t))
            input.send(value: x)
        }
        vt.advance(to: .seconds(endAt))
        input.complete()
        withExtendedLifetime(output) {}
        return log.all
    }

    @Test(arguments: variants) func aFullWindowCompletesAtOnceAndNoneOpensInItsPlace(_ v: DeliveryVariant) {
        // Windows of 10 s every 4 s (at 0, 4, 8), at most 2 values: the one of 0 fills with
        // 1 and 2 at 3; the one of 4 with 3 and 4 at 6 (the one of 0 is already closed, so 3
        // and 4 go into the one of 4 only); the one of 8 has 5 alone at the completion.
        let got = timeline(v, [(1, 1), (2, 3), (3, 5), (4, 6), (5, 9)], endAt: 11) {
            $0.window(interval: .seconds(10), timeshift: .seconds(4), count: 2, context: $1)
        }
        #expect(got == [
            "w0:1@1", "w0:2@3", "w0:complete@3",
            "w1:3@5", "w1:4@6", "w1:complete@6",
            "w2:5@9", "w2:complete@11", "complete@11",
        ])
    }

    @Test(arguments: variants) func theSpanStillClosesAWindowThatIsNotFull(_ v: DeliveryVariant) {
        // Windows of 3 s every 5 s, at most 2 values: the one of 0 gets 1 and closes at 3.
        let got = timeline(v, [(1, 1), (2, 4), (3, 6)], endAt: 7) {
            $0.window(interval: .seconds(3), timeshift: .seconds(5), count: 2, context: $1)
        }
        #expect(got == ["w0:1@1", "w0:complete@3", "w1:3@6", "w1:complete@7", "complete@7"])
    }

    @Test(arguments: variants) func oneValueCanFillSeveralWindows(_ v: DeliveryVariant) {
        // Windows of 10 s every 2 s: 1 at 3 goes into the windows of 0 and 2, and 2 at 5
        // fills both, oldest first (and goes into the one of 4, which ends at the completion).
        let got = timeline(v, [(1, 3), (2, 5)], endAt: 5) {
            $0.window(interval: .seconds(10), timeshift: .seconds(2), count: 2, context: $1)
        }
        #expect(got == [
            "w0:1@3", "w1:1@3",
            "w0:2@5", "w1:2@5", "w2:2@5", "w0:complete@5", "w1:complete@5",
            "w2:complete@5", "complete@5",
        ])
    }

    @Test(arguments: variants) func countsAtTheirLimits(_ v: DeliveryVariant) {
        for count in [0, -5, Int.min] {
            let got = timeline(v, [(1, 1)], endAt: 2) {
                $0.window(interval: .seconds(10), timeshift: .seconds(4), count: count, context: $1)
            }
            #expect(got == ["complete@0"], "a count of \(count) completes on activation")
        }
        let sends = [(1, 1), (2, 2), (3, 3), (4, 5), (5, 9)]
        let unlimited = timeline(v, sends, endAt: 12) {
            $0.window(interval: .seconds(6), timeshift: .seconds(4), count: .max, context: $1)
        }
        let plain = timeline(v, sends, endAt: 12) {
            $0.window(interval: .seconds(6), timeshift: .seconds(4), context: $1)
        }
        #expect(unlimited == plain, "Int.max is no limit")
        #expect(unlimited.contains("w0:complete@6"))
        let one = timeline(v, [(1, 1), (2, 5)], endAt: 6) {
            $0.window(interval: .seconds(10), timeshift: .seconds(4), count: 1, context: $1)
        }
        #expect(one == ["w0:1@1", "w0:complete@1", "w1:2@5", "w1:complete@5", "complete@6"])
    }

    @Test(arguments: variants) func durationsAtTheirLimits(_ v: DeliveryVariant) {
        for shift in [Duration.zero, .seconds(-3)] {
            let bad = timeline(v, [], endAt: 1) {
                $0.window(interval: .seconds(10), timeshift: shift, count: 2, context: $1)
            }
            #expect(bad.count == 1 && bad[0].hasSuffix("@0") && bad[0].contains("window(interval:timeshift:count:context:): timeshift is"),
                    "a timeshift of \(shift) ends the result with SignalArgumentError: \(bad)")
        }
        // A huge timeshift: one window only, closed by its count; none opens in its place.
        let oneWindow = timeline(v, [(1, 1), (2, 2), (3, 3)], endAt: 1_000) {
            $0.window(interval: .seconds(10), timeshift: Exec.neverDelay, count: 2, context: $1)
        }
        #expect(oneWindow == ["w0:1@1", "w0:2@2", "w0:complete@2", "complete@1000"])
        // A huge interval: windows (one every 10 s) close only when full, or at the end.
        let byCount = timeline(v, [(1, 1), (2, 2), (3, 12)], endAt: 25) {
            $0.window(interval: .seconds(Int64.max), timeshift: .seconds(10), count: 2, context: $1)
        }
        #expect(byCount == [
            "w0:1@1", "w0:2@2", "w0:complete@2", "w1:3@12",
            "w1:complete@25", "w2:complete@25", "complete@25",
        ])
        // Both huge: one window, never closed by time.
        let never = timeline(v, [(1, 1)], endAt: 1_000) {
            $0.window(interval: Exec.neverDelay, timeshift: Exec.neverDelay, count: 5, context: $1)
        }
        #expect(never == ["w0:1@1", "w0:complete@1000", "complete@1000"])
        // An interval of zero or less completes each window as it opens.
        for span in [Duration.zero, .seconds(-1)] {
            let instant = timeline(v, [(1, 1)], endAt: 12) {
                $0.window(interval: span, timeshift: .seconds(10), count: 2, context: $1)
            }
            #expect(instant == ["w0:complete@0", "w1:complete@10", "complete@12"], "interval \(span)")
        }
    }

    @Test(arguments: variants) func theSourcesErrorEndsEveryOpenWindow(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let log = Collected<String>()
        let windowOutputs = Collected<SignalOutput<Int>>()
        let output = signal.window(interval: .seconds(10), timeshift: .seconds(2), count: 3, context: .custom(vt))
            .subscribe { r in
                switch r {
                case .success(let w): windowOutputs.append(w.subscribe { log.append("w:\($0)") })
                case .failure(let e): log.append("outer:\(End(e))")
                }
            }
        vt.advance(to: .seconds(3))
        input.send(end: .other(TestError.boom))
        #expect(log.all.filter { $0.hasPrefix("w:failure") }.count == 2, "both open windows fail: \(log.all)")
        #expect(log.all.last == "outer:\(End(.other(TestError.boom)))")
        withExtendedLifetime(output) {}
    }

    @Test(arguments: variants) func aFullWindowIsReleasedAtOnce(_ v: DeliveryVariant) {
        // What the operator holds for an open window is one record: the window's input and
        // the subscription to its timer. The timer on the clock's queue is the witness: it
        // goes as the record goes.
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let windows = Mutex<[Weak]>([])
        let ends = Collected<String>()
        let windowOutputs = Collected<SignalOutput<Int>>()
        let output = signal.window(interval: .seconds(10), timeshift: .seconds(4), count: 2, context: .custom(vt))
            .subscribe { r in
                guard case .success(let w) = r else { return }
                windows.withLock { $0.append(Weak(w)) }
                windowOutputs.append(w.subscribe { r in if case .failure(let e) = r { ends.append("\(End(e))") } })
            }
        input.send(value: 1)
        let timersWithOneWindow = vt.pendingCount
        #expect(timersWithOneWindow == 2, "the opening timer and the open window's")
        input.send(value: 2)
        #expect(ends.all == ["complete"])
        #expect(vt.pendingCount == timersWithOneWindow - 1, "a full window's record (input, timer) is released as it closes")
        vt.advance(to: .seconds(5))
        #expect(windows.withLock { $0.count } == 2)
        #expect(vt.pendingCount == 2)
        output.cancel()
        #expect(ends.all == ["complete", "cancelled"], "cancelling ends the open window (its input released)")
        #expect(vt.pendingCount == 0, "and releases every timer")
        windowOutputs.items.withLock { $0 = [] }
        #expect(windows.withLock { $0.allSatisfy { $0.object == nil } }, "nothing keeps a window's signal")
    }

    @Test(arguments: variants) func cancellingReleasesTheValuesAndTimers(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let released = Flagged()
        let windowOutputs = Collected<SignalOutput<Canary>>()
        do {
            let (input, signal) = Signal<Canary>.create(delivery: v)
            let output = signal.window(interval: .seconds(10), timeshift: .seconds(4), count: 3, context: .custom(vt))
                .subscribe { r in
                    if case .success(let w) = r { windowOutputs.append(w.subscribe { _ in }) }
                }
            input.send(value: Canary(released))
            vt.advance(by: .seconds(5))
            output.cancel()
        }
        #expect(released.isSet, "the value is released with the graph")
        #expect(vt.pendingCount == 0, "the timers are cancelled")
    }
}

/// A weak reference, for checking that something has been released.
private final class Weak: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
