import Signals
import Testing

/// `takeUntil` connects its trigger first, and a trigger that sends (or fails) as it is
/// connected ends the result before the source is connected: the source is never connected
/// at all then (no `deferred` factory call, no `generate` activation), as RxJS and RxSwift
/// never subscribe it, at any depth of nodes above or below. More generally, a node whose
/// stage ends while an earlier input is being connected connects none of the later ones.
@Suite struct TakeUntilColdSourceTests {

    /// A `generate` source that records each activation change (true: a live input, false:
    /// nil) and sends `values` when activated; the inputs it got are kept in `inputs`.
    final class Probe: Sendable {
        let changes = Collected<Bool>()
        let inputs = Collected<SignalInput<Int>>()

        func signal(_ v: DeliveryVariant, sending values: [Int] = [1, 2]) -> Signal<Int> {
            let changes = changes
            let inputs = inputs
            return Signal<Int>.generate(delivery: v) { input in
                changes.append(input != nil)
                guard let input else { return }
                inputs.append(input)
                for value in values where input.send(value: value) != nil { return }
            }
        }

        /// Whether the source ever got a live input.
        var started: Bool { changes.all.contains(true) }
    }

    /// The object a source's closure captures, to see that nothing keeps it.
    final class Token: Sendable {}

    /// Exactly one result, the end `end`, and no value.
    static func onlyEnd<T>(_ rec: Recorder<T>, _ end: End) -> Bool {
        rec.values.isEmpty && rec.end == end && rec.count == 1
    }

    /// `signal` behind `count` `multicast()` nodes.
    static func behindMulticasts<T>(_ signal: Signal<T>, _ count: Int) -> Signal<T> {
        var s = signal
        for _ in 0..<count { s = s.multicast() }
        return s
    }

    /// `signal` followed by `count` fused `map` stages (past 64, the chain continues behind a
    /// node of its own).
    static func behindMaps(_ signal: Signal<Int>, _ count: Int) -> Signal<Int> {
        var s = signal
        for _ in 0..<count { s = s.map { $0 } }
        return s
    }

    @Test(arguments: DeliveryVariant.allCases)
    func deferredFactoryNeverRunsWhenTheTriggerSendsAsItIsConnected(_ v: DeliveryVariant) {
        let factoryCalls = Collected<Int>()
        let source = Signal<Int>.deferred(delivery: v) {
            factoryCalls.append(1)
            return Signal.just(1, 2, delivery: v)
        }
        let rec = Recorder(source.takeUntil(Signal.just((), delivery: v)))
        #expect(factoryCalls.all.isEmpty, "the source is never connected")
        #expect(Self.onlyEnd(rec, .complete), "values \(rec.values), end \(String(describing: rec.end)), \(rec.count) results")
    }

    @Test(arguments: DeliveryVariant.allCases)
    func generateSourceNeverGetsAnInputWhenTheTriggerSendsAsItIsConnected(_ v: DeliveryVariant) {
        let probe = Probe()
        let rec = Recorder(probe.signal(v).takeUntil(Signal.just((), delivery: v)))
        #expect(probe.changes.all == [], "neither activated nor deactivated")
        #expect(Self.onlyEnd(rec, .complete))
    }

    @Test(arguments: DeliveryVariant.allCases)
    func triggerFailingAsItIsConnectedEndsTheResultWithItsErrorAndNeverStartsTheSource(_ v: DeliveryVariant) {
        let probe = Probe()
        let rec = Recorder(probe.signal(v).takeUntil(Signal<Void>.failing(TestError.boom, delivery: v)))
        #expect(Self.onlyEnd(rec, .boom))
        #expect(probe.changes.all == [])
        let factoryCalls = Collected<Int>()
        let deferred = Signal<Int>.deferred(delivery: v) {
            factoryCalls.append(1)
            return Signal.just(1, delivery: v)
        }
        let rec2 = Recorder(deferred.takeUntil(Signal<String>.failing(TestError.boom, delivery: v)))
        #expect(Self.onlyEnd(rec2, .boom))
        #expect(factoryCalls.all.isEmpty)
    }

    /// Past the activation bound (8 nested runs): the source behind 12 multicasts and 70
    /// fused maps, the result followed by 12 more multicasts. The same chain is also made by a
    /// `deferred` factory right behind the takeUntil, whose call would be the first step of
    /// connecting it (the generate at its top is past the bound either way).
    @Test(arguments: DeliveryVariant.allCases)
    func sourcePastTheDepthBoundIsNeverStarted(_ v: DeliveryVariant) {
        let probe = Probe()
        let source = Self.behindMaps(Self.behindMulticasts(probe.signal(v), 12), 70)
        let result = Self.behindMulticasts(source.takeUntil(Signal.just((), delivery: v)), 12)
        let rec = Recorder(result)
        #expect(probe.changes.all == [])
        #expect(Self.onlyEnd(rec, .complete))

        let factoryCalls = Collected<Int>()
        let probe2 = Probe()
        let made = Signal<Int>.deferred(delivery: v) {
            factoryCalls.append(1)
            return Self.behindMaps(Self.behindMulticasts(probe2.signal(v), 12), 70)
        }
        let rec2 = Recorder(Self.behindMulticasts(made.takeUntil(Signal.just((), delivery: v)), 12))
        #expect(factoryCalls.all.isEmpty)
        #expect(probe2.changes.all == [])
        #expect(Self.onlyEnd(rec2, .complete))
    }

    /// The takeUntil's own activation run at every position relative to the bound (0 to 17
    /// multicasts below it), and the trigger's too (behind 0 to 17 multicasts or 70 fused
    /// maps): wherever a run is deferred, the source waits until the trigger is connected,
    /// and is not connected once the trigger has ended the result.
    @Test(arguments: DeliveryVariant.allCases)
    func sourceIsNeverStartedAtAnyPositionAroundTheDepthBound(_ v: DeliveryVariant) {
        for below in 0...17 {
            for triggerDepth in [0, 1, 7, 8, 9, 12, 17] {
                let probe = Probe()
                let trigger = Self.behindMulticasts(Signal.just(0, delivery: v), triggerDepth)
                let result = Self.behindMulticasts(Self.behindMaps(probe.signal(v), 70).takeUntil(trigger), below)
                let rec = Recorder(result)
                #expect(probe.changes.all == [], "\(below) multicasts below, trigger behind \(triggerDepth)")
                #expect(Self.onlyEnd(rec, .complete), "\(below) multicasts below, trigger behind \(triggerDepth)")
            }
            let probe = Probe()
            let trigger = Self.behindMaps(Signal.just(0, delivery: v), 70)
            let rec = Recorder(Self.behindMulticasts(probe.signal(v).takeUntil(trigger), below))
            #expect(probe.changes.all == [], "\(below) multicasts below, trigger behind 70 maps")
            #expect(Self.onlyEnd(rec, .complete))
        }
    }

    /// A trigger that sends nothing as it is connected leaves the source connected as before,
    /// in order, at any depth: the trigger first, then the source.
    @Test(arguments: DeliveryVariant.allCases)
    func laterTriggerPassesValuesUntilItSendsThenCompletesAndStopsTheSource(_ v: DeliveryVariant) {
        for below in [0, 7, 12] {
            let probe = Probe()
            let (trigger, triggerSignal) = Signal<Void>.create(delivery: v)
            let rec = Recorder(Self.behindMulticasts(probe.signal(v, sending: [1]).takeUntil(triggerSignal), below))
            #expect(probe.changes.all == [true], "\(below) below")
            let input = probe.inputs.all.last
            #expect(input?.send(value: 2) == nil)
            #expect(trigger.send(value: ()) == nil)
            #expect(input?.send(value: 3) != nil, "refused once the result has ended")
            #expect(rec.values == [1, 2])
            #expect(rec.end == .complete)
            #expect(rec.count == 3)
            #expect(probe.changes.all == [true, false], "deactivated at the end")
        }
    }

    /// Nothing of a source that was never started is kept once the output is released.
    @Test(arguments: DeliveryVariant.allCases)
    func neverStartedSourceKeepsNothingOnceTheOutputIsReleased(_ v: DeliveryVariant) {
        weak var generateToken: Token?
        weak var deferredToken: Token?
        do {
            let t1 = Token()
            let t2 = Token()
            generateToken = t1
            deferredToken = t2
            let generated = Signal<Int>.generate(delivery: v) { input in
                withExtendedLifetime(t1) { _ = input?.send(value: 1) }
            }
            let deferred = Signal<Int>.deferred(delivery: v) {
                withExtendedLifetime(t2) { Signal.just(1, delivery: v) }
            }
            let recs = [
                Recorder(generated.takeUntil(Signal.just((), delivery: v))),
                Recorder(Self.behindMulticasts(deferred, 12).takeUntil(Signal.just((), delivery: v))),
            ]
            for rec in recs { #expect(Self.onlyEnd(rec, .complete)) }
        }
        #expect(generateToken == nil)
        #expect(deferredToken == nil)
    }

    /// Inputs connect in order at any depth: in a chain of merges, each connecting the chain
    /// before it and then a `just` of its own, every `just` sends as it is connected, so the
    /// values arrive in connection order. Past the activation bound a node waits for the runs
    /// that its first input's connection deferred before it connects the second (and the chain
    /// of nodes waiting inside each other's connections costs linear time).
    @Test(arguments: DeliveryVariant.allCases)
    func inputsConnectInOrderThroughAChainOfMergesPastTheDepthBound(_ v: DeliveryVariant) {
        let depth = 400
        var s = Signal.just(0, delivery: v)
        for k in 1...depth { s = s.merge(with: Signal.just(k, delivery: v)) }
        let rec = Recorder(s)
        #expect(rec.values == Array(0...depth))
        #expect(rec.end == .complete)
    }

    /// The rule is the node's, not takeUntil's: any combining node whose stage ends while an
    /// earlier input is being connected connects none of the later ones.
    @Test(arguments: DeliveryVariant.allCases)
    func combiningNodeEndedByAnEarlierInputNeverConnectsTheLaterOnes(_ v: DeliveryVariant) {
        let cases: [(String, (Signal<Int>) -> Signal<Int>)] = [
            ("combineLatest", { Signal<Int>.failing(TestError.boom, delivery: v).combineLatest($0) { a, b in a + b } }),
            ("merge", { Signal<Int>.failing(TestError.boom, delivery: v).merge(with: $0) }),
            ("zip", { Signal<Int>.failing(TestError.boom, delivery: v).zip($0).map { $0.0 } }),
            ("withLatestFrom", { $0.withLatestFrom(Signal<Int>.failing(TestError.boom, delivery: v)) }),
        ]
        for (name, op) in cases {
            for below in [0, 7, 12] {
                let probe = Probe()
                let rec = Recorder(Self.behindMulticasts(op(probe.signal(v)), below))
                #expect(Self.onlyEnd(rec, .boom), "\(name), \(below) below")
                #expect(probe.changes.all == [], "\(name), \(below) below")
            }
        }
    }
}
