import Signals
import Testing

/// Renders a tagged result for comparison.
private func tag<T>(_ i: Int, _ r: Result<T, SignalEnd>) -> String {
    switch r {
    case .success(let v): return "\(i):\(v)"
    case .failure(let e): return "\(i):end(\(e))"
    }
}

/// `combine` (2 to 5 inputs, with and without state), `combineLatest`, `zip`, `merge`, and how
/// each ends.
@Suite struct CombineTests {
    /// combine of two: the processor sees every result of each input, tagged, in arrival
    /// order, ends included; the stage ends only when the processor sends an end.
    @Test(arguments: DeliveryVariant.allCases)
    func combineTwoSeesEverything(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<String>.create(delivery: variant)
        let (c, out) = s1.combine(s2) { (e: EitherResult2<Int, String>, next: SignalNext<String>) in
            switch e {
            case .result1(let r): next.send(value: tag(1, r))
            case .result2(let r):
                next.send(value: tag(2, r))
                if r.end != nil { next.complete() }
            }
        }.collect()
        i1.send(value: 1)
        i2.send(value: "a")
        i1.send(value: 2)
        i1.complete()
        i2.send(value: "b")
        i2.send(end: .other(CoreError.boom))
        #expect(c.events == [
            .value("1:1"), .value("2:a"), .value("1:2"), .value("1:end(complete)"),
            .value("2:b"), .value("2:end(other(boom))"), .complete,
        ])
        out.cancel()
    }

    /// combine with three, four and five inputs tags each input with its position.
    @Test(arguments: DeliveryVariant.allCases)
    func combineThreeFourFive(_ variant: DeliveryVariant) {
        let inputs = (0..<5).map { _ in Signal<Int>.create(delivery: variant) }
        let (c3, o3) = inputs[0].signal.combine(inputs[1].signal.multicast(), inputs[2].signal.multicast()) {
            (e: EitherResult3<Int, Int, Int>, next: SignalNext<String>) in
            switch e {
            case .result1(let r): next.send(value: tag(1, r))
            case .result2(let r): next.send(value: tag(2, r))
            case .result3(let r): next.send(value: tag(3, r))
            }
        }.collect()
        for (k, i) in inputs.prefix(3).enumerated() { i.input.send(value: 10 + k) }
        #expect(c3.events == [.value("1:10"), .value("2:11"), .value("3:12")])
        o3.cancel()

        let (j, js) = (0..<5).map { _ in Signal<Int>.create(delivery: variant) }.reduce(into: ([SignalInput<Int>](), [Signal<Int>]())) {
            $0.0.append($1.input); $0.1.append($1.signal)
        }
        let (c4, o4) = js[0].combine(js[1], js[2], js[3]) { (e: EitherResult4<Int, Int, Int, Int>, next: SignalNext<String>) in
            switch e {
            case .result1(let r): next.send(value: tag(1, r))
            case .result2(let r): next.send(value: tag(2, r))
            case .result3(let r): next.send(value: tag(3, r))
            case .result4(let r): next.send(value: tag(4, r))
            }
        }.collect()
        for k in [3, 1, 0, 2] { j[k].send(value: k) }
        #expect(c4.events == [.value("4:3"), .value("2:1"), .value("1:0"), .value("3:2")])
        o4.cancel()

        let (m, ms) = (0..<5).map { _ in Signal<Int>.create(delivery: variant) }.reduce(into: ([SignalInput<Int>](), [Signal<Int>]())) {
            $0.0.append($1.input); $0.1.append($1.signal)
        }
        let (c5, o5) = ms[0].combine(ms[1], ms[2], ms[3], ms[4], initialState: 0) {
            (n: inout Int, e: EitherResult5<Int, Int, Int, Int, Int>, next: SignalNext<String>) in
            n += 1
            switch e {
            case .result1(let r): next.send(value: "\(n)/" + tag(1, r))
            case .result2(let r): next.send(value: "\(n)/" + tag(2, r))
            case .result3(let r): next.send(value: "\(n)/" + tag(3, r))
            case .result4(let r): next.send(value: "\(n)/" + tag(4, r))
            case .result5(let r): next.send(value: "\(n)/" + tag(5, r))
            }
        }.collect()
        for k in [4, 0, 3, 1, 2] { m[k].send(value: k) }
        #expect(c5.events == [.value("1/5:4"), .value("2/1:0"), .value("3/4:3"), .value("4/2:1"), .value("5/3:2")])
        o5.cancel()
        // The inputs must outlive the checks: a release build releases each one after its last
        // send, and its `.cancelled` end would reach the combined signal before the check.
        withExtendedLifetime((inputs, j, m)) {}
    }

    /// combine with state: the state lives for one activation and resets on the next.
    @Test(arguments: DeliveryVariant.allCases)
    func combineStateResets(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let multi = s1.combine(s2, initialState: 0) { (sum: inout Int, e: EitherResult2<Int, Int>, next: SignalNext<Int>) in
            switch e {
            case .result1(.success(let v)), .result2(.success(let v)):
                sum += v
                next.send(value: sum)
            default: break
            }
        }.multicast()
        let (a, oa) = multi.collect()
        i1.send(value: 1)
        i2.send(value: 2)
        oa.cancel()
        #expect(i1.send(value: 100) == .inactive)
        let (b, ob) = multi.collect()
        i2.send(value: 5)
        #expect(a.events == [.value(1), .value(3)])
        #expect(b.events == [.value(5)])
        ob.cancel()
    }

    /// Once the combine processor ends the stage, its inputs are refused and later
    /// emissions are dropped.
    @Test(arguments: DeliveryVariant.allCases)
    func combineEndStopsInputs(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let (c, out) = s1.combine(s2) { (e: EitherResult2<Int, Int>, next: SignalNext<Int>) in
            if case .result2(.success(let v)) = e {
                next.send(value: v)
                next.complete()
                next.send(value: v + 1)
            }
        }.collect()
        i2.send(value: 7)
        #expect(c.events == [.value(7), .complete])
        #expect(i1.send(value: 1) != nil)
        #expect(i2.send(value: 2) != nil)
        #expect(c.events == [.value(7), .complete])
        out.cancel()
    }

    /// combineLatest emits once both inputs have a value, then on every value of either, with
    /// the latest of the other; it completes only when both have ended.
    @Test(arguments: DeliveryVariant.allCases)
    func combineLatestValuesAndCompletion(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<String>.create(delivery: variant)
        let (c, out) = s1.combineLatest(s2) { "\($0)\($1)" }.collect()
        i1.send(value: 1)
        i1.send(value: 2)
        i2.send(value: "a")
        i1.send(value: 3)
        i2.send(value: "b")
        i1.complete()
        i2.send(value: "c")
        #expect(c.events == [.value("2a"), .value("3a"), .value("3b"), .value("3c")])
        i2.complete()
        #expect(c.events == [.value("2a"), .value("3a"), .value("3b"), .value("3c"), .complete])
        out.cancel()
    }

    /// combineLatest ends at once with an error from either input.
    @Test(arguments: DeliveryVariant.allCases)
    func combineLatestErrorEndsAtOnce(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let (c, out) = s1.combineLatest(s2) { $0 + $1 }.collect()
        i1.send(value: 1)
        i2.send(value: 10)
        i2.send(end: .other(CoreError.boom))
        i1.send(value: 2)
        #expect(c.events == [.value(11), .boom])
        out.cancel()
    }

    /// zip pairs the n-th values; it ends when an ended input's unpaired values are used up.
    @Test(arguments: DeliveryVariant.allCases)
    func zipPairsAndEnds(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<String>.create(delivery: variant)
        let (c, out) = s1.zip(s2).map { "\($0.0)\($0.1)" }.collect()
        i1.send(value: 1)
        i1.send(value: 2)
        i1.send(value: 3)
        i2.send(value: "a")
        i1.complete()
        #expect(c.events == [.value("1a")])
        i2.send(value: "b")
        #expect(c.events == [.value("1a"), .value("2b")])
        i2.send(value: "c")
        #expect(c.events == [.value("1a"), .value("2b"), .value("3c"), .complete])
        out.cancel()
    }

    /// zip: the input that ends with nothing unpaired ends the result at once; an error ends
    /// it at once even with unpaired values.
    @Test(arguments: DeliveryVariant.allCases)
    func zipEndsAtOnce(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let (c, out) = s1.zip(s2).map { $0.0 * 10 + $0.1 }.collect()
        i1.send(value: 1)
        i2.send(value: 2)
        i2.complete()
        #expect(c.events == [.value(12), .complete])
        out.cancel()

        let (j1, t1) = Signal<Int>.create(delivery: variant)
        let (j2, t2) = Signal<Int>.create(delivery: variant)
        let (d, out2) = t1.zip(t2).map { $0.0 * 10 + $0.1 }.collect()
        j1.send(value: 1)
        j1.send(value: 2)
        j1.send(end: .other(CoreError.boom))
        j2.send(value: 3)
        #expect(d.events == [.boom])
        out2.cancel()
    }

    /// merge interleaves values in arrival order and completes when every input has ended.
    @Test(arguments: DeliveryVariant.allCases)
    func mergeInterleavesAndCompletesWhenAllEnd(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let (i3, s3) = Signal<Int>.create(delivery: variant)
        let (c, out) = s1.merge(with: s2, s3).collect()
        i1.send(value: 1)
        i3.send(value: 3)
        i2.send(value: 2)
        i1.complete()
        i2.cancel()
        i3.send(value: 4)
        #expect(c.events == [.value(1), .value(3), .value(2), .value(4)])
        i3.complete()
        #expect(c.events == [.value(1), .value(3), .value(2), .value(4), .complete])
        out.cancel()
    }

    /// merge ends at once with an error from any input.
    @Test(arguments: DeliveryVariant.allCases)
    func mergeErrorEndsAtOnce(_ variant: DeliveryVariant) {
        let (i1, s1) = Signal<Int>.create(delivery: variant)
        let (i2, s2) = Signal<Int>.create(delivery: variant)
        let (c, out) = s1.merge(with: s2).collect()
        i1.send(value: 1)
        i2.send(end: .other(CoreError.boom))
        i1.send(value: 2)
        #expect(c.events == [.value(1), .boom])
        out.cancel()
    }

    /// Combining an already-taken signal delivers the duplicate error.
    @Test(arguments: DeliveryVariant.allCases)
    func combineOfTakenSignal(_ variant: DeliveryVariant) {
        let (_, s1) = Signal<Int>.create(delivery: variant)
        let (input2, s2) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(input2) {} }  // kept: releasing it would end the stream and free the output
        let (_, taken) = s2.collect()
        let (c, out) = s1.combineLatest(s2) { $0 + $1 }.collect()
        #expect(c.events == [.duplicate])
        out.cancel()
        taken.cancel()
    }
}
