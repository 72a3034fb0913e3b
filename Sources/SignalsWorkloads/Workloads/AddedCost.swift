import Foundation
import SignalsReports

/// A known slowdown injected into every timed repetition, for `bench ab --calibrate`: the
/// build A′ of an A/A′ comparison is this executable run with `SIGNALS_BENCH_ADDED_COST` set
/// to a fraction (`0.05` for 5%).
///
/// After the workload's measured part, the repetition spins on the harness clock for that
/// fraction of the time the part took, and the spin is counted in the repetition's time. The
/// added cost per value is therefore exactly `fraction × (that repetition's cost per value)`,
/// paid in real wall time on the same noisy machine. A per-value busy loop (the other way to
/// make an A′) costs an amount in nanoseconds that is itself unknown and drifts with the
/// machine's speed, so the slowdown it makes cannot be stated; this one can, which is what a
/// calibration needs. The spin runs on the measuring thread after every value was delivered,
/// so it cannot change what the workload measures, only add to it.
package enum AddedCost {
    /// The environment variable A′ is launched with.
    package static let environmentVariable = "SIGNALS_BENCH_ADDED_COST"

    /// The fraction this process adds (0 when the variable is unset or not a number in 0...10).
    package static let fraction: Double = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable],
              let v = Double(text), v.isFinite, v > 0, v <= 10 else { return 0 }
        return v
    }()

    /// Stretches `ctx`'s measured time by `fraction` with a spin on the harness clock.
    static func apply(to ctx: RunContext) {
        let f = fraction
        guard f > 0, ctx.stopNs > ctx.startNs else { return }
        let extra = UInt64(Double(ctx.stopNs - ctx.startNs) * f)
        let start = monotonicNanos()
        var now = start
        while now &- start < extra { now = monotonicNanos() }
        ctx.stopNs &+= now &- start
    }
}
