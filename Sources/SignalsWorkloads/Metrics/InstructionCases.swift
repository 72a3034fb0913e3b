import Signals

/// The cases `scripts/instruction-counts` runs under callgrind (`bench instructions`): each
/// runs `iterations` operations of one case against the library directly, with nothing of
/// the harness (no checker, no clock) on the path, so the script can count the instructions
/// at two iteration counts and divide the difference by the difference of the counts:
/// process start-up, graph set-up and teardown are the same in both runs and cancel out.
package enum InstructionCase: String, CaseIterable, Sendable {
    /// send → map → sink, per value.
    case sendMap = "send-map"
    /// send → 10 fused `.direct` maps → sink, per value (the script derives the cost of one
    /// extra stage as (chain − send-map) / 9).
    case chain
    /// send → filter (every other value passes) → sink, per value sent.
    case sendFilter = "send-filter"
    /// send → compactMap (every other value is nil) → sink, per value sent.
    case sendCompactMap = "send-compactmap"
    /// send → scan (a running sum) → sink, per value.
    case sendScan = "send-scan"
    /// A handler that sends the next value into its own input until `iterations` values have
    /// been delivered: the re-entrant send, per value.
    case reentrant
    /// subscribe + cancel on a multicast with 10 standing subscribers (no values flowing:
    /// callgrind runs one thread at a time), per pair.
    case churn
    /// One send to a multicast with 100 subscribers, per send (the script divides by 100).
    case fanout

    /// What the script divides a case's per-iteration count by.
    package var deliveriesPerIteration: Int { self == .fanout ? Self.fanoutSubscribers : 1 }

    package static let chainStages = 10
    package static let fanoutSubscribers = 100
    package static let churnStandingSubscribers = 10

    /// What a handler writes, so the optimizer cannot drop the deliveries.
    final class Sink: @unchecked Sendable {
        var sum = 0
    }

    /// Runs the case and returns a checksum (the values delivered, summed), which the caller
    /// prints so the work is observable.
    package func run(iterations: Int, variant: DeliveryVariant) -> Int {
        let sink = Sink()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        var outputs: [SignalOutput<Int>] = []
        defer {
            outputs.forEach { $0.cancel() }
            input.cancel()
        }
        switch self {
        case .sendMap, .chain:
            var s = signal
            for _ in 0..<(self == .chain ? Self.chainStages : 1) { s = s.map { $0 &+ 1 } }
            outputs.append(s.subscribeValues { sink.sum &+= $0 })
            for i in 0..<iterations { input.send(value: i) }
        case .sendFilter:
            outputs.append(signal.filter { $0 & 1 == 0 }.subscribeValues { sink.sum &+= $0 })
            for i in 0..<iterations { input.send(value: i) }
        case .sendCompactMap:
            outputs.append(signal.compactMap { $0 & 1 == 0 ? $0 &+ 1 : nil }.subscribeValues { sink.sum &+= $0 })
            for i in 0..<iterations { input.send(value: i) }
        case .sendScan:
            outputs.append(signal.scan(initialValue: 0) { $0 &+ $1 }.subscribeValues { sink.sum &+= $0 })
            for i in 0..<iterations { input.send(value: i) }
        case .reentrant:
            outputs.append(signal.subscribeValues { v in
                sink.sum &+= 1
                if v < iterations { input.send(value: v &+ 1) }
            })
            input.send(value: 1)
        case .churn:
            let multi = signal.multicast()
            for _ in 0..<Self.churnStandingSubscribers { outputs.append(multi.subscribeValues { sink.sum &+= $0 }) }
            for _ in 0..<iterations { multi.subscribeValues { sink.sum &+= $0 }.cancel() }
            sink.sum &+= iterations
        case .fanout:
            let multi = signal.multicast()
            for _ in 0..<Self.fanoutSubscribers { outputs.append(multi.subscribeValues { sink.sum &+= $0 }) }
            for i in 0..<iterations { input.send(value: i) }
        }
        return sink.sum
    }
}
