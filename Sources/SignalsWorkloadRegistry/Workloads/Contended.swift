import Foundation
import Signals
import Synchronization

extension WorkloadDeclaration {
    /// Several threads sending into one input.
    public static let contended = WorkloadDeclaration(
        name: "contended",
        bench: Bench(summary: "T threads sending into one input; exactly once, per-sender order, no overlap",
                     shape: .contended, timesSends: true, severalThreads: true),
        benchmarks: [
            // Two threads sending into one node at once (500,000 values each per iteration).
            // How often the senders meet, and so how many queue blocks are used, depends on
            // scheduling (3,400-4,000 mallocs per iteration were seen for lockFree): its counts
            // get a slack of 10,000, still 1% of what one extra allocation per value would add.
            PackageBenchmark(name: "contended", scale: .perValue, countSlack: 10_000) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, signal) = Signal<Int>.create(delivery: variant)
                let out = signal.subscribeValues { _ in sink.count &+= 1 }
                let perThread = iterations / 2
                // Two dedicated threads (not Dispatch workers: the runner itself occupies one
                // of the few workers a 2-core machine gets, and a spinning sender would starve
                // the other).
                let go = Atomic<Bool>(false)
                let ready = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                for _ in 0..<2 {
                    let t = Thread {
                        ready.signal()
                        while !go.load(ordering: .acquiring) {}
                        for i in 0..<perThread { input.send(value: i) }
                        done.signal()
                    }
                    t.start()
                }
                ready.wait()
                ready.wait()
                region.start()
                go.store(true, ordering: .releasing)
                done.wait()
                done.wait()
                region.stop()
                precondition(sink.count == perThread * 2)
                out.cancel()
                return sink.count
            },
        ])
}
