// The statistics behind `bench run`'s intervals and `bench ab`'s verdicts: known
// samples give known intervals, two-mode launches are flagged, A/A gives no verdict, and a
// known slowdown is found. Every random draw is seeded, so the outcomes are fixed.

import Foundation
import SignalsReports
import SignalsWorkloads
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
        #expect(LaunchSpread.separateModes([16, 17, 16.5, 16.8, 130]))   // a contended case seen at 130 ns against 16–17
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

    /// Paired launches of a subject and a reference, each launch with one offset shared by both
    /// sides (as adjacent measurements share the launch's placement) and, with `slowChance`,
    /// the subject alone in a slow mode (× `slowFactor`) for the whole launch. Draws, per
    /// launch: the offset, the slow mode (only when `slowChance` > 0), the subject's rounds,
    /// the reference's rounds.
    static func pairedLaunches(_ count: Int, rounds: Int, subject: Double, reference: Double, roundNoise: Double,
                               launchNoise: Double, slowChance: Double = 0, slowFactor: Double = 1,
                               _ rng: inout SplitMix64) -> (subject: [[Double]], reference: [[Double]]) {
        var a: [[Double]] = [], b: [[Double]] = []
        for _ in 0..<count {
            let offset = 1 + Double.random(in: -launchNoise...launchNoise, using: &rng)
            let slow = slowChance > 0 && Double.random(in: 0..<1, using: &rng) < slowChance ? slowFactor : 1
            a.append((0..<rounds).map { _ in subject * offset * slow * (1 + Double.random(in: -roundNoise...roundNoise, using: &rng)) })
            b.append((0..<rounds).map { _ in reference * offset * (1 + Double.random(in: -roundNoise...roundNoise, using: &rng)) })
        }
        return (a, b)
    }

    /// A/A: both sides drawn from one distribution (paired rounds share the launch's offset,
    /// as adjacent measurements do); at most 1 `slower` or `faster` verdict in 20 runs.
    @Test func aaComparisonsGiveNoVerdict() {
        var rng = SplitMix64(seed: 0xA_A)
        var verdicts = 0
        for run in 0..<20 {
            let (a, b) = Self.pairedLaunches(5, rounds: 5, subject: 20, reference: 20, roundNoise: 0.05, launchNoise: 0.3, &rng)
            let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "A", smallestEffect: 0.03, seed: UInt64(run))
            if c?.verdict != .noDifference { verdicts += 1 }
        }
        #expect(verdicts <= 1, "\(verdicts) verdicts in 20 A/A comparisons")
    }

    /// A 10% slowdown under 30% launch-to-launch drift and 5% round noise: found, and the
    /// ratio's interval contains 1.10.
    @Test func aKnownSlowdownIsFound() {
        var rng = SplitMix64(seed: 7)
        let (a, b) = Self.pairedLaunches(5, rounds: 5, subject: 22, reference: 20, roundNoise: 0.05, launchNoise: 0.3, &rng)
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

    // MARK: The robust comparison (six launches or more)

    /// Published two-sided 5% critical values of the signed-rank statistic (n = 6…12, 20):
    /// 0, 2, 3, 5, 8, 10, 13, 52.
    @Test func signedRankCriticalValuesMatchTheTables() {
        let expected: [Int: Int] = [6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 11: 10, 12: 13, 20: 52]
        for (n, c) in expected {
            #expect(PairedStatistics.signedRankCritical(n: n, tail: 0.025) == c, "n = \(n)")
        }
        // Five values cannot reach 95%: P(T = 0) = 1/32 > 2.5%.
        #expect(PairedStatistics.signedRankCritical(n: 5, tail: 0.025) == nil)
        // The counts are the null distribution: they add up to 2^n and are symmetric.
        let counts = PairedStatistics.signedRankCounts(n: 8)
        #expect(counts.reduce(0, +) == 256)
        #expect(counts == counts.reversed())
    }

    /// 1…6: the Walsh averages run from 1 to 6 and their median is 3.5; with n = 6 the 95%
    /// interval is the extreme averages (k = 1).
    @Test func hodgesLehmannOfAKnownSample() {
        let i = PairedStatistics.hodgesLehmann([1, 2, 3, 4, 5, 6])
        #expect(i?.estimate == 3.5)
        #expect(i?.lower == 1 && i?.upper == 6)
        // n = 10: k = 9, so the 9th smallest and 9th largest of the 55 averages.
        let ten = (1...10).map(Double.init)
        let j = PairedStatistics.hodgesLehmann(ten)
        #expect(j?.estimate == 5.5)
        #expect(j?.lower == 3 && j?.upper == 8)
        #expect(PairedStatistics.hodgesLehmann([1, 2, 3, 4, 5]) == nil)
    }

    /// One launch in a separate mode (a ratio of 2 among launches at 1.00 ± 1%) moves the
    /// robust estimate by less than 1%, where the mean of launches moves by 8%.
    @Test func oneLaunchInASeparateModeDoesNotDragTheRatio() {
        var rng = SplitMix64(seed: 11)
        var a: [[Double]] = [], b: [[Double]] = []
        for launch in 0..<12 {
            let offset = 1 + Double.random(in: -0.3...0.3, using: &rng)
            let mode = launch == 5 ? 2.0 : 1.0
            a.append((0..<10).map { _ in 20 * offset * mode * (1 + Double.random(in: -0.01...0.01, using: &rng)) })
            b.append((0..<10).map { _ in 20 * offset * (1 + Double.random(in: -0.01...0.01, using: &rng)) })
        }
        let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "A", smallestEffect: 0.03, seed: 1)
        #expect(c?.method == PairedStatistics.robustMethod)
        #expect(abs((c?.ratio.estimate ?? 0) - 1) < 0.01)
        #expect(c?.verdict == .noDifference)
    }

    /// A/A with twelve launches (the served rounds of `bench ab`): at most 1 verdict in 20
    /// runs, under 30% launch drift, 5% round noise and an occasional launch in a slow mode.
    @Test func robustAAComparisonsGiveNoVerdict() {
        var rng = SplitMix64(seed: 0xAA2)
        var verdicts = 0
        for run in 0..<20 {
            let (a, b) = Self.pairedLaunches(12, rounds: 10, subject: 20, reference: 20, roundNoise: 0.05, launchNoise: 0.3,
                                             slowChance: 0.05, slowFactor: 1.8, &rng)
            let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "A", smallestEffect: 0.03, seed: UInt64(run))
            if c?.verdict != .noDifference { verdicts += 1 }
        }
        #expect(verdicts <= 1, "\(verdicts) verdicts in 20 A/A comparisons")
    }

    /// A 5% slowdown with twelve launches of 10 rounds at 2% round noise: found in at least
    /// 9 runs of 10, with the interval containing 1.05 in most.
    @Test func robustComparisonFindsAFivePercentSlowdown() {
        var rng = SplitMix64(seed: 5)
        var found = 0, covered = 0
        for run in 0..<10 {
            let (a, b) = Self.pairedLaunches(12, rounds: 10, subject: 21, reference: 20, roundNoise: 0.02, launchNoise: 0.3, &rng)
            guard let c = PairedStatistics.compare(subject: a, reference: b, referenceName: "A", smallestEffect: 0.03,
                                                   seed: UInt64(run)) else { continue }
            if c.verdict == .slower { found += 1 }
            if c.ratio.lower <= 1.05 && c.ratio.upper >= 1.05 { covered += 1 }
        }
        #expect(found >= 9, "found \(found) of 10")
        #expect(covered >= 8, "1.05 inside the interval in \(covered) of 10")
    }

    /// Calibration's bookkeeping: a session's rounds judged as `bench ab` judges a row.
    @Test func calibrationJudgesEachSideAgainstTheFirst() {
        var rng = SplitMix64(seed: 9)
        var rounds: [[[Double]]] = [[], [], []]
        for _ in 0..<8 {
            let offset = 1 + Double.random(in: -0.2...0.2, using: &rng)
            for (side, cost) in [1.0, 1.0, 1.10].enumerated() {
                rounds[side].append((0..<10).map { _ in 20 * offset * cost * (1 + Double.random(in: -0.01...0.01, using: &rng)) })
            }
        }
        let outcome = ServedSession.Outcome(rounds: rounds, note: nil, unsupported: false, seconds: 1)
        var p = Parameters()
        p.smallestEffect = 0.03
        let run = Calibration.judge(outcome, slowdowns: 1, parameters: p, seed: 1)
        #expect(run.aa?.comparison.verdict == .noDifference)
        #expect(run.slowed.first??.comparison.verdict == .slower)
        let c = CalibrationReport.CaseCalibration(workload: .sendMap, caseLabel: "", subject: .lockfree, slowdowns: [0.10], runs: [run, run])
        #expect(c.falseSlower == 0 && c.detected(0) == 2 && c.smallestReliablyDetected == 0.10)
    }

    @Test func startOrderRotatesPerLaunch() {
        #expect(ServedSession.startOrder(sides: 2, launch: 0) == [0, 1])
        #expect(ServedSession.startOrder(sides: 2, launch: 1) == [1, 0])
        #expect(ServedSession.startOrder(sides: 3, launch: 2) == [2, 0, 1])
    }
}
