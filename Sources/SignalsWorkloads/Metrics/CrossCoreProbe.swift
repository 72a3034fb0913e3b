import Foundation
import SignalsReports
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How long a cache line takes to go from one core to another and back, right now.
///
/// On this project's 2-core VM the multi-threaded figures have a rare slow mode that lasts tens
/// of seconds and spans launches: `contended` at 2 threads runs 5–6× slower (mutex about 2×)
/// while single-thread workloads do not move at all (docs/design/queue-and-placement.md). That is
/// the signature of the host placing the VM's two virtual CPUs farther apart (another core
/// complex, another die): every line the senders and the holder pass between them costs
/// several times more. This probe measures exactly that quantity beside each launch, so a
/// report can tell a slow launch of the library from a slow phase of the machine.
///
/// Two threads, pinned to the first two CPUs the caller may use where the platform allows it,
/// bounce one counter on a line of its own: each waits for the other's increment and answers
/// with its own. The figure is the median, over batches, of the time per round trip.
package enum CrossCoreProbe {
    /// The counter a launch's probe travels in from the child (`CaseResult.counters`).
    package static let counterName = "crossCoreRoundTripNs"

    /// Median ns per round trip over `batches` batches of `roundTrips`, or nil when fewer than
    /// two CPUs are available or the partner thread did not answer within 50 ms (it was not
    /// scheduled: the figure would measure the scheduler, not the caches).
    package static func roundTripNs(roundTrips: Int = 2_000, batches: Int = 5) -> Double? {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2, roundTrips > 0, batches > 0 else { return nil }
        // The first two CPUs this thread may use (not CPUs 0 and 1: under `taskset -c 2,3` those
        // are not allowed, and the pins would silently fail).
        let original = ThreadAffinity.current()
        let cpus = original?.cpus ?? [0, 1]
        guard cpus.count >= 2 else { return nil }
        let line = PingPongLine()
        let total = roundTrips * batches
        let partner = Thread {
            ThreadAffinity.pin(toCPU: cpus[1])
            var expected = 1
            // Answers every odd value with the next even one, until the last or an abort.
            while expected < 2 * total {
                var spins = 0
                while true {
                    let v = line.value.load(ordering: .acquiring)
                    if v == expected { break }
                    if v < 0 { return }
                    spins &+= 1
                    if spins & 0xFFFF == 0 { sched_yield() }
                }
                line.value.store(expected + 1, ordering: .releasing)
                expected += 2
            }
        }
        partner.start()
        ThreadAffinity.pin(toCPU: cpus[0])
        // Back to the mask the thread had, not to every CPU: a launch under `taskset` stays
        // where it was put.
        defer { if let original { ThreadAffinity.set(original) } }
        var perBatch: [Double] = []
        var next = 1
        for _ in 0..<batches {
            let start = monotonicNanos()
            for _ in 0..<roundTrips {
                line.value.store(next, ordering: .releasing)
                let deadline = monotonicNanos() &+ 50_000_000
                var spins = 0
                while line.value.load(ordering: .acquiring) != next + 1 {
                    spins &+= 1
                    if spins & 0x3FF == 0 && monotonicNanos() > deadline {
                        line.value.store(-1, ordering: .releasing)
                        return nil
                    }
                }
                next += 2
            }
            perBatch.append(Double(monotonicNanos() - start) / Double(roundTrips))
        }
        return median(perBatch)
    }

    /// The counter, with a cache line to itself on each side.
    final class PingPongLine: @unchecked Sendable {
        let padBefore: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        let value = Atomic<Int>(0)
        let padAfter: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }
}

extension WorkloadID {
    /// Whether the workload's figure depends on lines moving between cores (several threads
    /// send, or one sends while another subscribes), so each launch is measured with
    /// `CrossCoreProbe` beside it.
    package var runsSeveralThreads: Bool { bench.severalThreads }
}
