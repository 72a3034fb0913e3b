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

/// A thread that holds a node must not be stuck delivering other threads' values for as long
/// as they keep sending: after a long drain it hands the node to a sender (see
/// `DeliveryQueue.offerHandoff`). Each test fails by timing out (the probe never finishes
/// while the flooder runs), not by a speed figure.
@Suite(.serialized) struct LivenessConcurrencyTests {
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
        let probeDone = Flag()
        let flooded = Counter()
        let deadline = DispatchTime.now().uptimeNanoseconds + 20_000_000_000
        let progress = Counter()
        let flooder = startThread {
            var i = 0
            while !probeDone.isSet && DispatchTime.now().uptimeNanoseconds < deadline {
                input.send(value: i)
                i += 1
                if i & 1023 == 0 { progress.add(1024) }
            }
            flooded.add(i)
        }
        // The probe starts once the flood is under way, and paces itself so that some of its
        // sends find the node idle (and claim it).
        let waitForFlood: @Sendable () -> Void = { while progress.value < 20_000 && DispatchTime.now().uptimeNanoseconds < deadline {} }
        let probe = startThread {
            waitForFlood()
            for i in 0..<probeSends {
                input.send(value: stride + i)
                pause()
            }
            probeDone.set()
        }
        #expect(probe.finished(within: 60))
        #expect(flooder.finished(within: 60))
        #expect(probeDone.isSet)
        // The probe finished before the flooder's deadline: it was never stuck behind it.
        #expect(DispatchTime.now().uptimeNanoseconds < deadline, "the probe's sends waited for the flood to end")
        #expect(c.count == flooded.value + probeSends)
        var flood: [Int] = []
        var probeValues: [Int] = []
        for v in c.values { if v >= stride { probeValues.append(v - stride) } else { flood.append(v) } }
        #expect(flood == Array(0..<flooded.value))
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
        let probeDone = Flag()
        let flooded = Counter()
        let deadline = DispatchTime.now().uptimeNanoseconds + 20_000_000_000
        let progress = Counter()
        let flooder = startThread {
            var i = 0
            while !probeDone.isSet && DispatchTime.now().uptimeNanoseconds < deadline {
                input.send(value: i)
                i += 1
                if i & 1023 == 0 { progress.add(1024) }
            }
            flooded.add(i)
        }
        // The probe starts once the flood is under way, and paces itself so that some of its
        // sends find the node idle (and claim it).
        let waitForFlood: @Sendable () -> Void = { while progress.value < 20_000 && DispatchTime.now().uptimeNanoseconds < deadline {} }
        let probe = startThread {
            waitForFlood()
            for _ in 0..<changes {
                pause()
                let branch = multi.subscribeValues { _ in }
                branch.cancel()
            }
            probeDone.set()
        }
        #expect(probe.finished(within: 60))
        #expect(flooder.finished(within: 60))
        #expect(DispatchTime.now().uptimeNanoseconds < deadline, "the graph changes waited for the flood to end")
        #expect(c.values == Array(0..<flooded.value))
        out.cancel()
    }
}
