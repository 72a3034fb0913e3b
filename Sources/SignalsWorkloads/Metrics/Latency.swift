import Histogram
import SignalsReports

/// One thread's latency histogram. Each thread records into its own recorder (no sharing, no
/// locks on the measured path); recorders are merged once the repetition is over.
package final class LatencyRecorder: @unchecked Sendable {
    package var histogram: Histogram<UInt64>

    package init() {
        // 1 ns .. 100 s at three significant digits: a send is ~10 ns, a stalled hop can be seconds.
        histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000,
                                      numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
    }

    @inline(__always)
    package func record(_ ns: UInt64) {
        _ = histogram.record(ns == 0 ? 1 : ns)
    }

    /// Merges `recorders` and summarizes; nil when nothing was recorded.
    package static func summary(of recorders: [LatencyRecorder]) -> LatencySummary? {
        guard var merged = recorders.first?.histogram else { return nil }
        for r in recorders.dropFirst() { merged.add(r.histogram) }
        return summarize(merged)
    }

    package static func summarize(_ h: Histogram<UInt64>) -> LatencySummary? {
        guard h.totalCount > 0 else { return nil }
        var points: [PercentilePoint] = []
        for it in h.percentiles(ticksPerHalfDistance: 4) {
            let p = it.percentileLevelIteratedTo
            if let last = points.last, last.percentile == p { continue }
            points.append(PercentilePoint(percentile: p, ns: it.value))
            if p >= 100 || points.count >= 120 { break }
        }
        return LatencySummary(count: h.totalCount,
                              p50: h.valueAtPercentile(50), p90: h.valueAtPercentile(90),
                              p99: h.valueAtPercentile(99), p999: h.valueAtPercentile(99.9),
                              p9999: h.valueAtPercentile(99.99), max: h.max, distribution: points)
    }
}

/// The fixed-rate schedule of one open-loop round (`bench latency`): sender `k` of `senders`
/// sends its value `i` at `start + (i + k / senders) × intervalTicks`, whatever happened to
/// the values before it, and every sample is timed from that scheduled moment.
package final class OpenLoopSchedule: @unchecked Sendable {
    /// Ticks (of `LatencyClock`) between two sends of one sender: `senders / rate`.
    package let intervalTicks: Double
    package let senders: Int
    /// Set by `RunContext.startClock()`, before any sender is released.
    package var start: UInt64 = 0

    /// `rate` values per second over all `senders` together.
    package init(rate: Double, senders: Int) {
        self.senders = max(1, senders)
        intervalTicks = Double(self.senders) * 1e9 / rate / LatencyClock.nsPerTick
    }

    /// When sender `sender` is due to send its value `index`.
    @inline(__always)
    package func due(sender: Int, index: Int) -> UInt64 {
        start &+ UInt64((Double(index) + Double(sender) / Double(senders)) * intervalTicks)
    }

    /// Nanoseconds between two sends of one sender.
    package var intervalNs: Double { intervalTicks * LatencyClock.nsPerTick }
}

/// Sampled latency measurement for one repetition, without an observer effect: while the
/// round runs, a sample is at most one clock read and one store into memory allocated before
/// it; the histograms are filled after the round (`stats`, `openLoopStats`).
///
/// Values are encoded as `sender << 32 | sequence`; a value is sampled when the sequence's
/// low `log2(sampleEvery)` bits are zero, and its sample number is `sequence >> log2(sampleEvery)`.
/// What a sample stores depends on the round's `Mode`:
/// - `sendCall`: the sender reads the clock around the `send` and stores the difference; the
///   handler does nothing (its checker has no sampler), so the call timed is the call of the
///   throughput rounds;
/// - `endToEnd`: the sender stores the time just before the `send`, the handler the time it
///   saw the value;
/// - `openLoop`: the sender waits for the value's scheduled time and stores when it sent it;
///   the handler stores the time it saw the value. Latency counts from the schedule.
/// The stores of a round are read only after it (after the drivers waited for every delivery,
/// which orders the handlers' stores before the read, and joined the senders).
package final class LatencySampler: @unchecked Sendable {
    package enum Mode: Sendable {
        case sendCall
        case endToEnd
        case openLoop(OpenLoopSchedule)
    }

    package let mode: Mode
    package let sampleEvery: Int
    package let mask: Int
    let shift: Int
    let senders: Int
    let receivers: Int
    /// Samples each sender can store (one per `sampleEvery` values, plus one).
    let capacity: Int
    /// Per sender, by sample number: the call's duration (`sendCall`), the send's start
    /// (`endToEnd`, `openLoop`); ticks.
    let sent: UnsafeMutablePointer<UInt64>
    /// Per receiver and sender, by sample number: when the handler saw the value (ticks; 0: never).
    let received: UnsafeMutablePointer<UInt64>
    /// Whether handlers store a timestamp in this round.
    package let handlerStamps: Bool

    /// - Parameters:
    ///   - valuesPerSender: the most values one sender sends in the round (storage is
    ///     allocated for their samples now, not during the round; samples beyond are dropped).
    package init(mode: Mode, sampleEvery: Int, senders: Int, receivers: Int = 1, valuesPerSender: Int) {
        precondition(sampleEvery > 0 && sampleEvery & (sampleEvery - 1) == 0, "sampleEvery must be a power of two")
        self.mode = mode
        self.sampleEvery = sampleEvery
        self.mask = sampleEvery - 1
        self.shift = sampleEvery.trailingZeroBitCount
        self.senders = max(1, senders)
        self.receivers = max(1, receivers)
        capacity = max(0, valuesPerSender) >> shift + 1
        sent = .allocate(capacity: self.senders * capacity)
        sent.initialize(repeating: 0, count: self.senders * capacity)
        if case .sendCall = mode { handlerStamps = false } else { handlerStamps = true }
        let r = handlerStamps ? self.receivers * self.senders * capacity : 1
        received = .allocate(capacity: r)
        received.initialize(repeating: 0, count: r)
    }

    deinit {
        sent.deallocate()
        received.deallocate()
    }

    @inline(__always)
    package func isSampled(_ sequence: Int) -> Bool { sequence & mask == 0 }

    /// Stores sender `sender`'s sample for its value `index` (a sampled one): a duration
    /// (`sendCall`) or a start time.
    @inline(__always)
    package func store(sender: Int, index: Int, _ ticks: UInt64) {
        let k = index >> shift
        if sender < senders && k < capacity { sent[sender &* capacity &+ k] = ticks }
    }

    /// Called by a handler on receiving a sampled value: one clock read, one store.
    @inline(__always)
    package func delivered(_ value: Int, receiver: Int = 0) {
        let sender = value >> 32
        let k = (value & 0xFFFF_FFFF) >> shift
        guard sender >= 0 && sender < senders && k < capacity && receiver < receivers else { return }
        received[(receiver &* senders &+ sender) &* capacity &+ k] = LatencyClock.now()
    }

    /// Every sample of the round in nanoseconds: (sender, sample number, raw ns), the raw
    /// time from the send's start (or schedule) to the handler, or the call's duration.
    func samples(fromSchedule: Bool = false) -> [(sender: Int, index: Int, ns: Double)] {
        var out: [(sender: Int, index: Int, ns: Double)] = []
        for s in 0..<senders {
            for k in 0..<capacity {
                let start = sent[s * capacity + k]
                switch mode {
                case .sendCall:
                    if start != 0 { out.append((s, k, LatencyClock.nanoseconds(start))) }
                case .endToEnd, .openLoop:
                    for r in 0..<receivers {
                        let end = received[(r * senders + s) * capacity + k]
                        guard end != 0 else { continue }
                        var from = start
                        if fromSchedule, case .openLoop(let schedule) = mode {
                            from = schedule.due(sender: s, index: k << shift)
                        } else if start == 0 { continue }
                        out.append((s, k, end >= from ? LatencyClock.nanoseconds(end - from) : 0))
                    }
                }
            }
        }
        return out
    }

    /// The round's figures: raw (as measured) and with `clockCostNs` (one read's cost, which
    /// every sample includes once) taken off each sample, floored at 0.
    package func summaries(clockCostNs: Double) -> (raw: LatencySummary?, corrected: LatencySummary?) {
        let raw = LatencyRecorder(), corrected = LatencyRecorder()
        for (_, _, ns) in samples() {
            raw.record(UInt64(ns.rounded()))
            corrected.record(UInt64(max(0, ns - clockCostNs).rounded()))
        }
        return (LatencyRecorder.summary(of: [raw]), LatencyRecorder.summary(of: [corrected]))
    }

    /// The latest time (ticks) a handler stamped, 0 when none did: an open-loop round's last
    /// delivery to within one sample.
    package var lastDelivery: UInt64 {
        guard handlerStamps else { return 0 }
        var last: UInt64 = 0
        for i in 0..<(receivers * senders * capacity) where received[i] > last { last = received[i] }
        return last
    }

    /// An open-loop round's figures: from each value's scheduled time (what a caller sending
    /// at that rate waits, the producer's own lag included: wrk2's measure), and the service
    /// time from the actual send, recorded with HdrHistogram's coordinated-omission correction
    /// for the samples' expected interval (`recordCorrectedValue`, for comparison). Both less
    /// the clock's cost.
    package func openLoopSummaries(clockCostNs: Double) -> (fromSchedule: LatencySummary?, serviceCorrected: LatencySummary?, behind: Int) {
        guard case .openLoop(let schedule) = mode else { return (nil, nil, 0) }
        let scheduled = LatencyRecorder(), service = LatencyRecorder()
        let expected = UInt64(max(1, (schedule.intervalNs * Double(sampleEvery)).rounded()))
        var behind = 0
        for (s, k, ns) in samples(fromSchedule: true) {
            scheduled.record(UInt64(max(0, ns - clockCostNs).rounded()))
            let start = sent[s * capacity + k]
            let due = schedule.due(sender: s, index: k << shift)
            // Sent more than one interval late: the producer had fallen behind its schedule.
            if start > due && LatencyClock.nanoseconds(start - due) > schedule.intervalNs { behind += 1 }
            let end = received[s * capacity + k]
            let serviceNs = end > start && start != 0 ? max(0, LatencyClock.nanoseconds(end - start) - clockCostNs) : 0
            _ = service.histogram.recordCorrectedValue(max(1, UInt64(serviceNs.rounded())), expectedInterval: expected)
        }
        return (LatencyRecorder.summary(of: [scheduled]), LatencyRecorder.summary(of: [service]), behind)
    }
}
