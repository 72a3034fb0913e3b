import Foundation

/// `--format html`: one self-contained page (inline CSS and SVG; no script, nothing fetched).
/// Per workload: a dot plot of each subject's figure with its 95% interval, the lock-free/mutex
/// ratio with its interval against 1 (the smallest-effect band shaded), each subject's ratio to
/// the floor with its interval where the floor ran (×floor), and the latency percentile curves; then the tables. For `bench ab`: current/baseline per case with its
/// interval against the threshold band.
package enum HTMLReport {
    package static func render(_ report: BenchReport) -> String {
        let t = ReportTables(report: report)
        let effect = report.parameters.smallestEffectValue
        var body = "<nav>" + t.byWorkload.map { "<a href=\"#workload-\($0.0.rawValue)\">\(HTML.escape($0.0.rawValue))</a>" }.joined(separator: " · ") + "</nav>\n"
        for (w, rows) in t.byWorkload {
            body += "<section class=\"workload\" id=\"workload-\(w.rawValue)\">\n<h2>\(HTML.escape(w.rawValue)) — \(HTML.escape(w.summary))</h2>\n"
            body += "<div class=\"plots\">\n"
            body += figure(figurePlot(rows, unit: rows.first?.unit ?? "value"),
                           caption: "ns per \(rows.first?.unit ?? "value") with its 95% interval (log scale)", kind: "figures")
            let ratios: [RatioRow] = rows.compactMap { r in
                guard r.subject == .lockfree, let v = r.versus, v.reference == SubjectID.mutex.rawValue else { return nil }
                return RatioRow(label: r.caseLabel.isEmpty ? w.rawValue : r.caseLabel, ratio: v.ratio, verdict: v.verdict.rawValue)
            }
            if !ratios.isEmpty {
                body += figure(ratioPlot(ratios, band: (1 / (1 + effect), 1 + effect), bandLabel: "±\(String(format: "%g", effect * 100))% smallest effect"),
                               caption: "lockfree / mutex with its 95% interval, against 1 (below 1: lock-free is faster)", kind: "ratio")
            }
            // Each subject against the floor (the C model of the single-thread delivery path),
            // on the cases the floor ran beside it.
            let floorRatios: [RatioRow] = rows.compactMap { r in
                guard let f = r.versusFloor else { return nil }
                return RatioRow(label: r.caseLabel.isEmpty ? r.subject.rawValue : "\(r.caseLabel) · \(r.subject.rawValue)",
                                ratio: f.ratio, verdict: "")
            }
            if !floorRatios.isEmpty {
                body += figure(ratioPlot(floorRatios, band: (1, 1.3), bandLabel: "up to 1.3× the floor"),
                               caption: "subject / floor with its 95% interval, against 1 (the floor: what the machine allows)", kind: "ratio")
            }
            var keys: [String] = []
            for r in rows where r.latency != nil && !keys.contains(r.key) { keys.append(r.key) }
            for key in keys {
                let panel = SVGPlot.panel(key: key, results: rows.filter { $0.key == key && $0.latency != nil }, x: 0, y: 0, w: 460, h: 300)
                body += figure("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"460\" height=\"300\" viewBox=\"0 0 460 300\">\n\(panel)</svg>\n",
                               caption: "latency percentiles, \(key) (ns, log scales)", kind: "latency")
            }
            body += "</div>\n"
            let (table, notes) = t.compactThroughputTable(rows)
            body += table.html()
            if !notes.isEmpty { body += "<ul class=\"notes\">" + notes.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>\n" }
            if let note = t.crossCoreNote(rows) { body += "<p class=\"note\">\(HTML.escape(note))</p>\n" }
            if let l = t.latencyTable(rows, wide: false) { body += l.html() }
            for n in t.consistencyNotes(rows) { body += "<p class=\"note\">\(HTML.escape(n))</p>\n" }
            body += "</section>\n"
        }
        body += "<h2>Targets</h2>\n" + t.compactTargetsTable().html()
        let failures = t.failures
        let contradictions = t.consistency.filter { !$0.consistent }
        let result = failures.isEmpty && contradictions.isEmpty ? "result: PASS (every guarantee held for lockfree and mutex)"
            : "result: FAIL: " + (failures.map { "\($0.key) · \($0.subject.rawValue): \($0.status.rawValue)" }
                + contradictions.map { "\($0.key) · \($0.subject.rawValue): latency contradicts throughput" }).joined(separator: "; ")
        return HTML.page(title: "Signals bench", meta: t.header(wide: false), result: result,
                         passed: failures.isEmpty && contradictions.isEmpty, body: body)
    }

    /// `bench ab`: current/baseline of every row with its interval, against the threshold band.
    static func abPlot(_ report: ABReport) -> String {
        let rows: [RatioRow] = report.rows.compactMap { r in
            guard let c = r.change else { return nil }
            return RatioRow(label: "\(r.key) · \(r.subject.rawValue)", ratio: c.ratio, verdict: c.verdict.rawValue)
        }
        guard !rows.isEmpty else { return "<p>No row could be judged.</p>\n" }
        let t = report.thresholdPercent / 100
        return "<div class=\"plots\">\n" + figure(ratioPlot(rows, band: (1 / (1 + t), 1 + t), bandLabel: "±\(String(format: "%g", report.thresholdPercent))% threshold"),
                                                  caption: "current / baseline with its 95% interval, against 1 (above the band: slower)", kind: "ab") + "</div>\n"
    }

    static func figure(_ svg: String, caption: String, kind: String) -> String {
        "<figure class=\"\(kind)\">\n\(svg)<figcaption>\(HTML.escape(caption))</figcaption>\n</figure>\n"
    }

    struct RatioRow {
        var label: String
        var ratio: Interval
        var verdict: String
    }

    static let verdictColors = ["faster": "#1a7f37", "slower": "#cf222e", "no difference": "#555"]

    /// Horizontal dot-and-whisker rows on a log axis, with a shaded band around 1.
    static func ratioPlot(_ rows: [RatioRow], band: (Double, Double), bandLabel: String) -> String {
        let labelW = 200.0, plotW = 250.0, rowH = 22.0, top = 24.0
        let width = labelW + plotW + 100, height = top + Double(rows.count) * rowH + 34
        let values = rows.flatMap { [$0.ratio.lower, $0.ratio.upper, $0.ratio.estimate] }.filter { $0.isFinite && $0 > 0 }
        var lo = log10(min(values.min() ?? 1, band.0) * 0.95), hi = log10(max(values.max() ?? 1, band.1) * 1.05)
        if hi - lo < 0.02 { lo -= 0.01; hi += 0.01 }
        func sx(_ v: Double) -> Double { labelW + (log10(max(v, 1e-9)) - lo) / (hi - lo) * plotW }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        s += "<rect x=\"\(sx(band.0))\" y=\"\(top - 6)\" width=\"\(sx(band.1) - sx(band.0))\" height=\"\(Double(rows.count) * rowH + 6)\" fill=\"#f0f0f0\"/>\n"
        s += "<line x1=\"\(sx(1))\" y1=\"\(top - 10)\" x2=\"\(sx(1))\" y2=\"\(top + Double(rows.count) * rowH)\" stroke=\"#333\" stroke-dasharray=\"3,3\"/>\n"
        s += "<text x=\"\(sx(1))\" y=\"\(top - 12)\" text-anchor=\"middle\">1</text>\n"
        for (i, r) in rows.enumerated() {
            let y = top + Double(i) * rowH + rowH / 2
            let color = verdictColors[r.verdict] ?? "#555"
            s += "<text x=\"\(labelW - 8)\" y=\"\(y + 4)\" text-anchor=\"end\">\(HTML.escape(r.label))</text>\n"
            s += "<line x1=\"\(sx(r.ratio.lower))\" y1=\"\(y)\" x2=\"\(sx(r.ratio.upper))\" y2=\"\(y)\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            s += "<circle class=\"estimate\" cx=\"\(sx(r.ratio.estimate))\" cy=\"\(y)\" r=\"4\" fill=\"\(color)\"/>\n"
            s += "<text x=\"\(labelW + plotW + 8)\" y=\"\(y + 4)\" fill=\"\(color)\">\(String(format: "%.3f", r.ratio.estimate)) \(HTML.escape(r.verdict))</text>\n"
        }
        let axisY = top + Double(rows.count) * rowH + 16
        var taken: [Double] = []
        for tick in niceTicks(lo: pow(10, lo), hi: pow(10, hi)) where taken.allSatisfy({ abs(sx(tick) - $0) >= 34 }) {
            taken.append(sx(tick))
            s += "<text x=\"\(sx(tick))\" y=\"\(axisY)\" text-anchor=\"middle\" fill=\"#555\">\(String(format: "%g", tick))</text>\n"
        }
        s += "<text x=\"\(labelW)\" y=\"\(axisY + 14)\" fill=\"#777\">shaded: \(HTML.escape(bandLabel))</text>\n"
        return s + "</svg>\n"
    }

    /// Each subject's figure with its interval, per case, on a log axis.
    static func figurePlot(_ results: [CaseResult], unit: String) -> String {
        let rows = results.filter { $0.status == .ok && ($0.interval != nil || $0.throughput != nil) }
        let labelW = 200.0, plotW = 250.0, rowH = 18.0, top = 10.0
        let width = labelW + plotW + 80, height = top + Double(max(1, rows.count)) * rowH + 30
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        guard !rows.isEmpty else { return s + "<text x=\"10\" y=\"24\">No figures: every subject was unsupported or failed.</text>\n</svg>\n" }
        func bounds(_ r: CaseResult) -> (Double, Double, Double) {
            if let i = r.interval { return (i.lower, i.estimate, i.upper) }
            let t = r.throughput!
            return (t.minNsPerOp, t.medianNsPerOp, t.maxNsPerOp)
        }
        let all = rows.flatMap { r -> [Double] in let b = bounds(r); return [b.0, b.2] }.filter { $0 > 0 && $0.isFinite }
        let lo = floor(log10(all.min() ?? 1)), hi = max(lo + 1, ceil(log10(all.max() ?? 10)))
        func sx(_ v: Double) -> Double { labelW + (log10(max(v, 1e-3)) - lo) / (hi - lo) * plotW }
        for d in Int(lo)...Int(hi) {
            let x = sx(pow(10, Double(d)))
            s += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(top + Double(rows.count) * rowH)\" stroke=\"#eee\"/>\n"
            s += "<text x=\"\(x)\" y=\"\(top + Double(rows.count) * rowH + 14)\" text-anchor=\"middle\" fill=\"#555\">\(Fmt.ns(pow(10, Double(d))))</text>\n"
        }
        for (i, r) in rows.enumerated() {
            let y = top + Double(i) * rowH + rowH / 2
            let (a, m, b) = bounds(r)
            let color = SVGPlot.colors[r.subject] ?? "#000"
            let label = r.caseLabel.isEmpty ? r.subject.rawValue : "\(r.caseLabel) · \(r.subject.rawValue)"
            s += "<text x=\"\(labelW - 8)\" y=\"\(y + 4)\" text-anchor=\"end\">\(HTML.escape(label))</text>\n"
            s += "<line x1=\"\(sx(a))\" y1=\"\(y)\" x2=\"\(sx(b))\" y2=\"\(y)\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            s += "<circle class=\"estimate\" cx=\"\(sx(m))\" cy=\"\(y)\" r=\"4\" fill=\"\(color)\"/>\n"
            s += "<text x=\"\(labelW + plotW + 8)\" y=\"\(y + 4)\">\(Fmt.ns(m)) ns</text>\n"
        }
        return s + "</svg>\n"
    }

    /// A few round values between lo and hi for a log axis.
    static func niceTicks(lo: Double, hi: Double) -> [Double] {
        // 1 first, so that the spacing filter of the caller always keeps it.
        let candidates: [Double] = [1, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 2, 5, 10, 20, 50, 100, 200, 500, 0.25, 0.8, 1.25, 0.9, 1.1, 0.95, 1.05]
        return candidates.filter { $0 >= lo && $0 <= hi }
    }
}
