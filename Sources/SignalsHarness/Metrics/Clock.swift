#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds: the harness's one clock (bench and stress alike). `clock_gettime(
/// CLOCK_MONOTONIC)` goes through the vDSO here (tsc clocksource), about 20 ns: cheap enough
/// for sampled latency, never called per value in throughput repetitions. Kept instead of
/// `ContinuousClock` because latency samples read it on the measuring path: `ContinuousClock`
/// returns a `Duration` (two 64-bit words, normalized on every subtraction) and reads
/// CLOCK_BOOTTIME on Linux, which adds to every sample for nothing the harness needs.
@inline(__always)
public func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
