import Dispatch
import Foundation
import Synchronization

/// Races `threads` long-lived threads for up to `rounds` rounds: in each round every thread
/// runs `body(thread, round)` once, released together; then `between(round)` runs on the
/// calling thread, and the race stops early when it returns false. Reusing the threads makes
/// a round cost microseconds, so thousands of rounds fit in a test. Returns false if a round
/// did not finish within `seconds`.
@discardableResult
func raceRounds(threads: Int, rounds: Int, seconds: Double = 60,
                between: (Int) -> Bool = { _ in true },
                _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void) -> Bool {
    let starts = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    let done = DispatchSemaphore(value: 0)
    let round = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    for t in 0..<threads {
        let start = starts[t]
        Thread {
            while true {
                start.wait()
                if stop.load(ordering: .acquiring) { break }
                body(t, round.load(ordering: .acquiring))
                done.signal()
            }
        }.start()
    }
    var finished = true
    for r in 0..<rounds {
        round.store(r, ordering: .releasing)
        for s in starts { s.signal() }
        for _ in 0..<threads where done.wait(timeout: .now() + seconds) == .timedOut { finished = false }
        if !finished || !between(r) { break }
    }
    stop.store(true, ordering: .releasing)
    for s in starts { s.signal() }
    return finished
}
