// `bench explore` scenarios about sending: concurrent senders, a re-entrant send, an end.

import Signals
import Synchronization

/// Two threads send two values each into one input.
package struct ExploreSendPair: ExploreScenario {
    package init() {}
    package let name = "send-pair"
    package let summary = "two threads send two values each into one input"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        let output = signal.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = (0..<2).map { sender in
            { for seq in 0..<2 { log.send(ExploreLog.value(sender, seq), through: input) } }
        }
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: false) }
        }
    }
}

/// A handler that sends into its own input (re-entrantly), while another thread sends too.
package struct ExploreReentrantSend: ExploreScenario {
    package init() {}
    package let name = "reentrant-send"
    package let summary = "a handler sends into its own input while another thread sends"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        // Sender 2: the handler's own sends, one for each of sender 0's values.
        let output = signal.subscribe { r in
            log.receive(r)
            if case .success(let v) = r, v / 1000 == 0 { log.send(ExploreLog.value(2, v % 1000), through: input) }
        }
        let threads: [@Sendable () -> Void] = (0..<2).map { sender in
            { for seq in 0..<2 { log.send(ExploreLog.value(sender, seq), through: input) } }
        }
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: false) }
        }
    }
}

/// One thread sends while another ends the stream.
package struct ExploreSendEnd: ExploreScenario {
    package init() {}
    package let name = "send-end"
    package let summary = "one thread sends three values while another completes the input"

    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let log = ExploreLog()
        let output = signal.subscribe { log.receive($0) }
        let threads: [@Sendable () -> Void] = [
            { for seq in 0..<3 { log.send(ExploreLog.value(0, seq), through: input) } },
            { _ = input.send(end: .complete) },
        ]
        return ExploreCase(threads: threads) {
            withExtendedLifetime((output, input)) { log.check(endExpected: true) }
        }
    }
}
