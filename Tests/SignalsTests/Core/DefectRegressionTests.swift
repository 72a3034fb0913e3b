// Regression tests for defects found by probing the library from outside: cancel from inside a
// delivery, a cancelled stage on a queue, merged sources that end, loops through inner
// subscriptions. Each test fails on the code before its fix (a deadlock or an endless cycle fails by
// its watchdog instead of hanging the run) and runs on both delivery variants.

import Dispatch
import Signals
import Synchronization
import Testing

/// Runs `body` on a thread of its own and reports whether it returned within `seconds`. A
/// body that never returns (a deadlock, an endless cycle) is left behind, blocked: the test
/// fails instead of hanging the run. The limit is a watchdog, not a timing claim: a correct
/// body takes milliseconds, so only a hang can exceed it.
func returnsWithin(seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// A pool of subscriptions that handlers on another graph cancel one at a time. Each victim
/// records whether its handler ran after its `cancel()` had returned.
final class CancelVictims: @unchecked Sendable {
    // Unchecked: `outputs` is behind a Mutex; the flags are atomic.
    private let outputs = Mutex<[SignalOutput<Int>]>([])
    private let flags: Mutex<[Bool]>
    let lateCalls = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)

    init(count: Int, on multi: SignalMulti<Int>) {
        flags = Mutex([Bool](repeating: false, count: count))
        var made: [SignalOutput<Int>] = []
        for i in 0..<count {
            made.append(multi.subscribeValues { [self] _ in
                if flags.withLock({ $0[i] }) { lateCalls.add(1, ordering: .relaxed) }
            })
        }
        outputs.withLock { $0 = made }
    }

    /// Cancels the next victim (called from a handler on the other graph).
    func cancelOne() {
        let next = outputs.withLock { o -> (Int, SignalOutput<Int>)? in
            guard let last = o.popLast() else { return nil }
            return (o.count, last)
        }
        guard let (index, output) = next else { return }
        output.cancel()
        flags.withLock { $0[index] = true }
        cancelled.add(1, ordering: .relaxed)
    }
}

@Suite("Cancellation, merged-source and inner-loop defects")
struct DefectRegressionTests {
    // MARK: Cancel from inside a delivery

    /// A handler on A cancels branches of B while a handler on B cancels branches of A, and
    /// two threads send into A and B at once. Before the fix each `cancel` waited for the
    /// other node's holder, whose thread was waiting for this one: neither send returned.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func crossCancellingHandlersDoNotDeadlock(variant: DeliveryVariant) {
        let count = 500
        let (inA, a) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let (inB, b) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let victimsOfA = CancelVictims(count: count, on: a)
        let victimsOfB = CancelVictims(count: count, on: b)
        let onA = a.subscribeValues { _ in victimsOfB.cancelOne() }
        let onB = b.subscribeValues { _ in victimsOfA.cancelOne() }
        let returned = returnsWithin(seconds: 60) {
            DispatchQueue.concurrentPerform(iterations: 2) { t in
                let input = t == 0 ? inA : inB
                for v in 0..<count { _ = input.send(value: v) }
            }
        }
        #expect(returned, "the two senders deadlocked")
        guard returned else { return }
        #expect(victimsOfA.cancelled.load(ordering: .relaxed) == count)
        #expect(victimsOfB.cancelled.load(ordering: .relaxed) == count)
        #expect(victimsOfA.lateCalls.load(ordering: .relaxed) == 0)
        #expect(victimsOfB.lateCalls.load(ordering: .relaxed) == 0)
        withExtendedLifetime((onA, onB)) {}
    }

    /// Cancelling from inside a handler on the same node: the cancelled branch's stages (not
    /// only its handler) see nothing that was queued behind the current delivery.
    @Test(arguments: DeliveryVariant.allCases)
    func stagesOfABranchCancelledFromInsideADeliveryStopAtOnce(variant: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let stageCalls = Atomic<Int>(0)
        let victim = multi.map { v -> Int in stageCalls.add(1, ordering: .relaxed); return v }.subscribeValues { _ in }
        let holder = Mutex<SignalOutput<Int>?>(victim)
        let canceller = multi.subscribeValues { v in
            if v == 0 {
                // Queued behind this delivery: values 1 and 2.
                _ = input.send(value: 1)
                _ = input.send(value: 2)
                holder.withLock { $0 }?.cancel()
            }
        }
        _ = input.send(value: 0)
        // The stage ran for 0 only (its call for 0 came before the cancel).
        #expect(stageCalls.load(ordering: .relaxed) == 1)
        holder.withLock { $0 = nil }
        withExtendedLifetime(canceller) {}
    }

    // MARK: A cancelled stage on a queue

    /// A stage on a `.queue` context with a backlog: after `cancel()` returns, the stage's
    /// closure runs no more (the call already running may finish). Before the fix it ran on
    /// through the backlog, thousands of times.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func queueStageStopsWhenCancelled(variant: DeliveryVariant) {
        let backlog = 20_000
        let q = DispatchQueue(label: "DefectRegressionTests.queueStage")
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let calls = Atomic<Int>(0)
        let output = signal.map(context: .queue(q)) { v -> Int in
            if v == 0 {
                started.signal()
                gate.wait()
            }
            calls.add(1, ordering: .relaxed)
            return v
        }.subscribeValues { _ in }
        for v in 0..<backlog { _ = input.send(value: v) }
        started.wait()
        output.cancel()
        let atCancel = calls.load(ordering: .relaxed)
        gate.signal()
        // The drain runs as one block on `q`: once this returns, it has finished.
        q.sync {}
        q.sync {}
        let after = calls.load(ordering: .relaxed) - atCancel
        // Only the call for value 0, which was running when `cancel()` returned.
        #expect(after <= 1, "the stage ran \(after) times after cancel() returned")
    }

    // MARK: Merged sources that end

    /// A source that completes is removed from its merged input, whatever the propagation.
    @Test(arguments: DeliveryVariant.allCases)
    func completedMergedSourceIsRemoved(variant: DeliveryVariant) {
        for propagation in [SignalEndPropagation.none, .errors] {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
            let collector = Recorder<Int>()
            let output = signal.subscribe(collector.handler)
            let (sourceInput, source) = Signal<Int>.create(delivery: variant)
            let (otherInput, other) = Signal<Int>.create(delivery: variant)
            #expect(merged.add(source, closePropagation: propagation) == nil)
            #expect(merged.add(other, closePropagation: propagation) == nil)
            #expect(sourceInput.send(value: 1) == nil)
            #expect(sourceInput.complete() == nil)
            #expect(merged.remove(source) == false, "a completed source was still attached (\(propagation))")
            // The merged signal is still open and fed by the other source.
            #expect(otherInput.send(value: 2) == nil)
            #expect(merged.remove(other) == true)
            #expect(collector.events == [.value(1), .value(2)])
            withExtendedLifetime(output) {}
        }
    }

    /// An error that closes the merged signal (`.errors`) also removes its source.
    @Test(arguments: DeliveryVariant.allCases)
    func failedMergedSourceIsRemoved(variant: DeliveryVariant) {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
        let collector = Recorder<Int>()
        let output = signal.subscribe(collector.handler)
        let (sourceInput, source) = Signal<Int>.create(delivery: variant)
        #expect(merged.add(source, closePropagation: .errors) == nil)
        _ = sourceInput.send(end: .other(CoreError.boom))
        #expect(merged.remove(source) == false)
        #expect(collector.events == [.boom])
        withExtendedLifetime(output) {}
    }

    // MARK: Loops through inner subscriptions

    /// A loop closed through `deferred`'s inner subscription: the bind itself sees no edge
    /// yet, so the inner subscription is refused when it is made, with `.loop`, as a value.
    /// Before the fix one send then cycled for ever (the watchdog fails the test).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func loopThroughDeferredIsRefused(variant: DeliveryVariant) {
        let (inA, a) = Signal<Int>.create(delivery: variant)
        let laps = Atomic<Int>(0)
        let junction = Signal<Int>.deferred {
            a.multicast().map { v -> Int in laps.add(1, ordering: .relaxed); return v + 1 }
        }.junction()
        let result = Mutex<SignalSendError??>(.none)
        let returned = returnsWithin(seconds: 60) {
            _ = junction.bind(to: inA)
            let sent = inA.send(value: 1)
            result.withLock { $0 = .some(sent) }
        }
        #expect(returned, "a send cycled through the loop")
        guard returned else { junction.cancel(); return }
        #expect(laps.load(ordering: .relaxed) == 0)
        // The refusal ended the loop's input with `.loop`: later sends are refused.
        #expect(result.withLock { $0 } == .some(.disconnected))
        junction.cancel()
    }

    /// The same loop closed later: `flatMap` picks its inner signal per value, so the bind is
    /// accepted and the loop appears only when the first value arrives.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func loopClosedByALaterFlatMapInnerIsRefused(variant: DeliveryVariant) {
        let (inA, a) = Signal<Int>.create(delivery: variant)
        let multiA = a.multicast()
        let (trigger, triggers) = Signal<Int>.create(delivery: variant)
        let laps = Atomic<Int>(0)
        let ends = Recorder<Int>()
        let watcher = multiA.subscribe(ends.handler)
        let junction = triggers.flatMap { _ in
            multiA.map { v -> Int in laps.add(1, ordering: .relaxed); return v + 1 }
        }.junction()
        #expect(junction.bind(to: inA) == nil)
        let returned = returnsWithin(seconds: 60) {
            _ = trigger.send(value: 0)
            _ = inA.send(value: 1)
        }
        #expect(returned, "a send cycled through the loop")
        guard returned else { junction.cancel(); return }
        #expect(laps.load(ordering: .relaxed) == 0)
        #expect(ends.events == [.error(String(describing: SignalBindError.loop))])
        junction.cancel()
        withExtendedLifetime(watcher) {}
    }

    /// An inner subscription is an edge of the graph while it lasts, and only then: with
    /// A → (inner) → deferred → B, binding B into A is a loop; once the inner signal has
    /// ended, it is not.
    @Test(arguments: DeliveryVariant.allCases)
    func innerSubscriptionEdgeLastsAsLongAsTheSubscription(variant: DeliveryVariant) {
        let (inA, a) = Signal<Int>.create(delivery: variant)
        let multiA = a.multicast()
        let (inB, b) = Signal<Int>.create(delivery: variant)
        let collector = Recorder<Int>()
        let bOutput = b.multicast()
        let watcher = bOutput.subscribe(collector.handler)
        let forward = Signal<Int>.deferred { multiA.map { $0 * 10 } }.junction()
        #expect(forward.bind(to: inB) == nil)
        #expect(inA.send(value: 1) == nil)
        #expect(collector.events == [.value(10)])
        let back = bOutput.junction()
        #expect(back.bind(to: inA) == .loop)
        // The inner signal ends (and with it the deferred signal and B).
        #expect(inA.complete() == nil)
        #expect(back.bind(to: inA) != .loop)
        back.cancel()
        forward.cancel()
        withExtendedLifetime(watcher) {}
    }
}
