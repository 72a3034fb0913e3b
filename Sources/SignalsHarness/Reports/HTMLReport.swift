import Foundation

/// `--format html`: one self-contained page (inline CSS and SVG; no script, nothing fetched).
public enum HTMLReport {
    public static func render(_ report: BenchReport) -> String {
        let t = ReportTables(report: report)
        var body = ""
        for (w, rows) in t.byWorkload {
            body += "<section class=\"workload\" id=\"workload-\(w.rawValue)\">\n<h2>\(HTML.escape(w.rawValue)) — \(HTML.escape(w.summary))</h2>\n"
            body += t.throughputTable(rows).html()
            if let l = t.latencyTable(rows) { body += "<p>Latency (ns):</p>\n" + l.html() }
            body += "</section>\n"
        }
        body += "<h2>Targets</h2>\n" + t.targetsTable().html()
        let failures = t.failures
        let result = failures.isEmpty ? "result: PASS (every guarantee held for lockfree and mutex)"
            : "result: FAIL: " + failures.map { "\($0.key) · \($0.subject.rawValue): \($0.status.rawValue)" }.joined(separator: "; ")
        return HTML.page(title: "Signals bench", meta: t.header.map { $0.trimmingCharacters(in: .whitespaces) },
                         result: result, passed: failures.isEmpty, body: body)
    }

    /// The `bench ab` plot of current/baseline ratios (filled in with the plots).
    static func abPlot(_ report: ABReport) -> String { "" }
}
