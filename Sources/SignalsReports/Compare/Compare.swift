import Foundation

/// `bench compare`: figure-by-figure change between two JSON reports. All figures are
/// lower-is-better; a figure that grew by more than the threshold is a regression.
package struct Comparison: Sendable, Codable {
    package struct Row: Sendable, Equatable, Codable {
        package var key: String
        package var subject: SubjectID
        package var figure: String
        package var baseline: Double?
        package var current: Double?
        /// (current − baseline) / baseline × 100, when both exist and baseline > 0.
        package var changePercent: Double?
        package var regression: Bool
        package var note: String?
    }

    package var tool = "signals-bench-compare"
    /// 1; bumped on any incompatible change of `bench compare --format json`.
    package var schemaVersion = 1
    package var thresholdPercent: Double
    package var rows: [Row]
    package var regressions: [Row] { rows.filter(\.regression) }

    /// Parses "10%", "10" (both ten percent) or "2.5%"; nil for anything else or a negative.
    package static func parseThreshold(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { t.removeLast() }
        guard let v = Double(t), v.isFinite, v >= 0 else { return nil }
        return v
    }

    /// Allocation counts below this are noise (a block allocated once per repetition).
    static let allocationFloor = 0.01

    /// Why two reports' timings cannot support a verdict, or nil when they can: timings from
    /// different machines or builds are not comparable (a 16-core Xeon and a 2-core VM differ by
    /// more than any change being looked for).
    package static func timingBlocker(_ baseline: MachineInfo, _ current: MachineInfo) -> String? {
        if baseline.cores != current.cores || baseline.cpuModel != current.cpuModel {
            return "different machines (\(baseline.cores) cores \(baseline.cpuModel) vs \(current.cores) cores \(current.cpuModel))"
        }
        if baseline.toolchain != current.toolchain || baseline.buildConfiguration != current.buildConfiguration {
            return "different builds (\(baseline.toolchain) \(baseline.buildConfiguration) vs \(current.toolchain) \(current.buildConfiguration))"
        }
        return nil
    }

    /// How a figure is judged: allocation counts and statuses by their change alone (they are
    /// counts, not timings); a throughput figure only when both sides carry a 95% interval and
    /// the machines and builds match; latency percentiles never (one sample each, no interval).
    enum Judgement { case byChange, byIntervals(Interval?, Interval?), reportedOnly }

    package static func compare(baseline: BenchReport, current: BenchReport, thresholdPercent: Double) -> Comparison {
        var rows: [Row] = []
        let limit = 1 + thresholdPercent / 100
        let blocker = timingBlocker(baseline.machine, current.machine)
        func figure(_ key: String, _ subject: SubjectID, _ name: String, _ b: Double?, _ c: Double?, floor: Double = 0,
                    judged: Judgement = .byChange) {
            guard b != nil || c != nil else { return }
            var row = Row(key: key, subject: subject, figure: name, baseline: b, current: c, changePercent: nil, regression: false, note: nil)
            if let b, let c {
                if b > 0 { row.changePercent = (c - b) / b * 100 }
                let grew = c > floor && c > b * limit && c - b > floor
                switch judged {
                case .byChange:
                    row.regression = grew
                case .reportedOnly:
                    row.note = "reported only (a percentile has no interval)"
                case .byIntervals(let bi, let ci):
                    if let blocker {
                        row.note = "no verdict: \(blocker)"
                    } else if let bi, let ci {
                        // Slower only when the whole current interval is above the baseline's.
                        row.regression = grew && ci.lower > bi.upper
                        if grew && !row.regression { row.note = "intervals overlap: no verdict" }
                    } else {
                        row.note = "no verdict: no 95% interval (a one-launch report); use bench ab or launches ≥ 2"
                    }
                }
            } else if c == nil {
                row.note = "no longer measured"
            } else {
                row.note = "new"
            }
            rows.append(row)
        }
        for cur in current.results {
            guard let base = baseline.results.first(where: { $0.key == cur.key && $0.subject == cur.subject }) else {
                rows.append(Row(key: cur.key, subject: cur.subject, figure: "case", baseline: nil, current: nil,
                                changePercent: nil, regression: false, note: "new case"))
                continue
            }
            if base.status == .ok && cur.status != .ok && cur.status != .unsupported {
                rows.append(Row(key: cur.key, subject: cur.subject, figure: "status", baseline: nil, current: nil,
                                changePercent: nil, regression: true, note: "was ok, now \(cur.status.rawValue): \(cur.reason ?? "")"))
                continue
            }
            if base.status != cur.status {
                rows.append(Row(key: cur.key, subject: cur.subject, figure: "status", baseline: nil, current: nil,
                                changePercent: nil, regression: false, note: "\(base.status.rawValue) → \(cur.status.rawValue)"))
            }
            figure(cur.key, cur.subject, "ns/\(cur.unit)", base.interval?.estimate ?? base.throughput?.medianNsPerOp,
                   cur.interval?.estimate ?? cur.throughput?.medianNsPerOp, judged: .byIntervals(base.interval, cur.interval))
            figure(cur.key, cur.subject, "send p50 ns", base.latency?.send.map { Double($0.p50) }, cur.latency?.send.map { Double($0.p50) }, judged: .reportedOnly)
            figure(cur.key, cur.subject, "send p99 ns", base.latency?.send.map { Double($0.p99) }, cur.latency?.send.map { Double($0.p99) }, judged: .reportedOnly)
            figure(cur.key, cur.subject, "end-to-end p50 ns", base.latency?.endToEnd.map { Double($0.p50) }, cur.latency?.endToEnd.map { Double($0.p50) }, judged: .reportedOnly)
            figure(cur.key, cur.subject, "end-to-end p99 ns", base.latency?.endToEnd.map { Double($0.p99) }, cur.latency?.endToEnd.map { Double($0.p99) }, judged: .reportedOnly)
            figure(cur.key, cur.subject, "allocs/\(cur.unit)", base.allocations?.countPerOp, cur.allocations?.countPerOp, floor: allocationFloor)
        }
        for base in baseline.results where !current.results.contains(where: { $0.key == base.key && $0.subject == base.subject }) {
            rows.append(Row(key: base.key, subject: base.subject, figure: "case", baseline: nil, current: nil,
                            changePercent: nil, regression: false, note: "not in the current report"))
        }
        return Comparison(thresholdPercent: thresholdPercent, rows: rows)
    }

    /// The text table and the verdict line.
    package func render() -> String { rendered(.text) }
}
