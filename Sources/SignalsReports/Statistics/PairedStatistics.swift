import Foundation

/// A small, fast, seedable generator (SplitMix64), so that every interval the harness prints
/// can be reproduced from the report's seed and the tests are deterministic.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A point estimate with its confidence interval (same scale as the estimate).
package struct Interval: Codable, Sendable, Equatable {
    package var estimate: Double
    package var lower: Double
    package var upper: Double
    /// 0.95 for a 95% interval.
    package var confidence: Double

    package init(estimate: Double, lower: Double, upper: Double, confidence: Double = 0.95) {
        self.estimate = estimate; self.lower = lower; self.upper = upper; self.confidence = confidence
    }

    /// Half the width relative to the estimate, e.g. 0.03 for "±3%".
    package var relativeHalfWidth: Double { estimate > 0 ? (upper - lower) / 2 / estimate : .infinity }

    /// The interval mapped through `f` (monotone increasing), e.g. `exp` from the log scale.
    package func mapped(_ f: (Double) -> Double) -> Interval {
        Interval(estimate: f(estimate), lower: f(lower), upper: f(upper), confidence: confidence)
    }
}

/// The word a paired comparison ends in.
package enum ChangeVerdict: String, Codable, Sendable, Equatable {
    case faster
    case slower
    case noDifference = "no difference"
}

/// Ratio of a subject (or build) to a reference, with its interval and verdict.
package struct PairedComparison: Codable, Sendable, Equatable {
    /// What the ratio divides by: a subject name, or "baseline".
    package var reference: String
    /// Time ratio subject / reference: below 1 is faster.
    package var ratio: Interval
    package var verdict: ChangeVerdict
    /// The smallest change (fraction, 0.03 = 3%) that counts as a difference.
    package var smallestEffect: Double
    /// Independent launches (pairs of launches) the interval rests on.
    package var launches: Int
    /// Paired rounds over all launches.
    package var rounds: Int
    /// How the interval was formed: `PairedStatistics.robustMethod` (six launches or more) or
    /// `PairedStatistics.bootstrapMethod`. Absent in reports written before it existed.
    package var method: String?

    package init(reference: String, ratio: Interval, verdict: ChangeVerdict, smallestEffect: Double, launches: Int, rounds: Int,
                method: String? = nil) {
        self.reference = reference; self.ratio = ratio; self.verdict = verdict
        self.smallestEffect = smallestEffect; self.launches = launches; self.rounds = rounds; self.method = method
    }
}

/// How the launches of one figure spread, and whether they fall into separate modes.
package struct LaunchSpread: Codable, Sendable, Equatable {
    /// Each launch's figure (its median over rounds), in launch order.
    package var values: [Double]
    package var median: Double
    /// Largest launch / smallest launch.
    package var maxOverMin: Double
    /// True when some launch is more than `modeFactor` × the median launch, or less than
    /// 1 / `modeFactor` × it: the launches do not measure one steady state.
    package var bimodal: Bool

    package init(values: [Double]) {
        self.values = values
        median = SignalsReports.median(values)
        let lo = values.min() ?? 0, hi = values.max() ?? 0
        maxOverMin = lo > 0 ? hi / lo : .infinity
        bimodal = Self.separateModes(values)
    }

    /// A launch beyond this factor of the median launch (either way) flags the case.
    package static let modeFactor = 2.0

    /// Whether `values` holds a launch more than `modeFactor` away from their median; needs at
    /// least three launches (with two, "the median" is their mean and says nothing of modes).
    package static func separateModes(_ values: [Double]) -> Bool {
        guard values.count >= 3 else { return false }
        let m = SignalsReports.median(values)
        guard m > 0 else { return false }
        return values.contains { $0 > modeFactor * m || $0 < m / modeFactor }
    }
}

/// The statistics behind every interval and verdict (docs/bench-guide.md explains the choice).
///
/// Samples are grouped by launch: `groups[i]` holds the per-round values of launch `i`
/// (log-times or paired log-ratios). Launches are the unit of independence (thread placement
/// and addresses are fixed per process), so the interval must carry the launch-to-launch
/// spread, not only the round-to-round one.
package enum PairedStatistics {
    /// Two-sided Student t quantiles at 97.5% for 1...30 degrees of freedom.
    static let t975: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

    /// The 97.5% Student t quantile for `df` degrees of freedom (1.96 beyond 30 is close enough:
    /// 2.00 at 60).
    package static func tQuantile975(df: Int) -> Double {
        guard df >= 1 else { return .infinity }
        return df <= t975.count ? t975[df - 1] : (df <= 60 ? 2.0 : 1.96)
    }

    /// The mean with its 95% Student t interval (mean ± t · s / √n). One value: a zero-width
    /// interval is not honest, so the bounds are infinite.
    package static func tInterval(_ values: [Double]) -> Interval {
        let n = values.count
        guard n > 0 else { return Interval(estimate: .nan, lower: -.infinity, upper: .infinity) }
        let mean = values.reduce(0, +) / Double(n)
        guard n > 1 else { return Interval(estimate: mean, lower: -.infinity, upper: .infinity) }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let half = tQuantile975(df: n - 1) * (variance / Double(n)).squareRoot()
        return Interval(estimate: mean, lower: mean - half, upper: mean + half)
    }

    /// The statistic: the mean over launches of each launch's median round.
    package static func estimate(_ groups: [[Double]]) -> Double {
        let launches = groups.filter { !$0.isEmpty }
        guard !launches.isEmpty else { return .nan }
        return launches.map(median).reduce(0, +) / Double(launches.count)
    }

    /// Percentile interval of `estimate` from a two-level bootstrap: resample the launches
    /// with replacement, then the rounds within each chosen launch with replacement.
    package static func hierarchicalBootstrap(_ groups: [[Double]], resamples: Int = 2_000, seed: UInt64) -> Interval {
        let launches = groups.filter { !$0.isEmpty }
        let point = estimate(launches)
        guard !launches.isEmpty else { return Interval(estimate: .nan, lower: -.infinity, upper: .infinity) }
        var rng = SplitMix64(seed: seed)
        var stats: [Double] = []
        stats.reserveCapacity(resamples)
        var scratch: [Double] = []
        for _ in 0..<resamples {
            var sum = 0.0
            for _ in 0..<launches.count {
                let g = launches[Int.random(in: 0..<launches.count, using: &rng)]
                scratch.removeAll(keepingCapacity: true)
                for _ in 0..<g.count { scratch.append(g[Int.random(in: 0..<g.count, using: &rng)]) }
                sum += median(scratch)
            }
            stats.append(sum / Double(launches.count))
        }
        stats.sort()
        func quantile(_ q: Double) -> Double {
            let pos = q * Double(stats.count - 1)
            let lo = Int(pos.rounded(.down)), hi = Int(pos.rounded(.up))
            return stats[lo] + (stats[hi] - stats[lo]) * (pos - Double(lo))
        }
        return Interval(estimate: point, lower: quantile(0.025), upper: quantile(0.975))
    }

    /// The interval the harness reports: the hierarchical bootstrap, widened to the Student t
    /// interval over the launches' medians when there are two or more launches (a bootstrap
    /// over a handful of launches underestimates their spread; the t interval does not).
    package static func interval(_ groups: [[Double]], seed: UInt64) -> Interval {
        let launches = groups.filter { !$0.isEmpty }
        var boot = hierarchicalBootstrap(launches, seed: seed)
        if launches.count >= 2 {
            let t = tInterval(launches.map(median))
            boot.lower = min(boot.lower, t.lower)
            boot.upper = max(boot.upper, t.upper)
        }
        return boot
    }

    /// The verdict on a time ratio (current / reference): `slower` when the whole interval is
    /// above 1 and the estimate is at least `smallestEffect` above it; `faster` likewise below;
    /// else `no difference`.
    package static func verdict(ratio: Interval, smallestEffect: Double) -> ChangeVerdict {
        if ratio.lower > 1 && ratio.estimate >= 1 + smallestEffect { return .slower }
        if ratio.upper < 1 && ratio.estimate <= 1 / (1 + smallestEffect) { return .faster }
        return .noDifference
    }

    /// A subject's figure in ns with its interval, from its per-launch rounds (ns per op),
    /// computed on the log scale (times are multiplicative) and mapped back.
    package static func figure(_ launches: [[Double]], seed: UInt64) -> Interval {
        let logs = launches.map { $0.filter { $0 > 0 }.map { Foundation.log($0) } }
        return interval(logs, seed: seed).mapped(Foundation.exp)
    }

    /// The paired comparison of `subject` against `reference`, round by round: launch `i`'s
    /// round `j` of one is paired with round `j` of the other (adjacent in time).
    package static func compare(subject: [[Double]], reference: [[Double]], referenceName: String,
                               smallestEffect: Double, seed: UInt64) -> PairedComparison? {
        var groups: [[Double]] = []
        for (s, r) in zip(subject, reference) {
            let n = min(s.count, r.count)
            var g: [Double] = []
            for j in 0..<n where s[j] > 0 && r[j] > 0 { g.append(Foundation.log(s[j] / r[j])) }
            if !g.isEmpty { groups.append(g) }
        }
        guard !groups.isEmpty else { return nil }
        let method: String
        let logRatio: Interval
        if groups.count >= minimumLaunchesForRobust, let robust = hodgesLehmann(groups.map(median)) {
            logRatio = robust
            method = robustMethod
        } else {
            logRatio = interval(groups, seed: seed)
            method = bootstrapMethod
        }
        let ratio = logRatio.mapped(Foundation.exp)
        return PairedComparison(reference: referenceName, ratio: ratio,
                                verdict: verdict(ratio: ratio, smallestEffect: smallestEffect),
                                smallestEffect: smallestEffect, launches: groups.count,
                                rounds: groups.reduce(0) { $0 + $1.count }, method: method)
    }

    /// The paired comparison's method from six launches on.
    package static let robustMethod = "Hodges-Lehmann over launch medians, Wilcoxon signed-rank 95% interval"
    /// The paired comparison's method below six launches.
    package static let bootstrapMethod = "hierarchical bootstrap (launches, rounds) widened to the t interval over launches"
    /// Below six values no signed-rank interval reaches 95% (with five, the narrowest possible
    /// tail is 1/32 > 2.5%).
    package static let minimumLaunchesForRobust = 6

    /// The number of subsets of {1…n} whose sum is t, for every t in 0…n(n+1)/2: the null
    /// distribution of the Wilcoxon signed-rank statistic, times 2^n. Doubles, so that n in
    /// the hundreds does not overflow (the counts only need relative precision).
    package static func signedRankCounts(n: Int) -> [Double] {
        let m = n * (n + 1) / 2
        var counts = [Double](repeating: 0, count: m + 1)
        counts[0] = 1
        var top = 0
        for k in stride(from: 1, through: max(0, n), by: 1) {
            top += k
            var t = top
            while t >= k { counts[t] += counts[t - k]; t -= 1 }
        }
        return counts
    }

    /// The largest c with P(T ≤ c) ≤ `tail` under the null (T the signed-rank statistic of n
    /// values), or nil when even P(T = 0) = 2^-n exceeds it.
    package static func signedRankCritical(n: Int, tail: Double) -> Int? {
        guard n >= 1 else { return nil }
        let counts = signedRankCounts(n: n)
        let total = Foundation.pow(2.0, Double(n))
        var cumulative = 0.0
        var c: Int?
        for (t, k) in counts.enumerated() {
            cumulative += k
            if cumulative / total <= tail { c = t } else { break }
        }
        return c
    }

    /// The Hodges-Lehmann estimate of the centre of `values` (the median of all pairwise means
    /// x_i + x_j over 2, i ≤ j) with its distribution-free 95% interval from the Wilcoxon
    /// signed-rank test: the k-th smallest and k-th largest of those means, k = c + 1 for the
    /// critical c above. It assumes only values drawn independently from one distribution
    /// symmetric about the centre; one launch in a separate mode moves the estimate by at most
    /// one rank, where it would drag a mean (the breakdown point is 29%). Nil below six values.
    package static func hodgesLehmann(_ values: [Double], confidence: Double = 0.95) -> Interval? {
        let n = values.count
        guard let c = signedRankCritical(n: n, tail: (1 - confidence) / 2) else { return nil }
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n { for j in i..<n { walsh.append((values[i] + values[j]) / 2) } }
        walsh.sort()
        let k = c + 1
        return Interval(estimate: median(walsh), lower: walsh[k - 1], upper: walsh[walsh.count - k], confidence: confidence)
    }
}
