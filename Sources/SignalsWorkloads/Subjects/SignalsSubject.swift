import Dispatch
import Foundation
import Signals
import SignalsReports
import Synchronization

/// The library's two subjects.
func librarySubjects() -> [any BenchSubject] {
    [SignalsSubject(delivery: .lockFree), SignalsSubject(delivery: .mutex)]
}

/// Signals with one delivery variant: `Signal<Int>.create(delivery:)` and the operators built
/// on it. Every workload is supported; the re-entrant one runs in a child process because a
/// library that recursed would overflow the stack and take the harness down with it.
package struct SignalsSubject: BenchSubject {
    package let variant: DeliveryVariant

    package init(delivery variant: DeliveryVariant) { self.variant = variant }

    package var id: SubjectID { variant == .lockFree ? .lockfree : .mutex }

    /// Calls `send(value:)` directly: the library's hot path is `@inlinable`, and this struct
    /// lets the harness's generic send loop specialize to it.
    struct Sender: ValueSender {
        let input: SignalInput<Int>
        @inline(__always) func send(_ value: Int) { input.send(value: value) }
    }

    /// `mutation`'s sender: counts rejected sends by kind, so a report can tell values
    /// dropped while a junction was unbound (`.inactive`) from an input that stopped working
    /// for good (`.disconnected`).
    struct CountingSender: ValueSender {
        let input: SignalInput<Int>
        let rejections: UnsafeMutablePointer<Int>
        @inline(__always) func send(_ value: Int) {
            switch input.send(value: value) {
            case nil: break
            case .inactive?: rejections[0] &+= 1
            case .disconnected?: rejections[1] &+= 1
            }
        }
    }

    package func support(for spec: CaseSpec) -> Support {
        switch spec.workload.bench.shape {
        case .reentrant:
            return .isolated("guarded: a library that recursed would overflow the stack")
        case .hop where spec.hop == .task:
            return .unsupported("no task context: Exec has .direct, dispatch queues and custom contexts (see global-queue)")
        default:
            return .inProcess
        }
    }

    package func run(_ ctx: RunContext) throws {
        let spec = ctx.spec
        let (input, signal) = Signal<Int>.create(delivery: variant)
        var outputs: [SignalOutput<Int>] = []
        defer {
            outputs.forEach { $0.cancel() }
            input.cancel()
        }
        let sender = Sender(input: input)

        // Driven by the workload's shape, so a new workload of an existing shape runs here as
        // declared (WorkloadRegistry).
        switch spec.workload.bench.shape {
        case .sequential(let pipeline) where spec.stages == 0:
            let c = ctx.makeChecker(senders: 1)
            outputs.append(pipeline.build(signal, 0).subscribeValues { c.receive($0) })
            ctx.driveSequential(sender, checker: c)

        case .sequential(let pipeline):
            // A value arrives as sent plus the stage count; the handler takes it back off
            // before checking.
            let stages = spec.stages
            let c = ctx.makeChecker(senders: 1)
            outputs.append(pipeline.build(signal, stages).subscribeValues { c.receive($0 &- stages) })
            ctx.driveSequential(sender, checker: c)

        case .fanout:
            let multi = signal.multicast()
            let checkers = (0..<spec.subscribers).map { ctx.makeChecker(senders: 1, name: "subscriber \($0)", sampled: $0 == 0) }
            for c in checkers { outputs.append(multi.subscribeValues { c.receive($0) }) }
            ctx.driveSequential(sender, checker: checkers[checkers.count - 1])
            ctx.completedOperations = ctx.operations * spec.subscribers

        case .contended:
            let c = ctx.makeChecker(senders: spec.threads)
            outputs.append(signal.subscribeValues { c.receive($0) })
            ctx.driveContended(checker: c) { _ in sender }

        case .reentrant:
            let c = ctx.makeChecker(senders: spec.threads + 1)
            let h = ReentrantHandler(checker: c, depth: spec.depth)
            outputs.append(signal.subscribeValues { h.handle($0, resend: sender) })
            ctx.driveReentrant(h) { _ in sender }

        case .churn:
            let multi = signal.multicast()
            let standing = (0..<spec.subscribers).map { ctx.makeChecker(senders: 1, name: "standing subscriber \($0)") }
            for c in standing { outputs.append(multi.subscribeValues { c.receive($0) }) }
            ctx.driveChurn(sender, standing: standing) {
                multi.subscribeValues { _ in }.cancel()
            }

        case .hop:
            let c = ctx.makeChecker(senders: 1)
            let context: Exec
            switch spec.hop ?? .direct {
            case .direct: context = .direct
            case .serialQueue: context = .queue(DispatchQueue(label: "bench.hop.serial"))
            case .globalQueue: context = .global
            case .task: throw SubjectError("unsupported")
            }
            outputs.append(signal.subscribeValues(context: context) { c.receive($0) })
            ctx.driveSequential(sender, checker: c)

        case .mutation:
            try runMutation(ctx)
        }
    }

    /// Sender k → its own input → junction → a middle input added to a merged input →
    /// multicast → the checked subscriber. While the senders run, this thread keeps
    /// disconnecting and rebinding every junction, adding and removing an extra merged source,
    /// and subscribing and cancelling a second subscriber. Values sent while a junction is
    /// unbound are dropped (counted); none may arrive twice or out of order.
    func runMutation(_ ctx: RunContext) throws {
        let t = max(1, ctx.spec.threads)
        let (merged, mergedSignal) = Signal<Int>.createMergedInput(delivery: variant)
        let multi = mergedSignal.multicast()
        let c = ctx.makeChecker(senders: t, allowDrops: true)
        let lifetimes: [any Lifetime] = [multi.subscribeValues { c.receive($0) }]
        var inputs: [SignalInput<Int>] = []
        var junctions: [SignalJunction<Int>] = []
        var middles: [SignalInput<Int>] = []
        for _ in 0..<t {
            let (i, s) = Signal<Int>.create(delivery: variant)
            let (mi, ms) = Signal<Int>.create(delivery: variant)
            let j = s.junction()
            if let e = j.bind(to: mi) { throw SubjectError("junction bind: \(e)") }
            if let e = merged.add(ms, closePropagation: .none) { throw SubjectError("merged add: \(e)") }
            inputs.append(i); junctions.append(j); middles.append(mi)
        }
        defer {
            lifetimes.forEach { $0.cancel() }
            junctions.forEach { $0.cancel() }
            inputs.forEach { $0.cancel() }
            middles.forEach { $0.cancel() }
            merged.cancel()
        }
        let per = max(1, ctx.operations / t)
        // Rejections by kind, one pair of slots per sender (each written by its own thread).
        let rejected = UnsafeMutablePointer<Int>.allocate(capacity: 2 * t)
        rejected.initialize(repeating: 0, count: 2 * t)
        defer { rejected.deallocate() }
        var mutations = 0
        var bindErrors = 0
        ctx.runSenders(threads: t, perThread: per, during: { sendersDone in
            while !sendersDone() {
                for (k, j) in junctions.enumerated() {
                    let back = j.disconnect() ?? middles[k]
                    if j.bind(to: back) != nil { bindErrors += 1 }
                }
                let (extraIn, extraSignal) = Signal<Int>.create(delivery: variant)
                if merged.add(extraSignal, closePropagation: .none) != nil { bindErrors += 1 }
                _ = merged.remove(extraSignal)
                extraIn.cancel()
                multi.subscribeValues { _ in }.cancel()
                mutations += 1
            }
        }) { CountingSender(input: inputs[$0], rejections: rejected + 2 * $0) }
        // Everything sent has been delivered or dropped once the senders return (a sender
        // that found a node busy left its value to the claim holder, which drains before it
        // returns); the settle loop only guards the count against a straggler.
        ctx.stopClock()
        var last = -1
        while c.received != last { last = c.received; usleep(1_000) }
        // Per *delivered* value: a send into an unbound junction's input is rejected in a few
        // ns, so dividing by values sent would mostly measure rejections.
        ctx.completedOperations = max(1, c.received)
        ctx.counters["mutationRounds"] = mutations
        ctx.counters["valuesSent"] = per * t
        ctx.counters["rejectedInactive"] = (0..<t).reduce(0) { $0 + rejected[2 * $1] }
        ctx.counters["rejectedDisconnected"] = (0..<t).reduce(0) { $0 + rejected[2 * $1 + 1] }
        // Accepted by `send` yet never delivered: lost inside the graph while it was rewired.
        ctx.counters["acceptedThenDropped"] = max(0, per * t - c.received - ctx.counters["rejectedInactive"]! - ctx.counters["rejectedDisconnected"]!)
        if bindErrors > 0 { ctx.counters["bindErrors"] = bindErrors }
    }
}
