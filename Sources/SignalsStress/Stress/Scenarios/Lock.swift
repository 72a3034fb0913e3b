import Foundation
import Signals
import Synchronization

/// The mutex variant's lock on its own, with holders that sometimes keep it for up to a few
/// hundred microseconds, so that waiters run through every phase of a contended lock: the
/// spin, the longer spin for a short section (even actors take the lock as graph changes do),
/// the yields and parking, and are woken by `unlock`. Even iterations use the lock as
/// the library makes it (parking on the word, futex, on Linux), odd ones the parking table of
/// the platforms without futexes, so both are raced on every platform that has both.
///
/// Arbiter: never two threads inside at once, every section counted exactly once, the lock
/// free at the end. A wake-up that is lost leaves a waiter parked for good: the watchdog
/// reports it as a hang.
package struct LockParkingScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("lock-parking", "T threads through the mutex variant's lock; some holders keep it long enough that waiters park", acceptable: "one holder at a time, no section lost")

    final class Shared: @unchecked Sendable {
        // Unchecked: `sections` is touched only between lock() and unlock().
        let lock: BargingLock
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let parkedHolds = Atomic<Int>(0)
        var sections = 0
        init(parksOnWord: Bool) { lock = BargingLock(parksOnWord: parksOnWord) }
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = it.operations
        let shared = Shared(parksOnWord: it.index % 2 == 0)
        it.runActors(it.threads) { a, rng in
            for i in 0..<n {
                // 1 in 64 sections is long: a sleep of up to 200 µs, or a spin of up to 20,000
                // steps, while the lock is held. The others are a few instructions, as in the
                // delivery queue.
                let long = rng.below(64) == 0
                let sleepMicros = long ? rng.below(200) : 0
                let spin = long && sleepMicros < 100 ? rng.below(20_000) : 0
                // Even actors take the lock as graph changes do (a short section: waiters
                // spin for it before yielding), odd ones as values do.
                shared.lock.withLock(shortSection: a % 2 == 0) {
                    if shared.inside.wrappingAdd(1, ordering: .relaxed).newValue != 1 {
                        shared.overlaps.wrappingAdd(1, ordering: .relaxed)
                    }
                    shared.sections += 1
                    if long {
                        shared.parkedHolds.wrappingAdd(1, ordering: .relaxed)
                        if spin > 0 { stressSpin(spin) } else { usleep(UInt32(sleepMicros)) }
                    }
                    shared.inside.wrappingSubtract(1, ordering: .relaxed)
                }
                rng.perturb()
                if i & 31 == 0 { it.progress(a, i) }
            }
        }
        var findings: [StressFinding] = []
        let overlaps = shared.overlaps.load(ordering: .relaxed)
        if overlaps > 0 {
            findings.append(.forbidden(StressCheck.concurrentEntry, "\(overlaps) section(s) entered while another thread held the lock"))
        }
        let sections = shared.lock.withLock(shortSection: false) { shared.sections }
        if sections != it.threads * n {
            findings.append(.forbidden("section lost", "\(sections) sections counted, \(it.threads * n) made"))
        }
        if shared.lock.word.load(ordering: .relaxed) != 0 {
            findings.append(.forbidden("lock left held", "word \(shared.lock.word.load(ordering: .relaxed)) after every holder unlocked"))
        }
        if shared.parkedHolds.load(ordering: .relaxed) > 0 {
            findings.append(.interesting("long holds", "\(shared.parkedHolds.load(ordering: .relaxed)) section(s) held long enough to make waiters park"))
        }
        return findings
    }
}
