// `bench explore` scenarios about the calls that unbind and bind a junction again from any
// thread: racing `rebind()` calls, a reconnector's `disconnect()` and `reconnect()`,
// `retry`'s re-bind run on another thread, and a `generate` source's old end against a bind
// that starts its next activation.

import Foundation
import Signals
import Synchronization

/// A junction over a `generate` source that keeps its input, bound to a subscribed input,
/// and the downstream's ends noted as forbidden: only a refused bind ends it, and these
/// scenarios' calls must never be refused.
struct ExploreRebindGraph {
    let source: StressKeptSource
    let log = ExploreLog()
    let input: SignalInput<Int>
    let output: SignalOutput<Int>

    init(_ variant: DeliveryVariant, what: String) {
        source = StressKeptSource(variant)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        self.input = input
        let log = log
        output = signal.subscribe { r in
            if case .failure(let e) = r { log.forbid("downstream ended by \(what): \(e)") }
            log.receive(r)
        }
    }

    /// After the threads: a value sent into the source arrives (the junction is bound again).
    func sendArrives(after what: String) -> [String] {
        let sent = source.send(-1)
        let values = log.values
        if sent != nil || values.last != -1 {
            return ["junction unbound after \(what): send gave \(String(describing: sent)), got \(values)"]
        }
        return []
    }
}

/// Two threads call `rebind()` (one of them with an end handler) on one bound junction: the
/// calls run one at a time, so neither is refused as `.duplicate` (which would end the
/// downstream) and the junction is bound afterwards.
package struct ExploreRebindRace: ExploreScenario {
    package init() {}
    package let name = "rebind-race"
    package let summary = "two threads rebind() one bound junction; then a value must arrive"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let graph = ExploreRebindGraph(variant, what: "racing rebinds")
        let junction = graph.source.signal.junction()
        let setup = junction.bind(to: graph.input)
        let threads: [@Sendable () -> Void] = [
            { junction.rebind() },
            { junction.rebind { _, e, i in i.send(end: e) } },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime(junction) {
                var problems = setup.map { ["setup bind refused: \($0)"] } ?? []
                problems += graph.sendArrives(after: "racing rebinds")
                problems += graph.log.check(endExpected: false, acceptedArrive: false)
                graph.output.cancel()
                _ = junction.disconnect()
                return problems
            }
        }
    }
}

/// Two threads each `disconnect()` and `reconnect()` one reconnector: its calls run one at a
/// time, so the junction is never bound twice (the second bind refused as `.duplicate`, which
/// ends the downstream) nor left bound while the reconnector counts it disconnected; after a
/// last `reconnect()` a value arrives, and `cancel()` ends the downstream once, `.cancelled`.
package struct ExploreReconnectorRace: ExploreScenario {
    package init() {}
    package let name = "reconnector-race"
    package let summary = "two threads disconnect() then reconnect() one reconnector; then reconnect, send, cancel"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let source = StressKeptSource(variant)
        let (reconnector, signal) = source.signal.reconnector()
        let log = ExploreLog()
        let ends = Mutex<[SignalEnd]>([])
        let output = signal.subscribe { r in
            if case .failure(let e) = r { ends.withLock { $0.append(e) } }
            log.receive(r)
        }
        let threads: [@Sendable () -> Void] = (0..<2).map { _ in
            {
                reconnector.disconnect()
                reconnector.reconnect()
            }
        }
        return ExploreCase(threads: threads) {
            withExtendedLifetime(output) {
                var problems: [String] = []
                let early = ends.withLock { $0 }
                if !early.isEmpty { problems.append("downstream ended before cancel(): \(early)") }
                reconnector.reconnect()
                let sent = source.send(-1)
                if sent != nil || log.values.last != -1 {
                    problems.append("not connected after reconnect(): send gave \(String(describing: sent)), got \(log.values)")
                }
                reconnector.cancel()
                let all = ends.withLock { $0 }
                if early.isEmpty && (all.count != 1 || all.first?.isCancelled != true) {
                    problems.append("cancel() did not end the downstream once with .cancelled: \(all)")
                }
                return problems + log.check(endExpected: false, acceptedArrive: false)
            }
        }
    }
}

/// An execution context whose work runs on a scenario thread of its own (`runWork`), so that
/// the controlled scheduler decides when, as for a Dispatch worker that may start the work
/// before `schedule` has returned. Delays are ignored: the work is queued at once.
final class ExploreWorkerContext: ExecutionContext, @unchecked Sendable {
    // Unchecked: `work` is a Mutex; `NoTimer` holds nothing.
    final class NoTimer: Lifetime { func cancel() {} }
    private let work = Mutex<[@Sendable () -> Void]>([])

    func invoke(_ w: @escaping @Sendable () -> Void) { queue(w) }
    func now() -> Duration { .zero }
    func schedule(after delay: Duration, _ w: @escaping @Sendable () -> Void) -> any Lifetime {
        queue(w)
        return NoTimer()
    }

    private func queue(_ w: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(w) }
        // The worker may run the work from here on, before the scheduling call returns: a
        // schedule point where the handing thread can be switched out.
        SchedulePoint.here(.announce)
    }

    /// The worker thread's body: runs the queued work, in order, until `done` holds with none
    /// queued. Waiting for work is a turn of the scheduler (another thread runs), or a short
    /// sleep once the schedule runs freely.
    func runWork(until done: () -> Bool) {
        let start = ContinuousClock.now
        while true {
            if let w = work.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                w()
                continue
            }
            if done() { return }
            if SchedulePoint.waitingTurn(.spinWait) { continue }
            // Not scheduled (a stalled schedule runs freely): wait a little, never for ever.
            if ContinuousClock.now - start > .seconds(5) { return }
            Thread.sleep(forTimeInterval: 0.0001)
        }
    }
}

/// `retry(count: 2, delayInterval: .zero)` of a `generate` source that sends its attempt number
/// and fails, its re-binds run on a second thread: that thread may run a re-bind, and the next
/// attempt's end, before the end that scheduled it has returned; the attempt must already be
/// counted then. Three attempts, then the error, whatever the interleaving.
package struct ExploreRetryRebind: ExploreScenario {
    package init() {}
    package let name = "retry-rebind"
    package let summary = "retry(count: 2) whose re-binds run on a second thread; three attempts, then the error"

    struct Failure: Error {}

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let attempts = Atomic<Int>(0)
        let failing = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            input.send(value: attempts.wrappingAdd(1, ordering: .relaxed).newValue)
            input.send(end: .other(Failure()))
        }
        let context = ExploreWorkerContext()
        let retried = failing.retry(count: 2, delayInterval: .zero, context: .custom(context))
        let log = ExploreLog()
        let ends = Atomic<Int>(0)
        let output = Mutex<SignalOutput<Int>?>(nil)
        let threads: [@Sendable () -> Void] = [
            {
                let out = retried.subscribe { r in
                    // Values after the end are caught by comparing the counts below.
                    if case .failure = r { ends.add(1, ordering: .relaxed) } else if ends.load(ordering: .relaxed) > 0 {
                        log.forbid("a value after the end")
                    }
                    log.receive(r)
                }
                output.withLock { $0 = out }
            },
            { context.runWork { ends.load(ordering: .relaxed) > 0 } },
        ]
        return ExploreCase(threads: threads) {
            defer { output.withLock { $0 = nil } }
            // The values are the source's own (no `log.send`), so the log's accepted-value
            // checks do not apply: its notes and the attempts and ends are judged here.
            var problems = log.check(endExpected: true, acceptedArrive: false).filter { !$0.contains("never accepted") }
            let (values, n) = (log.values, ends.load(ordering: .relaxed))
            if values != [1, 2, 3] || n != 1 {
                problems.append("retry(count: 2): attempts \(values), \(n) end(s); want [1, 2, 3] then one error")
            }
            return problems
        }
    }
}

/// A junction over a `generate` source: one thread sends the end into the first activation's
/// input while another disconnects the junction and binds it to a second input (the source's
/// next activation). The old end closes its own activation or is refused, never the new one:
/// afterwards a value sent into the new activation's input is accepted and reaches the second
/// input's subscriber, which has seen no end. (It found the old chain's detach, finishing
/// after the new attach, stopping the node again or leaving its feeders running for the ended
/// generation: docs/stress.md's kill table.)
package struct ExploreGenerateStaleEnd: ExploreScenario {
    package init() {}
    package let name = "generate-stale-end"
    package let summary = "an end into a generate source's first activation against a disconnect and bind that start its next"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let source = StressKeptSource(variant)
        let junction = source.signal.junction()
        let (first, firstSignal) = Signal<Int>.create(delivery: variant)
        let (second, secondSignal) = Signal<Int>.create(delivery: variant)
        let firstLog = ExploreLog()
        let secondLog = ExploreLog()
        let outputs = [
            firstSignal.subscribe { firstLog.receive($0) },
            secondSignal.subscribe { r in
                if case .failure(let e) = r { secondLog.forbid("the second binding ended: \(e)") }
                secondLog.receive(r)
            },
        ]
        let setup = junction.bind(to: first)
        let old = source.input.withLock { $0 }
        let threads: [@Sendable () -> Void] = [
            { _ = old?.send(end: .complete) },
            {
                _ = junction.disconnect()
                if let e = junction.bind(to: second) { secondLog.forbid("bind after disconnect refused: \(e)") }
            },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((outputs, first, second, junction)) {
                var problems = setup.map { ["setup bind refused: \($0)"] } ?? []
                if old == nil { problems.append("the source was not activated by the first bind") }
                let sent = source.send(-1)
                if sent != nil || secondLog.values != [-1] {
                    problems.append("the new activation's send gave \(String(describing: sent)), the second input got \(secondLog.values)")
                }
                return problems + secondLog.check(endExpected: false, acceptedArrive: false)
                    + firstLog.check(endExpected: false, acceptedArrive: false)
            }
        }
    }
}
