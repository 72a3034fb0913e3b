import Signals
import Testing

/// How the operators with a trigger or a second input end, and what they do at activation,
/// by ReactiveX's rules (RxJS where its peers disagree).
@Suite struct EndRuleTests {
    static let variants = DeliveryVariant.allCases

    // MARK: skipUntil

    @Test(arguments: variants) func skipUntilFailsAtOnceWithTheTriggersError(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.skipUntil($1) }
        values.send(value: 1)
        trigger.send(end: .other(TestError.boom))
        #expect(rec.end == .boom, "the trigger's error fails the result before the source ends")
        values.complete()
        #expect(rec.values == [])
        #expect(rec.end == .boom)
    }

    @Test(arguments: variants) func skipUntilIgnoresTheTriggersErrorOnceItFired(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.skipUntil($1) }
        trigger.send(value: ())
        values.send(value: 1)
        trigger.send(end: .other(TestError.boom))
        values.send(value: 2)
        values.complete()
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func skipUntilPassesTheSourcesCompletionOnWhileSkipping(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.skipUntil($1) }
        values.send(value: 1)
        trigger.complete()  // ignored: the source goes on, every value skipped
        #expect(rec.end == nil)
        values.send(value: 2)
        values.complete()
        #expect(rec.values == [])
        #expect(rec.end == .complete)
    }

    // MARK: sample

    @Test(arguments: variants) func sampleGoesOnAfterTheTriggerCompletes(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        values.send(value: 1)
        trigger.send(value: ())
        trigger.complete()
        #expect(rec.end == nil, "the trigger's completion does not end the result")
        values.send(value: 2)  // never sampled now
        values.complete()
        #expect(rec.values == [1])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func sampleCompletesAtTheSourcesCompletionDroppingTheWaitingValue(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        values.send(value: 7)
        values.complete()
        trigger.send(value: ())
        #expect(rec.values == [])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func sampleFailsWithEitherInputsError(_ v: DeliveryVariant) {
        let (values, trigger, rec) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        values.send(value: 1)
        trigger.send(end: .other(TestError.boom))
        #expect(rec.values == [])
        #expect(rec.end == .boom)
        let (values2, trigger2, rec2) = graph2(v, Int.self, Void.self) { $0.sample($1) }
        values2.send(end: .other(TestError.boom))
        #expect(rec2.end == .boom)
        withExtendedLifetime(trigger2) {}
    }

    // MARK: buffer and window in time

    @Test(arguments: variants) func bufferInTimeFlushesTheOpenBufferAtCompletionEvenEmpty(_ v: DeliveryVariant) {
        marbleTest(v) { m in
            let e1 = m.hot("  ---------------|")
            let expected =   "----------e----(e|)"
            m.expectSignal(e1.signal.buffer(timeSpan: m.duration(10), context: m.context)).toBe(expected, values: ["e": []])
        }
    }

    @Test(arguments: variants) func windowInTimeCompletesTheOpenWindowAtCompletion(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let log = Collected<String>()
        let inner = Collected<SignalOutput<Int>>()
        let output = signal.window(timeSpan: .seconds(10), context: .custom(vt)).subscribe { r in
            switch r {
            case .success(let w):
                let n = inner.all.count
                log.append("w\(n)@\(vt.now().components.seconds)")
                inner.append(w.subscribe { r in
                    if case .failure(let e) = r { log.append("w\(n) \(End(e))@\(vt.now().components.seconds)") }
                })
            case .failure(let e): log.append("\(End(e))@\(vt.now().components.seconds)")
            }
        }
        vt.advance(by: .seconds(15))
        input.complete()
        #expect(log.all == ["w0@0", "w0 complete@10", "w1@10", "w1 complete@15", "complete@15"])
        withExtendedLifetime(output) {}
    }

    // MARK: withLatestFrom

    @Test(arguments: variants) func withLatestFromFindsTheOthersActivationValue(_ v: DeliveryVariant) {
        let (xi, x) = Signal<Int>.create(delivery: v)
        let (yi, y) = Signal<Int>.create(delivery: v)
        let rec = Recorder(x.continuous(initialValue: 3).withLatestFrom(y.continuous(initialValue: 5)) { "\($0)\($1)" })
        #expect(rec.values == ["35"])
        xi.send(value: 4)
        #expect(rec.values == ["35", "45"])
        withExtendedLifetime((xi, yi)) {}
    }
}
