import Foundation

/// Number formatting shared by the reports.
///
/// Every formatter is total: a figure read from a file may be any Double or UInt64, and none is
/// converted with a trapping `Int(_:)` (reports validate their figures when read, see
/// `ReportValidation`, but rendering never relies on it).
enum Fmt {
    /// Beyond this, figures print in scientific notation rather than grouped digits.
    static let groupedLimit = 1e15

    static func ns(_ v: Double) -> String {
        if v.isNaN || v.isInfinite { return "–" }
        if v < 10 { return String(format: "%.2f", v) }
        if v < 100 { return String(format: "%.1f", v) }
        if v >= groupedLimit { return String(format: "%.3e", v) }
        return grouped(Int(v.rounded()))
    }
    static func ns(_ v: UInt64) -> String { grouped(v) }
    static func grouped(_ v: Int) -> String {
        (v < 0 ? "-" : "") + grouped(v.magnitude)
    }
    static func grouped(_ v: UInt64) -> String { grouped(UInt(v)) }
    static func grouped(_ v: UInt) -> String {
        let s = String(v)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
    static func ratio(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "–" }
    static func rate(_ opsPerSecond: Double) -> String {
        if opsPerSecond >= 1e6 { return String(format: "%.1f M", opsPerSecond / 1e6) }
        if opsPerSecond >= 1e3 { return String(format: "%.1f k", opsPerSecond / 1e3) }
        return String(format: "%.0f", opsPerSecond)
    }
    static func allocs(_ v: Double) -> String { String(format: "%.3f", v) }
    /// The median count, followed by the repetitions' min–max when they differ.
    static func allocsWithRange(_ a: AllocationStats) -> String {
        guard let r = a.countRange, r.min != r.max else { return allocs(a.countPerOp) }
        return "\(allocs(a.countPerOp)) (\(allocs(r.min))–\(allocs(r.max)))"
    }
    static func bytes(_ v: Double) -> String { v < 10 ? String(format: "%.2f", v) : String(format: "%.0f", v) }
}

/// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
extension String {
    /// The string without its trailing spaces. Leading ones stay: a continuation row (empty
    /// first cells) and a right-aligned first column keep their alignment.
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}

func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    var words: [Substring] = []
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
        var w = word
        while w.count > width { words.append(w.prefix(width)); w = w.dropFirst(width) }
        words.append(w)
    }
    for word in words {
        if current.isEmpty {
            current = String(word)
        } else if current.count + 1 + word.count <= width {
            current += " " + word
        } else {
            lines.append(current)
            current = String(word)
        }
    }
    if !current.isEmpty || lines.isEmpty { lines.append(current) }
    return lines
}

/// `text` wrapped at `width`, continuation lines indented by `indent` spaces.
func wrapped(_ text: String, width: Int = TextReport.width, indent: Int = 2) -> String {
    let pad = String(repeating: " ", count: indent)
    let parts = wrap(text, width: width)
    guard let first = parts.first else { return "\n" }
    let rest = parts.dropFirst().joined(separator: " ")
    return ([first] + (rest.isEmpty ? [] : wrap(rest, width: width - indent).map { pad + $0 })).joined(separator: "\n") + "\n"
}

/// One report table as rows of cells, rendered as aligned text or as Markdown.
package struct Table {
    package var headers: [String]
    package var rows: [[String]]
    /// Columns aligned left (the rest are numeric, aligned right).
    package var leftColumns: Set<Int> = [0]
    /// Lines printed above a row (by the row's index), outside the columns: a group's title.
    package var headings: [Int: String] = [:]

    package init(headers: [String], rows: [[String]], leftColumns: Set<Int> = [0], headings: [Int: String] = [:]) {
        self.headers = headers; self.rows = rows; self.leftColumns = leftColumns; self.headings = headings
    }

    package func text() -> String { text(maxWidth: nil) }

    /// The columns before the last, with their separators: where the last column starts.
    var prefixWidth: Int {
        var widths = headers.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        return widths.dropLast().reduce(0, +) + 2 * max(0, headers.count - 1)
    }

    /// The width of the widest line of the aligned text (headings aside).
    var naturalWidth: Int {
        var widths = headers.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        return widths.reduce(0, +) + 2 * max(0, headers.count - 1)
    }

    /// This table with `column`'s cells as headings above the rows where the cell changes
    /// (`"\(header): \(cell)"`), instead of as a column: a case column that would make the
    /// table wider than the text allows.
    func movingColumnToHeadings(_ column: Int) -> Table {
        var headings = self.headings
        var previous: String? = nil
        for (i, r) in rows.enumerated() where r[column] != previous {
            headings[i] = "\(headers[column]): \(r[column])"
            previous = r[column]
        }
        var left = Set<Int>()
        for i in leftColumns where i != column { left.insert(i > column ? i - 1 : i) }
        var headers = self.headers
        headers.remove(at: column)
        return Table(headers: headers, rows: rows.map { var r = $0; r.remove(at: column); return r },
                     leftColumns: left, headings: headings)
    }

    /// Aligned text. With `maxWidth`, a line that would be wider has its last column wrapped
    /// onto continuation lines under that column (the other columns are short figures).
    package func text(maxWidth: Int?) -> String {
        var widths = headers.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        let last = headers.count - 1
        var lastWidth = widths[last]
        if let maxWidth, last > 0 {
            let prefix = widths[..<last].reduce(0, +) + 2 * last
            lastWidth = max(headers[last].count, min(widths[last], maxWidth - prefix))
            widths[last] = lastWidth
        }
        let indent = String(repeating: " ", count: widths[..<last].reduce(0, +) + 2 * last)
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
                return leftColumns.contains(i) ? c + pad : pad + c
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        func lines(_ cells: [String]) -> String {
            guard maxWidth != nil, cells.count == headers.count, cells[last].count > lastWidth else { return line(cells) + "\n" }
            let parts = wrap(cells[last], width: lastWidth)
            var first = cells
            first[last] = parts.first ?? ""
            return ([line(first)] + parts.dropFirst().map { indent + $0 }).joined(separator: "\n") + "\n"
        }
        var out = line(headers) + "\n"
        out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        for (i, r) in rows.enumerated() {
            if let h = headings[i] { out += (maxWidth.map { wrapped(h, width: $0) } ?? h + "\n") }
            out += lines(r)
        }
        return out
    }

    package func markdown() -> String {
        func esc(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        var out = "| " + headers.map(esc).joined(separator: " | ") + " |\n"
        out += "|" + headers.indices.map { leftColumns.contains($0) ? " --- |" : " ---: |" }.joined() + "\n"
        for r in rows { out += "| " + r.map(esc).joined(separator: " | ") + " |\n" }
        return out
    }
}

/// Builds the tables of a report; the text and Markdown renderers share it.
struct ReportTables {
    let report: BenchReport

    /// Results grouped by workload, in workload order.
    var byWorkload: [(WorkloadID, [CaseResult])] {
        let groups = Dictionary(grouping: report.results, by: \.workload)
        return groups.keys.sorted().map { ($0, groups[$0]!) }
    }

    func throughputTable(_ rows: [CaseResult]) -> Table {
        let hasVariant = rows.contains { !$0.caseLabel.isEmpty }
        let unit = rows.first?.unit ?? "value"
        let hasAlloc = rows.contains { $0.allocations != nil }
        var headers = ["subject"]
        if hasVariant { headers.append("case") }
        // With launches and paired rounds (the default), a figure comes with its 95% interval,
        // the spread of its launches (flagged when they fall into separate modes) and the
        // paired ratio to the reference subject with its interval and verdict.
        let paired = rows.contains { $0.interval != nil }
        // ×floor beside ×mutex wherever the floor ran: paired, its ratio with its interval.
        let hasFloor = paired ? rows.contains { $0.versusFloor != nil } : rows.contains { $0.subject == .floor && $0.status == .ok }
        headers += paired
            ? ["ns/\(unit)", "95% interval", "launches", "per second", "×fastest", "vs reference (95%)", "verdict"]
            : ["ns/\(unit)", "min–max", "per second", "×fastest", "×mutex"]
        if hasFloor { headers.append(paired ? "×floor (95%)" : "×floor") }
        if hasAlloc { headers += ["allocs/\(unit)", "bytes/\(unit)"] }
        headers.append("status")
        var out: [[String]] = []
        for r in rows {
            var cells = [r.subject.rawValue]
            if hasVariant { cells.append(r.caseLabel) }
            if paired {
                cells += pairedCells(r)
                if hasFloor { cells.append(r.status == .ok ? Self.floorCell(r) : "–") }
            } else if let t = r.throughput, r.status == .ok {
                let sameCase = rows.filter { $0.caseLabel == r.caseLabel && $0.status == .ok }
                let fastest = sameCase.compactMap { $0.throughput?.medianNsPerOp }.min() ?? t.medianNsPerOp
                let mutex = sameCase.first { $0.subject == .mutex }?.throughput?.medianNsPerOp
                cells += [Fmt.ns(t.medianNsPerOp), "\(Fmt.ns(t.minNsPerOp))–\(Fmt.ns(t.maxNsPerOp))",
                          Fmt.rate(t.opsPerSecond), Fmt.ratio(t.medianNsPerOp / fastest),
                          mutex.map { Fmt.ratio(t.medianNsPerOp / $0) } ?? "–"]
                if hasFloor {
                    let floor = sameCase.first { $0.subject == .floor }?.throughput?.medianNsPerOp
                    cells.append(r.subject == .floor ? "–" : floor.map { Fmt.ratio(t.medianNsPerOp / $0) } ?? "–")
                }
            } else {
                cells += ["–", "–", "–", "–", "–"]
                if hasFloor { cells.append("–") }
            }
            if hasAlloc {
                if let a = r.allocations { cells += [Fmt.allocsWithRange(a), Fmt.bytes(a.bytesPerOp)] } else { cells += ["–", "–"] }
            }
            cells.append(statusText(r))
            out.append(cells)
        }
        return Table(headers: headers, rows: out, leftColumns: hasVariant ? [0, 1, headers.count - 1] : [0, headers.count - 1])
    }

    /// The default text table (fits `TextReport.width`): subject, case, the figure with its
    /// 95% interval, the ratio to the reference with its interval and verdict, ×floor,
    /// allocations. What does not fit a column (a status other than ok with its reason,
    /// counters, launches in two modes, a child process) follows the table as notes, one per
    /// row that has any. With `maxWidth`, a case column that would make the table wider (a
    /// long case label beside the ×floor column) becomes a heading above each case's rows.
    func compactThroughputTable(_ rows: [CaseResult], maxWidth: Int? = nil) -> (table: Table, notes: [String]) {
        let hasVariant = rows.contains { !$0.caseLabel.isEmpty }
        let unit = rows.first?.unit ?? "value"
        let hasAlloc = rows.contains { $0.allocations != nil }
        let paired = rows.contains { $0.interval != nil }
        let references = Set(rows.compactMap { $0.versus?.reference })
        let reference = references.count == 1 ? references.first! : nil
        let hasFloor = paired ? rows.contains { $0.versusFloor != nil } : rows.contains { $0.subject == .floor && $0.status == .ok }
        var headers = ["subject"]
        if hasVariant { headers.append("case") }
        headers += paired
            ? ["ns/\(unit) [95%]", reference.map { "×\($0) [95%]" } ?? "× reference [95%]", "verdict"]
            : ["ns/\(unit) (min–max)", "×mutex", "status"]
        if hasFloor { headers.append(paired ? "×floor [95%]" : "×floor") }
        if hasAlloc { headers.append("allocs/\(unit)") }
        var out: [[String]] = []
        var notes: [String] = []
        for r in rows {
            var cells = [r.subject.rawValue]
            if hasVariant { cells.append(r.caseLabel) }
            var note: [String] = []
            if let t = r.throughput, r.status == .ok {
                if paired {
                    let figure = r.interval?.estimate ?? t.medianNsPerOp
                    cells.append(Fmt.ns(figure) + (r.interval.map { " [\(Fmt.ns($0.lower))–\(Fmt.ns($0.upper))]" } ?? ""))
                    if let v = r.versus {
                        cells.append("\(Fmt.ratio(v.ratio.estimate)) [\(Fmt.ratio(v.ratio.lower))–\(Fmt.ratio(v.ratio.upper))]"
                                     + (reference == nil ? " ×\(v.reference)" : ""))
                        cells.append(v.verdict.rawValue)
                    } else {
                        cells += ["–", "reference"]
                    }
                } else {
                    let mutex = rows.first { $0.caseLabel == r.caseLabel && $0.subject == .mutex && $0.status == .ok }?.throughput?.medianNsPerOp
                    cells += ["\(Fmt.ns(t.medianNsPerOp)) (\(Fmt.ns(t.minNsPerOp))–\(Fmt.ns(t.maxNsPerOp)))",
                              mutex.map { Fmt.ratio(t.medianNsPerOp / $0) } ?? "–", "ok"]
                }
                if hasFloor {
                    if paired {
                        cells.append(Self.floorCell(r))
                    } else {
                        let floor = rows.first { $0.caseLabel == r.caseLabel && $0.subject == .floor && $0.status == .ok }?.throughput?.medianNsPerOp
                        cells.append(r.subject == .floor ? "–" : floor.map { Fmt.ratio(t.medianNsPerOp / $0) } ?? "–")
                    }
                }
                if r.launchSpread?.bimodal == true { note.append("launches in TWO MODES") }
                let counters = Self.notedCounters(r)
                if !counters.isEmpty {
                    note.append(counters.map { "\($0.key) \(Fmt.grouped($0.value))" }.joined(separator: ", "))
                }
                if r.isolated { note.append("ran in a child process") }
            } else {
                let word: String
                switch r.status {
                case .ok: word = "no figure"
                case .unsupported: word = "unsupported"
                case .failed: word = "FAILED"
                case .crashed: word = "crashed"
                case .timedOut: word = "hung"
                }
                cells += ["–", "–", word]
                if hasFloor { cells.append("–") }
                note.append(statusText(r))
            }
            if hasAlloc { cells.append(r.allocations.map { Fmt.allocs($0.countPerOp) } ?? "–") }
            out.append(cells)
            if !note.isEmpty {
                notes.append("\(r.subject.rawValue)\(r.caseLabel.isEmpty ? "" : " (\(r.caseLabel))"): " + note.joined(separator: "; "))
            }
        }
        let verdictColumn = (hasVariant ? 2 : 1) + 2
        let table = Table(headers: headers, rows: out, leftColumns: hasVariant ? [0, 1, verdictColumn] : [0, verdictColumn])
        if hasVariant, let maxWidth, table.naturalWidth > maxWidth { return (table.movingColumnToHeadings(1), notes) }
        return (table, notes)
    }

    /// Targets with the description last, so it wraps.
    func compactTargetsTable() -> Table {
        Table(headers: ["verdict", "measured", "target"], rows: report.targets.map { t in
            [t.verdict.rawValue, Self.measured(t), t.description]
        }, leftColumns: [0, 2])
    }

    /// A target's measured figure in its unit ("–" when not measured).
    static func measured(_ t: TargetResult) -> String {
        t.measured.map { t.unit == "allocs" ? Fmt.allocs($0) : (t.unit == "×" ? Fmt.ratio($0) + " ×" : Fmt.ns($0) + " ns") } ?? "–"
    }

    /// The machine and build lines both headers open with.
    var machineLines: [String] {
        let m = report.machine
        return [
            "machine: \(m.cores) cores, \(m.cpuModel); \(m.os)",
            "build: \(m.toolchain), \(m.buildConfiguration) configuration; allocator: \(m.allocator); date: \(m.date)",
        ]
    }

    /// One line on the machine's cross-core round trip beside the launches of a multi-threaded
    /// case: its median and range, and how many launches ran while it was over 1.5× that
    /// median (a slow phase of the machine, not of the subject). Nil without probes.
    func crossCoreNote(_ rows: [CaseResult]) -> String? {
        let probes = rows.compactMap(\.launchCrossCoreNs).max { $0.count < $1.count } ?? []
        guard !probes.isEmpty, let lo = probes.min(), let hi = probes.max() else { return nil }
        let m = median(probes)
        let slow = probes.filter { $0 > 1.5 * m }.count
        var line = "cross-core round trip beside the launches: median \(Fmt.ns(m)) ns"
        if probes.count > 1 { line += ", \(Fmt.ns(lo))–\(Fmt.ns(hi))" }
        if slow > 0 { line += "; \(slow) of \(probes.count) launches in a slow phase of the machine (over 1.5× the median)" }
        return line
    }

    /// The paired columns of one row: figure, interval, launch spread, throughput, ×fastest
    /// (of the figures), the paired ratio to the reference and the verdict.
    func pairedCells(_ r: CaseResult) -> [String] {
        guard r.status == .ok, let t = r.throughput else { return ["–", "–", "–", "–", "–", "–", "–"] }
        let figure = r.interval?.estimate ?? t.medianNsPerOp
        let interval = r.interval.map { "\(Fmt.ns($0.lower))–\(Fmt.ns($0.upper))" } ?? "–"
        var launches = "–"
        if let spread = r.launchSpread, let lo = spread.values.min(), let hi = spread.values.max() {
            launches = spread.values.count < 2 ? Fmt.ns(lo) : "\(spread.values.count): \(Fmt.ns(lo))–\(Fmt.ns(hi))"
            if spread.bimodal { launches += " TWO MODES" }
        }
        let sameCase = report.results.filter { $0.workload == r.workload && $0.caseLabel == r.caseLabel && $0.status == .ok }
        let fastest = sameCase.compactMap { $0.interval?.estimate ?? $0.throughput?.medianNsPerOp }.min() ?? figure
        var versus = "–", verdict = r.versus == nil ? "reference" : "–"
        if let v = r.versus {
            versus = "\(Fmt.ratio(v.ratio.estimate)) [\(Fmt.ratio(v.ratio.lower))–\(Fmt.ratio(v.ratio.upper))] ×\(v.reference)"
            verdict = v.verdict.rawValue
        }
        return [Fmt.ns(figure), interval, launches, Fmt.rate(1e9 / figure), Fmt.ratio(figure / fastest), versus, verdict]
    }

    /// A row's paired ratio to the floor with its 95% interval ("–" for the floor itself, or
    /// where the floor did not run beside it).
    static func floorCell(_ r: CaseResult) -> String {
        guard let f = r.versusFloor else { return "–" }
        return "\(Fmt.ratio(f.ratio.estimate)) [\(Fmt.ratio(f.ratio.lower))–\(Fmt.ratio(f.ratio.upper))]"
    }

    /// The counters a table's note shows, by name: not the library's wait counters (churn's
    /// `wait…` and `churnPairs`, a diagnosis for the JSON report, docs/design/churn.md).
    static func notedCounters(_ r: CaseResult) -> [(key: String, value: Int)] {
        r.counters.filter { !CaseResult.isWaitCounter($0.key) }.sorted { $0.key < $1.key }
    }

    func statusText(_ r: CaseResult) -> String {
        var s: String
        switch r.status {
        case .ok: s = "ok"
        case .unsupported: s = "unsupported: \(r.reason ?? "")"
        case .failed: s = "FAILED: \(r.reason ?? "")"
        case .crashed: s = "crashed: \(r.reason ?? "")"
        case .timedOut: s = "hung: \(r.reason ?? "")"
        }
        let counters = Self.notedCounters(r)
        if r.status == .ok, !counters.isEmpty {
            s += " (" + counters.map { "\($0.key) \(Fmt.grouped($0.value))" }.joined(separator: ", ") + ")"
        }
        if r.isolated && r.status == .ok { s += " [child process]" }
        return s
    }

    /// The latency table: by default the percentiles people read (p50, p99, p99.9, max), the
    /// clock's cost taken off; `wide`, every percentile, the raw p50 and p99 (cost included)
    /// and the sample count.
    func latencyTable(_ rows: [CaseResult], wide: Bool) -> Table? {
        let withLatency = rows.filter { $0.latency != nil }
        guard !withLatency.isEmpty else { return nil }
        let hasVariant = rows.contains { !$0.caseLabel.isEmpty }
        var headers = ["subject"]
        if hasVariant { headers.append("case") }
        headers += wide ? ["latency", "p50", "p90", "p99", "p99.9", "p99.99", "max", "raw p50", "raw p99", "samples"]
            : ["latency (ns)", "p50", "p99", "p99.9", "max"]
        var out: [[String]] = []
        for r in withLatency {
            let l = r.latency
            for (kind, s, raw) in [("send call", l?.send, l?.sendRaw), ("end-to-end", l?.endToEnd, l?.endToEndRaw)] {
                guard let s else { continue }
                var cells = [r.subject.rawValue]
                if hasVariant { cells.append(r.caseLabel) }
                cells += wide
                    ? [kind, Fmt.ns(s.p50), Fmt.ns(s.p90), Fmt.ns(s.p99), Fmt.ns(s.p999), Fmt.ns(s.p9999), Fmt.ns(s.max),
                       raw.map { Fmt.ns($0.p50) } ?? "–", raw.map { Fmt.ns($0.p99) } ?? "–", Fmt.grouped(Int(s.count))]
                    : [kind, Fmt.ns(s.p50), Fmt.ns(s.p99), Fmt.ns(s.p999), Fmt.ns(s.max)]
                out.append(cells)
            }
        }
        return Table(headers: headers, rows: out, leftColumns: hasVariant ? [0, 1, 2] : [0, 1])
    }

    /// The report's consistency checks: recorded in the report, or computed for one saved
    /// before they were (`LatencyConsistency`; none for reports without a measured clock).
    var consistency: [ConsistencyCheck] { report.consistency ?? LatencyConsistency.check(report.results) }

    /// One line per check of `rows`' cases: "send-call p50 vs ns/value, lockfree: consistent (...)".
    func consistencyNotes(_ rows: [CaseResult]) -> [String] {
        let keys = Set(rows.map { "\($0.key) \($0.subject.rawValue)" })
        return consistency.filter { keys.contains("\($0.key) \($0.subject.rawValue)") }.map { c in
            "send-call p50 vs ns/value, \(c.subject.rawValue)\(c.key.contains("[") ? " " + c.key : ""): \(c.summary)"
        }
    }

    /// The clocks the latency samples were taken with (one per case and launch), in one line:
    /// the source, the median cost and its range, the resolution.
    var clockLine: String? {
        let clocks = report.results.compactMap { $0.latency?.clock }
        guard let first = clocks.first else { return nil }
        let costs = clocks.map(\.costNs)
        let lo = costs.min() ?? 0, hi = costs.max() ?? 0
        let range = clocks.count > 1 && hi - lo >= 0.05 ? " (\(Fmt.ns(lo))–\(Fmt.ns(hi)) over the launches)" : ""
        let name: String
        switch first.source {
        case "tsc": name = "the TSC (lfence; rdtsc, invariant; \(String(format: "%.3f", 1 / first.nsPerTick)) GHz calibrated against CLOCK_MONOTONIC)"
        case "cntvct": name = "cntvct_el0 (\(String(format: "%.1f", 1e3 / first.nsPerTick)) MHz)"
        default: name = "clock_gettime(CLOCK_MONOTONIC)"
        }
        return "clock: \(name); read cost \(Fmt.ns(median(costs))) ns\(range), resolution \(Fmt.ns(clocks.map(\.resolutionNs).min() ?? 0)) ns, measured in each launch and subtracted from every latency figure (raw figures: --wide, JSON)"
    }

    func targetsTable() -> Table {
        Table(headers: ["target", "measured", "verdict"], rows: report.targets.map { t in
            [t.description, Self.measured(t), t.verdict.rawValue]
        }, leftColumns: [0, 2])
    }

    /// What ran, where, and how: by default in lines that fit; `wide`, the method in full.
    func header(wide: Bool) -> [String] {
        let m = report.machine
        let p = report.parameters
        let effect = String(format: "%g", p.smallestEffectValue * 100)
        let quick = p.quick ? " (--quick)" : ""
        let paired = p.launchCount > 1
        guard wide else {
            return machineLines + [
                paired
                    ? "method: \(p.launchCount) fresh launches per case × \(p.repetitions) paired rounds of ~\(p.targetRepetitionMilliseconds) ms (subjects shuffled each round); figures and ratios with 95% intervals; verdict at a \(effect)% smallest effect (docs/bench-guide.md; --wide for the details)"
                    : "method: median of \(p.repetitions) timed repetitions of ~\(p.targetRepetitionMilliseconds) ms (min–max shown)\(quick)",
                "latency: 1 send in \(p.latencySampleEvery) sampled in two extra rounds: the send call (the handler stores nothing), then send → handler (the handler stores one timestamp); histograms filled after each round",
            ] + (clockLine.map { [$0] } ?? ["latency: each sample includes one clock read (≈\(Fmt.ns(m.timerOverheadNs)) ns)"]) + [
                "allocations: median over the rounds, " + allocationMethod,
            ] + floorLines
        }
        return machineLines + [
            paired
                ? "method: throughput from \(p.launchCount) fresh launches per case × \(p.repetitions) paired rounds (subjects in shuffled order each round, ~\(p.targetRepetitionMilliseconds) ms each); figure with a 95% interval by a hierarchical bootstrap over launches then rounds, widened to the t interval; ratio to the reference with the Hodges-Lehmann/Wilcoxon signed-rank 95% interval over launch medians (from 6 launches; fewer: the bootstrap); verdict at a \(effect)% smallest effect (docs/bench-guide.md);"
                : "method: throughput = median of \(p.repetitions) timed repetitions (min–max shown) after calibration and warm-up, ~\(p.targetRepetitionMilliseconds) ms each\(quick);",
            "        latency = two extra rounds sampling 1 send in \(p.latencySampleEvery): the send call (timed around the call; the handler stores nothing), then send → handler (the sender stores its start, the handler one timestamp), each sample one store into memory allocated before the round, HdrHistograms filled after it;",
            "        " + (clockLine ?? "each latency sample includes one clock read (≈\(Fmt.ns(m.timerOverheadNs)) ns here)") + ";",
            "        consistency = for one-thread direct cases (send, send-map, chain, hop[direct]; lockfree, mutex, opencombine), the send call's corrected p50 against ns/value, agreeing when it lies within the span of the timed rounds widened by the clock's resolution + max(\(Fmt.ns(LatencyConsistency.marginNs)) ns, \(Int(LatencyConsistency.marginFraction * 100))% of the figure); a contradiction fails the run (exit 1).",
            "        allocations = median over the timed repetitions (min–max in brackets when they differ), " + allocationMethod,
        ] + floorLines
    }

    /// What the floor subject and the ×floor column are, when the floor ran.
    var floorLines: [String] {
        guard report.results.contains(where: { $0.subject == .floor }) else { return [] }
        return ["floor: a C model of the single-thread delivery path (claim CAS, gates, map, handler, release CAS; Sources/DeliveryFloor) with the same handler and checks; ×floor = a subject's time over the floor's, paired by round, with its 95% interval"]
    }

    /// Which counter gave the allocation figures.
    var allocationMethod: String {
        switch report.machine.allocationCounting {
        case "jemalloc": return "counted by jemalloc's statistics (thread caches flushed at both ends of each; bytes by size class)."
        case "interposer": return "counted by the malloc interposer (every malloc/calloc/realloc/posix_memalign/aligned_alloc/memalign request; requested bytes)."
        default: return "not counted in this run."
        }
    }

    var failures: [CaseResult] { report.results.filter(\.failsRun) }
}

/// The terminal report. By default every line fits `width` columns (a CI log, a 120-column
/// terminal); `wide` adds every column (launch spread, throughput, ×fastest, bytes) and the
/// full method, as the Markdown, CSV and JSON reports have them.
package enum TextReport {
    /// The widest line of the default report.
    package static let width = 120

    package static func render(_ report: BenchReport, percentiles: Bool = false, wide: Bool = false) -> String {
        let t = ReportTables(report: report)
        let limit: Int? = wide ? nil : width
        func prose(_ line: String) -> String { wide ? line + "\n" : wrapped(line) }
        var out = "Signals bench\n"
        for line in t.header(wide: wide) { out += prose(line) }
        if report.machine.allocationCounting == nil { out += prose("note: " + AllocationFigures.howToEnable) }
        for (w, rows) in t.byWorkload {
            out += "\n" + prose("== \(w.rawValue) — \(w.summary) ==")
            if wide {
                out += t.throughputTable(rows).text()
            } else {
                let (table, notes) = t.compactThroughputTable(rows, maxWidth: limit)
                out += table.text(maxWidth: limit)
                for n in notes { out += wrapped("· " + n, indent: 4) }
            }
            if let note = t.crossCoreNote(rows) { out += prose(note) }
            if let l = t.latencyTable(rows, wide: wide) { out += "\n" + l.text(maxWidth: limit) }
            for n in t.consistencyNotes(rows) { out += wide ? n + "\n" : wrapped("· " + n, indent: 4) }
            if percentiles {
                for r in rows {
                    for (kind, s) in [("send call", r.latency?.send), ("end-to-end", r.latency?.endToEnd)] {
                        guard let s else { continue }
                        out += "\npercentile distribution, \(r.subject.rawValue) \(r.caseLabel) \(kind) (ns):\n"
                        out += "  percentile        ns\n"
                        for p in s.distribution { out += String(format: "  %10.5f  %10llu\n", p.percentile, p.ns) }
                    }
                }
            }
        }
        out += "\n== targets (a miss is reported, it does not fail the run) ==\n"
        out += wide ? t.targetsTable().text() : t.compactTargetsTable().text(maxWidth: limit)
        out += prose(Targets.peerReferencesLine)
        let failures = t.failures
        let contradictions = t.consistency.filter { !$0.consistent }
        if failures.isEmpty && contradictions.isEmpty {
            let checked = t.consistency.isEmpty ? "" : "; latency consistent with throughput in \(t.consistency.count) check(s)"
            out += "\n" + prose("result: PASS (every guarantee held for lockfree and mutex\(checked))")
        } else {
            out += "\nresult: FAIL\n"
            for f in failures { out += prose("  \(f.key) · \(f.subject.rawValue): \(f.status.rawValue): \(f.reason ?? "")") }
            for c in contradictions { out += prose("  \(c.key) · \(c.subject.rawValue): latency contradicts throughput: \(c.summary)") }
        }
        return out
    }
}

/// The Markdown report, for CI summaries.
package enum MarkdownReport {
    package static func render(_ report: BenchReport) -> String {
        let t = ReportTables(report: report)
        var out = "# Signals bench\n\n" + t.header(wide: true).map { "- " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        if report.machine.allocationCounting == nil { out += "- note: " + AllocationFigures.howToEnable + "\n" }
        let failures = t.failures
        let contradictions = t.consistency.filter { !$0.consistent }
        out += "\n**Result: \(failures.isEmpty && contradictions.isEmpty ? "PASS" : "FAIL")**\n"
        for f in failures { out += "- `\(f.key)` · \(f.subject.rawValue): \(f.status.rawValue): \(f.reason ?? "")\n" }
        for c in contradictions { out += "- `\(c.key)` · \(c.subject.rawValue): latency contradicts throughput: \(c.summary)\n" }
        out += "\n## Targets\n\n" + t.targetsTable().markdown()
        for (w, rows) in t.byWorkload {
            out += "\n## \(w.rawValue) — \(w.summary)\n\n" + t.throughputTable(rows).markdown()
            if let note = t.crossCoreNote(rows) { out += "\n" + note + "\n" }
            if let l = t.latencyTable(rows, wide: true) { out += "\nLatency (ns):\n\n" + l.markdown() }
            for n in t.consistencyNotes(rows) { out += "\n- " + n + "\n" }
        }
        return out
    }
}
