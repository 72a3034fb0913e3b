// package-benchmark suite for the two delivery variants of Signals.
//
// The benchmarks are those of the workload declarations in the main package's
// `WorkloadRegistry.all` (Sources/SignalsWorkloadRegistry: one file per workload, beside its
// `bench run` shape and instruction-count case). Every one is registered once per variant,
// named "<benchmark>.<variant>", e.g. "send.lockFree" and "send.mutex". Each measured region
// covers only the work being measured: graphs are built before the region starts and torn
// down after it stops, so the malloc and retain/release counts are those of the delivery path
// itself and are deterministic (except `contended`, whose block-queue traffic depends on how
// the two senders interleave; see Benchmarks/README.md).
//
// Counts are gated exactly by the static thresholds in Benchmarks/Thresholds/ (see
// scripts/benchmarks-check); time gets a loose tolerance, since CI machines are shared.

import Benchmark
import Signals
import SignalsWorkloadRegistry

/// Values sent per iteration for the per-value workloads. package-benchmark divides by the
/// scaling factor when `--scale` is given, so per-value figures read directly.
var perValue: BenchmarkScalingFactor { .mega }       // 1,000,000 values per iteration
var perStructuralOp: BenchmarkScalingFactor { .kilo } // 1,000 subscribe/activation ops per iteration

var countMetrics: [BenchmarkMetric] { [.mallocCountTotal, .retainCount, .releaseCount] }
var metrics: [BenchmarkMetric] { [.wallClock, .throughput, .peakMemoryResident] + countMetrics }

/// Tolerances applied by `thresholds check` to the p90 values stored in Benchmarks/Thresholds/.
///
/// Counts are absolute, per iteration. The delivery path's own counts are deterministic, but
/// package-benchmark's bookkeeping around the measured region adds a few dozen mallocs and
/// releases per iteration that vary by up to about ±15 between runs, so a small slack
/// (`countSlack`, default 100) keeps the check stable while still catching any change in
/// the code: one extra allocation, retain or release per value adds 1,000,000 per iteration
/// to the per-value benchmarks, and 1,000 to the per-operation ones. (A relative tolerance
/// would not catch a count that grows from 0.)
///
/// Time is only a tripwire for gross regressions: on a shared 2-core CI machine wall clock
/// swings by 3× when other jobs run. Throughput duplicates wall clock and is gated only
/// against a collapse (below 1% of its threshold). Time figures for comparing the variants
/// come from the `bench` report instead.
func tolerances(countSlack: Int) -> [BenchmarkMetric: BenchmarkThresholds] {
    var t: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: .init(relative: [.p90: 400.0]),
        .throughput: .init(relative: [.p90: 99.0]),
        .peakMemoryResident: .init(relative: [.p90: 100.0]),
    ]
    for m in countMetrics {
        t[m] = .init(absolute: [.p90: countSlack])
    }
    return t
}

func configuration(_ scaling: BenchmarkScalingFactor, countSlack: Int = 100) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
        warmupIterations: 2,
        scalingFactor: scaling,
        maxDuration: .seconds(2),
        maxIterations: 10,
        thresholds: tolerances(countSlack: countSlack)
    )
}

let benchmarks: @Sendable () -> Void = {
    for variant in DeliveryVariant.allCases {
        for declaration in WorkloadRegistry.all {
            for b in declaration.benchmarks {
                let scale = b.scale == .perValue ? perValue : perStructuralOp
                Benchmark("\(b.name).\(variant.rawValue)", configuration: configuration(scale, countSlack: b.countSlack)) { benchmark in
                    let region = MeasuredRegion(start: { benchmark.startMeasurement() }, stop: { benchmark.stopMeasurement() })
                    blackHole(b.run(benchmark.scaledIterations.count, variant, region))
                }
            }
        }
    }
}
