/// One comma-separated `--rates` value, e.g. `50k,200k,1M,5e6`: offered rates in values per
/// second, each a finite number from `minimum` to `maximum`, with an optional `k`, `M` or `G`
/// suffix (×10³, ×10⁶, ×10⁹). NaN, infinity, 0, negative, beyond the maximum and empty items
/// (`1M,,2M`) are errors naming the flag.
package struct RateList: Sendable, Equatable {
    package var rates: [Double]

    /// Slower than this, a round of a few tenths of a second holds too few values to sample.
    package static let minimum = 1_000.0
    /// A billion values a second is beyond any subject and any sender's clock loop.
    package static let maximum = 1e9

    package init(parsing text: String, flag: String = "--rates") throws(ArgumentError) {
        let accepted = "values per second from 1k to 1G, comma-separated, each a number with an optional k, M or G suffix (e.g. 50k,200k,1M)"
        var rates: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let t = part.trimmingCharacters(in: .whitespaces)
            guard let v = Self.number(t), v.isFinite, v >= Self.minimum, v <= Self.maximum else {
                throw ArgumentError(flag: flag, message: "must be \(accepted) (got '\(t)')")
            }
            rates.append(v)
        }
        self.rates = rates
    }

    /// `t` as a number with its suffix applied; nil when it is not one.
    static func number(_ t: String) -> Double? {
        guard !t.isEmpty else { return nil }
        var body = Substring(t)
        var scale = 1.0
        switch body.last {
        case "k", "K": scale = 1e3; body = body.dropLast()
        case "M": scale = 1e6; body = body.dropLast()
        case "G": scale = 1e9; body = body.dropLast()
        default: break
        }
        // Double("nan"), Double("inf") parse; the caller's isFinite refuses them.
        guard let v = Double(body) else { return nil }
        return v * scale
    }

    /// "1.5M", "200k", "800": for tables and messages.
    package static func spelled(_ rate: Double) -> String {
        func trim(_ v: Double) -> String {
            let s = String(format: "%.2f", v)
            var t = Substring(s)
            while t.last == "0" { t = t.dropLast() }
            if t.last == "." { t = t.dropLast() }
            return String(t)
        }
        if rate >= 1e9 { return trim(rate / 1e9) + "G" }
        if rate >= 1e6 { return trim(rate / 1e6) + "M" }
        if rate >= 1e3 { return trim(rate / 1e3) + "k" }
        return trim(rate)
    }
}

/// The options of `bench latency`, typed by the CLI's parser; `parameters()` checks ranges
/// and applies defaults. Kept out of the CLI target so the tests can exercise every error.
package struct LatencyOptions: Sendable {
    package var workloads: [WorkloadID] = []
    package var subjects: [SubjectID] = []
    package var threads: [Int] = []
    package var rates: [Double] = []
    /// `--duration` as typed (seconds).
    package var duration: String?
    package var sampleEvery: Int?

    package init() {}

    /// The workloads `bench latency` drives at a fixed rate.
    package static let supportedWorkloads: [WorkloadID] = [.send, .contended, .hop]
    /// Longest `--duration`: a sweep of ten rates then takes ten minutes per subject.
    package static let maxDurationSeconds = 60.0
    package static let minDurationSeconds = 0.01

    package func parameters() throws(ArgumentError) -> LatencySweepParameters {
        var p = LatencySweepParameters()
        func unique<T: Equatable>(_ values: [T]) -> [T] {
            var out: [T] = []
            for v in values where !out.contains(v) { out.append(v) }
            return out
        }
        if !workloads.isEmpty {
            for w in workloads where !Self.supportedWorkloads.contains(w) {
                throw ArgumentError(flag: "--workload", message: "'\(w.rawValue)' is not driven at a fixed rate; allowed: \(Self.supportedWorkloads.map(\.rawValue).joined(separator: ", "))")
            }
            p.workloads = unique(workloads)
        }
        if !subjects.isEmpty { p.subjects = unique(subjects) }
        if !threads.isEmpty {
            for t in threads where t < 2 || t > 16 {
                throw ArgumentError(flag: "--threads", message: "must be whole numbers of senders from 2 to 16, comma-separated (got '\(t)')")
            }
            p.threads = unique(threads)
        }
        if !rates.isEmpty {
            for r in rates where !(r.isFinite && r >= RateList.minimum && r <= RateList.maximum) {
                throw ArgumentError(flag: "--rates", message: "must be values per second from 1k to 1G (got \(r))")
            }
            p.rates = unique(rates).sorted()
        }
        if let duration {
            let t = duration.trimmingCharacters(in: .whitespaces)
            let v = Double(t.hasSuffix("s") ? String(t.dropLast()) : t)
            guard let v, v.isFinite, v >= Self.minDurationSeconds, v <= Self.maxDurationSeconds else {
                throw ArgumentError(flag: "--duration", message: "must be seconds per rate from \(Self.minDurationSeconds) to \(Int(Self.maxDurationSeconds)), such as 0.2 or 2s (got '\(duration)')")
            }
            p.durationSeconds = v
        }
        if let v = sampleEvery {
            guard v >= 1 && v <= 1 << 20 && v & (v - 1) == 0 else {
                throw ArgumentError(flag: "--sample-every", message: "must be a power of two: 1, 2, 4, ... 1048576 (got \(v))")
            }
            p.sampleEvery = v
        }
        return p
    }
}

/// Everything a `bench latency` sweep is parameterized by, with its defaults.
package struct LatencySweepParameters: Codable, Sendable, Equatable {
    package var workloads: [WorkloadID] = LatencyOptions.supportedWorkloads
    package var subjects: [SubjectID] = SubjectID.allCases
    /// Senders of `contended`.
    package var threads: [Int] = [2]
    /// Offered rates, values per second over all senders, ascending. The default doubles
    /// from 50k to 51.2M; a subject's sweep stops after its first saturated rate.
    package var rates: [Double] = (0..<11).map { 50_000 * Double(1 << $0) }
    /// Seconds each rate is offered.
    package var durationSeconds = 0.1
    /// One value in this many is sampled; nil: the smallest power of two that keeps a
    /// round's samples near 20,000 (every value at the lowest rates).
    package var sampleEvery: Int?

    package init() {}

    /// The cases of the sweep: `send`, `contended` per thread count, `hop` per context.
    package func cases() -> [CaseSpec] {
        var out: [CaseSpec] = []
        for w in workloads.sorted() {
            switch w {
            case .contended:
                for t in threads { out.append(CaseSpec(workload: .contended, caseLabel: "\(t) threads", threads: t)) }
            case .hop:
                for h in HopContext.allCases where h != .direct {
                    out.append(CaseSpec(workload: .hop, caseLabel: h.rawValue, hop: h))
                }
            default:
                out.append(CaseSpec(workload: w))
            }
        }
        return out
    }

    /// The sampling of a round of `values` values: `sampleEvery`, else the smallest power of
    /// two that keeps the samples at or under 20,000.
    package func sampling(values: Int) -> Int {
        if let sampleEvery { return sampleEvery }
        var every = 1
        while values / every > 20_000 && every < 1 << 20 { every <<= 1 }
        return every
    }
}
