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

/// Sampled latency measurement for one repetition.
///
/// Values are encoded as `sender << 32 | sequence`. A sender times one `send` in
/// `sampleEvery` (the sequence's low bits are zero) and, for those values only, writes the
/// start time into a per-sender ring that the handler reads to get the end-to-end time. The
/// ring write happens before `send`, and the library's delivery orders it before the handler
/// runs, so no extra synchronization is added to the measured path.
package final class LatencySampler: @unchecked Sendable {
    package let sampleEvery: Int
    package let mask: Int
    let shift: Int
    static let ringSize = 4096
    let stamps: UnsafeMutablePointer<UInt64>
    let senders: Int
    /// One per sending thread.
    package let send: [LatencyRecorder]
    /// One per receiving handler.
    package let endToEnd: [LatencyRecorder]

    package init(sampleEvery: Int, senders: Int, receivers: Int) {
        precondition(sampleEvery > 0 && sampleEvery & (sampleEvery - 1) == 0, "sampleEvery must be a power of two")
        self.sampleEvery = sampleEvery
        self.mask = sampleEvery - 1
        self.shift = sampleEvery.trailingZeroBitCount
        self.senders = max(1, senders)
        stamps = .allocate(capacity: self.senders * Self.ringSize)
        stamps.initialize(repeating: 0, count: self.senders * Self.ringSize)
        send = (0..<self.senders).map { _ in LatencyRecorder() }
        endToEnd = (0..<max(1, receivers)).map { _ in LatencyRecorder() }
    }

    deinit { stamps.deallocate() }

    @inline(__always)
    package func isSampled(_ value: Int) -> Bool { value & mask == 0 }

    @inline(__always)
    func slot(_ value: Int) -> Int {
        let sender = min(value >> 32, senders - 1)
        let seq = value & 0xFFFF_FFFF
        return sender &* Self.ringSize &+ ((seq >> shift) & (Self.ringSize - 1))
    }

    /// Called by a sender just before sending a sampled value.
    @inline(__always)
    package func stamp(_ value: Int, at t: UInt64) { stamps[slot(value)] = t }

    /// Called by a handler on receiving a sampled value.
    @inline(__always)
    package func delivered(_ value: Int, receiver: Int = 0) {
        let start = stamps[slot(value)]
        let now = monotonicNanos()
        if start != 0 && now >= start { endToEnd[receiver].record(now - start) }
    }

    package func stats() -> LatencyStats {
        LatencyStats(sampleEvery: sampleEvery, send: LatencyRecorder.summary(of: send),
                     endToEnd: LatencyRecorder.summary(of: endToEnd))
    }
}
