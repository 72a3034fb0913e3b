import Dispatch
import Signals
import Synchronization
import Testing

/// What one sender saw: the values whose `send` returned nil, and whether a refused send was
/// ever followed by an accepted one (once the end wins, every later send must lose).
private final class SenderLog: @unchecked Sendable {
    // Unchecked: each log is written by its own thread only, and read after that thread ends.
    var accepted: [Int] = []
    var acceptedAfterRefusal = 0
    var refusals: [SignalSendError] = []
}

private extension Recorder {
    /// Results that arrived after the first end: a stage that records everything it sees
    /// shows whether anything came after its end.
    var afterEnd: Int {
        let e = results
        guard let i = e.firstIndex(where: { $0.end != nil }) else { return 0 }
        return e.count - i - 1
    }
}

/// Sends `sender << 32 | i` for i = 0, 1, 2, … until a send is refused, then a few more (all
/// of which must be refused too), recording what was accepted.
private func sendUntilRefused(_ input: SignalInput<Int>, sender: Int, log: SenderLog, limit: Int = 100_000) {
    var refused = false
    var extra = 0
    for i in 0..<limit {
        if let error = input.send(value: sender << 32 | i) {
            if !refused { log.refusals.append(error) }
            refused = true
            extra += 1
            if extra == 8 { return }
        } else {
            log.accepted.append(sender << 32 | i)
            if refused { log.acceptedAfterRefusal += 1 }
        }
    }
}

/// A few hundred nanoseconds to a few microseconds of nothing, varied per iteration, so the end
/// lands at different points of the senders' flow.
private func spin(_ n: Int) {
    var x = 0
    for i in 0..<n { x = x &+ i }
    if x == -1 { print(x) }
}

/// The end and the enqueue of a value are one atomic decision: a
/// `send` that returns nil is delivered, one that loses the race with the end returns
/// `.disconnected`, and no stage sees anything after its input's end. Before the fix, the
/// input's status check and the node's enqueue were two steps, so a value that passed the check
/// could be queued behind the end (dropped by the subscriber although accepted, and seen by
/// fused stages after their end). Each test races senders with `complete()` many times; a
/// single lost or late value fails it.
@Suite(.tags(.startsThreads), .serialized) struct EndRaceConcurrencyTests {
    /// Four senders race `complete()`: every value whose `send` returned nil arrives, before
    /// the end, and no send is accepted after one of the same sender was refused.
    @Test(arguments: DeliveryVariant.allCases)
    func acceptedValuesAreDeliveredWhenSendRacesComplete(_ variant: DeliveryVariant) {
        let senders = 4
        var lost = 0, late = 0, acceptedAfterRefusal = 0, wrongRefusal = 0
        for iteration in 0..<300 {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let (collector, output) = signal.collect()
            let logs = (0..<senders).map { _ in SenderLog() }
            let finished = runThreads(senders + 1) { t in
                if t == senders {
                    spin(iteration * 37 % 4_000)
                    input.complete()
                } else {
                    sendUntilRefused(input, sender: t, log: logs[t])
                }
            }
            #expect(finished)
            collector.expectEnd()
            let results = collector.results
            let endIndex = results.firstIndex { $0.end != nil } ?? results.count
            late += results.count - endIndex - 1
            let delivered = Set(results[..<endIndex].compactMap { $0.value })
            for log in logs {
                lost += log.accepted.filter { !delivered.contains($0) }.count
                acceptedAfterRefusal += log.acceptedAfterRefusal
                wrongRefusal += log.refusals.filter { $0 != .disconnected }.count
            }
            withExtendedLifetime(output) {}
        }
        #expect(lost == 0, "values accepted (send returned nil) but never delivered")
        #expect(late == 0, "results delivered after the end")
        #expect(acceptedAfterRefusal == 0, "a send accepted after the same sender was refused")
        #expect(wrongRefusal == 0, "a send that lost the race with the end must return .disconnected")
    }

    /// A `transform` on a plain input never sees a value after its end while senders race
    /// `complete()`.
    @Test(arguments: DeliveryVariant.allCases)
    func stageSeesNothingAfterEndOfPlainInput(_ variant: DeliveryVariant) {
        var afterEnd = 0
        for iteration in 0..<300 {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let stage = Recorder<Int>()
            let output = signal.transform { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
                stage.receive(r)
                next.send(result: r)
            }.subscribe { _ in }
            let finished = runThreads(3) { t in
                if t == 2 {
                    spin(iteration * 53 % 4_000)
                    input.complete()
                } else {
                    sendUntilRefused(input, sender: t, log: SenderLog())
                }
            }
            #expect(finished)
            afterEnd += stage.afterEnd
            withExtendedLifetime(output) {}
        }
        #expect(afterEnd == 0, "the transform saw values after its input's end")
    }

    /// A `transform` on a merged input never sees a value after the merged input's end, when a
    /// source added with `.none` propagation keeps sending while `complete()` is called (the
    /// source's values reach the merged node through its feeder, not through the input's
    /// status check).
    @Test(arguments: DeliveryVariant.allCases)
    func stageSeesNothingAfterEndOfMergedInput(_ variant: DeliveryVariant) {
        var afterEnd = 0
        for iteration in 0..<300 {
            let (merged, signal) = Signal<Int>.createMergedInput(delivery: variant)
            let (source, sourceSignal) = Signal<Int>.create(delivery: variant)
            let stage = Recorder<Int>()
            let output = signal.transform { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in
                stage.receive(r)
                next.send(result: r)
            }.subscribe { _ in }
            #expect(merged.add(sourceSignal, closePropagation: .none) == nil)
            let finished = runThreads(3) { t in
                switch t {
                case 0:
                    spin(iteration * 41 % 4_000)
                    merged.complete()
                case 1:
                    // The source stays open after the merged end; stop after a bounded run.
                    for i in 0..<2_000 { source.send(value: i) }
                default:
                    sendUntilRefused(merged, sender: 2, log: SenderLog())
                }
            }
            #expect(finished)
            afterEnd += stage.afterEnd
            withExtendedLifetime((output, source)) {}
        }
        #expect(afterEnd == 0, "the transform saw values after the merged input's end")
    }
}
