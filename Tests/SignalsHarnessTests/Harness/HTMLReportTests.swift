import Foundation
import SignalsReports
import Testing

/// A headless Chromium from the system's packages, or nil.
let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The DOM a real browser builds from `html` (`chromium --headless --dump-dom`).
func browserDOM(_ html: String, name: String) throws -> String {
    let browser = try #require(chromium)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-html-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent(name)
    try html.write(to: file, atomically: true, encoding: .utf8)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: browser)
    // A profile of its own, so a browser a person has open is not disturbed.
    p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(dir.path)/profile", "--dump-dom", file.absoluteString]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// Occurrences of `needle` in `text`.
func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

@Suite("HTML report in a browser", .serialized, .enabled(if: chromium != nil, "skipped: no headless Chromium (apt-get install -y chromium)"))
struct HTMLReportTests {
    /// The default run's report: one section per workload, each with the plot of its figures
    /// (one dot per subject that has a figure) and its latency curves, the lock-free/mutex
    /// ratio wherever both ran, and nothing fetched from anywhere.
    @Test func runReportHasOnePlotPerWorkload() throws {
        let report = try canonicalReport()
        let dom = try browserDOM(report.rendered(.html), name: "report.html")
        let workloads = Set(report.results.map(\.workload))
        #expect(count("<section class=\"workload\"", in: dom) == workloads.count)
        let sections = dom.components(separatedBy: "<section class=\"workload\"").dropFirst()
        for (w, section) in zip(workloads.sorted(), sections) {
            #expect(section.contains("id=\"workload-\(w.rawValue)\""))
            let figuresPlot = try #require(section.components(separatedBy: "<figure class=\"figures\">").dropFirst().first, "\(w)")
            let shown = report.results.filter { $0.workload == w && $0.status == .ok && $0.throughput != nil }.count
            #expect(count("class=\"estimate\"", in: figuresPlot.components(separatedBy: "</figure>")[0]) == shown, "\(w)")
            let paired = report.results.contains { $0.workload == w && $0.subject == .lockfree && $0.versus?.reference == "mutex" }
            #expect(section.contains("<figure class=\"ratio\">") == paired, "\(w)")
            #expect(section.contains("<figure class=\"latency\">") == report.results.contains { $0.workload == w && $0.latency != nil })
        }
        #expect(!dom.contains("<script") && !dom.contains("<link") && !dom.contains("<img"))
        #expect(!dom.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"))
        #expect(dom.contains("result: PASS"))
    }

    /// `bench ab`: one dot per judged row, with the threshold band.
    @Test func abReportPlotsEveryJudgedRow() throws {
        func row(_ w: WorkloadID, _ ratio: Double, _ verdict: ChangeVerdict) -> ABRow {
            var r = ABRow(workload: w, caseLabel: "", subject: .lockfree, unit: "value")
            r.change = PairedComparison(reference: "baseline", ratio: Interval(estimate: ratio, lower: ratio - 0.02, upper: ratio + 0.02),
                                        verdict: verdict, smallestEffect: 0.03, launches: 8, rounds: 10)
            return r
        }
        let machine = MachineInfo(cores: 2, cpuModel: "Test CPU", toolchain: "Swift 6.3", buildConfiguration: "release",
                                  allocator: "system", os: "Linux", date: "2026-01-01T00:00:00Z")
        let report = ABReport(machine: machine, parameters: Parameters(), baseline: "main", current: "this executable",
                              thresholdPercent: 3, budgetSeconds: 60,
                              rows: [row(.sendMap, 1.10, .slower), row(.chain, 1.0, .noDifference), row(.send, 0.9, .faster)])
        let dom = try browserDOM(report.rendered(.html), name: "ab.html")
        let plot = try #require(dom.components(separatedBy: "<figure class=\"ab\">").dropFirst().first)
        #expect(count("class=\"estimate\"", in: plot) == 3)
        #expect(plot.contains("±3% threshold"))
        #expect(dom.contains("1 case(s) slower"))
    }
}
