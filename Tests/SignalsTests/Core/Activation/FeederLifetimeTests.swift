import Dispatch
import Foundation
import Signals
import Synchronization
import Testing

/// A node's feeders hold it `unowned`, not `weak` (a weak reference gives the node a side table
/// that slows every retain and release of it: docs/design/churn.md). These tests release a merged input's
/// graph in every order, also while a source sends from another thread, with and without
/// `removeOnDeactivate` (whose closure holds the node unowned too). An unowned reference read
/// after its node was freed traps, so a wrong order fails here as a crash; and the graph must
/// still be freed.
@Suite struct FeederLifetimeTests {
    static let variants = DeliveryVariant.allCases

    /// The parts of one merged-input graph, released by the caller in the order it chooses.
    struct Graph {
        var merged: SignalMergedInput<Int>?
        var output: SignalOutput<Int>?
        /// Set when the source's stage, which the merged node's feeder owns, is freed.
        let fedStageReleased = Flagged()
    }

    static func makeGraph(_ v: DeliveryVariant, source: Signal<Int>, removeOnDeactivate: Bool,
                          released: Flagged, received: Recorder<Int>) -> Graph {
        let (merged, signal) = Signal<Int>.createMergedInput(delivery: v)
        var graph = Graph()
        let fedCanary = Canary(graph.fedStageReleased)
        let fed = source.map { n in withExtendedLifetime(fedCanary) { n } }
        #expect(merged.add(fed, closePropagation: .errors, removeOnDeactivate: removeOnDeactivate) == nil)
        let canary = Canary(released)
        let output = signal
            .map { n in withExtendedLifetime(canary) { n } }
            .subscribeValues(received.valueHandler)
        graph.merged = merged
        graph.output = output
        return graph
    }

    @Test(arguments: variants) func mergedInputReleasedInEveryOrder(_ v: DeliveryVariant) {
        for removeOnDeactivate in [true, false] {
            for outputFirst in [true, false] {
                let released = Flagged()
                let received = Recorder<Int>()
                let (input, source) = Signal<Int>.create(delivery: v)
                var graph = Self.makeGraph(v, source: source, removeOnDeactivate: removeOnDeactivate,
                                           released: released, received: received)
                input.send(value: 1)
                input.send(value: 2)
                #expect(!graph.fedStageReleased.isSet, "alive while subscribed")
                if outputFirst {
                    graph.output?.cancel()
                    graph.output = nil
                    graph.merged = nil
                } else {
                    graph.merged = nil
                    graph.output = nil
                }
                // Sends after the release go nowhere and touch no freed node.
                _ = input.send(value: 3)
                let label = "removeOnDeactivate \(removeOnDeactivate), output first \(outputFirst)"
                #expect(received.values == [1, 2], "\(label)")
                #expect(released.isSet, "\(label): the output chain was not freed")
                #expect(graph.fedStageReleased.isSet, "\(label): the merged node and its feeder were not freed")
            }
        }
    }

    /// The same releases while another thread keeps sending into the source: deactivation
    /// (which reads the unowned node) races deliveries into it.
    @Test(.tags(.startsThreads), arguments: variants) func mergedInputReleasedWhileASourceSends(_ v: DeliveryVariant) {
        for round in 0..<40 {
            let removeOnDeactivate = round % 2 == 0
            let outputFirst = round % 4 < 2
            let released = Flagged()
            let received = Recorder<Int>()
            let (input, source) = Signal<Int>.create(delivery: v)
            var graph = Self.makeGraph(v, source: source, removeOnDeactivate: removeOnDeactivate,
                                       released: released, received: received)
            let stop = Atomic<Bool>(false)
            let done = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                var i = 0
                started.signal()
                while !stop.load(ordering: .relaxed) {
                    _ = input.send(value: i)
                    i &+= 1
                }
                done.signal()
            }
            started.wait()
            #expect(!graph.fedStageReleased.isSet, "alive while subscribed")
            Thread.sleep(forTimeInterval: 0.000_2)
            if outputFirst {
                graph.output = nil
                graph.merged = nil
            } else {
                graph.merged = nil
                graph.output = nil
            }
            stop.store(true, ordering: .relaxed)
            done.wait()
            let values = received.values
            #expect(values == Array(0..<values.count), "round \(round): values lost or reordered")
            #expect(released.isSet, "round \(round): the output chain was not freed")
            #expect(graph.fedStageReleased.isSet, "round \(round): the merged node and its feeder were not freed")
        }
    }
}
