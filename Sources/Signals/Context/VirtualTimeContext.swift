import Synchronization

/// A deterministic, single-threaded execution context whose clock moves only when told to.
///
/// Use it in tests of time-based operators, wrapped as `Exec.custom(virtual)`: work passed to
/// `invoke` or `schedule(after:_:)` is only queued; `advance(by:)`, `advance(to:)` and
/// `runUntilIdle()` run it, on the calling thread, in time order (work due at the same instant
/// runs in the order it was submitted). Nothing ever sleeps, so such tests are instant and
/// reproducible.
///
/// ```swift
/// let virtual = VirtualTimeContext()
/// let out = input.debounce(interval: .milliseconds(300), context: .custom(virtual)).capture()
/// input.send(value: 1)
/// virtual.advance(by: .milliseconds(300))   // the debounced value is delivered here
/// ```
///
/// The context itself is thread-safe (its queue is guarded by a mutex), but it is meant to be
/// driven from one thread: work runs on whichever thread calls `advance`.
public final class VirtualTimeContext: ExecutionContext {
    struct Item {
        var due: Duration
        var sequence: UInt64
        var work: @Sendable () -> Void
    }

    struct State {
        var now: Duration
        var nextSequence: UInt64 = 0
        var items: [UInt64: Item] = [:]
        /// The (due, sequence) of every queued item, as a binary min-heap, so the next item
        /// is found in log n rather than by a scan of the queue (100,000 timers falling due
        /// together took quadratic time). A cancelled item leaves its entry behind, skipped
        /// when it reaches the top; the heap is rebuilt when such entries outnumber the items.
        var order: [(due: Duration, sequence: UInt64)] = []

        mutating func add(_ item: Item) {
            if order.count > 64 && order.count > 2 * items.count {
                order = items.values.map { ($0.due, $0.sequence) }
                for i in stride(from: order.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
            }
            items[item.sequence] = item
            order.append((item.due, item.sequence))
            var i = order.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Self.precedes(order[i], order[parent]) else { break }
                order.swapAt(i, parent)
                i = parent
            }
        }

        /// The earliest queued item (dropping the entries of cancelled ones from the top).
        mutating func first() -> Item? {
            while let top = order.first {
                if let item = items[top.sequence] { return item }
                removeTop()
            }
            return nil
        }

        mutating func removeTop() {
            let last = order.removeLast()
            guard !order.isEmpty else { return }
            order[0] = last
            siftDown(0)
        }

        mutating func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < order.count && Self.precedes(order[l], order[m]) { m = l }
                if r < order.count && Self.precedes(order[r], order[m]) { m = r }
                if m == i { return }
                order.swapAt(i, m)
                i = m
            }
        }

        static func precedes(_ a: (due: Duration, sequence: UInt64), _ b: (due: Duration, sequence: UInt64)) -> Bool {
            a.due < b.due || (a.due == b.due && a.sequence < b.sequence)
        }
    }

    let state: Mutex<State>

    /// Creates a context whose clock starts at `start` (zero by default).
    ///
    /// - Parameter start: the clock's first reading.
    public init(start: Duration = .zero) {
        state = Mutex(State(now: start))
    }

    /// The virtual clock: `start` plus every advance so far.
    ///
    /// - Returns: the virtual time.
    public func now() -> Duration {
        state.withLock { $0.now }
    }

    /// Queues `work` to run at the current virtual time, during the next `advance` or
    /// `runUntilIdle()` call (never inside this call).
    ///
    /// - Parameter work: the work to queue.
    public func invoke(_ work: @escaping @Sendable () -> Void) {
        _ = enqueue(after: .zero, work)
    }

    /// Queues `work` to run once the clock reaches `now() + delay` (a negative delay counts as
    /// zero; one of `Exec.neverDelay` or more is never queued, so no `advance` or `runAll` runs
    /// it). Cancelling or releasing the returned lifetime removes it from the queue.
    ///
    /// - Parameters:
    ///   - delay: how far ahead of the virtual clock the work falls due.
    ///   - work: the work to queue.
    /// - Returns: a lifetime that removes the work from the queue when cancelled or released.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime {
        if delay >= Exec.neverDelay { return NeverScheduled() }
        let sequence = enqueue(after: max(delay, .zero), work)
        return VirtualTimeLifetime(context: self, sequence: sequence)
    }

    /// The number of queued work items (due or not).
    public var pendingCount: Int {
        state.withLock { $0.items.count }
    }

    /// The time at which the earliest queued item is due, if any.
    public var nextDueTime: Duration? {
        state.withLock { s in s.first()?.due }
    }

    /// Moves the clock forward by `interval`, running every item due up to then, in time order.
    /// Work that items queue while running also runs if it falls due within the interval.
    ///
    /// - Parameter interval: how far to move the clock (a negative interval counts as zero). A
    ///   huge one runs everything queued: the clock saturates at the largest `Duration` rather
    ///   than trapping, however many times it is advanced.
    public func advance(by interval: Duration) {
        advance(to: Duration.saturatingSum(now(), max(interval, .zero)))
    }

    /// Moves the clock to `time` (if it is later than now), running every item due up to then,
    /// in time order; the clock reads each item's due time while that item runs. Any `time`
    /// is accepted: one at or before now runs only what is due now.
    ///
    /// - Parameter time: the time to move the clock to.
    public func advance(to time: Duration) {
        while let work = popDue(upTo: time) {
            work()
        }
        state.withLock { s in
            if s.now < time { s.now = time }
        }
    }

    /// Runs every item due now, including items that they queue for now, without moving the clock.
    public func runUntilIdle() {
        advance(by: .zero)
    }

    /// Runs queued work, moving the clock forward item by item, until nothing is left or
    /// `limit` items have run. Returns the number of items run. Repeating timers never leave the
    /// queue empty: use `advance(by:)` for those.
    ///
    /// - Parameter limit: the most items to run (zero or less: none).
    /// - Returns: the number of items run.
    @discardableResult
    public func runAll(limit: Int = 100_000) -> Int {
        var count = 0
        while count < limit, let due = nextDueTime {
            guard let work = popDue(upTo: due) else { break }
            work()
            count += 1
        }
        return count
    }

    // MARK: - Internals

    func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { s in
            let sequence = s.nextSequence
            s.nextSequence += 1
            // Saturated: a clock advanced to the top of the range still queues (the item is due
            // at that top, and the next advance runs it).
            s.add(Item(due: Duration.saturatingSum(s.now, delay), sequence: sequence, work: work))
            return sequence
        }
    }

    func cancel(sequence: UInt64) {
        // Take the closure out under the lock but release it outside: its captures may run
        // deinitializers that call back into this context.
        let removed = state.withLock { s in s.items.removeValue(forKey: sequence) }
        withExtendedLifetime(removed) {}
    }

    func popDue(upTo time: Duration) -> (@Sendable () -> Void)? {
        state.withLock { s -> (@Sendable () -> Void)? in
            guard let first = s.first(), first.due <= time else {
                return nil
            }
            s.items[first.sequence] = nil
            s.removeTop()
            if s.now < first.due { s.now = first.due }
            return first.work
        }
    }
}

/// The lifetime of one item scheduled on a `VirtualTimeContext`: cancelling or releasing it
/// removes the item from the queue (doing nothing if it has run).
final class VirtualTimeLifetime: Lifetime {
    let context: VirtualTimeContext
    let sequence: UInt64

    init(context: VirtualTimeContext, sequence: UInt64) {
        self.context = context
        self.sequence = sequence
    }

    func cancel() { context.cancel(sequence: sequence) }

    deinit { context.cancel(sequence: sequence) }
}
