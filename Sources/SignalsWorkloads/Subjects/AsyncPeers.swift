import AsyncAlgorithms
import Foundation
import SignalsReports

/// Consumes `sequence` through `stages` `map { $0 + 1 }` stages, calling `handler` with the
/// stage count taken back off. Recursion on a growing generic type builds a chain of run-time
/// length without type erasure.
func consume<S: AsyncSequence & Sendable>(_ sequence: S, stages: Int, added: Int = 0,
                                          _ handler: @escaping @Sendable (Int) -> Void) async where S.Element == Int {
    if stages == 0 {
        do {
            for try await v in sequence { handler(v &- added) }
        } catch {}
    } else {
        await consume(sequence.map { $0 &+ 1 }, stages: stages - 1, added: added + 1, handler)
    }
}

extension CaseSpec {
    /// Number of `map` stages a case puts between input and subscriber.
    var mapStages: Int {
        switch workload {
        case .sendMap: return 1
        case .chain: return max(1, stages)
        default: return 0
        }
    }
}

/// `AsyncStream<Int>` with an unbounded buffer: `yield` from any thread, one consuming task.
///
/// Single consumer only (no broadcast); delivery always hops to the consuming task.
package struct AsyncStreamSubject: BenchSubject {
    package init() {}
    package var id: SubjectID { .asyncstream }

    struct Sender: ValueSender {
        let continuation: AsyncStream<Int>.Continuation
        @inline(__always) func send(_ value: Int) { continuation.yield(value) }
    }

    package func support(for spec: CaseSpec) -> Support {
        switch spec.workload {
        case .send, .sendMap, .chain, .contended, .reentrant: return .inProcess
        case .fanout, .churn: return .unsupported("no broadcast: each value goes to a single consumer")
        case .mutation: return .unsupported("no junction or merged input to rebind")
        case .hop:
            return spec.hop == .task ? .inProcess : .unsupported("delivers only to a consuming task")
        default:
            return .unsupported(Support.notWritten)
        }
    }

    package func run(_ ctx: RunContext) throws {
        let spec = ctx.spec
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
        let consumerDone = DispatchSemaphore(value: 0)
        let sender = Sender(continuation: continuation)
        let handler: @Sendable (Int) -> Void
        let checker: DeliveryChecker
        var reentrant: ReentrantHandler?
        switch spec.workload {
        case .reentrant:
            checker = ctx.makeChecker(senders: spec.threads + 1)
            let h = ReentrantHandler(checker: checker, depth: spec.depth)
            reentrant = h
            handler = { h.handle($0, resend: sender) }
        case .contended:
            checker = ctx.makeChecker(senders: spec.threads)
            handler = { checker.receive($0) }
        default:
            checker = ctx.makeChecker(senders: 1)
            handler = { checker.receive($0) }
        }
        let stages = spec.mapStages
        Task.detached {
            await consume(stream, stages: stages, handler)
            consumerDone.signal()
        }
        switch spec.workload {
        case .contended:
            ctx.driveContended(checker: checker) { _ in sender }
        case .reentrant:
            ctx.driveReentrant(reentrant!) { _ in sender }
        default:
            ctx.driveSequential(sender, checker: checker)
        }
        continuation.finish()
        if ctx.stalled == nil { consumerDone.wait() }
    }
}

/// swift-async-algorithms' `AsyncChannel<Int>`: `send` suspends until a consumer takes the
/// value (a rendezvous, no buffer). Sending needs a task; the "threads" of `contended` are
/// tasks on the cooperative pool here.
package struct AsyncChannelSubject: BenchSubject {
    package init() {}
    package var id: SubjectID { .asyncchannel }

    package func support(for spec: CaseSpec) -> Support {
        switch spec.workload {
        case .send, .sendMap, .chain, .contended: return .inProcess
        case .reentrant:
            return .isolated("the handler awaits send on the channel it is itself consuming: expected deadlock")
        case .fanout, .churn: return .unsupported("no broadcast: each value goes to a single consumer")
        case .mutation: return .unsupported("no junction or merged input to rebind")
        case .hop:
            return spec.hop == .task ? .inProcess : .unsupported("delivers only to a consuming task")
        default:
            return .unsupported(Support.notWritten)
        }
    }

    /// Sends `count` values as `sender`, sampling and pacing like `RunContext.sendAll` (one
    /// loop with the tests inside: next to an `await` per value, they cost nothing).
    static func sendAll(_ channel: AsyncChannel<Int>, count: Int, sender: Int, sampler: LatencySampler?) async {
        let base = sender << 32
        var t: UInt64 = 0
        for i in 0..<count {
            let v = base | i
            guard let sm = sampler else {
                await channel.send(v)
                continue
            }
            switch sm.mode {
            case .sendCall:
                guard sm.isSampled(i) else { await channel.send(v); continue }
                let t0 = LatencyClock.now()
                await channel.send(v)
                sm.store(sender: sender, index: i, LatencyClock.now() &- t0)
            case .endToEnd:
                if sm.isSampled(i) { sm.store(sender: sender, index: i, LatencyClock.now()) }
                await channel.send(v)
            case .openLoop(let schedule):
                let due = schedule.due(sender: sender, index: i)
                while t < due { t = LatencyClock.now() }
                if sm.isSampled(i) {
                    t = LatencyClock.now()
                    sm.store(sender: sender, index: i, t)
                }
                await channel.send(v)
            }
        }
    }

    package func run(_ ctx: RunContext) throws {
        let spec = ctx.spec
        let channel = AsyncChannel<Int>()
        let consumerDone = DispatchSemaphore(value: 0)
        let sampler = ctx.sampler
        switch spec.workload {
        case .reentrant:
            // Runs only isolated: the consumer's own `await send` never finds a consumer.
            let checker = ctx.makeChecker(senders: spec.threads + 1)
            let h = ReentrantHandler(checker: checker, depth: spec.depth)
            Task.detached {
                for await v in channel {
                    checker.receive(v)
                    if v >> 32 == 0 && v < h.depth { await channel.send(v &+ 1) }
                }
            }
            struct TaskSender: ValueSender {
                let channel: AsyncChannel<Int>
                func send(_ value: Int) { let c = channel; Task.detached { await c.send(value) } }
            }
            ctx.driveReentrant(h) { _ in TaskSender(channel: channel) }
            return
        case .contended:
            let t = max(1, spec.threads)
            let per = max(1, ctx.operations / t)
            let checker = ctx.makeChecker(senders: t)
            Task.detached {
                await consume(channel, stages: 0) { checker.receive($0) }
                consumerDone.signal()
            }
            ctx.startClock()
            runBlocking {
                await withTaskGroup(of: Void.self) { group in
                    for s in 0..<t {
                        group.addTask { await Self.sendAll(channel, count: per, sender: s, sampler: sampler) }
                    }
                }
            }
            ctx.waitForDelivery(checker, count: per * t)
            ctx.stopClock()
            ctx.sent = Array(repeating: per, count: t)
            ctx.completedOperations = per * t
        default:
            let checker = ctx.makeChecker(senders: 1)
            let stages = spec.mapStages
            Task.detached {
                await consume(channel, stages: stages) { checker.receive($0) }
                consumerDone.signal()
            }
            let n = ctx.operations
            ctx.startClock()
            runBlocking { await Self.sendAll(channel, count: n, sender: 0, sampler: sampler) }
            ctx.waitForDelivery(checker, count: n)
            ctx.stopClock()
            ctx.sent = [n]
        }
        channel.finish()
        consumerDone.wait()
    }
}
