import Foundation
import Synchronization

/// `--load N`: N threads that keep a core busy beside whatever is measured, so that anyone can
/// reproduce a busy machine. They run in the process that drives the measurement; the cases
/// themselves run in child launches beside them, so the load competes for cores the way other
/// processes on a busy machine do.
package final class BusyLoad: Sendable {
    package let threads: Int
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchGroup()

    /// Starts `threads` busy threads (none for 0).
    package init(threads: Int) {
        self.threads = max(0, threads)
        for i in 0..<self.threads {
            stopped.enter()
            let t = Thread { [self] in
                var x = UInt64(i) &+ 1
                while !stopping.load(ordering: .relaxed) {
                    // Pure arithmetic: the load takes a core, not memory bandwidth or a lock.
                    for _ in 0..<4_096 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                    BusyLoad.consume(x)
                }
                stopped.leave()
            }
            t.name = "bench-load-\(i)"
            t.start()
        }
    }

    /// Stops the threads and waits for them.
    package func stop() {
        stopping.store(true, ordering: .relaxed)
        stopped.wait()
    }

    @inline(never)
    static func consume(_ x: UInt64) {
        if x == 0x0123_4567_89AB_CDEF { FileHandle.standardError.write(Data(".".utf8)) }
    }
}

/// A known cost added to every value a harness driver sends, for `bench ab --calibrate`: the
/// child reads `SIGNALS_BENCH_EXTRA_WORK` (iterations of a dependent multiply per value), so the
/// same executable can play A and A′. Zero (unset) leaves the send loop untouched.
package enum ExtraWork {
    package static let environmentKey = "SIGNALS_BENCH_EXTRA_WORK"

    package static let iterationsPerValue: Int = {
        guard let text = ProcessInfo.processInfo.environment[environmentKey], let v = Int(text), v > 0 else { return 0 }
        return v
    }()

    /// Burns `iterations` dependent multiplies.
    @inline(never)
    package static func burn(_ iterations: Int, _ seed: Int) {
        var x = UInt64(truncatingIfNeeded: seed) | 1
        for _ in 0..<iterations { x = x &* 0x5851_F42D_4C95_7F2D &+ 1 }
        BusyLoad.consume(x)
    }
}
