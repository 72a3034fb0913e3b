import Foundation
import Synchronization
import Testing
import Signals

/// The library's wait counters (`WaitCounters`, what `bench`'s churn reports): off, a contended
/// lock counts nothing; on, its contended acquisition, its park and a graph change that waits
/// for a node's holder are each counted. One suite, serialized: the counters are process-wide.
@Suite(.tags(.startsThreads), .serialized) struct WaitCountersConcurrencyTests {
    final class Shared: @unchecked Sendable {
        let lock = BargingLock()
    }

    /// Holds `shared.lock` on another thread while this thread takes it, until this thread has
    /// parked (the word reads 2, which only a parking waiter writes) or 10 s passed: a fixed
    /// hold could end during the waiter's yields on a loaded machine (a ThreadSanitizer run),
    /// and then the waiter never parks.
    func contend(_ shared: Shared) {
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            shared.lock.lock()
            held.signal()
            let deadline = Date().addingTimeInterval(10)
            while shared.lock.word.load(ordering: .relaxed) != 2 && Date() < deadline { usleep(1_000) }
            shared.lock.unlock()
            done.signal()
        }.start()
        held.wait()
        shared.lock.lock()
        shared.lock.unlock()
        done.wait()
    }

    @Test(.timeLimit(.minutes(1))) func countsOnlyWhileOn() {
        // The counters are process-wide: other suites (a churn run) use them too.
        WaitCounters.exclusively {
            let shared = Shared()
            WaitCounters.isCounting.store(false, ordering: .relaxed)
            WaitCounters.reset()
            contend(shared)
            #expect(WaitCounters.snapshot().values.allSatisfy { $0 == 0 })

            WaitCounters.isCounting.store(true, ordering: .relaxed)
            defer { WaitCounters.isCounting.store(false, ordering: .relaxed) }
            contend(shared)
            let counts = WaitCounters.snapshot()
            // Held until the waiter parked.
            #expect(counts["waitLockContended", default: 0] >= 1)
            #expect(counts["waitLockParked", default: 0] >= 1)
            #expect(counts["waitYield", default: 0] >= 1)
            // Off before the reset: other suites' waits run beside this one.
            WaitCounters.isCounting.store(false, ordering: .relaxed)
            WaitCounters.reset()
            #expect(WaitCounters.snapshot().values.allSatisfy { $0 == 0 })
        }
    }

    /// A subscribe that finds the multicast's node held by a handler on another thread waits
    /// for it (`NodeControl.wait`), and the wait is counted with its time.
    @Test(.timeLimit(.minutes(1)), arguments: DeliveryVariant.allCases)
    func aGraphChangeWaitingForTheHolderIsCounted(_ variant: DeliveryVariant) {
        // The counters are process-wide: other suites (a churn run) use them too.
        WaitCounters.exclusively {
            let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
            let inHandler = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let first = multi.subscribeValues { v in
                if v == 1 {
                    inHandler.signal()
                    release.wait()
                }
            }
            defer { first.cancel(); input.cancel() }
            let sender = Thread { input.send(value: 1) }
            sender.start()
            inHandler.wait()
            WaitCounters.reset()
            WaitCounters.isCounting.store(true, ordering: .relaxed)
            defer { WaitCounters.isCounting.store(false, ordering: .relaxed) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { release.signal() }
            let second = multi.subscribeValues { _ in }
            second.cancel()
            let counts = WaitCounters.snapshot()
            #expect(counts["waitControl", default: 0] >= 1)
            // 30 ms held: past the spin, so the subscribe parks, unless this thread was itself
            // descheduled in the spin until the holder was done (a loaded machine): either way the
            // wait ended one of the two ways and lasted the hold.
            #expect(counts["waitControlParked", default: 0] + counts["waitControlEndedInSpin", default: 0] >= 1)
            #expect(counts["waitControlNs", default: 0] >= 20_000_000)
        }
    }
}
