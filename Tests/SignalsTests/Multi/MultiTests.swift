import Signals
import Testing

/// `SignalMulti`: `continuous`, `continuous(initialValue:)`, `playback`, `multicast`, `buffer`.
/// Cached values reach a new branch synchronously (before `subscribe` returns), before any live
/// value, exactly once; every branch gets every live value exactly once.
@Suite struct MultiTests {
    /// continuous: a late branch gets the latest value at once, then live values.
    @Test(arguments: DeliveryVariant.allCases)
    func continuousSendsLatestToNewBranch(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let (a, outA) = multi.collect()
        #expect(a.events == [])
        input.send(value: 1)
        input.send(value: 2)
        let (b, outB) = multi.collect()
        #expect(b.events == [.value(2)])
        input.send(value: 3)
        let (c, outC) = multi.collect()
        #expect(c.events == [.value(3)])
        input.send(value: 4)
        #expect(a.events == [.value(1), .value(2), .value(3), .value(4)])
        #expect(b.events == [.value(2), .value(3), .value(4)])
        #expect(c.events == [.value(3), .value(4)])
        for o in [outA, outB, outC] { o.cancel() }
    }

    /// continuous(initialValue:): the initial value until a value arrives.
    @Test(arguments: DeliveryVariant.allCases)
    func continuousWithInitialValue(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous(initialValue: 0) }
        let (a, outA) = multi.collect()
        #expect(a.events == [.value(0)])
        let (b, outB) = multi.collect()
        #expect(b.events == [.value(0)])
        input.send(value: 5)
        let (c, outC) = multi.collect()
        #expect(c.events == [.value(5)])
        #expect(a.events == [.value(0), .value(5)])
        #expect(b.events == [.value(0), .value(5)])
        for o in [outA, outB, outC] { o.cancel() }
    }

    /// playback: a late branch gets every value so far, then live values; after the end, a new
    /// branch gets all values and the end.
    @Test(arguments: DeliveryVariant.allCases)
    func playbackSendsEverything(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        for i in 1...3 { input.send(value: i) }
        let (b, outB) = multi.collect()
        #expect(b.events == [.value(1), .value(2), .value(3)])
        input.send(value: 4)
        input.complete()
        let (c, outC) = multi.collect()
        let all: [Ev<Int>] = [.value(1), .value(2), .value(3), .value(4), .complete]
        #expect(a.events == all)
        #expect(b.events == all)
        #expect(c.events == all)
        #expect(input.send(value: 5) == .disconnected)
        for o in [outA, outB, outC] { o.cancel() }
    }

    /// continuous after the end: the cached value is dropped when the end arrives, so a new
    /// branch gets only the end (CwlSignal's document).
    @Test(arguments: DeliveryVariant.allCases)
    func continuousAfterEnd(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let (a, outA) = multi.collect()
        input.send(value: 1)
        input.send(value: 2)
        input.send(end: .other(CoreError.boom))
        let (b, outB) = multi.collect()
        #expect(a.events == [.value(1), .value(2), .boom])
        #expect(b.events == [.boom])
        outA.cancel()
        outB.cancel()
    }

    /// multicast: no cache; a branch gets only values sent after it joined.
    @Test(arguments: DeliveryVariant.allCases)
    func multicastHasNoCache(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let (a, outA) = multi.collect()
        input.send(value: 1)
        let (b, outB) = multi.collect()
        #expect(b.events == [])
        input.send(value: 2)
        input.complete()
        #expect(a.events == [.value(1), .value(2), .complete])
        #expect(b.events == [.value(2), .complete])
        outA.cancel()
        outB.cancel()
    }

    /// buffer: the updater's kept values (starting from `initials`) go to each new branch.
    @Test(arguments: DeliveryVariant.allCases)
    func bufferKeepsWhatUpdaterKeeps(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) {
            $0.buffer(initials: [10, 20]) { kept, v in
                kept.append(v)
                if kept.count > 3 { kept.removeFirst(kept.count - 3) }
            }
        }
        let (a, outA) = multi.collect()
        #expect(a.events == [.value(10), .value(20)])
        input.send(value: 1)
        input.send(value: 2)
        let (b, outB) = multi.collect()
        #expect(b.events == [.value(20), .value(1), .value(2)])
        input.send(value: 3)
        #expect(a.events == [.value(10), .value(20), .value(1), .value(2), .value(3)])
        #expect(b.events == [.value(20), .value(1), .value(2), .value(3)])
        outA.cancel()
        outB.cancel()
    }

    /// Every transform of a multi is a new branch (no duplicate error), and each branch gets
    /// each value exactly once.
    @Test(arguments: DeliveryVariant.allCases)
    func transformsAreBranches(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let (a, outA) = multi.map { $0 + 1 }.collect()
        let (b, outB) = multi.map { $0 * 10 }.collect()
        let (c, outC) = multi.filter { $0 % 2 == 0 }.collect()
        let (d, outD) = multi.collect()
        for i in 0..<4 { input.send(value: i) }
        #expect(a.events == [.value(1), .value(2), .value(3), .value(4)])
        #expect(b.events == [.value(0), .value(10), .value(20), .value(30)])
        #expect(c.events == [.value(0), .value(2)])
        #expect(d.events == [.value(0), .value(1), .value(2), .value(3)])
        for o in [outA, outB, outC, outD] { o.cancel() }
    }

    /// A branch cancelled in the middle stops getting values; the others are unaffected.
    @Test(arguments: DeliveryVariant.allCases)
    func cancellingOneBranch(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        let (b, outB) = multi.collect()
        input.send(value: 1)
        outA.cancel()
        input.send(value: 2)
        #expect(a.events == [.value(1)])
        #expect(b.events == [.value(1), .value(2)])
        outB.cancel()
    }

    /// A branch subscribed from inside another branch's handler gets the cached value and then
    /// the live ones, each exactly once, and nothing out of order.
    @Test(arguments: DeliveryVariant.allCases)
    func branchAddedInsideDelivery(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let inner = Recorder<Int>()
        let innerOut = Shared<SignalOutput<Int>?>(nil)
        let outer = Recorder<Int> { r in
            if r.value == 2 { innerOut.value = multi.subscribe(inner.handler) }
        }
        let outOuter = multi.subscribe(outer.handler)
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        input.send(value: 4)
        #expect(outer.events == [.value(1), .value(2), .value(3), .value(4)])
        #expect(inner.events == [.value(2), .value(3), .value(4)])
        outOuter.cancel()
        innerOut.value?.cancel()
    }

    /// A multi made from an already-taken plain signal gives each branch the duplicate error.
    @Test(arguments: DeliveryVariant.allCases)
    func multiOfTakenSignal(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(input) {} }  // kept: releasing it would end the stream and free the output
        let (_, taken) = signal.collect()
        let multi = signal.continuous()
        let (c, out) = multi.collect()
        #expect(c.events == [.duplicate])
        out.cancel()
        taken.cancel()
    }

    /// A branch on a `.queue` context gets the cached values before any live value sent after
    /// it subscribed, each exactly once, in order.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func cachedBeforeLiveOnContext(_ variant: DeliveryVariant) {
        let (queue, _) = QueueMark.serialQueue("multi.ctx", id: 51)
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        for i in 0..<3 { input.send(value: i) }
        let (b, outB) = multi.collect(context: .queue(queue))
        for i in 3..<6 { input.send(value: i) }
        input.complete()
        b.expectEnd()
        let expected: [Ev<Int>] = (0..<6).map { .value($0) } + [.complete]
        #expect(a.events == expected)
        #expect(b.events == expected)
        outA.cancel()
        outB.cancel()
    }

    /// A branch that cancels itself from inside its handler (on the first live value after its
    /// cached ones) gets nothing more; the other branch is unaffected.
    @Test(arguments: DeliveryVariant.allCases)
    func cancelInsideBranchHandler(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.playback() }
        let (a, outA) = multi.collect()
        for i in 1...3 { input.send(value: i) }
        let holder = Shared<SignalOutput<Int>?>(nil)
        let b = Recorder<Int> { _ in holder.value?.cancel() }
        holder.value = multi.subscribe(b.handler)
        // The cache is delivered inside `subscribe`, before `holder` is set: cancel on the
        // next delivery instead.
        input.send(value: 4)
        input.send(value: 5)
        #expect(b.events == [.value(1), .value(2), .value(3), .value(4)])
        #expect(a.events == (1...5).map { .value($0) })
        outA.cancel()
        holder.value = nil
    }

    /// A branch's handler cancels another branch in the middle of a delivery: the cancelled
    /// branch is not entered again (not even for the value being delivered, since its
    /// delivery comes after `cancel()` returned); the rest get every value.
    @Test(arguments: DeliveryVariant.allCases)
    func branchCancelsAnotherInsideDelivery(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let victim = Shared<SignalOutput<Int>?>(nil)
        let a = Recorder<Int> { r in if r.value == 2 { victim.value?.cancel() } }
        let b = Recorder<Int>()
        let c = Recorder<Int>()
        let outA = multi.subscribe(a.handler)
        victim.value = multi.subscribe(b.handler)
        let outC = multi.subscribe(c.handler)
        for i in 1...3 { input.send(value: i) }
        #expect(a.events == [.value(1), .value(2), .value(3)])
        #expect(b.events == [.value(1)])
        #expect(c.events == [.value(1), .value(2), .value(3)])
        outA.cancel()
        outC.cancel()
        victim.value = nil
    }

    /// The same with value handlers, which sit straight behind the branch's gate (no gate of
    /// their own: one gate per delivery): the cancelled branch's handler is not entered for the value in
    /// progress nor after it.
    @Test(arguments: DeliveryVariant.allCases)
    func valueBranchCancelsAnotherInsideDelivery(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let victim = Shared<SignalOutput<Int>?>(nil)
        let a = Shared<[Int]>([])
        let b = Shared<[Int]>([])
        let outA = multi.subscribeValues { v in
            a.update { $0.append(v) }
            if v == 2 { victim.value?.cancel() }
        }
        victim.value = multi.subscribeValues { v in b.update { $0.append(v) } }
        for i in 1...3 { input.send(value: i) }
        #expect(a.value == [1, 2, 3])
        #expect(b.value == [1])
        #expect(victim.value?.isClosed == true)
        outA.cancel()
        victim.value = nil
    }

    /// A stage's closure cancels the subscription it feeds, mid-delivery: the handler behind
    /// it keeps its own gate (user code runs between the node's gate and the handler), so it
    /// does not see that value.
    @Test(arguments: DeliveryVariant.allCases)
    func stageCancelsItsOwnSubscriptionMidDelivery(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let holder = Shared<SignalOutput<Int>?>(nil)
        let seen = Shared<[Int]>([])
        holder.value = signal.map { v -> Int in
            if v == 2 { holder.value?.cancel() }
            return v
        }.subscribeValues { v in seen.update { $0.append(v) } }
        for i in 1...3 { input.send(value: i) }
        #expect(seen.value == [1])
        holder.value = nil
    }

    /// Every branch is cancelled from inside a delivery: the multi deactivates its upstream
    /// (sends become `.inactive`), nobody gets anything more, and a new branch reactivates it.
    @Test(arguments: DeliveryVariant.allCases)
    func allBranchesCancelledInsideDelivery(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let outputs = Shared<[SignalOutput<Int>]>([])
        let a = Recorder<Int> { r in
            if r.value == 1 { for o in outputs.value { o.cancel() } }
        }
        let b = Recorder<Int>()
        outputs.update { $0.append(multi.subscribe(a.handler)) }
        outputs.update { $0.append(multi.subscribe(b.handler)) }
        #expect(input.send(value: 1) == nil)
        #expect(input.send(value: 2) == .inactive)
        #expect(a.events == [.value(1)])
        #expect(b.events == [])
        let (c, outC) = multi.collect()
        #expect(input.send(value: 3) == nil)
        #expect(c.events == [.value(3)])
        outC.cancel()
        outputs.value = []
    }

    /// A handler releases its own (last reference to its) output while being delivered to:
    /// nothing after that call is delivered to it, and the graph deactivates (a lazy multi:
    /// an eager `continuous()` would stay active while it exists).
    @Test(arguments: DeliveryVariant.allCases)
    func outputReleasedInsideItsHandler(_ variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuousWhileActive() }
        let holder = Shared<SignalOutput<Int>?>(nil)
        let a = Recorder<Int> { r in if r.value == 2 { holder.value = nil } }
        holder.value = multi.subscribe(a.handler)
        input.send(value: 1)
        input.send(value: 2)
        #expect(input.send(value: 3) == .inactive)
        #expect(a.events == [.value(1), .value(2)])
    }
    /// A branch added to a `multicast()` after its upstream ended gets that end and nothing
    /// else, and the ended upstream is not activated again for it: a `generate` source is not
    /// called (no fresh input whose sends would be accepted and then dropped at the ended
    /// multi), nor an `onActivate` above it.
    @Test(arguments: DeliveryVariant.allCases)
    func multicastBranchAfterEndDoesNotActivateUpstream(_ variant: DeliveryVariant) {
        let calls = Shared<[Bool]>([])
        let upstreamActivations = Shared(0)
        let inputs = Shared<[SignalInput<Int>]>([])
        let multi = Signal<Int>.generate(delivery: variant) { input in
            calls.update { $0.append(input != nil) }
            if let input { inputs.update { $0.append(input) } }
        }.onActivate { upstreamActivations.update { $0 += 1 } }.multicast()
        let (a, outA) = multi.collect()
        inputs.value.last?.send(value: 1)
        inputs.value.last?.complete()
        #expect(a.events == [.value(1), .complete])
        let (b, outB) = multi.collect()
        let (c, outC) = multi.collect()
        #expect(b.events == [.complete])
        #expect(c.events == [.complete])
        #expect(upstreamActivations.value == 1)
        #expect(calls.value.filter { $0 }.count == 1)
        for o in [outA, outB, outC] { o.cancel() }
        inputs.value = []
    }

    /// The WhileActive caches do start their ended upstream afresh for a branch that joins
    /// after the end (their documented reset), so the rule above is `multicast()`'s.
    @Test(arguments: DeliveryVariant.allCases)
    func playbackWhileActiveBranchAfterEndRestartsUpstream(_ variant: DeliveryVariant) {
        let upstreamActivations = Shared(0)
        let inputs = Shared<[SignalInput<Int>]>([])
        let multi = Signal<Int>.generate(delivery: variant) { input in
            if let input { inputs.update { $0.append(input) } }
        }.onActivate { upstreamActivations.update { $0 += 1 } }.playbackWhileActive()
        let (a, outA) = multi.collect()
        inputs.value.last?.send(value: 1)
        inputs.value.last?.complete()
        #expect(a.events == [.value(1), .complete])
        outA.cancel()
        let (b, outB) = multi.collect()
        inputs.value.last?.send(value: 2)
        #expect(b.events == [.value(2)])
        #expect(upstreamActivations.value == 2)
        outB.cancel()
        inputs.value = []
    }
}
