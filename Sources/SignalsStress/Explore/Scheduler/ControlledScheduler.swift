#if DEBUG
import Foundation
import Signals

/// Runs a scenario's threads one at a time: at each schedule point of the library
/// (`SchedulePoint`) the running thread asks the strategy who goes next and, if another
/// thread, hands over and sleeps until its turn comes back.
///
/// Only the threads registered here are scheduled: a point reached by any other thread (the
/// exploring thread building the graph, a Dispatch worker) returns at once. A thread at a wait
/// (`waitingTurn`: a spin, a lock, a queued graph change) is marked waiting and is not chosen
/// again until another thread reaches a point or finishes; when every unfinished thread waits,
/// or a schedule takes more than `maxSteps` points, the schedule fails (a deadlock or a
/// livelock). A failed or stalled schedule lets every thread run freely to its end.
final class ControlledScheduler: ScheduleController, @unchecked Sendable {
    // Unchecked: every field below is touched only holding `condition`.
    enum ThreadState { case runnable, waiting, finished }

    private let condition = NSCondition()
    private var ids: [UInt: Int] = [:]
    private var states: [ThreadState]
    private var suppressed: [Int]
    private var current = -1
    private var strategy: any ScheduleStrategy
    private(set) var choices: [Int] = []
    private(set) var steps = 0
    private(set) var failure: String?
    private(set) var disengaged = false
    let maxSteps: Int
    /// Each schedule point reached, as "thread site", when `SIGNALS_EXPLORE_TRACE` is set.
    private(set) var trace: [String] = []
    static let tracing = ProcessInfo.processInfo.environment["SIGNALS_EXPLORE_TRACE"] != nil

    init(threads: Int, strategy: any ScheduleStrategy, maxSteps: Int) {
        states = Array(repeating: .runnable, count: threads)
        suppressed = Array(repeating: 0, count: threads)
        self.strategy = strategy
        self.maxSteps = maxSteps
        self.strategy.begin()
    }

    /// The strategy, with what it learnt during the schedule.
    var finalStrategy: any ScheduleStrategy { condition.withLock { strategy } }

    // MARK: The scenario's threads

    /// Registers the calling thread as thread `index` and sleeps until its first turn.
    func enter(_ index: Int) {
        condition.lock()
        defer { condition.unlock() }
        ids[stressThreadToken()] = index
        condition.broadcast()
        while current != index && !disengaged { condition.wait() }
    }

    /// Thread `index` has finished: the next one runs.
    func exit(_ index: Int) {
        condition.lock()
        defer { condition.unlock() }
        ids[stressThreadToken()] = nil
        states[index] = .finished
        wakeWaiters()
        if disengaged { condition.broadcast(); return }
        let enabled = states.indices.filter { states[$0] == .runnable }
        if enabled.isEmpty {
            current = -1
        } else {
            current = decide(enabled: enabled, running: nil)
        }
        condition.broadcast()
    }

    /// Called by the exploring thread once every thread has entered: the first turn.
    func start() {
        condition.lock()
        defer { condition.unlock() }
        while ids.count < states.count && !disengaged { condition.wait() }
        current = decide(enabled: Array(states.indices), running: nil)
        condition.broadcast()
    }

    /// Waits until every thread finished; returns false if `stallSeconds` passed without a
    /// single step (a thread blocked outside the schedule points): the schedule is then
    /// abandoned, the threads run freely, and this waits up to `drainSeconds` more for them.
    func awaitEnd(stallSeconds: Double, drainSeconds: Double) -> (finished: Bool, stalled: Bool) {
        condition.lock()
        defer { condition.unlock() }
        var lastSteps = steps
        var lastChange = Date()
        var stalled = false
        while states.contains(where: { $0 != .finished }) {
            if disengaged { return (awaitDrained(drainSeconds), stalled) }
            _ = condition.wait(until: Date().addingTimeInterval(0.05))
            if steps != lastSteps {
                lastSteps = steps
                lastChange = Date()
            } else if Date().timeIntervalSince(lastChange) > stallSeconds {
                stalled = true
                disengaged = true
                condition.broadcast()
            }
        }
        return (true, stalled)
    }

    private func awaitDrained(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while states.contains(where: { $0 != .finished }) {
            if !condition.wait(until: deadline) { return !states.contains(where: { $0 != .finished }) }
        }
        return true
    }

    // MARK: ScheduleController

    func reached(_ site: SchedulePointSite) {
        condition.lock()
        defer { condition.unlock() }
        guard !disengaged, let me = ids[stressThreadToken()], suppressed[me] == 0 else { return }
        if Self.tracing { trace.append("\(me) \(site.rawValue)") }
        wakeWaiters()
        step(me, waiting: false)
    }

    func waitingTurn(_ site: SchedulePointSite) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !disengaged, let me = ids[stressThreadToken()], suppressed[me] == 0 else { return false }
        if Self.tracing { trace.append("\(me) \(site.rawValue) (waits)") }
        states[me] = .waiting
        step(me, waiting: true)
        if states[me] == .waiting { states[me] = .runnable }
        return true
    }

    func suppress(_ delta: Int) {
        condition.lock()
        defer { condition.unlock() }
        if let me = ids[stressThreadToken()] { suppressed[me] += delta }
    }

    // MARK: Deciding

    /// One schedule point of thread `me`: picks the next thread and, if another, sleeps until
    /// `me`'s turn comes back.
    private func step(_ me: Int, waiting: Bool) {
        steps += 1
        if steps > maxSteps {
            fail("livelock: more than \(maxSteps) schedule points")
            return
        }
        let enabled = states.indices.filter { states[$0] == .runnable }
        if enabled.isEmpty {
            fail("deadlock: every thread is waiting for another")
            return
        }
        let next = decide(enabled: enabled, running: waiting ? nil : me)
        if next == me { return }
        current = next
        condition.broadcast()
        while current != me && !disengaged { condition.wait() }
    }

    private func decide(enabled: [Int], running: Int?) -> Int {
        if enabled.count == 1 { return enabled[0] }
        let next = strategy.choose(enabled: enabled, running: running)
        choices.append(next)
        return next
    }

    /// Another thread moved: the waiting ones may be able to go on.
    private func wakeWaiters() {
        for i in states.indices where states[i] == .waiting { states[i] = .runnable }
    }

    private func fail(_ what: String) {
        if failure == nil { failure = what }
        disengaged = true
        condition.broadcast()
    }
}
#endif
