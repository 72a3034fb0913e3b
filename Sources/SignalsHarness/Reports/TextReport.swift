import Foundation

/// Number formatting shared by the reports.
enum Fmt {
    static func ns(_ v: Double) -> String {
        if v.isNaN || v.isInfinite { return "–" }
        if v < 10 { return String(format: "%.2f", v) }
        if v < 100 { return String(format: "%.1f", v) }
        return grouped(Int(v.rounded()))
    }
    static func ns(_ v: UInt64) -> String { grouped(Int(v)) }
    static func grouped(_ v: Int) -> String {
        let s = String(abs(v))
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (v < 0 ? "-" : "") + String(out.reversed())
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

/// One report table as rows of cells, rendered as aligned text or as Markdown.
struct Table {
    var headers: [String]
    var rows: [[String]]
    /// Columns aligned left (the rest are numeric, aligned right).
    var leftColumns: Set<Int> = [0]

    func text() -> String {
        var widths = headers.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
                return leftColumns.contains(i) ? c + pad : pad + c
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var out = line(headers) + "\n"
        out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        for r in rows { out += line(r) + "\n" }
        return out
    }

    func markdown() -> String {
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
        let hasVariant = rows.contains { !$0.variant.isEmpty }
        let unit = rows.first?.unit ?? "value"
        let hasAlloc = rows.contains { $0.allocations != nil }
        var headers = ["subject"]
        if hasVariant { headers.append("case") }
        // With launches and paired rounds (the default), a figure comes with its 95% interval,
        // the spread of its launches (flagged when they fall into separate modes) and the
        // paired ratio to the reference subject with its interval and verdict.
        let paired = rows.contains { $0.interval != nil }
        headers += paired
            ? ["ns/\(unit)", "95% interval", "launches", "per second", "×fastest", "vs reference (95%)", "verdict"]
            : ["ns/\(unit)", "min–max", "per second", "×fastest", "×mutex"]
        if hasAlloc { headers += ["allocs/\(unit)", "bytes/\(unit)"] }
        headers.append("status")
        var out: [[String]] = []
        for r in rows {
            var cells = [r.subject.rawValue]
            if hasVariant { cells.append(r.variant) }
            if paired {
                cells += pairedCells(r)
            } else if let t = r.throughput, r.status == .ok {
                let sameCase = rows.filter { $0.variant == r.variant && $0.status == .ok }
                let fastest = sameCase.compactMap { $0.throughput?.medianNsPerOp }.min() ?? t.medianNsPerOp
                let mutex = sameCase.first { $0.subject == .mutex }?.throughput?.medianNsPerOp
                cells += [Fmt.ns(t.medianNsPerOp), "\(Fmt.ns(t.minNsPerOp))–\(Fmt.ns(t.maxNsPerOp))",
                          Fmt.rate(t.opsPerSecond), Fmt.ratio(t.medianNsPerOp / fastest),
                          mutex.map { Fmt.ratio(t.medianNsPerOp / $0) } ?? "–"]
            } else {
                cells += ["–", "–", "–", "–", "–"]
            }
            if hasAlloc {
                if let a = r.allocations { cells += [Fmt.allocsWithRange(a), Fmt.bytes(a.bytesPerOp)] } else { cells += ["–", "–"] }
            }
            cells.append(statusText(r))
            out.append(cells)
        }
        return Table(headers: headers, rows: out, leftColumns: hasVariant ? [0, 1, headers.count - 1] : [0, headers.count - 1])
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
        let sameCase = report.results.filter { $0.workload == r.workload && $0.variant == r.variant && $0.status == .ok }
        let fastest = sameCase.compactMap { $0.interval?.estimate ?? $0.throughput?.medianNsPerOp }.min() ?? figure
        var versus = "–", verdict = r.versus == nil ? "reference" : "–"
        if let v = r.versus {
            versus = "\(Fmt.ratio(v.ratio.estimate)) [\(Fmt.ratio(v.ratio.lower))–\(Fmt.ratio(v.ratio.upper))] ×\(v.reference)"
            verdict = v.verdict.rawValue
        }
        return [Fmt.ns(figure), interval, launches, Fmt.rate(1e9 / figure), Fmt.ratio(figure / fastest), versus, verdict]
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
        if r.status == .ok, !r.counters.isEmpty {
            s += " (" + r.counters.sorted { $0.key < $1.key }.map { "\($0.key) \(Fmt.grouped($0.value))" }.joined(separator: ", ") + ")"
        }
        if r.isolated && r.status == .ok { s += " [child process]" }
        return s
    }

    func latencyTable(_ rows: [CaseResult]) -> Table? {
        let withLatency = rows.filter { $0.latency != nil }
        guard !withLatency.isEmpty else { return nil }
        let hasVariant = rows.contains { !$0.variant.isEmpty }
        var headers = ["subject"]
        if hasVariant { headers.append("case") }
        headers += ["latency", "p50", "p90", "p99", "p99.9", "p99.99", "max", "samples"]
        var out: [[String]] = []
        for r in withLatency {
            for (kind, s) in [("send call", r.latency?.send), ("end-to-end", r.latency?.endToEnd)] {
                guard let s else { continue }
                var cells = [r.subject.rawValue]
                if hasVariant { cells.append(r.variant) }
                cells += [kind, Fmt.ns(s.p50), Fmt.ns(s.p90), Fmt.ns(s.p99), Fmt.ns(s.p999), Fmt.ns(s.p9999), Fmt.ns(s.max), Fmt.grouped(Int(s.count))]
                out.append(cells)
            }
        }
        return Table(headers: headers, rows: out, leftColumns: hasVariant ? [0, 1, 2] : [0, 1])
    }

    func targetsTable() -> Table {
        Table(headers: ["target", "measured", "verdict"], rows: report.targets.map { t in
            let m = t.measured.map { t.unit == "allocs" ? Fmt.allocs($0) : (t.unit == "×" ? Fmt.ratio($0) + " ×" : Fmt.ns($0) + " ns") } ?? "–"
            return [t.description, m, t.verdict.rawValue]
        }, leftColumns: [0, 2])
    }

    var header: [String] {
        let m = report.machine
        let p = report.parameters
        return [
            "machine: \(m.cores) cores, \(m.cpuModel); \(m.os)",
            "build: \(m.toolchain), \(m.buildConfiguration) configuration; allocator: \(m.allocator); date: \(m.date)",
            p.launchCount > 1
                ? "method: throughput from \(p.launchCount) fresh launches per case × \(p.repetitions) paired rounds (subjects in shuffled order each round, ~\(p.targetRepetitionMilliseconds) ms each); figure with a 95% interval by a hierarchical bootstrap over launches then rounds, widened to the t interval; ratio to the reference with the Hodges-Lehmann/Wilcoxon signed-rank 95% interval over launch medians (from 6 launches; fewer: the bootstrap); verdict at a \(String(format: "%g", p.smallestEffectValue * 100))% smallest effect (docs/benchmarking.md);"
                : "method: throughput = median of \(p.repetitions) timed repetitions (min–max shown) after calibration and warm-up, ~\(p.targetRepetitionMilliseconds) ms each\(p.quick ? " (--quick)" : "");",
            "        latency = one extra repetition timing 1 send in \(p.latencySampleEvery) (send call, and send → handler end-to-end), per-thread HdrHistograms merged;",
            "        each latency sample includes one clock read (≈\(Fmt.ns(m.timerOverheadNs)) ns here).",
            "        allocations = median over the timed repetitions (min–max in brackets when they differ), " + allocationMethod,
            "harness floor: \(Fmt.ns(m.harnessFloorNsPerValue)) ns/value (send loop + checker, no subject): part of every ns/value figure below.",
        ]
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

/// The terminal report.
public enum TextReport {
    public static func render(_ report: BenchReport, percentiles: Bool = false) -> String {
        let t = ReportTables(report: report)
        var out = "Signals bench\n" + t.header.joined(separator: "\n") + "\n"
        if report.machine.allocationCounting == nil { out += "note: " + AllocationMeter.howToEnable + "\n" }
        for (w, rows) in t.byWorkload {
            out += "\n== \(w.rawValue) — \(w.summary) ==\n"
            out += t.throughputTable(rows).text()
            if let note = t.crossCoreNote(rows) { out += note + "\n" }
            if let l = t.latencyTable(rows) { out += "\n" + l.text() }
            if percentiles {
                for r in rows {
                    for (kind, s) in [("send call", r.latency?.send), ("end-to-end", r.latency?.endToEnd)] {
                        guard let s else { continue }
                        out += "\npercentile distribution, \(r.subject.rawValue) \(r.variant) \(kind) (ns):\n"
                        out += "  percentile        ns\n"
                        for p in s.distribution { out += String(format: "  %10.5f  %10llu\n", p.percentile, p.ns) }
                    }
                }
            }
        }
        out += "\n== targets (lockfree; a miss is reported, it does not fail the run) ==\n"
        out += t.targetsTable().text()
        out += "peer references: " + Targets.peerReferences.joined(separator: "; ") + "\n"
        let failures = t.failures
        if failures.isEmpty {
            out += "\nresult: PASS (every guarantee held for lockfree and mutex)\n"
        } else {
            out += "\nresult: FAIL\n"
            for f in failures { out += "  \(f.key) · \(f.subject.rawValue): \(f.status.rawValue): \(f.reason ?? "")\n" }
        }
        return out
    }
}

/// The Markdown report, for CI summaries.
public enum MarkdownReport {
    public static func render(_ report: BenchReport) -> String {
        let t = ReportTables(report: report)
        var out = "# Signals bench\n\n" + t.header.map { "- " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        if report.machine.allocationCounting == nil { out += "- note: " + AllocationMeter.howToEnable + "\n" }
        let failures = t.failures
        out += "\n**Result: \(failures.isEmpty ? "PASS" : "FAIL")**\n"
        for f in failures { out += "- `\(f.key)` · \(f.subject.rawValue): \(f.status.rawValue): \(f.reason ?? "")\n" }
        out += "\n## Targets\n\n" + t.targetsTable().markdown()
        for (w, rows) in t.byWorkload {
            out += "\n## \(w.rawValue) — \(w.summary)\n\n" + t.throughputTable(rows).markdown()
            if let note = t.crossCoreNote(rows) { out += "\n" + note + "\n" }
            if let l = t.latencyTable(rows) { out += "\nLatency (ns):\n\n" + l.markdown() }
        }
        return out
    }
}
