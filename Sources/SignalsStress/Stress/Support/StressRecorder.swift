import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Watching handlers: a guard against overlapping entries, the recorder of what a handler
// received, and the check of each sender's values that arrived without a gap.
//
// Everything a handler touches uses relaxed atomics only: a relaxed access creates no
// happens-before edge, so the harness cannot hide a missing synchronization in the library
// from ThreadSanitizer (a lock taken in every handler would order consecutive deliveries by
// itself). The one exception is `StressRecorder.plainCount`, which is plain memory on purpose:
// if the library ever ran two deliveries without ordering them, TSan reports that counter.

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
