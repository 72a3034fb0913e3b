import Signals
import Testing

/// `throttle(interval:latest:context:)` and `throttle(interval:leading:latest:context:)`:
/// ReactiveX's throttle, as marble diagrams on the
/// virtual clock (one frame is one millisecond).
@Suite struct ThrottleTests {
    static let variants = DeliveryVariant.allCases

    /// Sends `(value, time in seconds)` pairs through `op`, then completes at `endAt`; returns
    /// what arrived as "value@seconds" and "end@seconds".
    func timeline(
        _ v: DeliveryVariant, _ sends: [(Int, Int)], endAt: Int? = nil, until: Int = 100,
        _ op: (Signal<Int>, Exec) -> Signal<Int>
    ) -> [String] {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let log = Collected<String>()
        let output = op(signal, .custom(vt)).subscribe { r in
            let t = vt.now().components.seconds
            switch r {
            case .success(let x): log.append("\(x)@\(t)")
            case .failure(let e): log.append("\(End(e))@\(t)")
            }
        }
        for (x, t) in sends {
            vt.advance(to: .seconds(t))
            input.send(value: x)
        }
        if let endAt {
            vt.advance(to: .seconds(endAt))
            input.complete()
        }
        vt.advance(to: .seconds(until))
        withExtendedLifetime(output) {}
        return log.all
    }

    @Test(arguments: variants) func latestSendsTheFirstValueAtOnceAndTheLatestAtEachWindowsEnd(_ v: DeliveryVariant) {
        // Windows of 5: 1 opens one at 0; 2, 3 wait; 3 goes at 5 and opens the next; 4 waits
        // and goes at 10; nothing waits at 15, so 5 at 17 goes at once.
        marbleTest(v) { m in
            let e1 = m.hot("  123---4----------5")
            let expected =   "1----3----4------5"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: true, context: m.context)).toBe(expected)
        }
    }

    @Test(arguments: variants) func withoutLatestOnlyTheFirstOfEachWindowPasses(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  123---4----------5")
            let expected =   "1-----4----------5"
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
        }
    }

    /// RxJS's `throttleTime` keeps a window's last instant in it: a value exactly `interval`
    /// after the last one let through is dropped, whether it arrives before or after the
    /// window's timer at that instant. A hot event comes before a timer the graph set at the
    /// same frame; `delay(interval: .zero)` puts each value behind it.
    @Test(arguments: variants) func aValueAtTheWindowsLastInstantIsInTheWindow(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  1----23----45")
            let expected =   "1-----3-----5"
            let late = { e1.signal.delay(interval: .zero, context: m.context) }
            m.expectSignal(e1.signal.throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSignal(late().throttleFirst(interval: m.duration(5), context: m.context)).toBe(expected)
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
            m.expectSignal(late().throttle(interval: m.duration(5), latest: false, context: m.context)).toBe(expected)
        }
        // With `latest` the value at the last instant goes at that instant either way.
        marbleTest(v) { m in
            let e1 = m.hot("  1----2-3")
            let expected =   "1----2----3"
            let late = { e1.signal.delay(interval: .zero, context: m.context) }
            m.expectSignal(e1.signal.throttle(interval: m.duration(5), latest: true, context: m.context)).toBe(expected)
            m.expectSignal(late().throttle(interval: m.duration(5), latest: true, context: m.context)).toBe(expected)
        }
    }

    @Test(arguments: variants) func aCompletionWaitsForTheWaitingValue(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let waiting = m.hot("     12-|")
            let nothingWaiting = m.hot("1--|")
            m.expectSignal(waiting.signal.throttle(interval: m.duration(5), latest: true, context: m.context)).toBe("1----(2|)")
            m.expectSignal(nothingWaiting.signal.throttle(interval: m.duration(5), latest: true, context: m.context)).toBe("1--|")
        }
    }

    @Test(arguments: variants) func anErrorDropsTheWaitingValue(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  (12#)")
            let expected =   "(1#)"
            m.expectSignal(e1.signal.throttle(interval: m.duration(10), latest: true, context: m.context)).toBe(expected)
        }
    }

    @Test(arguments: variants) func durationsAtTheirLimits(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  (12)3|")
            m.expectSignal(e1.signal.throttle(interval: .zero, latest: true, context: m.context)).toBe("(12)3|")
            m.expectSignal(e1.signal.throttle(interval: .seconds(-5), latest: true, context: m.context)).toBe("(12)3|")
            let e2 = m.hot("  12---3--|")
            m.expectSignal(e2.signal.throttle(interval: Exec.neverDelay, latest: true, context: m.context)).toBe("1-------|")
        }
    }

    @Test(arguments: variants) func stateIsPerActivation(_ v: DeliveryVariant) {
        // The throttle sits behind a `multicast()`: the first subscriber's cancellation
        // deactivates it, the second's subscription activates it again at the same frame. A
        // window left over from the first activation would hold 3 back.
        marbleTest(v) { m in
            let e1 = m.hot("    (12)(34)")
            let shared = e1.signal.throttle(interval: m.duration(10), latest: true, context: m.context).multicast()
            m.expectSignal(shared, unsubscription: "^---!").toBe("1")
            m.expectSignal(shared, unsubscription: "----^").toBe("----3---------4")
        }
    }

    // MARK: - Trailing only (`leading: false`)

    @Test(arguments: variants) func trailingOnlyHoldsEachWindowsLatestValueUntilItsEnd(_ v: DeliveryVariant) {
        // 1 opens a window at 0 (not sent); 3 is the latest at 10 and opens the next; 4 goes
        // at 20 and opens one that ends empty at 30; 5 at 35 opens a window, sent at 45.
        let got = timeline(v, [(1, 0), (2, 3), (3, 6), (4, 12), (5, 35)]) {
            $0.throttle(interval: .seconds(10), leading: false, latest: true, context: $1)
        }
        #expect(got == ["3@10", "4@20", "5@45"])
        let single = timeline(v, [(1, 0)]) {
            $0.throttle(interval: .seconds(10), leading: false, latest: true, context: $1)
        }
        #expect(single == ["1@10"], "a lone value waits for its window's end")
        let leadingForm = timeline(v, [(1, 0), (2, 3), (3, 6), (4, 12), (5, 35)]) {
            $0.throttle(interval: .seconds(10), leading: true, latest: true, context: $1)
        }
        let latestForm = timeline(v, [(1, 0), (2, 3), (3, 6), (4, 12), (5, 35)]) {
            $0.throttle(interval: .seconds(10), latest: true, context: $1)
        }
        #expect(leadingForm == latestForm, "`leading: true` is `throttle(interval:latest:)`")
    }

    @Test(arguments: variants) func trailingOnlyEnds(_ v: DeliveryVariant) {
        let held = timeline(v, [(1, 0), (2, 3)], endAt: 5) {
            $0.throttle(interval: .seconds(10), leading: false, latest: true, context: $1)
        }
        #expect(held == ["2@10", "complete@10"], "the completion waits for the waiting value")
        let empty = timeline(v, [], endAt: 5) {
            $0.throttle(interval: .seconds(10), leading: false, latest: true, context: $1)
        }
        #expect(empty == ["complete@5"])
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let rec = Recorder(signal.throttle(interval: .seconds(10), leading: false, latest: true, context: .custom(vt)))
        input.send(value: 1)
        input.send(end: .other(TestError.boom))
        vt.advance(by: .seconds(20))
        #expect(rec.values == [])
        #expect(rec.end == .boom, "an error passes at once and drops the waiting value")
        #expect(vt.pendingCount == 0)
    }

    @Test(arguments: variants) func neitherEdgeSendsNothingButTheEnd(_ v: DeliveryVariant) {
        let got = timeline(v, [(1, 0), (2, 3), (3, 30)], endAt: 40) {
            $0.throttle(interval: .seconds(10), leading: false, latest: false, context: $1)
        }
        #expect(got == ["complete@40"])
    }

    @Test(arguments: variants) func trailingOnlyDurationsAtTheirLimits(_ v: DeliveryVariant) {
        let zero = timeline(v, [(1, 0), (2, 0), (3, 1)], endAt: 2) {
            $0.throttle(interval: .zero, leading: false, latest: true, context: $1)
        }
        #expect(zero == ["1@0", "2@0", "3@1", "complete@2"])
        let negative = timeline(v, [(1, 0), (2, 0)]) {
            $0.throttle(interval: .seconds(-5), leading: false, latest: true, context: $1)
        }
        #expect(negative == ["1@0", "2@0"])
        let never = timeline(v, [(1, 0), (2, 1), (3, 50)], endAt: 60) {
            $0.throttle(interval: Exec.neverDelay, leading: false, latest: true, context: $1)
        }
        #expect(never == ["complete@60"], "a window that never ends sends nothing")
        let huge = timeline(v, [(1, 0)], endAt: 60) {
            $0.throttle(interval: .seconds(Int64.max), leading: false, latest: true, context: $1)
        }
        #expect(huge == ["complete@60"])
    }

    @Test(arguments: variants) func trailingOnlyReleasesEverythingOnCancel(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let released = Flagged()
        do {
            let (input, signal) = Signal<Canary>.create(delivery: v)
            let output = signal.throttle(interval: .seconds(10), leading: false, latest: true, context: .custom(vt))
                .subscribe { _ in }
            input.send(value: Canary(released))
            #expect(vt.pendingCount == 1)
            output.cancel()
        }
        #expect(released.isSet, "the waiting value is released with the graph")
        #expect(vt.pendingCount == 0, "the window's timer is cancelled")
        let (input, signal) = Signal<Int>.create(delivery: v)
        let shared = signal.throttle(interval: .seconds(10), leading: false, latest: true, context: .custom(vt)).multicast()
        let a = Recorder(shared)
        input.send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        vt.advance(by: .seconds(20))
        #expect(b.values == [], "no waiting value is left over for the next activation")
        input.send(value: 2)
        vt.advance(by: .seconds(10))
        #expect(b.values == [2])
        #expect(a.values == [])
    }
}
