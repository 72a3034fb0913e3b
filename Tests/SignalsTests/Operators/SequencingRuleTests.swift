import Signals
import Testing

/// The ReactiveX sequencing rule of the flattening operators: a waiting inner signal is
/// subscribed only when a running one ends, so timed or cold work does not start early.
@Suite struct SequencingRuleTests {
    static let variants = DeliveryVariant.allCases

    /// Runs `op` on an outer signal of 1 and 2 (then complete), each made into a timer of 10 s,
    /// and returns what arrived with its virtual time.
    func timedInners(
        _ v: DeliveryVariant,
        _ op: (Signal<Int>, @escaping @Sendable (Int) -> Signal<Int>) -> Signal<Int>
    ) -> [String] {
        let vt = VirtualTimeContext()
        let log = Collected<String>()
        let (input, outer) = Signal<Int>.create(delivery: v)
        let output = op(outer) { Signal.timer(interval: .seconds(10), value: $0, context: .custom(vt), delivery: v) }
            .subscribe { r in
                switch r {
                case .success(let x): log.append("\(x)@\(vt.now().components.seconds)")
                case .failure(let e): log.append("\(End(e))@\(vt.now().components.seconds)")
                }
            }
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        vt.advance(by: .seconds(30))
        withExtendedLifetime(output) {}
        return log.all
    }

    @Test(arguments: variants) func concatMapSubscribesTheNextInnerWhenTheRunningOneEnds(_ v: DeliveryVariant) {
        #expect(timedInners(v) { $0.concatMap($1) } == ["1@10", "2@20", "complete@20"])
    }

    @Test(arguments: variants) func flatMapMaxConcurrentSubscribesAWaitingInnerWhenARunningOneEnds(_ v: DeliveryVariant) {
        #expect(timedInners(v) { $0.flatMap(maxConcurrent: 1, $1) } == ["1@10", "2@20", "complete@20"])
        // Two at once: the third starts when the first of them ends.
        let vt = VirtualTimeContext()
        let (input, outer) = Signal<Int>.create(delivery: v)
        let rec = Recorder(outer.flatMap(maxConcurrent: 2) { x in
            Signal.timer(interval: .seconds(x), value: x, context: .custom(vt), delivery: v).map { "\($0)@\(vt.now().components.seconds)" }
        })
        for x in [10, 5, 10] { input.send(value: x) }
        input.complete()
        vt.advance(by: .seconds(30))
        #expect(rec.values == ["5@5", "10@10", "10@15"])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func aWaitingInnerIsNotSubscribedBeforeItsTurn(_ v: DeliveryVariant) {
        let subscribed = Collected<Int>()
        let (input, outer) = Signal<Int>.create(delivery: v)
        let (firstInput, first) = Signal<Int>.create(delivery: v)
        let rec = Recorder(outer.concatMap { x -> Signal<Int> in
            if x == 0 { return first }
            return Signal<Int>.generate(delivery: v) { i in
                guard let i else { return }
                subscribed.append(x)
                i.send(value: x)
                i.complete()
            }
        })
        input.send(value: 0)
        input.send(value: 1)
        input.send(value: 2)
        #expect(subscribed.all == [], "cold inner signals wait, unsubscribed, for the running one")
        firstInput.send(value: 10)
        firstInput.complete()
        #expect(subscribed.all == [1, 2])
        #expect(rec.values == [10, 1, 2])
        input.complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func anErrorDropsTheWaitingInnersUnsubscribed(_ v: DeliveryVariant) {
        let subscribed = Collected<Int>()
        let (input, outer) = Signal<Int>.create(delivery: v)
        let (firstInput, first) = Signal<Int>.create(delivery: v)
        let rec = Recorder(outer.concatMap { x -> Signal<Int> in
            if x == 0 { return first }
            return Signal<Int>.generate(delivery: v) { i in if i != nil { subscribed.append(x) } }
        })
        input.send(value: 0)
        input.send(value: 1)
        firstInput.send(end: .other(TestError.boom))
        #expect(rec.end == .boom)
        #expect(subscribed.all == [])
        withExtendedLifetime(input) {}
    }
}
