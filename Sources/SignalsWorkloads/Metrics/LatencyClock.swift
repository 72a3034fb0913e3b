import CycleCounter
import Foundation
import SignalsReports

/// The clock of bench's latency samples: the CPU's time-stamp counter where it is invariant,
/// else `monotonicNanos()`. Samples are taken in ticks (`now()`) and converted to nanoseconds
/// after the round (`nanoseconds(_:)`), so a sample costs one read and one store.
///
/// The counter is used when it ticks at one constant rate on every core whatever the power
/// state: on Linux x86_64 when /proc/cpuinfo lists both `constant_tsc` and `nonstop_tsc` (and
/// the kernel's clock source is `tsc`, i.e. the kernel found the cores' counters in step); on
/// arm64, `cntvct_el0` (the architectural generic timer, constant by definition). It is
/// calibrated against CLOCK_MONOTONIC once per process (x86_64; arm64 reads its frequency).
/// `SIGNALS_BENCH_CLOCK=monotonic` forces CLOCK_MONOTONIC, to compare the two.
package enum LatencyClock {
    /// What `now()` reads.
    package enum Source: String, Codable, Sendable {
        /// x86_64 `lfence; rdtsc`.
        case tsc
        /// arm64 `isb; mrs cntvct_el0`.
        case cntvct
        /// `clock_gettime(CLOCK_MONOTONIC)` through the vDSO.
        case monotonic = "clock_gettime"
    }

    package static let source: Source = chooseSource()
    /// Nanoseconds per tick (1 for `monotonic`).
    package static let nsPerTick: Double = calibrate()

    /// Whether the cycle counter is in use (a Bool `let`, so `now()` costs one predictable branch).
    static let usesCounter: Bool = source != .monotonic

    /// The current time in ticks of `source`. Inlined into the send loops and the checker,
    /// which live in this module.
    @inline(__always)
    package static func now() -> UInt64 {
        usesCounter ? signals_cycle_counter_read() : monotonicNanos()
    }

    /// `ticks` in nanoseconds.
    @inline(__always)
    package static func nanoseconds(_ ticks: UInt64) -> Double { Double(ticks) * nsPerTick }

    /// Whether this machine's counter may be used, from /proc/cpuinfo's flags and the kernel's
    /// clock source (x86_64), or always (arm64); never where the counter is not readable.
    static func chooseSource() -> Source {
        guard signals_cycle_counter_available() != 0,
              ProcessInfo.processInfo.environment["SIGNALS_BENCH_CLOCK"] != "monotonic" else { return .monotonic }
        #if arch(x86_64)
        return tscIsInvariant(cpuinfo: (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "",
                              clocksource: (try? String(contentsOfFile: "/sys/devices/system/clocksource/clocksource0/current_clocksource",
                                                        encoding: .utf8)) ?? "") ? .tsc : .monotonic
        #elseif arch(arm64)
        return signals_cycle_counter_frequency() > 0 ? .cntvct : .monotonic
        #else
        return .monotonic
        #endif
    }

    /// True when the first CPU's flags include `constant_tsc` and `nonstop_tsc` and the
    /// kernel keeps time with the TSC (which it does only after checking the cores agree).
    package static func tscIsInvariant(cpuinfo: String, clocksource: String) -> Bool {
        guard let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
        let set = Set(flags.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }))
        return set.contains("constant_tsc") && set.contains("nonstop_tsc")
            && clocksource.trimmingCharacters(in: .whitespacesAndNewlines) == "tsc"
    }

    /// Ticks per nanosecond from ~20 ms of both clocks, read in pairs at both ends (the pair
    /// with the shortest bracket at each end, so a preemption between two reads is not counted).
    static func calibrate() -> Double {
        switch source {
        case .monotonic: return 1
        case .cntvct: return 1e9 / Double(signals_cycle_counter_frequency())
        case .tsc:
            func pair() -> (ticks: UInt64, ns: UInt64) {
                var best: (UInt64, UInt64, UInt64) = (0, 0, .max)
                for _ in 0..<50 {
                    let a = monotonicNanos()
                    let t = signals_cycle_counter_read()
                    let b = monotonicNanos()
                    if b &- a < best.2 { best = (t, a / 2 &+ b / 2, b &- a) }
                }
                return (best.0, best.1)
            }
            let start = pair()
            let target = start.ns &+ 20_000_000
            while monotonicNanos() < target { usleep(1_000) }
            let end = pair()
            guard end.ns > start.ns, end.ticks > start.ticks else { return 1 }
            return Double(end.ns - start.ns) / Double(end.ticks - start.ticks)
        }
    }

    /// Measures the clock's cost and resolution now (bench does it in each launch, beside the
    /// latency rounds): `reads` pairs of consecutive reads. The cost is the median difference
    /// of a pair, which every sample includes once (a sample is two reads around the work: the
    /// second read's cost lies inside it); the resolution is the smallest nonzero difference
    /// seen, the shortest interval the clock tells from zero.
    package static func measure(reads: Int = 20_001) -> ClockInfo {
        let n = max(3, reads)
        var deltas = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            let a = now()
            let b = now()
            deltas[i] = b &- a
        }
        deltas.sort()
        let smallest = deltas.first { $0 > 0 } ?? 1
        return ClockInfo(source: source.rawValue, costNs: nanoseconds(deltas[n / 2]),
                         resolutionNs: nanoseconds(smallest), nsPerTick: nsPerTick)
    }
}
