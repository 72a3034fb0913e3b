import Signals
import Synchronization

// Cross-thread causal order: a send that returned before another send began is delivered
// first, whichever threads made them. Per-sender FIFO (every other sending scenario) does not
// check this: a queue that let a sender return before its value was in the queue (a value
// left in a per-thread buffer, or with a combining sender that has not published its batch)
// keeps each sender's order and still breaks "thread A's send returns, A tells B, B sends: A's
// value first".

/// A clock whose readings are sequentially consistent read-modify-writes on one word, so a
/// reading taken after a `send` returned is ordered after every memory operation of that send,
/// and one taken before a `send` starts is ordered before all of them (a relaxed tick, as in
/// `StressClock`, may be moved across the send's acquiring operations by the compiler).
final class StressOrderClock: Sendable {
    let now = Atomic<Int>(0)
    @inline(__always) func tick() -> Int { now.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue }
}

extension StressCheck {
    /// A value delivered after one whose send started after this value's send had returned.
    package static let realTimeOrder = "real-time order violated"
}

/// Checks real-time order on one stream: for every two delivered values X and Y, if X's send
/// returned before Y's send started (`returnedAt[X] < startedAt[Y]`), X must come first.
///
/// One pass from the end of the delivery order keeps the smallest `returnedAt` of the values
/// delivered later; a value whose send started after that reading was overtaken by a value
/// whose send had already returned. Values without stamps (`Int.max`) take no part.
package func stressCheckRealTimeOrder(_ who: String, _ events: [StressEvent], senders: [StressSender]) -> [StressFinding] {
    let byID = Dictionary(senders.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var earliestReturnLater = Int.max
    var earliestReturnLaterName = ""
    for e in events.reversed() {
        guard case .value(let s, let q, _) = e, let sender = byID[s],
              q < sender.startedAt.count, q < sender.returnedAt.count else { continue }
        let started = sender.startedAt[q]
        if started != Int.max, earliestReturnLater < started {
            return [.forbidden(
                StressCheck.realTimeOrder,
                "\(who): \(s):\(q) (send started at tick \(started)) delivered before \(earliestReturnLaterName), whose send had returned at tick \(earliestReturnLater)")]
        }
        let returned = sender.returnedAt[q]
        if returned < earliestReturnLater {
            earliestReturnLater = returned
            earliestReturnLaterName = "\(s):\(q)"
        }
    }
    return []
}

/// T senders send into one input, each send stamped just before it starts and just after it
/// returns with one sequentially consistent clock; every 16th send, a sender first waits (a
/// bounded spin) for the baton another sender passes right after one of its sends returned,
/// so some sends begin immediately after another thread's send returned.
///
/// Arbiter: every accepted value exactly once, in per-sender order, and in real-time order
/// (`stressCheckRealTimeOrder`); the end is `complete`.
package struct RealTimeOrderScenario: LabelledStressScenario {
    /// With `returnsEarly`, a deliberately broken send path: every fourth value is kept back
    /// and reported accepted at once, then sent just before the sender's next value (per-sender
    /// order kept, as a combining sender that returned before publishing its batch would keep
    /// it). The tests run it to show the arbiter catches that fault; `bench stress` never does.
    package init(returnsEarly: Bool = false) { self.returnsEarly = returnsEarly }
    let returnsEarly: Bool
    package let label = StressScenarioLabel("real-time-order", "a send that returned before another began is delivered first, across threads", acceptable: "delivered in real-time order", minimumThreads: 3)

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let senderCount = it.threads - 1
        let clock = StressOrderClock()
        let stream = StressStream(it, senders: senderCount)
        let senders = stream.senders, recorder = stream.recorder
        // Stamped by hand, with the order clock, around each send.
        for s in senders {
            s.startedAt = [Int](repeating: Int.max, count: s.status.count)
            s.returnedAt = s.startedAt
        }
        // The baton: the last sender whose send returned, and a count of passes.
        let baton = Atomic<Int>(0)
        do {
            let (input, signal) = it.makeInput()
            let output = stream.subscribe(signal)
            let ledger = it.ledger
            let returnsEarly = self.returnsEarly
            it.runActors(senderCount) { a, rng in
                let sender = senders[a]
                var keptBack: StressMsg?
                for i in 0..<n {
                    if i & 15 == 15 {
                        // Wait briefly for another thread's send to return, then start at once.
                        let seen = baton.load(ordering: .acquiring)
                        var spins = 0
                        while baton.load(ordering: .acquiring) == seen && spins < 2_000 { spins += 1 }
                    }
                    let seq = sender.nextSeq
                    sender.startedAt[seq] = clock.tick()
                    let message = StressMsg(sender: a, seq: seq, token: ledger.token())
                    var error: SignalSendError?
                    if let kept = keptBack {
                        input.send(value: kept)
                        keptBack = nil
                    }
                    if returnsEarly && i & 3 == 1 {
                        keptBack = message
                    } else {
                        error = input.send(value: message)
                    }
                    sender.returnedAt[seq] = clock.tick()
                    sender.record(seq: seq, accepted: error == nil)
                    baton.wrappingAdd(1, ordering: .releasing)
                    rng.perturb()
                    if i & 31 == 0 { it.progress(a, i) }
                }
                if let kept = keptBack { input.send(value: kept) }
            }
            input.complete()
            output.cancel()
        }
        let events = recorder.events
        return stream.check("subscriber", StressStreamPolicy(lossName: nil, expectedEnd: "complete"))
            + stressCheckRealTimeOrder("subscriber", events, senders: senders)
    }
}
