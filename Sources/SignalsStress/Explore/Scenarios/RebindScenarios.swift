// `bench explore` scenarios about the calls that unbind and bind a junction again from any
// thread: racing `rebind()` calls, a reconnector's `disconnect()` and `reconnect()`.

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
