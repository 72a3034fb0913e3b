import Dispatch
import Signals
import Testing

/// The asynchronous contexts a test can name as an argument.
enum ContextKind: String, CaseIterable, Sendable {
    case global, queue, concurrent

    /// The context, and a check for "running on it" (always true for `.global`, which has no
    /// queue of its own to mark).
    func make() -> (Exec, @Sendable () -> Bool) {
        switch self {
        case .global:
            return (.global, { true })
        case .queue:
            let (q, mark) = QueueMark.serialQueue("ctx.serial", id: 31)
            return (.queue(q), { mark.isCurrent })
        case .concurrent:
            let (q, mark) = QueueMark.concurrentQueue("ctx.concurrent", id: 32)
            return (.concurrent(q), { mark.isCurrent })
        }
    }
}

/// Deterministic context behaviour: where handlers run, and a virtual-time context that runs
/// nothing until told.
@Suite struct ContextTests {
    /// A handler on a context runs there (asynchronously), gets every result once, in order.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases, ContextKind.allCases)
    func handlerRunsOnContextInOrder(_ variant: DeliveryVariant, _ kind: ContextKind) {
        let (context, isOnContext) = kind.make()
        let wrong = Shared(0)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int> { _ in if !isOnContext() { wrong.update { $0 += 1 } } }
        let out = signal.subscribe(context: context, c.handler)
        for i in 0..<1000 { #expect(input.send(value: i) == nil) }
        input.complete()
        c.expectEnd()
        #expect(c.events == (0..<1000).map { .value($0) } + [.complete])
        #expect(c.overlaps == 0)
        #expect(wrong.value == 0)
        out.cancel()
    }

    /// With a virtual-time context nothing runs inside `send`; `runUntilIdle()` runs the queued
    /// deliveries in order on the calling thread; `subscribeValues` on a context works alike.
    @Test(arguments: DeliveryVariant.allCases)
    func virtualTimeContextDefersDelivery(_ variant: DeliveryVariant) {
        let virtual = VirtualTimeContext()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect(context: .custom(virtual))
        input.send(value: 1)
        input.send(value: 2)
        #expect(c.events == [])
        virtual.runUntilIdle()
        #expect(c.events == [.value(1), .value(2)])
        input.send(value: 3)
        input.complete()
        #expect(c.events == [.value(1), .value(2)])
        virtual.runUntilIdle()
        #expect(c.events == [.value(1), .value(2), .value(3), .complete])
        out.cancel()

        let (input2, signal2) = Signal<Int>.create(delivery: variant)
        let values = Recorder<Int>()
        let out2 = signal2.subscribeValues(context: .custom(virtual), values.valueHandler)
        input2.send(value: 9)
        input2.complete()
        virtual.runUntilIdle()
        #expect(values.events == [.value(9)])
        out2.cancel()
    }

    /// `Exec.schedule` on a virtual context runs at the due time and not if cancelled first.
    @Test func virtualSchedule() {
        let virtual = VirtualTimeContext()
        let exec = Exec.custom(virtual)
        let log = Shared<[String]>([])
        let a = exec.schedule(after: .seconds(2)) { log.update { $0.append("a@\(exec.now())") } }
        let b = exec.schedule(after: .seconds(1)) { log.update { $0.append("b@\(exec.now())") } }
        let cancelled = exec.schedule(after: .seconds(1)) { log.update { $0.append("never") } }
        cancelled.cancel()
        virtual.advance(by: .milliseconds(999))
        #expect(log.value == [])
        virtual.advance(by: .seconds(5))
        #expect(log.value == ["b@1.0 seconds", "a@2.0 seconds"])
        _ = (a, b)
    }
}

extension ContextTests {
    /// Cancelling an output on a `.queue` context deactivates at once (sends are `.inactive`
    /// as soon as `cancel()` returns) and, after the queue drains, nothing more is delivered.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func cancelOnContextDeactivatesAtOnce(_ variant: DeliveryVariant) {
        let (queue, _) = QueueMark.serialQueue("ctx.cancel", id: 34)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect(context: .queue(queue))
        #expect(input.send(value: 1) == nil)
        c.expectCount(1)
        out.cancel()
        #expect(input.send(value: 2) == .inactive)
        queue.sync {}
        #expect(c.events == [.value(1)])
    }

    /// A subscriber on a context to a stream that ended before it subscribed gets the end
    /// there.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func endBeforeSubscribeOnContext(_ variant: DeliveryVariant) {
        let (queue, mark) = QueueMark.serialQueue("ctx.end", id: 35)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        input.send(end: .other(CoreError.boom))
        let onQueue = Shared(false)
        let c = Recorder<Int> { _ in onQueue.value = mark.isCurrent }
        let out = signal.subscribe(context: .queue(queue), c.handler)
        c.expectEnd()
        #expect(c.events == [.boom])
        #expect(onQueue.value)
        out.cancel()
    }
}

extension ContextTests {
    /// `Exec.invoke` and `Exec.schedule(after:_:)` on a queue run the work there
    /// (asynchronously); `now()` never goes backwards.
    @Test(.tags(.startsThreads)) func dispatchInvokeAndSchedule() {
        let (queue, mark) = QueueMark.serialQueue("ctx.schedule", id: 36)
        let exec = Exec.queue(queue)
        let ran = Recorder<Bool>()
        let before = exec.now()
        exec.invoke { ran.receive(.success(mark.isCurrent)) }
        let lifetime = exec.schedule(after: .milliseconds(1)) { ran.receive(.success(mark.isCurrent)) }
        ran.expectCount(2)
        #expect(ran.events == [.value(true), .value(true)])
        #expect(exec.now() >= before)
        lifetime.cancel()
        #expect(!exec.isDirect)
        #expect(Exec.direct.isDirect)
    }
}

/// Contexts under concurrent senders (run under ThreadSanitizer in CI).
@Suite(.tags(.startsThreads), .serialized) struct ContextConcurrencyTests {
    /// Two threads send into one input whose handler is on `.global`, `.queue(q)` or
    /// `.concurrent(q)`: the handler is never entered concurrently (atomic flag), every value
    /// arrives exactly once, and each sender's order is kept.
    @Test(arguments: DeliveryVariant.allCases, ContextKind.allCases)
    func handlersNeverOverlapAndKeepOrder(_ variant: DeliveryVariant, _ kind: ContextKind) {
        let (context, _) = kind.make()
        let senders = 2
        let perSender = 3000
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect(context: context)
        let ok = runThreads(senders) { s in
            for i in 0..<perSender { input.send(value: s * perSender + i) }
        }
        #expect(ok)
        c.expectCount(senders * perSender)
        let values = c.values
        #expect(values.count == senders * perSender)
        for s in 0..<senders {
            let mine = values.filter { $0 / perSender == s }
            #expect(mine == Array(s * perSender ..< (s + 1) * perSender))
        }
        #expect(c.overlaps == 0)
        out.cancel()
    }

    /// A `.concurrent(q)` transform stage is still serialized: its processor never overlaps
    /// itself and keeps each sender's order.
    @Test(arguments: DeliveryVariant.allCases)
    func concurrentQueueTransformIsSerialized(_ variant: DeliveryVariant) {
        let (q, _) = QueueMark.concurrentQueue("transform.concurrent", id: 33)
        let inside = Shared(false)
        let overlaps = Shared(0)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.transform(context: .concurrent(q)) { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
            let was = inside.update { s -> Bool in defer { s = true }; return s }
            if was { overlaps.update { $0 += 1 } }
            next.send(result: r)
            inside.value = false
        }.collect()
        let perSender = 2000
        #expect(runThreads(2) { s in for i in 0..<perSender { input.send(value: s * perSender + i) } })
        c.expectCount(2 * perSender)
        let values = c.values
        for s in 0..<2 {
            #expect(values.filter { $0 / perSender == s } == Array(s * perSender ..< (s + 1) * perSender))
        }
        #expect(overlaps.value == 0)
        #expect(c.overlaps == 0)
        out.cancel()
    }
}
