import Dispatch
import Signals
import Synchronization
import Testing

/// Busy work standing in for a handler that is slower than a send, so a flooding sender
/// keeps the node's queue non-empty.
@inline(never)
private func slowStage(_ v: Int) -> Int {
    var x = v
    for i in 0..<200 { x = x &* 31 &+ i }
    return x == 1 ? 0 : v
}

/// A few microseconds of nothing, between a probe's operations.
private func pause() {
    let until = DispatchTime.now().uptimeNanoseconds + 2_000
    while DispatchTime.now().uptimeNanoseconds < until {}
}

/// A thread that sends 0, 1, 2, … into an input as fast as it can, until stopped or until a
/// 20 s deadline (which a probe stuck behind the flood would need to get out).
private final class Flood: Sendable {
    private let stopped = Flag()
    private let progress = Counter()
    private let total = Counter()
    private let deadline = DispatchTime.now().uptimeNanoseconds + 20_000_000_000
    private let stoppedAt = Atomic<UInt64>(0)
    private let group: DispatchGroup

    init(into input: SignalInput<Int>) {
        let stopped = stopped, progress = progress, total = total, deadline = deadline
        group = startThread {
            var i = 0
            while !stopped.isSet && DispatchTime.now().uptimeNanoseconds < deadline {
                input.send(value: i)
                i += 1
                if i & 1023 == 0 { progress.add(1024) }
            }
            total.add(i)
        }
    }

    /// Returns once the flood is under way, so a probe's operations race with it.
    func waitUntilUnderWay() {
        while progress.value < 20_000 && DispatchTime.now().uptimeNanoseconds < deadline {}
    }

    /// Called by the probe when it is done.
    func stop() {
        stoppedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
        stopped.set()
    }

    /// Whether the probe stopped the flood before its deadline (it was never stuck behind it).
    var stoppedBeforeDeadline: Bool {
        let t = stoppedAt.load(ordering: .acquiring)
        return t != 0 && t < deadline
    }

    func finished(within seconds: Double) -> Bool { group.finished(within: seconds) }

    /// Values sent; valid once `finished`.
    var sent: Int { total.value }
}

/// A thread that holds a node must not be stuck delivering other threads' values for as long
/// as they keep sending: after a long drain it hands the node to a sender (see
/// `DeliveryQueue.offerHandoff`). Each test fails by timing out (the probe never finishes
/// while the flooder runs), not by a speed figure.
@Suite(.tags(.startsThreads), .serialized) struct LivenessConcurrencyTests {
    /// One thread floods an input (the stage is slower than its sends) until a probe thread
    /// has made 500 sends of its own; every probe send must return while the flood goes on.
    /// Before the handoff, a probe send that found the node idle drained the flood until it
    /// stopped. Also checks exactly-once and per-sender order across the handoffs.
    @Test(arguments: DeliveryVariant.allCases)
    func sendReturnsWhileAnotherThreadFloods(_ variant: DeliveryVariant) {
        let stride = 1 << 32
        let probeSends = 500
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.map(slowStage).collect()
        let flood = Flood(into: input)
        let probe = startThread {
            flood.waitUntilUnderWay()
            for i in 0..<probeSends {
                input.send(value: stride + i)
                pause()
            }
            flood.stop()
        }
        #expect(probe.finished(within: 60))
        #expect(flood.finished(within: 60))
        // The probe finished before the flood's deadline: it was never stuck behind it.
        #expect(flood.stoppedBeforeDeadline, "the probe's sends waited for the flood to end")
        #expect(c.count == flood.sent + probeSends)
        var floodValues: [Int] = []
        var probeValues: [Int] = []
        for v in c.values { if v >= stride { probeValues.append(v - stride) } else { floodValues.append(v) } }
        #expect(floodValues == Array(0..<flood.sent))
        #expect(probeValues == Array(0..<probeSends))
        #expect(c.overlaps == 0)
        out.cancel()
    }

    /// The same for graph changes: subscribe + cancel on a multicast signal, 2,000 times, while
    /// another thread floods it. Each change waits until it has happened, so without the
    /// handoff one that found the node idle drained the flood until it stopped.
    @Test(arguments: DeliveryVariant.allCases)
    func graphChangesReturnWhileAnotherThreadFloods(_ variant: DeliveryVariant) {
        let changes = 2_000
        // The slow stage is on the branch, so it runs under the multicast node that the
        // changes claim, and the flood into that node outpaces its drain.
        let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
        let (c, out) = multi.map(slowStage).collect()
        let flood = Flood(into: input)
        let probe = startThread {
            flood.waitUntilUnderWay()
            for _ in 0..<changes {
                pause()
                let branch = multi.subscribeValues { _ in }
                branch.cancel()
            }
            flood.stop()
        }
        #expect(probe.finished(within: 60))
        #expect(flood.finished(within: 60))
        #expect(flood.stoppedBeforeDeadline, "the graph changes waited for the flood to end")
        #expect(c.values == Array(0..<flood.sent))
        out.cancel()
    }
}
