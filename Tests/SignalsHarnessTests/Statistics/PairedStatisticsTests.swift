// The statistics behind `bench run`'s intervals and `bench ab`'s verdicts (issue 16): known
// samples give known intervals, two-mode launches are flagged, A/A gives no verdict, and a
// known slowdown is found. Every random draw is seeded, so the outcomes are fixed.

import Foundation
import SignalsHarness
import Testing

@Suite("Paired statistics")
struct PairedStatisticsTests {
    /// Values 1, 2, 3: mean 2, s = 1, t(0.975, 2) = 4.303, half-width 4.303 / √3 = 2.484.
    @Test func tIntervalOfKnownSample() {
        let i = PairedStatistics.tInterval([1, 2, 3])
        #expect(abs(i.estimate - 2) < 1e-12)
        #expect(abs(i.lower - (2 - 2.4843)) < 1e-3)
        #expect(abs(i.upper - (2 + 2.4843)) < 1e-3)
        // One value gives no honest interval.
        #expect(PairedStatistics.tInterval([5]).lower == -.infinity)
    }

    /// Identical launches: the interval collapses on the value.
    @Test func constantSampleHasAZeroWidthInterval() {
        let i = PairedStatistics.interval([[3, 3, 3], [3, 3, 3], [3, 3, 3]], seed: 1)
        #expect(i.lower == 3 && i.upper == 3 && i.estimate == 3)
    }

    @Test func launchesInSeparateModesAreFlagged() {
        #expect(LaunchSpread.separateModes([16, 17, 16.5, 16.8, 130]))   // the contended case of the issue
        #expect(LaunchSpread.separateModes([30, 31, 12]))
        #expect(!LaunchSpread.separateModes([16, 20, 24, 18]))
        #expect(LaunchSpread(values: [16, 17, 130]).bimodal)
        #expect(!LaunchSpread(values: [16, 17, 18]).bimodal)
    }

    /// Launches of `rounds` rounds each around `center`, with round noise and a per-launch
    /// offset (as launches differ in placement), drawn from `rng`.
    static func launches(_ count: Int, rounds: Int, center: Double, roundNoise: Double, launchNoise: Double,
                         _ rng: inout SplitMix64) -> [[Double]] {
        (0..<count).map { _ in
            let offset = 1 + Double.random(in: -launchNoise...launchNoise, using: &rng)
            return (0..<rounds).map { _ in center * offset * (1 + Double.random(in: -roundNoise...roundNoise, using: &rng)) }
        }
    }

    /// A/A: both sides drawn from one distribution (paired rounds share the launch's offset,
    /// as adjacent measurements do); at most 1 `slower` or `faster` verdict in 20 runs.
    @Test func aaComparisonsGiveNoVerdict() {
        var rng = SplitMix64(seed: 0xA_A)
        var verdicts = 0
        for run in 0..<20 {
            var a: [[Double]] = [], b: [[Double]] = []
            for _ in 0..<5 {
                let offset = 1 + Double.random(in: -0.3...0.3, using: &rng)
                a.append((0..<5).map { _ in 20 * offset * (1 + Double.random(in: -0.05...0.05, using: &rng)) })
                b.append((0..<5).map { _ in 20 * offset * (1 + Double.random(in: -0.05...0.05, using: &rng)) })
            }
            let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "A", smallestEffect: 0.03, seed: UInt64(run))
            if c?.verdict != .noDifference { verdicts += 1 }
        }
        #expect(verdicts <= 1, "\(verdicts) verdicts in 20 A/A comparisons")
    }

    /// A 10% slowdown under 30% launch-to-launch drift and 5% round noise: found, and the
    /// ratio's interval contains 1.10.
    @Test func aKnownSlowdownIsFound() {
        var rng = SplitMix64(seed: 7)
        var a: [[Double]] = [], b: [[Double]] = []
        for _ in 0..<5 {
            let offset = 1 + Double.random(in: -0.3...0.3, using: &rng)
            a.append((0..<5).map { _ in 22 * offset * (1 + Double.random(in: -0.05...0.05, using: &rng)) })
            b.append((0..<5).map { _ in 20 * offset * (1 + Double.random(in: -0.05...0.05, using: &rng)) })
        }
        let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "B", smallestEffect: 0.03, seed: 3)
        #expect(c?.verdict == .slower)
        #expect((c?.ratio.lower ?? 9) < 1.10 && (c?.ratio.upper ?? 0) > 1.10)
        // The unpaired figures overlap under the drift; the pairing is what separates them.
        let fa = PairedStatistics.figure(a, seed: 1), fb = PairedStatistics.figure(b, seed: 1)
        #expect(fa.lower < fb.upper)
    }

    @Test func verdictNeedsTheSmallestEffect() {
        let tight = Interval(estimate: 1.02, lower: 1.01, upper: 1.03)
        #expect(PairedStatistics.verdict(ratio: tight, smallestEffect: 0.03) == .noDifference)
        #expect(PairedStatistics.verdict(ratio: tight, smallestEffect: 0.01) == .slower)
        let faster = Interval(estimate: 0.8, lower: 0.75, upper: 0.85)
        #expect(PairedStatistics.verdict(ratio: faster, smallestEffect: 0.03) == .faster)
    }
}
