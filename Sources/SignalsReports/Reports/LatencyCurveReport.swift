import Foundation

/// One offered rate of one subject's sweep.
package struct LatencyPoint: Codable, Sendable, Equatable {
    /// Values per second the senders were scheduled to send, all senders together.
    package var offeredPerSecond: Double
    /// Values delivered per second: values over the time from the first scheduled send to
    /// the last sampled delivery.
    package var achievedPerSecond: Double
    /// Values sent at this rate, and how many were sampled.
    package var values: Int
    package var samples: Int
    /// Samples sent more than one interval after their scheduled time: the producer had
    /// fallen behind (the subject's send blocked, or the sender could not keep the rate).
    package var lateSamples: Int
    /// Latency from each sample's scheduled send time to its handler (what a caller sending
    /// at this rate waits, including the time its value waited to be sent), the clock's cost
    /// taken off.
    package var fromSchedule: LatencySummary?
    /// Service time, from the actual send to the handler, recorded with HdrHistogram's
    /// coordinated-omission correction for the samples' expected interval: the estimate a
    /// closed-loop measurement would have to fall back on.
    package var serviceCorrected: LatencySummary?

    package init(offeredPerSecond: Double, achievedPerSecond: Double, values: Int, samples: Int, lateSamples: Int,
                fromSchedule: LatencySummary?, serviceCorrected: LatencySummary?) {
        self.offeredPerSecond = offeredPerSecond; self.achievedPerSecond = achievedPerSecond
        self.values = values; self.samples = samples; self.lateSamples = lateSamples
        self.fromSchedule = fromSchedule; self.serviceCorrected = serviceCorrected
    }

    /// The subject kept up: at least 95% of the offered rate was delivered.
    package var keptUp: Bool { achievedPerSecond >= 0.95 * offeredPerSecond }
}

/// One subject's sweep on one case: its points in ascending offered rate, and the knee.
package struct LatencyCurve: Codable, Sendable, Equatable {
    package var workload: WorkloadID
    /// The case within the workload ("2 threads", "serial-queue"; empty for `send`).
    package var caseLabel: String
    package var subject: SubjectID
    package var status: CaseStatus
    package var reason: String?
    package var points: [LatencyPoint]
    /// The clock of this sweep's samples, measured beside it.
    package var clock: ClockInfo?

    /// JSON keys: "variant" is the case label, as in `bench run`'s results.
    enum CodingKeys: String, CodingKey {
        case workload, caseLabel = "variant", subject, status, reason, points, clock
    }

    package init(spec: CaseSpec, subject: SubjectID, status: CaseStatus, reason: String? = nil,
                points: [LatencyPoint] = [], clock: ClockInfo? = nil) {
        workload = spec.workload; caseLabel = spec.caseLabel; self.subject = subject
        self.status = status; self.reason = reason; self.points = points; self.clock = clock
    }

    package var key: String { CaseSpec.key(workload: workload, caseLabel: caseLabel) }

    /// The knee: the last point before the first that either did not keep up (under 95% of
    /// the offered rate delivered) or whose p99 rose above 4× the lowest p99 of the points
    /// before it + 1 µs. Nil when even the first point is past it.
    package var knee: LatencyPoint? {
        var floor = Double.infinity
        var last: LatencyPoint?
        for p in points {
            guard let s = p.fromSchedule else { break }
            let p99 = Double(s.p99)
            if !p.keptUp || (floor.isFinite && p99 > 4 * floor + 1_000) { break }
            floor = min(floor, p99)
            last = p
        }
        return last
    }

    /// "knee at 12.8M/s offered (p99 210 ns); saturated at 25.6M offered: 19.3M/s delivered".
    package var kneeSummary: String {
        guard status == .ok else { return "\(status.rawValue): \(reason ?? "")" }
        guard !points.isEmpty else { return "no points" }
        var s: String
        if let k = knee, let p = k.fromSchedule {
            s = "knee at \(RateList.spelled(k.offeredPerSecond))/s (p99 \(Fmt.ns(p.p99)) ns)"
        } else {
            s = "past the knee at the lowest rate"
        }
        if let sat = points.first(where: { !$0.keptUp }) {
            s += "; saturated at \(RateList.spelled(sat.offeredPerSecond))/s offered: \(RateList.spelled(sat.achievedPerSecond))/s delivered"
        } else {
            s += "; kept up with every rate offered (up to \(RateList.spelled(points.last!.offeredPerSecond))/s)"
        }
        return s
    }
}

/// The report of `bench latency`: latency against offered load, per case and subject.
/// Documented in docs/bench-guide.md; bump `currentSchemaVersion` on any incompatible change.
package struct LatencyCurveReport: Codable, Sendable {
    package static let currentSchemaVersion = 1
    package var schemaVersion: Int
    package var tool: String
    package var machine: MachineInfo
    package var parameters: LatencySweepParameters
    package var curves: [LatencyCurve]

    package init(machine: MachineInfo, parameters: LatencySweepParameters, curves: [LatencyCurve]) {
        schemaVersion = Self.currentSchemaVersion
        tool = "signals-bench latency"
        self.machine = machine
        self.parameters = parameters
        self.curves = curves
    }

    /// Curves by case, in run order.
    var byCase: [(key: String, summary: String, curves: [LatencyCurve])] {
        var keys: [String] = []
        for c in curves where !keys.contains(c.key) { keys.append(c.key) }
        return keys.map { k in
            let cs = curves.filter { $0.key == k }
            return (k, cs.first?.workload.summary ?? "", cs)
        }
    }

    var header: [String] {
        let m = machine
        let p = parameters
        var lines = [
            "machine: \(m.cores) cores, \(m.cpuModel); \(m.os)",
            "build: \(m.toolchain), \(m.buildConfiguration) configuration; date: \(m.date)",
            "method: open loop: each rate offered for \(String(format: "%g", p.durationSeconds)) s, every send at its scheduled time (senders spin to it; one that falls behind sends back to back until caught up); latency from the scheduled time to the handler (coordinated omission included, as wrk2); a subject's sweep stops after its first rate under 95% delivered",
            "samples: " + (p.sampleEvery.map { "1 value in \($0)" } ?? "every value up to 20,000 a round, then 1 in 2, 4, ...") + ", one timestamp stored by the handler, histograms filled after the round",
        ]
        if let c = curves.compactMap(\.clock).first {
            let costs = curves.compactMap(\.clock).map(\.costNs)
            lines.append("clock: \(c.source), read cost \(Fmt.ns(median(costs))) ns, resolution \(Fmt.ns(c.resolutionNs)) ns, subtracted from every figure")
        }
        lines.append("knee: the last rate before one under 95% delivered or with p99 above 4× the lowest p99 before it + 1 µs")
        return lines
    }

    func table(_ curves: [LatencyCurve], wide: Bool) -> Table? {
        guard curves.contains(where: { $0.status == .ok && !$0.points.isEmpty }) else { return nil }
        var headers = ["subject", "offered/s", "achieved/s", "p50", "p99", "p99.9", "max", "late"]
        if wide { headers += ["samples", "svc p50", "svc p99", "svc p99.9"] }
        var rows: [[String]] = []
        // A curve that did not run (or failed) has no rows: its line under the table says why.
        for c in curves where c.status == .ok {
            let knee = c.knee
            for (i, p) in c.points.enumerated() {
                let s = p.fromSchedule
                var cells = [i == 0 ? c.subject.rawValue : "", RateList.spelled(p.offeredPerSecond) + (p == knee ? " knee" : ""),
                             RateList.spelled(p.achievedPerSecond),
                             s.map { Fmt.ns($0.p50) } ?? "–", s.map { Fmt.ns($0.p99) } ?? "–",
                             s.map { Fmt.ns($0.p999) } ?? "–", s.map { Fmt.ns($0.max) } ?? "–",
                             p.samples > 0 ? String(format: "%.0f%%", 100 * Double(p.lateSamples) / Double(p.samples)) : "–"]
                if wide {
                    let v = p.serviceCorrected
                    cells += [Fmt.grouped(p.samples), v.map { Fmt.ns($0.p50) } ?? "–", v.map { Fmt.ns($0.p99) } ?? "–",
                              v.map { Fmt.ns($0.p999) } ?? "–"]
                }
                rows.append(cells)
            }
        }
        return Table(headers: headers, rows: rows, leftColumns: [0, 1])
    }
}

extension LatencyCurveReport: RenderableReport {
    package func rendered(_ format: ReportFormat) -> String { rendered(format, wide: false) }

    package func rendered(_ format: ReportFormat, wide: Bool) -> String {
        switch format {
        case .text:
            var out = "Signals bench latency: latency against offered load (ns)\n"
            for line in header { out += wide ? line + "\n" : wrapped(line) }
            for (key, summary, cs) in byCase {
                out += "\n" + wrapped("== \(key) — \(summary) ==")
                if let t = table(cs, wide: wide) { out += t.text(maxWidth: wide ? nil : TextReport.width) }
                for c in cs { out += wrapped("· \(c.subject.rawValue): \(c.kneeSummary)", indent: 4) }
            }
            return out
        case .json:
            return PrettyJSON.render(self) + "\n"
        case .csv:
            var out = CSV.line(["workload", "case", "subject", "status", "offered_per_s", "achieved_per_s", "values", "samples", "late_samples",
                                "p50_ns", "p99_ns", "p999_ns", "max_ns", "service_corrected_p99_ns", "knee", "reason"])
            for c in curves {
                if c.points.isEmpty {
                    out += CSV.line([c.workload.rawValue, c.caseLabel, c.subject.rawValue, c.status.rawValue] + Array(repeating: "", count: 11) + [c.reason ?? ""])
                }
                let knee = c.knee
                for p in c.points {
                    let s = p.fromSchedule
                    out += CSV.line([c.workload.rawValue, c.caseLabel, c.subject.rawValue, c.status.rawValue,
                                     CSV.number(p.offeredPerSecond), CSV.number(p.achievedPerSecond), String(p.values), String(p.samples),
                                     String(p.lateSamples), s.map { String($0.p50) } ?? "", s.map { String($0.p99) } ?? "",
                                     s.map { String($0.p999) } ?? "", s.map { String($0.max) } ?? "",
                                     p.serviceCorrected.map { String($0.p99) } ?? "", p == knee ? "knee" : "", c.reason ?? ""])
                }
            }
            return out
        case .markdown:
            var out = "# Signals bench latency\n\n" + header.map { "- " + $0 }.joined(separator: "\n") + "\n"
            for (key, summary, cs) in byCase {
                out += "\n## \(key) — \(summary)\n\n" + (table(cs, wide: true)?.markdown() ?? "")
                for c in cs { out += "\n- \(c.subject.rawValue): \(c.kneeSummary)" }
                out += "\n"
            }
            return out
        case .html:
            var body = ""
            for (key, summary, cs) in byCase {
                body += "<h2>\(HTML.escape(key)) — \(HTML.escape(summary))</h2>\n"
                body += "<figure>" + LatencyCurvePlot.svg(title: key, curves: cs) + "<figcaption>latency against delivered rate: p99 solid, p50 dashed, log scales; ○ the knee</figcaption></figure>\n"
                body += "<ul class=\"notes\">" + cs.map { "<li>\(HTML.escape($0.subject.rawValue)): \(HTML.escape($0.kneeSummary))</li>" }.joined() + "</ul>\n"
                body += table(cs, wide: false)?.html() ?? ""
            }
            return HTML.page(title: "Signals bench latency", meta: header, result: nil, passed: true, body: body)
        }
    }
}

/// The hockey stick: latency (log) against delivered rate (log), one line per subject.
package enum LatencyCurvePlot {
    package static func svg(title: String, curves: [LatencyCurve], width: Double = 900, height: Double = 420) -> String {
        // The legend stands right of the plot: a hockey stick fills the plot's corners.
        let left = 70.0, right = width - 230, top = 30.0, bottom = height - 45
        let ok = curves.filter { $0.status == .ok && !$0.points.isEmpty }
        let pts = ok.flatMap(\.points)
        let rates = pts.map(\.achievedPerSecond).filter { $0 > 0 }
        let lats = pts.compactMap(\.fromSchedule).flatMap { [Double(max(1, $0.p50)), Double(max(1, $0.p99))] }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        s += "<text x=\"\(Int(width / 2))\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">\(HTML.escape(title))</text>\n"
        guard let rLo = rates.min(), let rHi = rates.max(), let lLo = lats.min(), let lHi = lats.max() else {
            return s + "<text x=\"20\" y=\"60\">No points.</text>\n</svg>"
        }
        let xLo = floor(log10(rLo)), xHi = max(xLo + 1, ceil(log10(rHi)))
        let yLo = floor(log10(lLo)), yHi = max(yLo + 1, ceil(log10(lHi)))
        func sx(_ r: Double) -> Double { left + (log10(max(r, 1)) - xLo) / (xHi - xLo) * (right - left) }
        func sy(_ ns: UInt64) -> Double { bottom - (log10(Double(max(1, ns))) - yLo) / (yHi - yLo) * (bottom - top) }
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(bottom - top)\" fill=\"none\" stroke=\"#999\"/>\n"
        for d in Int(xLo)...Int(xHi) {
            let xx = left + (Double(d) - xLo) / (xHi - xLo) * (right - left)
            s += "<line x1=\"\(xx)\" y1=\"\(top)\" x2=\"\(xx)\" y2=\"\(bottom)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(xx)\" y=\"\(bottom + 14)\" text-anchor=\"middle\">\(RateList.spelled(pow(10, Double(d))))/s</text>\n"
        }
        for d in Int(yLo)...Int(yHi) {
            let yy = bottom - (Double(d) - yLo) / (yHi - yLo) * (bottom - top)
            let v = pow(10, Double(d))
            let label = v >= 1e9 ? "\(Int(v / 1e9)) s" : v >= 1e6 ? "\(Int(v / 1e6)) ms" : v >= 1e3 ? "\(Int(v / 1e3)) µs" : "\(Int(v)) ns"
            s += "<line x1=\"\(left)\" y1=\"\(yy)\" x2=\"\(right)\" y2=\"\(yy)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(left - 5)\" y=\"\(yy + 4)\" text-anchor=\"end\">\(label)</text>\n"
        }
        s += "<text x=\"\(Int((left + right) / 2))\" y=\"\(Int(bottom + 32))\" text-anchor=\"middle\" fill=\"#555\">values delivered per second</text>\n"
        s += "<text x=\"16\" y=\"\(Int((top + bottom) / 2))\" text-anchor=\"middle\" fill=\"#555\" transform=\"rotate(-90 16 \(Int((top + bottom) / 2)))\">latency from scheduled send</text>\n"
        for c in ok {
            let color = SVGPlot.colors[c.subject] ?? "#000"
            let withLatency = c.points.filter { $0.fromSchedule != nil }
            let p99 = withLatency.map { String(format: "%.1f,%.1f", sx($0.achievedPerSecond), sy($0.fromSchedule!.p99)) }.joined(separator: " ")
            let p50 = withLatency.map { String(format: "%.1f,%.1f", sx($0.achievedPerSecond), sy($0.fromSchedule!.p50)) }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(p99)\"/>\n"
            s += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\" points=\"\(p50)\"/>\n"
            for p in withLatency {
                s += "<circle cx=\(String(format: "\"%.1f\"", sx(p.achievedPerSecond))) cy=\(String(format: "\"%.1f\"", sy(p.fromSchedule!.p99))) r=\"2.5\" fill=\"\(color)\"/>"
            }
            if let k = c.knee, let kp = k.fromSchedule {
                s += "<circle cx=\(String(format: "\"%.1f\"", sx(k.achievedPerSecond))) cy=\(String(format: "\"%.1f\"", sy(kp.p99))) r=\"7\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            }
            s += "\n"
        }
        let lx = right + 12
        for (i, c) in ok.enumerated() {
            let color = SVGPlot.colors[c.subject] ?? "#000"
            let ly = top + 14 + Double(i) * 16
            let knee = c.knee.map { ", knee \(RateList.spelled($0.offeredPerSecond))/s" } ?? ", no knee"
            s += "<line x1=\"\(lx)\" y1=\"\(ly - 4)\" x2=\"\(lx + 16)\" y2=\"\(ly - 4)\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            s += "<text x=\"\(lx + 20)\" y=\"\(ly)\">\(HTML.escape(c.subject.rawValue))\(knee)</text>\n"
        }
        return s + "</svg>"
    }
}
