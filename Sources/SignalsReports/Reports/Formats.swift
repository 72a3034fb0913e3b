import Foundation

extension Table {
    /// RFC 4180 CSV: a header row, then one row per table row.
    package func csv() -> String {
        ([headers] + rows).map { CSV.line($0) }.joined()
    }

    /// An HTML table; numeric columns right-aligned.
    package func html() -> String {
        var out = "<table>\n<thead><tr>"
        for (i, h) in headers.enumerated() { out += "<th\(leftColumns.contains(i) ? "" : " class=\"num\"")>\(HTML.escape(h))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for r in rows {
            out += "<tr>"
            for (i, c) in r.enumerated() { out += "<td\(leftColumns.contains(i) ? "" : " class=\"num\"")>\(HTML.escape(c))</td>" }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }
}

/// CSV cells and lines (RFC 4180: quoted when they hold a comma, quote or line break).
package enum CSV {
    package static func cell(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
    package static func line(_ cells: [String]) -> String { cells.map(cell).joined(separator: ",") + "\n" }
    /// A number as CSV wants it: plain decimal, empty when absent or not finite.
    package static func number(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "" }
        return String(format: "%.6g", v)
    }
}

/// One self-contained HTML page (inline CSS and SVG, no script, nothing fetched).
package enum HTML {
    package static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let style = """
    body{font:14px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1180px;color:#1d1d1f;padding:0 16px}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
    ul.meta{color:#444;font-size:13px;padding-left:18px}ul.meta li{margin:2px 0}
    table{border-collapse:collapse;font-size:12.5px;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
    th{background:#f5f5f7}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
    .plots{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0}figcaption{font-size:12px;color:#555}
    .pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}
    svg text{font:11px sans-serif}nav{font-size:13px;margin:8px 0}ul.notes{font-size:12px;color:#444}p.note{font-size:12px;color:#444}
    figure{border:1px solid #eee;padding:6px;border-radius:4px}
    """

    /// A page: title, the header lines as a list, the result line, then the body.
    package static func page(title: String, meta: [String], result: String?, passed: Bool, body: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(title))</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n"
        out += "<h1>\(escape(title))</h1>\n<ul class=\"meta\">\n" + meta.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        if let result { out += "<p class=\"\(passed ? "pass" : "fail")\" id=\"result\">\(escape(result))</p>\n" }
        return out + body + "</body>\n</html>\n"
    }
}

/// Pretty-printed, key-sorted JSON of any report.
enum PrettyJSON {
    static func render(_ value: some Encodable) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
