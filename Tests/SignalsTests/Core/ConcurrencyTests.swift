import Dispatch
import Signals
import Synchronization
import Testing

/// Checks that, for each sender `s`, the values tagged `s` (value / stride == s) form exactly
/// `expected(s)`.
private func perSender(_ values: [Int], stride: Int, senders: Int) -> [[Int]] {
    var out = Array(repeating: [Int](), count: senders)
    for v in values { out[v / stride].append(v % stride) }
    return out
}

/// Whether `xs` is a run of consecutive integers.
private func isConsecutive(_ xs: [Int]) -> Bool {
    zip(xs, xs.dropFirst()).allSatisfy { $1 == $0 + 1 }
}

/// Many threads, one graph (run under ThreadSanitizer in CI with `--filter Concurrency`).
/// Each test is bounded: fixed counts, no open-ended loops.
@Suite(.serialized) struct ConcurrencyTests {
    /// 2, 4 or 8 threads send into one input with per-sender sequence numbers: every send is
    /// accepted, every value arrives exactly once, each sender's order is kept, and the handler
    /// is never entered concurrently (atomic flag).
    @Test(arguments: DeliveryVariant.allCases, [2, 4, 8])
    func manySendersOneInput(_ variant: DeliveryVariant, _ threads: Int) {
        let stride = 1_000_000
        let perThread = 40_000 / threads
        let refused = Counter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        #expect(runThreads(threads) { s in
            for i in 0..<perThread where input.send(value: s * stride + i) != nil {
                refused.add()
            }
        })
        #expect(refused.value == 0)
        #expect(c.count == threads * perThread)
        let split = perSender(c.values, stride: stride, senders: threads)
        for s in 0..<threads { #expect(split[s] == Array(0..<perThread), "sender \(s)") }
        #expect(c.overlaps == 0)
        out.cancel()
    }

    /// The same through fused stages and a multi node with two branches: each branch gets
    /// every value once, per-sender order kept, no overlap.
    @Test(arguments: DeliveryVariant.allCases)
    func manySendersThroughChainAndMulti(_ variant: DeliveryVariant) {
        let stride = 1_000_000
        let threads = 4
        let perThread = 5_000
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.map { $0 + 0 }.filter { _ in true }.multicast() }
        let (a, outA) = multi.map { $0 }.collect()
        let (b, outB) = multi.collect()
        #expect(runThreads(threads) { s in
            for i in 0..<perThread { input.send(value: s * stride + i) }
        })
        for c in [a, b] {
            #expect(c.count == threads * perThread)
            let split = perSender(c.values, stride: stride, senders: threads)
            for s in 0..<threads { #expect(split[s] == Array(0..<perThread)) }
            #expect(c.overlaps == 0)
        }
        outA.cancel()
        outB.cancel()
    }

    /// Branches of a multicast are subscribed and cancelled over and over while two threads
    /// send: every branch sees, per sender, a consecutive run (nothing lost, repeated or
    /// reordered while attached), is never entered concurrently, and is never entered after
    /// `cancel()` has returned; a permanent branch sees everything.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeCancelRacingWithSenders(_ variant: DeliveryVariant) {
        let stride = 1_000_000
        let perThread = 20_000
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let (permanent, permanentOut) = multi.collect()
        let sendersDone = Counter()
        let senders = DispatchGroup()
        for s in 0..<2 {
            senders.enter()
            _ = startThread {
                for i in 0..<perThread { input.send(value: s * stride + i) }
                sendersDone.add()
                senders.leave()
            }
        }
        var rounds = 0
        var lateEntries = 0
        while sendersDone.value < 2 && rounds < 2_000 {
            rounds += 1
            let cancelled = Flag()
            let late = Counter()
            let c = Collector<Int>()
            let out = multi.subscribe { [c] r in
                if cancelled.isSet { late.add() }
                c.receive(r)
            }
            out.cancel()
            cancelled.set()
            let split = perSender(c.values, stride: stride, senders: 2)
            for s in 0..<2 where !isConsecutive(split[s]) {
                Issue.record("round \(rounds): sender \(s) run not consecutive: \(split[s].prefix(20))")
            }
            #expect(c.overlaps == 0)
            lateEntries += late.value
        }
        #expect(senders.finished())
        #expect(lateEntries == 0)
        #expect(permanent.count == 2 * perThread)
        let split = perSender(permanent.values, stride: stride, senders: 2)
        for s in 0..<2 { #expect(split[s] == Array(0..<perThread)) }
        #expect(permanent.overlaps == 0)
        permanentOut.cancel()
    }

    /// Branches of a `continuous()` subscribed while one thread sends 0, 1, 2, …: each branch
    /// sees a consecutive run starting with the cached latest value (cached before live, exactly
    /// once, no gap).
    @Test(arguments: DeliveryVariant.allCases)
    func continuousBranchesJoinWithoutGapOrRepeat(_ variant: DeliveryVariant) {
        let count = 40_000
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
        let (permanent, permanentOut) = multi.collect()
        let done = Flag()
        let sender = startThread {
            for i in 0..<count { input.send(value: i) }
            done.set()
        }
        var branches: [(Collector<Int>, SignalOutput<Int>)] = []
        while !done.isSet && branches.count < 200 {
            branches.append(multi.collect())
        }
        #expect(sender.finished())
        #expect(permanent.values == Array(0..<count))
        for (i, (c, out)) in branches.enumerated() {
            let vs = c.values
            #expect(isConsecutive(vs), "branch \(i): \(vs.prefix(10))")
            #expect(vs.last == count - 1 || vs.isEmpty, "branch \(i) ends at \(String(describing: vs.last))")
            #expect(c.overlaps == 0)
            out.cancel()
        }
        permanentOut.cancel()
    }

    /// A junction is bound and disconnected over and over while a thread sends into its
    /// source: the target gets strictly increasing values (dropped in transit is allowed,
    /// reordered or repeated is not), never concurrently; the binder never sees an error.
    @Test(arguments: DeliveryVariant.allCases)
    func junctionBindDisconnectRacingWithSenders(_ variant: DeliveryVariant) {
        let count = 30_000
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let junction = sourceSignal.junction()
        let (target, targetSignal) = Signal<Int>.create(delivery: variant)
        let (c, out) = targetSignal.collect()
        let done = Flag()
        let accepted = Counter()
        let sender = startThread {
            for i in 0..<count where source.send(value: i) == nil { accepted.add() }
            done.set()
        }
        var rounds = 0
        var errors: [SignalBindError] = []
        while !done.isSet && rounds < 2_000 {
            rounds += 1
            if let error = junction.bind(to: target) { errors.append(error) }
            #expect(junction.disconnect() === target)
        }
        #expect(sender.finished())
        #expect(errors == [])
        let vs = c.values
        #expect(zip(vs, vs.dropFirst()).allSatisfy { $0 < $1 }, "out of order: \(vs.prefix(30))")
        #expect(vs.count <= accepted.value)
        #expect(c.overlaps == 0)
        #expect(c.ends.isEmpty)
        #expect(target.send(value: count) == nil)
        out.cancel()
    }

    /// `cancel()` called on the test thread while another thread sends: once it returns, the
    /// handler (on `.direct`) is never entered again, and what arrived is a consecutive prefix.
    @Test(arguments: DeliveryVariant.allCases)
    func noDeliveryAfterCancelReturnsDirect(_ variant: DeliveryVariant) {
        for round in 0..<40 {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let cancelled = Flag()
            let late = Counter()
            let c = Collector<Int>()
            let out = signal.subscribe { [c] r in
                if cancelled.isSet { late.add() }
                c.receive(r)
            }
            let sender = startThread {
                var i = 0
                while i < 1_000_000, input.send(value: i) == nil { i += 1 }
            }
            #expect(c.wait(forCount: 20))
            out.cancel()
            cancelled.set()
            #expect(sender.finished())
            #expect(late.value == 0, "round \(round)")
            #expect(c.values == Array(0..<c.count))
            #expect(c.overlaps == 0)
        }
    }

    /// The same on `.queue(q)` and `.global`: after `cancel()` returns and the deliveries
    /// already running have finished (a barrier on the queue), the handler is not entered again.
    @Test(arguments: DeliveryVariant.allCases)
    func noDeliveryAfterCancelOnQueue(_ variant: DeliveryVariant) {
        for round in 0..<30 {
            let (q, _) = QueueMark.serialQueue("cancel.queue", id: 41)
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let cancelled = Flag()
            let late = Counter()
            let c = Collector<Int>()
            let out = signal.subscribe(context: .queue(q)) { [c] r in
                if cancelled.isSet { late.add() }
                c.receive(r)
            }
            let stop = Flag()
            let sender = startThread {
                var i = 0
                while i < 200_000, !stop.isSet, input.send(value: i) == nil { i += 1 }
            }
            #expect(c.wait(forCount: 20))
            out.cancel()
            q.sync {}
            cancelled.set()
            stop.set()
            #expect(sender.finished())
            q.sync {}
            #expect(late.value == 0, "round \(round)")
            #expect(c.values == Array(0..<c.count))
            #expect(c.overlaps == 0)
        }
    }

    /// Merged-input sources are added and removed while threads send into them and into the
    /// merged input: every direct send is delivered once and in order, no overlap.
    @Test(arguments: DeliveryVariant.allCases)
    func mergedInputAddRemoveRacing(_ variant: DeliveryVariant) {
        let stride = 1_000_000
        let perThread = 10_000
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let (c, out) = signal.collect()
        let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
        let multi = sourceSignal.multicast()
        let done = Counter()
        let g1 = startThread {
            for i in 0..<perThread { merged.send(value: i) }
            done.add()
        }
        let g2 = startThread {
            for i in 0..<perThread { source.send(value: stride + i) }
            done.add()
        }
        var rounds = 0
        while done.value < 2 && rounds < 2_000 {
            rounds += 1
            let branch = multi.map { $0 }
            #expect(merged.add(branch) == nil)
            #expect(merged.remove(branch))
        }
        #expect(g1.finished())
        #expect(g2.finished())
        let split = perSender(c.values, stride: stride, senders: 2)
        #expect(split[0] == Array(0..<perThread))
        #expect(zip(split[1], split[1].dropFirst()).allSatisfy { $0 < $1 })
        #expect(c.overlaps == 0)
        out.cancel()
    }
}

/// Re-entrant sends (single-threaded; kept out of the ThreadSanitizer filter for its length).
@Suite struct ReentrancyTests {
    /// A handler re-sends into its own input 1,000,000 times on the default thread stack: the
    /// sends are queued, not nested (the handler is never entered while already inside), every
    /// value arrives once, in order, and the outer send returns only after the last one.
    @Test(arguments: DeliveryVariant.allCases)
    func millionReentrantSends(_ variant: DeliveryVariant) {
        let n = 1_000_000
        final class State: @unchecked Sendable {
            // Touched only inside the handler; `depth` catches nesting.
            var expected = 0
            var depth = 0
            var maxDepth = 0
            var refused = 0
        }
        let state = State()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let out = signal.subscribeValues { v in
            state.depth += 1
            state.maxDepth = max(state.maxDepth, state.depth)
            if v == state.expected { state.expected += 1 }
            if v + 1 < n, input.send(value: v + 1) != nil { state.refused += 1 }
            state.depth -= 1
        }
        #expect(input.send(value: 0) == nil)
        #expect(state.expected == n)
        #expect(state.maxDepth == 1)
        #expect(state.refused == 0)
        out.cancel()
    }

    /// Re-entrant sends through a fused chain and a multi node keep order too, and a value sent
    /// from inside a handler is delivered after that handler returns.
    @Test(arguments: DeliveryVariant.allCases)
    func reentrantSendIsDeliveredAfterHandlerReturns(_ variant: DeliveryVariant) {
        let log = Shared<[String]>([])
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.map { $0 * 1 }.multicast() }
        let out = multi.subscribeValues { v in
            log.update { $0.append("enter \(v)") }
            if v < 3 { input.send(value: v + 1) }
            log.update { $0.append("exit \(v)") }
        }
        input.send(value: 0)
        #expect(log.value == ["enter 0", "exit 0", "enter 1", "exit 1", "enter 2", "exit 2", "enter 3", "exit 3"])
        out.cancel()
    }
}
