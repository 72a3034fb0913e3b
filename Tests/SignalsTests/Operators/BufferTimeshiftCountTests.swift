import Signals
import Testing

/// `buffer(interval:timeshift:count:context:)`: overlapping time buffers with a size limit.
@Suite struct BufferTimeshiftCountTests {
    static let variants = DeliveryVariant.allCases

    /// Sends `(value, time in seconds)` pairs, completes at `endAt`; returns "values@seconds".
    func timeline(
        _ v: DeliveryVariant, _ sends: [(Int, Int)], endAt: Int, _ op: (Signal<Int>, Exec) -> Signal<[Int]>
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
        vt.advance(to: .seconds(endAt))
        input.complete()
        withExtendedLifetime(output) {}
        return log.all
    }

    @Test(arguments: variants) func aFullArrayIsEmittedAtOnceAndNoneStartsInItsPlace(_ v: DeliveryVariant) {
        // Arrays of 10 s every 4 s (at 0, 4, 8, …), at most 2 values: the one of 0 fills with
        // 1 and 2 at 3; the one of 4 with 3 and 4 at 6; the one of 8 ends at 18 with 5 alone.
        let got = timeline(v, [(1, 1), (2, 3), (3, 5), (4, 6), (5, 9)], endAt: 11) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(4), count: 2, context: $1)
        }
        #expect(got == ["[1, 2]@3", "[3, 4]@6", "[5]@11", "complete@11"])
    }

    @Test(arguments: variants) func oneValueCanFillSeveralArrays(_ v: DeliveryVariant) {
        // Arrays of 10 s every 2 s: 1 at 3 goes into the arrays of 0 and 2, and 2 at 5 fills
        // both (and starts the one of 4, emitted at the completion).
        let got = timeline(v, [(1, 3), (2, 5)], endAt: 5) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(2), count: 2, context: $1)
        }
        #expect(got == ["[1, 2]@5", "[1, 2]@5", "[2]@5", "complete@5"])
    }

    @Test(arguments: variants) func countsAtTheirLimits(_ v: DeliveryVariant) {
        for count in [0, -5] {
            let got = timeline(v, [(1, 1)], endAt: 2) {
                $0.buffer(interval: .seconds(10), timeshift: .seconds(4), count: count, context: $1)
            }
            #expect(got == ["complete@0"], "a count of \(count) completes on activation")
        }
        let unlimited = timeline(v, [(1, 1), (2, 2), (3, 3)], endAt: 5) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(4), count: .max, context: $1)
        }
        let plain = timeline(v, [(1, 1), (2, 2), (3, 3)], endAt: 5) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(4), context: $1)
        }
        #expect(unlimited == plain)
        let one = timeline(v, [(1, 1), (2, 5)], endAt: 6) {
            $0.buffer(interval: .seconds(10), timeshift: .seconds(4), count: 1, context: $1)
        }
        #expect(one == ["[1]@1", "[2]@5", "complete@6"])
    }

    @Test(arguments: variants) func durationsAtTheirLimits(_ v: DeliveryVariant) {
        let badShift = timeline(v, [], endAt: 1) {
            $0.buffer(interval: .seconds(10), timeshift: .zero, count: 2, context: $1)
        }
        #expect(badShift.count == 1 && badShift[0].hasSuffix("@0") && !badShift[0].hasPrefix("complete"),
                "a timeshift of zero ends the result with SignalArgumentError: \(badShift)")
        let never = timeline(v, [(1, 1), (2, 2), (3, 3)], endAt: 1_000) {
            $0.buffer(interval: Exec.neverDelay, timeshift: Exec.neverDelay, count: 2, context: $1)
        }
        #expect(never == ["[1, 2]@2", "complete@1000"], "the count closes the one array, and none starts in its place")
        let instant = timeline(v, [(1, 1)], endAt: 2) {
            $0.buffer(interval: .zero, timeshift: .seconds(10), count: 2, context: $1)
        }
        #expect(instant == ["[]@0", "complete@2"])
    }

    @Test(arguments: variants) func cancellingReleasesTheArraysAndTimers(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let released = Flagged()
        do {
            let (input, signal) = Signal<Canary>.create(delivery: v)
            let output = signal.buffer(interval: .seconds(10), timeshift: .seconds(4), count: 3, context: .custom(vt))
                .subscribe { _ in }
            input.send(value: Canary(released))
            vt.advance(by: .seconds(5))
            output.cancel()
        }
        #expect(released.isSet, "the waiting value is released with the graph")
        #expect(vt.pendingCount == 0, "the timers are cancelled")
    }
}
