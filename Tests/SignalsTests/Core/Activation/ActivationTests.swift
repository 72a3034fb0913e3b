import Dispatch
import Foundation
import Signals
import Synchronization
import Testing

/// Activation as CwlSignal's document specifies it: caching multis and captures are
/// active at once; a `Signal` can be used again once its output is gone; `continuous` after
/// the end; `.main`/`.mainAsync`; results on their context; `concatMap`'s waiting inner signals.
@Suite struct ActivationTests {
    // MARK: 1. Caching multis are active at once

    /// The document's "continuous" example, verbatim: prints 2 then 3.
    @Test(arguments: DeliveryVariant.allCases)
    func documentContinuousExamplePrintsTwoThenThree(_ variant: DeliveryVariant) {
        let printed = Collected<String>()
        var lifetimes: [any Lifetime] = []
        let (input, output) = Signal<Int>.create(delivery: variant) { signal in signal.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        lifetimes += output.subscribeValues { value in printed.append("\(value)") }
        input.send(value: 3)
        #expect(printed.all == ["2", "3"])
        _ = lifetimes
    }

    /// Sends before any subscriber are accepted (nil) by every caching multi; `multicast`
    /// stays lazy (`.inactive`).
    @Test(arguments: DeliveryVariant.allCases)
    func cachingMultisAcceptSendsBeforeAnySubscriber(_ variant: DeliveryVariant) {
        let makers: [(String, @Sendable (Signal<Int>) -> SignalMulti<Int>, [Int])] = [
            ("continuous", { $0.continuous() }, [2]),
            ("continuous(initialValue:)", { $0.continuous(initialValue: 0) }, [2]),
            ("playback", { $0.playback() }, [1, 2]),
            ("buffer", { $0.buffer(initials: [9]) { $0.append($1) } }, [9, 1, 2]),
        ]
        for (name, make, expected) in makers {
            let (input, multi) = Signal<Int>.create(delivery: variant) { make($0) }
            #expect(input.send(value: 1) == nil, "\(name)")
            #expect(input.send(value: 2) == nil, "\(name)")
            let (c, out) = multi.collect()
            #expect(c.values == expected, "\(name)")
            out.cancel()
        }
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        #expect(input.send(value: 1) == .inactive)
        withExtendedLifetime(multi) {}
    }

    /// A `generate` source under `playback()` starts when the multi is made, with no branch.
    @Test(arguments: DeliveryVariant.allCases)
    func playbackStartsGenerateWhenCreated(_ variant: DeliveryVariant) {
        let activations = Counter()
        let multi = Signal<Int>.generate(delivery: variant) { input in
            if let input {
                activations.add()
                input.send(value: 7)
                input.send(value: 8)
            }
        }.playback()
        #expect(activations.value == 1)
        let (c, out) = multi.collect()
        #expect(c.values == [7, 8])
        out.cancel()
    }

    /// Releasing an eager multi (no branch left) deactivates what feeds it, and frees it.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingEagerMultiDeactivatesUpstream(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        weak var weakMulti: SignalMulti<Int>?
        do {
            let multi = signal.continuous()
            weakMulti = multi
            #expect(input.send(value: 1) == nil)
            let (c, out) = multi.collect()
            #expect(c.values == [1])
            out.cancel()
            // Still held: still active with no branch.
            #expect(input.send(value: 2) == nil)
        }
        #expect(weakMulti == nil)
        #expect(input.send(value: 3) == .inactive)
    }

    /// A branch keeps an eager multi active after the multi itself is released; the last
    /// branch's cancel then deactivates it.
    @Test(arguments: DeliveryVariant.allCases)
    func eagerMultiStaysActiveWhileBranchesRemain(_ variant: DeliveryVariant) {
        let changes = Shared<[Bool]>([])
        let keep = Shared<SignalInput<Int>?>(nil)
        var out: SignalOutput<Int>?
        var c: Recorder<Int>?
        do {
            let multi = Signal<Int>.generate(delivery: variant) { input in
                changes.update { $0.append(input != nil) }
                keep.value = input
            }.continuous()
            (c, out) = multi.collect()
        }
        #expect(changes.value == [true])
        keep.value?.send(value: 4)
        #expect(c?.values == [4])
        out?.cancel()
        #expect(changes.value == [true, false])
    }

    /// `continuousWhileActive()`: lazy, and a new activation does not replay the value of the
    /// previous one.
    @Test(arguments: DeliveryVariant.allCases)
    func continuousWhileActiveIsLazyAndForgetsOnDeactivation(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive() }
        #expect(input.send(value: 1) == .inactive)
        let (a, outA) = multi.collect()
        input.send(value: 2)
        let (b, outB) = multi.collect()
        #expect(b.values == [2])
        outA.cancel()
        outB.cancel()
        let (c, outC) = multi.collect()
        #expect(c.values == [])
        input.send(value: 3)
        #expect(c.values == [3])
        #expect(a.values == [2])
        outC.cancel()
    }

    /// `playbackWhileActive()`: lazy, every value of the current activation, none before it.
    @Test(arguments: DeliveryVariant.allCases)
    func playbackWhileActiveIsLazyAndForgetsOnDeactivation(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playbackWhileActive() }
        #expect(input.send(value: 1) == .inactive)
        let (_, outA) = multi.collect()
        input.send(value: 2)
        input.send(value: 3)
        let (b, outB) = multi.collect()
        #expect(b.values == [2, 3])
        outA.cancel()
        outB.cancel()
        let (c, outC) = multi.collect()
        #expect(c.values == [])
        outC.cancel()
    }

    /// The key-value store of the document on reactive programming, built as
    /// `create { $0.map(initialState:…).continuous(initialValue: [:]) }`: written from 4
    /// threads with no subscriber, a late subscriber sees all 1,000 keys.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func keyValueStoreWrittenWithoutSubscriberKeepsEveryKey(_ variant: DeliveryVariant) {
        typealias Dict = [Int: Int]
        let (input, values) = Signal<(Int, Int?)>.create(delivery: variant) {
            $0.map(initialState: Dict()) { (state: inout Dict, update: (Int, Int?)) -> Dict in
                state[update.0] = update.1
                return state
            }.continuous(initialValue: [:])
        }
        let refused = Counter()
        #expect(runThreads(4) { t in
            for k in 0..<250 where input.send(value: (t * 250 + k, k)) != nil { refused.add() }
        })
        #expect(refused.value == 0)
        let (c, out) = values.collect()
        #expect(c.values.count == 1)
        #expect(c.values.first?.count == 1_000)
        out.cancel()
    }

    // MARK: 2. capture() is active at once

    /// The document's "capturing" example, verbatim: activation values [2], then 3 and 4.
    @Test(arguments: DeliveryVariant.allCases)
    func documentCaptureExamplePrintsActivationThenHeldValues(_ variant: DeliveryVariant) {
        let printed = Collected<String>()
        var lifetimes: [any Lifetime] = []
        let (input, output) = Signal<Int>.create(delivery: variant) { signal in signal.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        let capture = output.capture()
        let (values, error) = (capture.values, capture.end)
        printed.append("Activation values: \(values)")
        #expect(error == nil)
        input.send(value: 3)
        input.send(value: 4)
        lifetimes += capture.subscribeValues { value in printed.append("Regular value: \(value)") }
        #expect(printed.all == ["Activation values: [2]", "Regular value: 3", "Regular value: 4"])
        _ = lifetimes
    }

    /// A source that ended during activation: a later subscribe or bind without `resend`
    /// still gets the end. (`preclosed` gives its values and end as activation values; a
    /// `just` would not: its values are ordinary values, as in CwlSignal's `testFrom`.)
    @Test(arguments: DeliveryVariant.allCases)
    func captureDeliversActivationEndWithoutResend(_ variant: DeliveryVariant) {
        let capture = Signal<Int>.preclosed(1, 2, delivery: variant).capture()
        #expect(capture.values == [1, 2])
        #expect(capture.end?.isComplete == true)
        let c = Recorder<Int>()
        let out = capture.subscribe(c.handler)
        #expect(c.events == [.complete])
        out.cancel()

        let (mergedIn, merged) = Signal<Int>.create(delivery: variant)
        let (m, mOut) = merged.collect()
        let capture2 = Signal<Int>.preclosed(5, delivery: variant).capture()
        let j = capture2.bind(to: mergedIn)
        #expect(m.events == [.complete])
        withExtendedLifetime(j) {}
        mOut.cancel()
    }

    // MARK: 3. A signal can be used again after its output is gone

    /// Subscribe, cancel, subscribe again: `generate` runs again with a fresh input.
    @Test(arguments: DeliveryVariant.allCases)
    func resubscribeAfterCancelRestartsGenerate(_ variant: DeliveryVariant) {
        let runs = Counter()
        let kept = Shared<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(delivery: variant) { input in
            kept.value = input  // kept, or its release would end the stream
            guard let input else { return }
            runs.add()
            input.send(value: runs.value)
        }
        let (a, outA) = signal.collect()
        #expect(a.values == [1])
        outA.cancel()
        let (b, outB) = signal.collect()
        #expect(b.events == [.value(2)])
        outB.cancel()
    }

    /// A second output is `.duplicate` only while the first is attached (or a derived signal
    /// holds it).
    @Test(arguments: DeliveryVariant.allCases)
    func secondOutputIsDuplicateOnlyWhileFirstIsAttached(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (a, outA) = signal.collect()
        let (b, outB) = signal.collect()
        #expect(b.events == [.duplicate])
        outA.cancel()
        let (c, outC) = signal.collect()
        input.send(value: 1)
        #expect(c.events == [.value(1)])
        #expect(a.events == [])
        outC.cancel()
        outB.cancel()
        do {
            let derived = signal.map { $0 * 10 }
            let (d, outD) = signal.collect()
            #expect(d.events == [.duplicate])
            outD.cancel()
            withExtendedLifetime(derived) {}
        }
        // The derived signal is gone (never attached): the output is free again.
        let (e, outE) = signal.collect()
        input.send(value: 2)
        #expect(e.events == [.value(2)])
        outE.cancel()
    }

    /// A chain through transforms is held while subscribed, even after the derived signal
    /// objects are released, and freed when the subscription ends.
    @Test(arguments: DeliveryVariant.allCases)
    func derivedChainHoldsOutputUntilSubscriptionEnds(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (a, outA) = signal.map { $0 + 1 }.filter { _ in true }.collect()
        let (b, outB) = signal.collect()
        #expect(b.events == [.duplicate])
        input.send(value: 1)
        #expect(a.values == [2])
        outA.cancel()
        let (c, outC) = signal.map { $0 * 2 }.collect()
        input.send(value: 3)
        #expect(c.values == [6])
        outC.cancel()
        outB.cancel()
    }

    /// `just` sends again (and ends again) on every new subscription; stateful stages start
    /// afresh.
    @Test(arguments: DeliveryVariant.allCases)
    func resubscribeAfterEndSendsJustAgainWithFreshState(_ variant: DeliveryVariant) {
        let signal = Signal<Int>.just(1, 2, 3, delivery: variant).scan(initialValue: 0) { $0 + $1 }
        let (a, outA) = signal.collect()
        #expect(a.events == [.value(1), .value(3), .value(6), .complete])
        let (b, outB) = signal.collect()
        #expect(b.events == [.value(1), .value(3), .value(6), .complete])
        outA.cancel()
        outB.cancel()
    }

    /// A junction re-bound to a `generate` source that ended restarts it.
    @Test(arguments: DeliveryVariant.allCases)
    func junctionReboundToEndedSourceRestartsIt(_ variant: DeliveryVariant) {
        let runs = Counter()
        let source = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            runs.add()
            input.send(value: runs.value)
            input.complete()
        }
        let j = source.junction()
        let (in1, s1) = Signal<Int>.create(delivery: variant)
        let (c1, out1) = s1.collect()
        #expect(j.bind(to: in1) == nil)
        #expect(c1.events == [.value(1), .complete])
        _ = j.disconnect()
        let (in2, s2) = Signal<Int>.create(delivery: variant)
        let (c2, out2) = s2.collect()
        #expect(j.bind(to: in2) == nil)
        #expect(c2.events == [.value(2), .complete])
        out1.cancel()
        out2.cancel()
    }

    /// 1,000 subscribe → release → subscribe cycles on a `generate` signal: it runs 1,000
    /// times and no input or output of an old activation survives.
    @Test(arguments: DeliveryVariant.allCases)
    func thousandResubscribeCyclesRunGenerateEachTimeAndLeakNothing(_ variant: DeliveryVariant) {
        final class WeakBox: @unchecked Sendable { weak var object: AnyObject? }
        let runs = Counter()
        let inputs = Shared<[WeakBox]>([])
        let current = Shared<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(delivery: variant) { input in
            current.value = input
            guard let input else { return }
            runs.add()
            let box = WeakBox()
            box.object = input
            inputs.update { $0.append(box) }
            input.send(value: 1)
        }
        var outputs: [WeakBox] = []
        var received = 0
        for _ in 0..<1_000 {
            let c = Recorder<Int>()
            do {
                let out = signal.subscribe(c.handler)
                let box = WeakBox()
                box.object = out
                outputs.append(box)
            }
            received += c.values.count
        }
        #expect(runs.value == 1_000)
        #expect(received == 1_000)
        #expect(current.value == nil)
        #expect(inputs.value.allSatisfy { $0.object == nil })
        #expect(outputs.allSatisfy { $0.object == nil })
    }

    // MARK: 4. continuous() after the end

    /// A late branch of an ended `continuous` gets only the end.
    @Test(arguments: DeliveryVariant.allCases)
    func continuousAfterEndSendsOnlyTheEnd(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let (early, earlyOut) = multi.collect()
        input.send(value: 1)
        input.complete()
        #expect(early.events == [.value(1), .complete])
        let (c, out) = multi.collect()
        #expect(c.events == [.complete])
        out.cancel()
        earlyOut.cancel()
    }

    // MARK: 5. .main and .mainAsync

    /// `.main` runs at once on the main thread; `.mainAsync` always later.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func mainRunsSynchronouslyOnMainThreadAndMainAsyncDoesNot(_ variant: DeliveryVariant) async {
        let (syncSeen, asyncSeenAtOnce) = await MainActor.run { () -> ([Int], Bool) in
            let c = Recorder<Int>()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let out = signal.subscribe(context: .main, c.handler)
            input.send(value: 1)
            let seen = c.values
            out.cancel()
            let ran = Flag()
            Exec.mainAsync.invoke { ran.set() }
            return (seen, ran.isSet)
        }
        #expect(syncSeen == [1])
        #expect(asyncSeenAtOnce == false)
    }

    // MARK: 6. Every result on its context

    /// The `.duplicate` error of a second subscribe with `context: .queue(q)` arrives on q.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func duplicateErrorArrivesOnSubscribersQueue(_ variant: DeliveryVariant) {
        let (q, mark) = QueueMark.serialQueue("activation.duplicate", id: 901)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (_, first) = signal.collect()
        let onQueue = Shared<[Bool]>([])
        let c = Recorder<Int> { _ in onQueue.update { $0.append(mark.isCurrent) } }
        let second = signal.subscribe(context: .queue(q), c.handler)
        c.expectEnd()
        #expect(c.events == [.duplicate])
        #expect(onQueue.value == [true])
        second.cancel()
        first.cancel()
        withExtendedLifetime(input) {}
    }

    // MARK: 7. concatMap's waiting inner signals

    /// An inner signal still waiting its turn is not subscribed yet (ReactiveX's rule): what is
    /// sent to it then is refused, visibly (`.inactive`), never accepted and lost; once its
    /// turn comes it is subscribed and its values pass.
    @Test(arguments: DeliveryVariant.allCases)
    func concatMapWaitingInnerSignalsRefuseSendsUntilTheirTurn(_ variant: DeliveryVariant) {
        let (outer, signal) = Signal<Int>.create(delivery: variant)
        let (in0, s0) = Signal<Int>.create(delivery: variant)
        let (in1, s1) = Signal<Int>.create(delivery: variant)
        let inners = [s0, s1]
        let (c, out) = signal.concatMap { inners[$0] }.collect()
        outer.send(value: 0)
        outer.send(value: 1)
        #expect(in1.send(value: 10) == .inactive)
        #expect(in0.send(value: 1) == nil)
        #expect(in1.send(value: 11) == .inactive)
        in0.complete()
        #expect(in1.send(value: 12) == nil, "its turn: subscribed")
        in1.complete()
        outer.complete()
        #expect(c.events == [.value(1), .value(12), .complete])
        out.cancel()
    }
}
