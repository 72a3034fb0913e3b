import Signals
import Testing

/// `throttle(interval:latest:context:)`: ReactiveX's throttle, as marble diagrams on the
/// virtual clock (one frame is one millisecond).
@Suite struct ThrottleTests {
    static let variants = DeliveryVariant.allCases

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
}
