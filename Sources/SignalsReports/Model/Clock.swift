#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds: the harness's one clock (bench and stress alike). `clock_gettime(
/// CLOCK_MONOTONIC)` goes through the vDSO here (tsc clocksource), about 20 ns: cheap enough
/// for sampled latency, never called per value in throughput repetitions. Kept instead of
/// `ContinuousClock` because latency samples read it on the measuring path and the histograms
/// take integer nanoseconds: `ContinuousClock` gives a `Duration` (two 64-bit words) that
/// would have to be converted per sample. Measured side by side (swiftc -O, 5 M pairs of
/// reads, 3 rounds, on this VM while other builds ran): no consistent difference, both
/// 120–460 ns per read under that load, so the choice costs nothing either way.
/// `@inlinable` because its readers are in other modules (the workloads, `bench stress`): on a
/// measured path (a latency sample, a cross-core round trip) it is inlined, not called.
@inlinable @inline(__always)
package func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never)
package func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
