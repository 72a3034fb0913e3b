import Foundation
import Synchronization
import Testing
import Signals

/// The mutex variant's lock on its own. Waiters park on the lock word itself where futexes
/// exist (Linux), so the word's address must be the one the atomic operations use, and a thread
/// that parks must be woken; the condition-variable table of the other platforms is checked
/// the same way (on Linux too, by choosing it).
@Suite(.tags(.startsThreads)) struct BargingLockConcurrencyTests {
    final class Shared: @unchecked Sendable {
        // Unchecked: `counter` is touched only under `lock`.
        let lock: BargingLock
        var counter = 0
        init(parksOnWord: Bool) { lock = BargingLock(parksOnWord: parksOnWord) }
    }

    @Test func parkingAddressIsTheWordItself() {
        let shared = Shared(parksOnWord: true)
        let first = shared.lock.address
        let second = shared.lock.address
        #expect(first == second)
        shared.lock.word.store(7, ordering: .relaxed)
        #expect(first.pointee == 7)
        shared.lock.word.store(0, ordering: .relaxed)
        #expect(first.pointee == 0)
    }

    @Test func futexParkingIsUsedOnLinux() {
        #if os(Linux)
        let onWord = BargingLock().parksOnWord
        #expect(onWord)
        #endif
        let table = BargingLock(parksOnWord: false).parksOnWord
        #expect(!table)
    }

    /// One thread holds the lock while the others queue behind it until they run out of spins
    /// and yields and park; every increment still happens under the lock, once.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func waitersThatParkAreWokenAndExcluded(parksOnWord: Bool) {
        raceBehindLongHold(Shared(parksOnWord: parksOnWord), holdAsShort: false, shortSections: { _ in false })
    }

    @Test func shortSectionIsAnnouncedWhileHeld() {
        let shared = Shared(parksOnWord: true)
        shared.lock.lockForShortSection()
        let during = shared.lock.shortSection.load(ordering: .relaxed)
        let word = shared.lock.word.load(ordering: .relaxed)
        shared.lock.unlockShortSection()
        let after = shared.lock.shortSection.load(ordering: .relaxed)
        #expect(during)
        #expect(word == 1)
        #expect(!after)
        #expect(shared.lock.word.load(ordering: .relaxed) == 0)
    }

    /// Half the threads take the lock for short sections (their waiters spin for them), half
    /// as values do, while a first short section is held until a waiter parks (past the
    /// bounded spin): still one holder at a time, every increment once.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func shortAndPlainSectionsExcludeEachOther(parksOnWord: Bool) {
        raceBehindLongHold(Shared(parksOnWord: parksOnWord), holdAsShort: true, shortSections: { $0 % 2 == 0 })
    }

    /// Takes the lock (as a short section when `holdAsShort`), starts 6 threads that
    /// each add 2,000 times under it (thread `t` as a short section when `shortSections(t)`),
    /// keeps it until a waiter has parked, then checks that nothing ran while it was held and
    /// that every increment happened once.
    func raceBehindLongHold(_ shared: Shared, holdAsShort firstShort: Bool, shortSections: @escaping @Sendable (Int) -> Bool) {
        let threads = 6, increments = 2_000
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        if firstShort { shared.lock.lockForShortSection() } else { shared.lock.lock() }
        for t in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                started.signal()
                let short = shortSections(t)
                for _ in 0..<increments {
                    shared.lock.withLock(shortSection: short) { shared.counter += 1 }
                }
                group.leave()
            }
        }
        for _ in 0..<threads { started.wait() }
        // A waiter that runs out of spins and yields marks the word "a thread may be parked"
        // (2) and parks. How soon depends on the scheduler (6 threads, 2 cores, other suites
        // running): wait for it, up to 20 s, rather than assume a time.
        let deadline = Date().addingTimeInterval(20)
        while shared.lock.word.load(ordering: .relaxed) != 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        let parkedState = shared.lock.word.load(ordering: .relaxed)
        #expect(parkedState == 2)
        #expect(shared.counter == 0)
        if firstShort { shared.lock.unlockShortSection() } else { shared.lock.unlock() }
        group.wait()
        #expect(shared.counter == threads * increments)
        let finalState = shared.lock.word.load(ordering: .relaxed)
        #expect(finalState == 0)
    }
}
