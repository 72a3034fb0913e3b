import Foundation
import SignalsReports

// `bench stress`'s report in every `ReportFormat`, through the harness's tables and formats.

extension StressReport: RenderableReport {
    /// The run's settings, one line.
    package var headline: String {
        "bench stress: seed \(seed), \(threads) threads, \(operations) ops per actor, "
            + (secondsPerRun.map { String(format: "%.2f s", $0) } ?? "no time limit") + " per scenario × variant"
            + (iterationCap.map { ", at most \($0) iterations" } ?? "")
            + ((load ?? 0) > 0 ? ", \(load ?? 0) busy load thread(s) beside" : "")
    }

    /// The closing line: PASS or FAIL with the seed.
    package var verdictLine: String {
        passed ? "PASS: no forbidden outcome, leak or deadlock (seed \(seed))."
            : "FAIL: forbidden outcomes (seed \(seed)); replay with the commands above."
    }

    func outcomeTable() -> Table {
        var rows: [[String]] = []
        for r in results {
            for (i, o) in r.outcomes.enumerated() {
                rows.append([
                    i == 0 ? r.scenario : "", i == 0 ? r.variant : "",
                    i == 0 ? "\(r.iterations)" : "", i == 0 ? String(format: "%.0f", r.iterationsPerSecond) : "",
                    o.name, "\(o.count)", o.grade.rawValue, i == 0 ? r.verdict : "",
                ])
            }
        }
        return Table(headers: ["scenario", "variant", "iterations", "it/s", "outcome", "count", "grade", "verdict"],
                     rows: rows, leftColumns: [0, 1, 4, 6, 7])
    }

    /// One CSV row per scenario, variant and outcome.
    func csv() -> String {
        var out = CSV.line(["scenario", "variant", "iterations", "iterations_per_second", "outcome", "count", "grade", "verdict"])
        for r in results {
            for o in r.outcomes {
                out += CSV.line([r.scenario, r.variant, String(r.iterations), CSV.number(r.iterationsPerSecond),
                                 o.name, String(o.count), o.grade.rawValue, r.verdict])
            }
        }
        return out
    }

    package func rendered(_ format: ReportFormat) -> String {
        let failures = failureSummary()
        switch format {
        case .text: return headline + "\n\n" + outcomeTable().text() + (failures.isEmpty ? "" : "\n" + failures + "\n") + "\n" + verdictLine + "\n"
        case .json: return ((try? json()).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
        case .csv: return csv()
        case .markdown:
            return "# bench stress\n\n- " + headline + "\n\n" + table() + "\n"
                + (failures.isEmpty ? "" : "\n```\n" + failures + "\n```\n") + "\n**" + verdictLine + "**\n"
        case .html:
            let body = outcomeTable().html() + (failures.isEmpty ? "" : "<pre>\(HTML.escape(failures))</pre>\n")
            return HTML.page(title: "bench stress", meta: [headline], result: verdictLine, passed: passed, body: body)
        }
    }
}
