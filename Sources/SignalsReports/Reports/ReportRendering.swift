import Foundation

// Every report in every `ReportFormat`: the subcommands print `rendered(format)` and write it
// to `--output`.

extension BenchReport: RenderableReport {
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .text: TextReport.render(self)
        case .json: JSONReport.render(self) + "\n"
        case .csv: BenchCSV.render(self)
        case .markdown: MarkdownReport.render(self)
        case .html: HTMLReport.render(self)
        }
    }

    /// The README's latency plot beside the reports in an output folder.
    package var companionFiles: [(name: String, contents: String)] { [("latency.svg", SVGPlot.render(self))] }
}

/// A run's report as `bench run` prints it: the text form by default within
/// `TextReport.width` columns, with `wide` every column, with `percentiles` every latency
/// percentile distribution; the other formats as `BenchReport` renders them.
package struct RunReport: RenderableReport {
    package var report: BenchReport
    package var percentiles: Bool
    package var wide: Bool

    package init(report: BenchReport, percentiles: Bool = false, wide: Bool = false) {
        self.report = report; self.percentiles = percentiles; self.wide = wide
    }

    package func rendered(_ format: ReportFormat) -> String {
        format == .text ? TextReport.render(report, percentiles: percentiles, wide: wide) : report.rendered(format)
    }

    package var companionFiles: [(name: String, contents: String)] { report.companionFiles }
}

/// `bench run --format csv`: one row per case and subject, every figure in its own column
/// (empty when absent), units in the column names.
package enum BenchCSV {
    package static let columns = [
        "workload", "case", "subject", "unit", "status",
        "ns_per_op", "ns_per_op_lower95", "ns_per_op_upper95", "ops_per_second", "launches",
        "reference", "ratio_to_reference", "ratio_lower95", "ratio_upper95", "verdict",
        "ratio_to_floor", "ratio_to_floor_lower95", "ratio_to_floor_upper95",
        "allocs_per_op", "bytes_per_op",
        "send_p50_ns", "send_p99_ns", "send_p999_ns", "send_max_ns",
        "end_to_end_p50_ns", "end_to_end_p99_ns", "end_to_end_p999_ns", "end_to_end_max_ns",
        "reason",
    ]

    package static func render(_ report: BenchReport) -> String {
        var out = CSV.line(columns)
        for r in report.results {
            let figure = r.interval?.estimate ?? r.throughput?.medianNsPerOp
            func lat(_ s: LatencySummary?) -> [String] {
                guard let s else { return ["", "", "", ""] }
                return [String(s.p50), String(s.p99), String(s.p999), String(s.max)]
            }
            var cells = [r.workload.rawValue, r.caseLabel, r.subject.rawValue, r.unit, r.status.rawValue]
            cells += [CSV.number(figure), CSV.number(r.interval?.lower), CSV.number(r.interval?.upper),
                      CSV.number(figure.map { $0 > 0 ? 1e9 / $0 : .nan }),
                      r.launchRounds.map { String($0.count) } ?? ""]
            cells += [r.versus?.reference ?? "", CSV.number(r.versus?.ratio.estimate), CSV.number(r.versus?.ratio.lower),
                      CSV.number(r.versus?.ratio.upper), r.versus?.verdict.rawValue ?? ""]
            cells += [CSV.number(r.versusFloor?.ratio.estimate), CSV.number(r.versusFloor?.ratio.lower),
                      CSV.number(r.versusFloor?.ratio.upper)]
            cells += [CSV.number(r.allocations?.countPerOp), CSV.number(r.allocations?.bytesPerOp)]
            cells += lat(r.latency?.send) + lat(r.latency?.endToEnd)
            cells.append(r.reason ?? "")
            out += CSV.line(cells)
        }
        return out
    }
}

extension ABReport: RenderableReport {
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .text: ABFormat.text(self)
        case .json: ABFormat.json(self) + "\n"
        case .csv: ABFormat.csv(self)
        case .markdown: ABFormat.markdown(self)
        case .html: ABFormat.html(self)
        }
    }
}

/// A comparison's report as `bench ab` prints it: the text form within `TextReport.width`
/// columns by default, with `wide` every column; the other formats as `ABReport` renders them.
package struct ABComparisonReport: RenderableReport {
    package var report: ABReport
    package var wide: Bool

    package init(report: ABReport, wide: Bool = false) {
        self.report = report; self.wide = wide
    }

    package func rendered(_ format: ReportFormat) -> String {
        format == .text ? ABFormat.text(report, wide: wide) : report.rendered(format)
    }
}

extension ABFormat {
    /// One row per case and subject.
    static func csv(_ report: ABReport) -> String {
        var out = CSV.line(["workload", "case", "subject", "unit", "baseline_ns", "baseline_lower95", "baseline_upper95",
                            "current_ns", "current_lower95", "current_upper95", "ratio", "ratio_lower95", "ratio_upper95",
                            "threshold_percent", "verdict", "launch_pairs", "method", "note"])
        for r in report.rows {
            out += CSV.line([r.workload.rawValue, r.caseLabel, r.subject.rawValue, r.unit,
                             CSV.number(r.baseline?.estimate), CSV.number(r.baseline?.lower), CSV.number(r.baseline?.upper),
                             CSV.number(r.current?.estimate), CSV.number(r.current?.lower), CSV.number(r.current?.upper),
                             CSV.number(r.change?.ratio.estimate), CSV.number(r.change?.ratio.lower), CSV.number(r.change?.ratio.upper),
                             CSV.number(report.thresholdPercent), r.change?.verdict.rawValue ?? "not judged",
                             String(r.baselineLaunches.count), r.method ?? "", r.note ?? ""])
        }
        return out
    }

    static func html(_ report: ABReport) -> String {
        let body = HTMLReport.abPlot(report) + "<h2>Cases</h2>\n" + table(report).html()
        return HTML.page(title: "bench ab", meta: header(report), result: summary(report), passed: !report.anySlower, body: body)
    }
}

extension CalibrationReport: RenderableReport {
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .text: text()
        case .json: json() + "\n"
        case .csv: table().csv()
        case .markdown: markdown()
        case .html: HTML.page(title: "bench ab --calibrate", meta: header(), result: nil, passed: true, body: table().html())
        }
    }
}

extension Comparison: RenderableReport {
    func table() -> Table {
        func num(_ v: Double?) -> String { v.map { $0 < 1 ? String(format: "%.3f", $0) : Fmt.ns($0) } ?? "–" }
        return Table(headers: ["case", "subject", "figure", "baseline", "current", "change", "verdict"], rows: rows.map { r in
            let change = r.changePercent.map { String(format: "%+.1f%%", $0) } ?? "–"
            let verdict = r.regression ? "REGRESSION" + (r.note.map { ": " + $0 } ?? "") : (r.note ?? "")
            return [r.key, r.subject.rawValue, r.figure, num(r.baseline), num(r.current), change, verdict]
        }, leftColumns: [0, 1, 2, 6])
    }

    var summary: String {
        let t = String(format: "%g", thresholdPercent)
        return regressions.isEmpty ? "no regression beyond \(t)%" : "\(regressions.count) regression(s) beyond \(t)%"
    }

    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .text: table().text() + "\n" + summary + "\n"
        case .json: PrettyJSON.render(self) + "\n"
        case .csv: table().csv()
        case .markdown: "# bench compare\n\n" + table().markdown() + "\n**" + summary + "**\n"
        case .html: HTML.page(title: "bench compare", meta: ["threshold: \(String(format: "%g", thresholdPercent))%"],
                              result: summary, passed: regressions.isEmpty, body: table().html())
        }
    }
}
