import Foundation
import Signals
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The building blocks of `bench stress`: seeded perturbation, leak accounting, the values that
// travel through the graphs under test and the recorders that watch handlers.
//
// Everything a handler touches uses relaxed atomics only: a relaxed access creates no
// happens-before edge, so the harness cannot hide a missing synchronization in the library
// from ThreadSanitizer (a lock taken in every handler would order consecutive deliveries by
// itself). The one exception is `StressRecorder.plainCount`, which is plain memory on purpose:
// if the library ever ran two deliveries without ordering them, TSan reports that counter.

/// SplitMix64 finalizer: spreads a seed and a counter into an unrelated 64-bit value.
@inline(__always)
package func stressMix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

private let spinSink = Atomic<Int>(0)

/// Busy-waits for about `n` short steps (a relaxed load each, which the optimizer keeps).
@inline(never)
package func stressSpin(_ n: Int) {
    var x = 0
    for _ in 0..<n { x &+= spinSink.load(ordering: .relaxed) }
    if x == 42 { spinSink.store(0, ordering: .relaxed) }
}

/// A seeded random stream owned by one thread (an actor or the coordinator).
///
/// `perturb()` is called at the points where a race may hide: most calls do nothing, some
/// yield the processor, some spin briefly. The sequence depends only on the seed, so a failing
/// iteration replays the same perturbation schedule (the scheduler's own choices still vary).
package struct StressRandom: Sendable {
    var state: UInt64

    /// A stream for `seed`.
    package init(seed: UInt64) { state = stressMix(seed) }

    /// The next 64 random bits.
    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return stressMix(state)
    }

    /// A random integer in `0..<n` (`n` > 0).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// Keeps a subscription (or a binding) for a random while: up to a few yields and a spin
    /// of up to 4,000 steps, so senders get to deliver through it.
    package mutating func hold() {
        for _ in 0..<below(4) { sched_yield() }
        stressSpin(below(4_000))
    }

    /// Yields (1 in 32), spins up to 255 steps (3 in 32), or does nothing.
    @inline(__always)
    package mutating func perturb() { stressPerturb(next()) }
}

@inline(__always)
func stressPerturb(_ r: UInt64) {
    switch r & 31 {
    case 0: sched_yield()
    case 1, 2, 3: stressSpin(Int((r >> 8) & 255))
    default: break
    }
}

/// A seeded random stream that any thread may draw from (handlers run on whatever thread
/// delivers). A relaxed counter picks the draw, so it adds no synchronization.
package final class StressSharedRandom: Sendable {
    let seed: UInt64
    let counter = Atomic<UInt64>(0)

    /// A shared stream for `seed`.
    package init(seed: UInt64) { self.seed = seed }

    /// Perturbs the calling thread, like `StressRandom.perturb()`.
    @inline(__always)
    package func perturb() {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        stressPerturb(stressMix(seed ^ (n &* 0xD6E8_FEB8_6659_FD93)))
    }
}

// MARK: - Leak accounting

/// Counts the tracked objects of one iteration and keeps weak references to the graph's
/// objects, so the runner can check that everything was freed once the iteration let go.
package final class StressLedger: @unchecked Sendable {
    let live = Atomic<Int>(0)
    let made = Atomic<Int>(0)
    private let weakRefs = StressLock<[StressWeakRef]>([])

    /// An empty ledger.
    package init() {}

    /// A new counted token (carried by a value, or captured by a handler closure).
    package func token() -> StressToken { StressToken(self) }

    /// Tokens alive now.
    package var liveTokens: Int { live.load(ordering: .acquiring) }
    /// Tokens made so far.
    package var madeTokens: Int { made.load(ordering: .relaxed) }

    /// Watches `object` (an input, output, signal, junction, capture…): it must be freed once
    /// the iteration has released everything.
    package func track(_ object: AnyObject, _ name: String) {
        let ref = StressWeakRef(object, name)
        weakRefs.withLock { $0.append(ref) }
    }

    /// The names of watched objects still alive.
    package func survivors() -> [String] {
        weakRefs.withLock { refs in refs.filter { $0.object != nil }.map(\.name) }
    }
}

final class StressWeakRef: @unchecked Sendable {
    weak var object: AnyObject?
    let name: String
    init(_ object: AnyObject, _ name: String) {
        self.object = object
        self.name = name
    }
}

/// An object whose life is counted by a `StressLedger`: init adds one, deinit takes one away.
package final class StressToken: Sendable {
    let ledger: StressLedger
    init(_ ledger: StressLedger) {
        self.ledger = ledger
        ledger.live.wrappingAdd(1, ordering: .relaxed)
        ledger.made.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { ledger.live.wrappingSubtract(1, ordering: .releasing) }
}

// MARK: - Values

/// The value every stress graph carries: who sent it and its place in that sender's order
/// (its stamp), a tag (re-entrancy depth, activation number…) and a counted token, so a value
/// that the library keeps alive too long shows up as a leak.
package struct StressMsg: Sendable {
    /// The sender (actor, or a pseudo-sender such as re-entrant sends from a handler) and its
    /// sequence number.
    package let stamp: StressStamp
    /// Scenario-specific: re-entrancy depth, activation number…
    package let tag: Int
    /// The counted token.
    package let token: StressToken

    /// The `seq`th value of `sender`.
    package init(sender: Int, seq: Int, tag: Int = 0, token: StressToken) {
        stamp = StressStamp(sender: sender, seq: seq)
        self.tag = tag
        self.token = token
    }
}

/// One sender's record of what it sent: for each sequence number, whether the send was
/// accepted (returned nil) or refused (an explicit drop). Written by that sender only; read by
/// the arbiter after the sender has finished.
package final class StressSender: @unchecked Sendable {
    /// Not sent.
    package static let unsent: UInt8 = 0
    /// Accepted: the library said it will deliver it.
    package static let accepted: UInt8 = 1
    /// Refused with an error: explicitly dropped.
    package static let refused: UInt8 = 2

    /// The sender's id (the `sender` field of its values).
    package let id: Int
    /// Per sequence number: `unsent`, `accepted` or `refused`.
    package var status: [UInt8]
    /// The next sequence number.
    package var nextSeq = 0
    /// Sequence numbers whose loss is forbidden even where the scenario tolerates drops
    /// (for example values sent before the same thread ended the stream).
    package var mustArriveBelow = 0

    /// With a clock: per sequence number, the clock's reading just before the send started
    /// and just after it returned.
    package let clock: StressClock?
    package var startedAt: [Int] = []
    package var returnedAt: [Int] = []

    /// A sender that may send up to `capacity` values; with `clock`, each send is stamped.
    package init(id: Int, capacity: Int, clock: StressClock? = nil) {
        self.id = id
        self.clock = clock
        status = [UInt8](repeating: StressSender.unsent, count: max(1, capacity))
        if clock != nil {
            startedAt = [Int](repeating: Int.max, count: status.count)
            returnedAt = startedAt
        }
    }

    /// Sends the next value through `send` and records the outcome.
    @inline(__always) @discardableResult
    package func send(tag: Int = 0, ledger: StressLedger, _ send: (StressMsg) -> SignalSendError?) -> SignalSendError? {
        let seq = nextSeq
        guard seq < status.count else { return .disconnected }
        nextSeq = seq &+ 1
        if let clock { startedAt[seq] = clock.tick() }
        let error = send(StressMsg(sender: id, seq: seq, tag: tag, token: ledger.token()))
        if let clock { returnedAt[seq] = clock.tick() }
        status[seq] = error == nil ? StressSender.accepted : StressSender.refused
        return error
    }

    /// The sending loop most scenarios share: sends `count` values through `send`, one after
    /// another, perturbing the schedule between sends and reporting progress as actor `actor`
    /// of `iteration` (so the watchdog can show how far each sender got).
    package func sendAll(_ count: Int, actor: Int, of iteration: StressIteration, ledger: StressLedger,
                        random: inout StressRandom, _ send: (StressMsg) -> SignalSendError?) {
        for i in 0..<count {
            self.send(ledger: ledger, send)
            random.perturb()
            if i & 31 == 0 { iteration.progress(actor, i) }
        }
    }

    /// Records the outcome of a value sent by hand (`seq` must be `nextSeq`).
    package func record(seq: Int, accepted: Bool) {
        guard seq < status.count else { return }
        status[seq] = accepted ? StressSender.accepted : StressSender.refused
        nextSeq = max(nextSeq, seq + 1)
    }

    /// How many values were accepted.
    package var acceptedCount: Int { status.reduce(0) { $0 + ($1 == StressSender.accepted ? 1 : 0) } }
}

/// A shared logical clock: each tick is a relaxed read-modify-write on one word, so ticks from
/// all threads fall in one total order without adding any synchronization between them.
package final class StressClock: Sendable {
    let now = Atomic<Int>(0)
    /// A clock at 0.
    package init() {}
    /// The next reading.
    @inline(__always) package func tick() -> Int { now.wrappingAdd(1, ordering: .relaxed).oldValue }
}

// MARK: - Watching handlers

/// Detects a closure entered while another call of it is running (on another thread, or
/// nested on the same one). A relaxed read-modify-write, so both overlapping calls cannot miss
/// each other.
package final class StressGuard: Sendable {
    let depth = Atomic<Int>(0)
    let overlapCount = Atomic<Int>(0)

    /// A guard.
    package init() {}

    /// Call on entry.
    @inline(__always)
    package func enter() {
        if depth.wrappingAdd(1, ordering: .relaxed).oldValue != 0 {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Call on exit.
    @inline(__always)
    package func exit() { depth.wrappingSubtract(1, ordering: .relaxed) }

    /// Overlapping entries seen.
    package var overlaps: Int { overlapCount.load(ordering: .relaxed) }
}

/// What a recorder saw, in delivery order.
package enum StressEvent: Equatable, Sendable, CustomStringConvertible {
    case value(sender: Int, seq: Int, tag: Int)
    case end(String)

    package var description: String {
        switch self {
        case .value(let s, let q, let t): return "\(s):\(q)" + (t != 0 ? "#\(t)" : "")
        case .end(let e): return "end(\(e))"
        }
    }
}

/// Records what a handler receives, and how: entries that overlap, and entries after the
/// subscription's `cancel()` returned.
package final class StressRecorder: @unchecked Sendable {
    /// Where a slot keeps a value's tag. A slot is one word: its kind in the top two bits (1 a
    /// value, 2 an end), then the tag (16 bits) above the value's stamp (`StressStamp.encoded`,
    /// the sender kept to 12 bits).
    static let tagShift = StressStamp.seqBits + 12

    let capacity: Int
    let slots: UnsafeMutablePointer<Atomic<UInt64>>
    let count = Atomic<Int>(0)
    let ends = Atomic<Int>(0)
    /// The handler's guard.
    package let entry = StressGuard()
    let cancelReturned = Atomic<Bool>(false)
    let afterCancel = Atomic<Int>(0)
    let perturber: StressSharedRandom?
    /// Plain memory touched by every delivery: if the library delivered twice without ordering
    /// the two deliveries (a happens-before edge), ThreadSanitizer reports this.
    var plainCount = 0

    /// A recorder for at most `capacity` deliveries; `perturber` perturbs inside the handler.
    package init(capacity: Int, perturber: StressSharedRandom?) {
        self.capacity = max(1, capacity)
        self.perturber = perturber
        slots = .allocate(capacity: self.capacity)
        for i in 0..<self.capacity { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The handler: records `r`.
    @inline(__always)
    package func receive(_ r: Result<StressMsg, SignalEnd>) {
        entry.enter()
        if cancelReturned.load(ordering: .relaxed) { afterCancel.wrappingAdd(1, ordering: .relaxed) }
        plainCount &+= 1
        let code: UInt64
        var isEnd = false
        switch r {
        case .success(let m):
            code = 1 << 62 | UInt64(m.tag & 0xFFFF) << StressRecorder.tagShift
                | UInt64(StressStamp(sender: m.stamp.sender & 0xFFF, seq: m.stamp.seq).encoded)
        case .failure(let e):
            isEnd = true
            switch e {
            case .complete: code = 2 << 62
            case .cancelled: code = 2 << 62 | 1
            case .other: code = 2 << 62 | 2
            }
        }
        let i = count.wrappingAdd(1, ordering: .relaxed).oldValue
        if i < capacity { slots[i].store(code, ordering: .relaxed) }
        // The end publishes everything before it to whoever waits for it (`endCount`).
        if isEnd { ends.wrappingAdd(1, ordering: .releasing) }
        perturber?.perturb()
        entry.exit()
    }

    /// Call right after the subscription's `cancel()` returned.
    package func markCancelled() { cancelReturned.store(true, ordering: .relaxed) }

    /// Deliveries so far.
    package var deliveries: Int { count.load(ordering: .relaxed) }
    /// Ends so far.
    package var endCount: Int { ends.load(ordering: .acquiring) }

    /// The events, in order (call once the handler is quiet).
    package var events: [StressEvent] {
        let n = min(count.load(ordering: .acquiring), capacity)
        var out: [StressEvent] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var code = slots[i].load(ordering: .acquiring)
            if code == 0 {
                // Counted but not yet written: the writer is between two instructions.
                var spins = 0
                while code == 0 && spins < 1_000_000 { spins += 1; sched_yield(); code = slots[i].load(ordering: .acquiring) }
            }
            if code >> 62 == 1 {
                let stamp = StressStamp(encoded: Int(code & (1 << StressRecorder.tagShift - 1)))
                out.append(.value(sender: stamp.sender, seq: stamp.seq, tag: Int((code >> StressRecorder.tagShift) & 0xFFFF)))
            } else {
                let names = ["complete", "cancelled", "other"]
                out.append(.end(names[Int(min(code & 3, 2))]))
            }
        }
        return out
    }

    /// Problems in how the handler was entered: overlap, after cancel, too many deliveries.
    package func entryFindings(_ who: String) -> [StressFinding] {
        var f: [StressFinding] = []
        if entry.overlaps > 0 {
            f.append(.forbidden(StressCheck.concurrentEntry, "\(who): \(entry.overlaps) overlapping handler entries"))
        }
        if afterCancel.load(ordering: .relaxed) > 0 {
            f.append(.forbidden(StressCheck.afterCancel, "\(who): \(afterCancel.load(ordering: .relaxed)) deliveries after cancel() returned"))
        }
        if count.load(ordering: .relaxed) > capacity {
            f.append(.forbidden(StressCheck.duplicate, "\(who): \(count.load(ordering: .relaxed)) deliveries, more than the \(capacity) possible"))
        }
        return f
    }
}

extension Signal where T == StressMsg {
    /// Subscribes `recorder` with a handler closure that captures a counted token.
    package func stressSubscribe(_ recorder: StressRecorder, ledger: StressLedger, context: Exec = .direct) -> SignalOutput<StressMsg> {
        let token = ledger.token()
        return subscribe(context: context) { r in
            withExtendedLifetime(token) { recorder.receive(r) }
        }
    }
}

/// A lock around a value, for the harness's own shared state.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer
/// intercepts pthread mutexes, but on Linux it does not see `Mutex`'s futex-based lock, so a
/// harness using `Mutex` would report its own critical sections as races (see
/// Tests/SignalsHarnessTests/Stress/tsan-suppressions.txt).
package final class StressLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// MARK: - Shared by scenarios

/// An integer that threads share (relaxed: it orders nothing).
final class StressCounter: Sendable {
    let value: Atomic<Int>
    init(_ v: Int) { value = Atomic(v) }
    var load: Int { value.load(ordering: .relaxed) }
    func store(_ v: Int) { value.store(v, ordering: .relaxed) }
    /// Returns the count before this call and adds one.
    func next() -> Int { value.add(1, ordering: .relaxed).newValue - 1 }
}

/// Per-sender contiguity: between the first and the last value a receiver got from a sender,
/// every value that sender had accepted must be there (no value lost in the middle of a
/// subscription). Also checks order and duplicates.
func stressCheckContiguous(_ who: String, _ events: [StressEvent], senders: [StressSender],
                           lost: (StressSender, Int) -> StressFinding) -> [StressFinding] {
    var findings: [StressFinding] = []
    var bySender: [Int: [Int]] = [:]
    for e in events {
        if case .value(let s, let q, _) = e { bySender[s, default: []].append(q) }
    }
    for sender in senders {
        guard let seqs = bySender[sender.id], let first = seqs.first else { continue }
        var previous = first
        for q in seqs.dropFirst() {
            if q == previous {
                findings.append(.forbidden(StressCheck.duplicate, "\(who): sender \(sender.id) value \(q) twice"))
                break
            }
            if q < previous {
                findings.append(.forbidden(StressCheck.fifo, "\(who): sender \(sender.id) delivered \(q) after \(previous)"))
                break
            }
            let missing = (previous + 1..<q).filter { $0 < sender.status.count && sender.status[$0] == StressSender.accepted }
            if !missing.isEmpty {
                let judged = missing.map { lost(sender, $0) }
                var worst = judged.max { $0.grade < $1.grade }!
                worst.detail = "\(who): sender \(sender.id) got \(previous) then \(q), missing accepted \(missing.count) (first \(missing[0])); " + worst.detail
                findings.append(worst)
            }
            previous = q
        }
        for q in seqs where q >= sender.status.count || sender.status[q] != StressSender.accepted {
            findings.append(.forbidden(StressCheck.refusedDelivered, "\(who): sender \(sender.id) value \(q) was not accepted"))
            break
        }
    }
    return findings
}

/// The calling thread's identity, for scenarios that check which thread ran a handler.
func stressThreadToken() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
