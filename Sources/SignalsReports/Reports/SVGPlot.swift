import Foundation

/// The latency percentile plot: one panel per case that has latency figures, one line per
/// subject, percentile on a log scale of 1/(1 − p) (so 90%, 99%, 99.9%, ... are equally
/// spaced) and latency on a log scale. Uses the end-to-end distribution where there is one
/// (what a subscriber experiences), else the send call's.
package enum SVGPlot {
    static let colors: [SubjectID: String] = [
        .lockfree: "#d62728", .mutex: "#1f77b4", .opencombine: "#2ca02c", .asyncstream: "#9467bd", .asyncchannel: "#ff7f0e",
        .floor: "#7f7f7f",
    ]

    package static func render(_ report: BenchReport) -> String {
        let withLatency = report.results.filter { $0.latency != nil }
        var keys: [String] = []
        for r in withLatency where !keys.contains(r.key) { keys.append(r.key) }
        let panelW = 460.0, panelH = 300.0, columns = 2.0
        let rows = (Double(keys.count) / columns).rounded(.up)
        let width = panelW * columns, height = max(1, rows) * panelH + 60
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(Int(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">Signals bench: latency percentile distribution (ns, log scales)</text>
        <text x="\(Int(width / 2))" y="40" text-anchor="middle" fill="#555">\(escape(report.machine.cpuModel)), \(report.machine.cores) cores, \(report.machine.buildConfiguration), \(escape(report.machine.date)); 1 send in \(report.parameters.latencySampleEvery) sampled</text>

        """
        for (i, key) in keys.enumerated() {
            let ox = Double(i % Int(columns)) * panelW
            let oy = 60 + Double(i / Int(columns)) * panelH
            svg += panel(key: key, results: withLatency.filter { $0.key == key }, x: ox, y: oy, w: panelW, h: panelH)
        }
        if keys.isEmpty {
            svg += "<text x=\"20\" y=\"80\">No latency figures in this run.</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// x position of a percentile: log10(1 / (1 − p)), capped at six nines.
    static func px(_ percentile: Double) -> Double {
        let remaining = max(1e-6, 1 - min(percentile, 99.9999) / 100)
        return log10(1 / remaining)
    }

    static func panel(key: String, results: [CaseResult], x: Double, y: Double, w: Double, h: Double) -> String {
        let left = x + 60, right = x + w - 35, top = y + 25, bottom = y + h - 45
        var lines: [(SubjectID, String, [PercentilePoint])] = []
        for r in results {
            if let e = r.latency?.endToEnd { lines.append((r.subject, "end-to-end", e.distribution)) }
            else if let s = r.latency?.send { lines.append((r.subject, "send call", s.distribution)) }
        }
        let all = lines.flatMap { $0.2 }
        let minNs = Double(max(1, all.map(\.ns).min() ?? 1))
        let maxNs = Double(max(10, all.map(\.ns).max() ?? 10))
        let yLo = floor(log10(minNs)), yHi = max(yLo + 1, ceil(log10(maxNs)))
        let xHi = max(2, ceil(all.map { px($0.percentile) }.max() ?? 2))
        func sx(_ p: Double) -> Double { left + px(p) / xHi * (right - left) }
        func sy(_ ns: UInt64) -> Double { bottom - (log10(Double(max(1, ns))) - yLo) / (yHi - yLo) * (bottom - top) }
        var s = "<g>\n<text x=\"\(Int(x + w / 2))\" y=\"\(Int(y + 15))\" text-anchor=\"middle\" font-weight=\"bold\">\(escape(key))</text>\n"
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(bottom - top)\" fill=\"none\" stroke=\"#999\"/>\n"
        // x ticks: 0%, 90%, 99%, ...
        for k in 0...Int(xHi) {
            let p = 100 * (1 - pow(10, -Double(k)))
            let xx = left + Double(k) / xHi * (right - left)
            let label = k == 0 ? "0%" : String(format: "%.\(max(0, k - 2))f%%", p)
            s += "<line x1=\"\(xx)\" y1=\"\(top)\" x2=\"\(xx)\" y2=\"\(bottom)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(xx)\" y=\"\(bottom + 14)\" text-anchor=\"middle\">\(label)</text>\n"
        }
        for d in Int(yLo)...Int(yHi) {
            let yy = bottom - (Double(d) - yLo) / (yHi - yLo) * (bottom - top)
            let v = pow(10, Double(d))
            let label = v >= 1e9 ? "\(Int(v / 1e9)) s" : v >= 1e6 ? "\(Int(v / 1e6)) ms" : v >= 1e3 ? "\(Int(v / 1e3)) µs" : "\(Int(v)) ns"
            s += "<line x1=\"\(left)\" y1=\"\(yy)\" x2=\"\(right)\" y2=\"\(yy)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(left - 5)\" y=\"\(yy + 4)\" text-anchor=\"end\">\(label)</text>\n"
        }
        s += "<text x=\"\(Int(x + w / 2))\" y=\"\(Int(bottom + 30))\" text-anchor=\"middle\" fill=\"#555\">percentile</text>\n"
        for line in lines {
            let color = colors[line.0] ?? "#000"
            let pts = line.2.map { String(format: "%.1f,%.1f", sx($0.percentile), sy($0.ns)) }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\" points=\"\(pts)\"/>\n"
        }
        // Legend last, on a translucent box, so it stays readable over the lines.
        let legendW = 190.0
        s += "<rect x=\"\(left + 4)\" y=\"\(top + 3)\" width=\"\(legendW)\" height=\"\(Double(lines.count) * 13 + 4)\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ddd\"/>\n"
        for (i, line) in lines.enumerated() {
            let color = colors[line.0] ?? "#000"
            let ly = top + 14 + Double(i) * 13
            s += "<line x1=\"\(left + 8)\" y1=\"\(ly - 4)\" x2=\"\(left + 24)\" y2=\"\(ly - 4)\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            s += "<text x=\"\(left + 28)\" y=\"\(ly)\">\(line.0.rawValue) (\(line.1))</text>\n"
        }
        return s + "</g>\n"
    }
}
