import Foundation
import Signals
import SignalsReports
import SignalsWorkloads
import Testing

@Suite("bench arguments")
struct ArgumentTests {
    func error(_ configure: (inout RunOptions) -> Void) -> ArgumentError? {
        var o = RunOptions()
        configure(&o)
        do {
            _ = try o.parameters()
            return nil
        } catch {
            return error
        }
    }

    func parseError<T>(_ parse: () throws(ArgumentError) -> T) -> ArgumentError? {
        do {
            _ = try parse()
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownWorkloadNamesFlagAndAllowedValues() {
        let e = parseError { () throws(ArgumentError) in try NameList<WorkloadID>(parsing: "send,nope", flag: "--workload") }
        #expect(e?.flag == "--workload")
        #expect(e?.message.contains("'nope'") == true)
        #expect(e?.message.contains("send-map") == true && e?.message.contains("hop") == true)
        #expect(NameList<WorkloadID>.allowed.contains("send-map"))
    }

    @Test func unknownSubject() {
        let e = parseError { () throws(ArgumentError) in try NameList<SubjectID>(parsing: "rxswift", flag: "--subject") }
        #expect(e?.flag == "--subject")
        #expect(e?.message.contains("lockfree") == true)
        #expect(parseError { () throws(ArgumentError) in try NameList<SubjectID>(parsing: ",", flag: "--subject") }?.flag == "--subject")
    }

    @Test func zeroOrBadThreads() {
        #expect(parseError { () throws(ArgumentError) in try ThreadCountList(parsing: "0") }?.flag == "--threads")
        #expect(parseError { () throws(ArgumentError) in try ThreadCountList(parsing: "2,x") }?.flag == "--threads")
        #expect(parseError { () throws(ArgumentError) in try ThreadCountList(parsing: "65") }?.message.contains("1 to 64") == true)
        #expect(error { $0.threads = [0] }?.flag == "--threads")
        #expect(error { $0.threads = [2, 65] }?.flag == "--threads")
    }

    @Test func negativeAndZeroCounts() {
        #expect(error { $0.stages = -1 }?.flag == "--stages")
        #expect(error { $0.subscribers = 0 }?.flag == "--subscribers")
        #expect(error { $0.depth = -5 }?.flag == "--depth")
        #expect(error { $0.repetitions = 0 }?.flag == "--repetitions")
        #expect(error { $0.sampleEvery = 48 }?.flag == "--sample-every")
        #expect(error { $0.stages = -1 }?.message.contains("1 to") == true)
    }

    /// A list with an empty item or a repeated one is a mistake: an error naming the flag.
    @Test func emptyAndRepeatedListItems() {
        for text in ["send,,chain", "send,", ",send", "", " ", "send,send"] {
            #expect(parseError { () throws(ArgumentError) in try NameList<WorkloadID>(parsing: text, flag: "--workload") }?.flag == "--workload", "\(text)")
            #expect(parseError { () throws(ArgumentError) in try ThreadCountList(parsing: text.replacingOccurrences(of: "send", with: "2")) }?.flag == "--threads", "\(text)")
        }
        for text in ["lockfree,,mutex", "lockfree,lockfree", "", "mutex,"] {
            #expect(parseError { () throws(ArgumentError) in try DeliveryVariant.parseList(text) }?.flag == "--variant", "\(text)")
        }
        #expect(error { $0.workloads = [.send, .send] }?.message.contains("given twice") == true)
        #expect(error { $0.subjects = [.mutex, .mutex] }?.flag == "--subject")
        #expect(error { $0.threads = [2, 2] }?.flag == "--threads")
    }

    /// The shared checks: non-finite and out-of-range values name the flag and the range.
    @Test func sharedNumericChecks() {
        for bad in [Double.infinity, -.infinity, .nan, 0, -1, 604_801, 1e300] {
            let e = parseError { () throws(ArgumentError) in try ArgumentCheck.positiveSeconds(bad, flag: "--duration") }
            #expect(e?.flag == "--duration" && e?.message.contains("at most 604800") == true, "\(bad)")
        }
        #expect((try? ArgumentCheck.positiveSeconds(0.5, flag: "--duration")) == 0.5)
        #expect(parseError { () throws(ArgumentError) in try ArgumentCheck.finite(.nan, flag: "--x", in: 0...100, what: "a percentage") }?.flag == "--x")
        #expect(parseError { () throws(ArgumentError) in try ArgumentCheck.whole(65, flag: "--threads", in: 1...64) }?.message.contains("1 to 64") == true)
    }

    /// One spelling per name: another case is an error naming the accepted spelling.
    @Test func namesHaveOneSpelling() {
        #expect(throws: ArgumentError.self) { try NameList<WorkloadID>(parsing: "SEND", flag: "--workload") }
        #expect(throws: ArgumentError.self) { try NameList<SubjectID>(parsing: "lockFree", flag: "--subject") }
        #expect(throws: ArgumentError.self) { try DeliveryVariant.parseList("lockFree") }
        #expect(throws: ArgumentError.self) { try DeliveryVariant.parseList("all") }
        #expect((try? DeliveryVariant.parseList("mutex,lockfree")) == [.mutex, .lockFree])
        #expect(DeliveryVariant.allCases.map(\.commandLineName) == [SubjectID.lockfree.rawValue, SubjectID.mutex.rawValue])
    }

    @Test func validOptionsBecomeParameters() throws {
        var o = RunOptions()
        o.workloads = try NameList<WorkloadID>(parsing: "contended, send", flag: "--workload").names
        o.subjects = try NameList<SubjectID>(parsing: "lockfree", flag: "--subject").names
        o.threads = try ThreadCountList(parsing: "1,2,16").counts
        o.stages = 3
        o.quick = true
        let p = try o.parameters()
        #expect(p.workloads == [.contended, .send])
        #expect(p.subjects == [.lockfree])
        #expect(p.threads == [1, 2, 16])
        #expect(p.stages == 3)
        #expect(p.quick)
        #expect(p.cases().map(\.key) == ["send", "contended[1 threads]", "contended[2 threads]", "contended[16 threads]"])
    }
}

/// A report with every optional part filled in.
func sampleReport(ns: Double = 20, allocs: Double = 0, status: CaseStatus = .ok, p99: UInt64 = 100,
                  halfWidth: Double? = 0.5, cpu: String = "Test CPU") -> BenchReport {
    let machine = MachineInfo(cores: 2, cpuModel: cpu, toolchain: "Swift 6.3", buildConfiguration: "release",
                              allocator: "jemalloc", os: "Linux", date: "2026-01-01T00:00:00Z", timerOverheadNs: 20)
    var r = CaseResult(spec: CaseSpec(workload: .sendMap, stages: 1), subject: .lockfree, status: status)
    r.throughput = ThroughputStats(operations: 1000, repetitionsNsPerOp: [ns, ns * 1.1, ns * 0.9])
    let summary = LatencySummary(count: 10, p50: 40, p90: 50, p99: p99, p999: 200, p9999: 300, max: 400,
                                 distribution: [PercentilePoint(percentile: 0, ns: 30), PercentilePoint(percentile: 99.9, ns: 200)])
    r.latency = LatencyStats(sampleEvery: 64, send: summary, endToEnd: summary)
    r.allocations = AllocationStats(source: AllocationMeter.jemallocSource, countPerOp: allocs, bytesPerOp: allocs * 32,
                                    repetitionsCountPerOp: [allocs, allocs, allocs])
    r.counters = ["x": 1]
    if let halfWidth { r.interval = Interval(estimate: ns, lower: ns - halfWidth, upper: ns + halfWidth) }
    var m = CaseResult(spec: CaseSpec(workload: .sendMap, stages: 1), subject: .mutex, status: .ok)
    m.throughput = ThroughputStats(operations: 1000, repetitionsNsPerOp: [50])
    let u = CaseResult(spec: CaseSpec(workload: .fanout, caseLabel: "100 subscribers", subscribers: 100), subject: .asyncstream,
                       status: .unsupported, reason: "no broadcast")
    let results = [r, m, u]
    return BenchReport(machine: machine, parameters: Parameters(), results: results, targets: Targets.evaluate(results))
}

@Suite("JSON schema")
struct JSONSchemaTests {
    @Test func roundTrip() throws {
        let report = sampleReport()
        let data = try JSONReport.encode(report)
        let back = try JSONReport.decode(data)
        #expect(back.schemaVersion == 3)
        #expect(back.machine == report.machine)
        #expect(back.parameters == report.parameters)
        #expect(back.targets == report.targets)
        #expect(back.results.count == 3)
        #expect(back.results[0].throughput == report.results[0].throughput)
        #expect(back.results[0].latency == report.results[0].latency)
        #expect(back.results[0].allocations == report.results[0].allocations)
        #expect(back.results[2].reason == "no broadcast")
        // Stable: encoding the decoded report gives the same bytes.
        #expect(try JSONReport.encode(back) == data)
    }

    /// Schema 2 only added optional fields, so a schema-1 baseline (no per-repetition
    /// allocation counts) still loads for `compare`.
    @Test func schemaOneReportsStillLoad() throws {
        var report = sampleReport()
        report.schemaVersion = 1
        for i in report.results.indices { report.results[i].allocations?.repetitionsCountPerOp = nil }
        let back = try JSONReport.decode(JSONReport.encode(report))
        #expect(back.schemaVersion == 1)
        #expect(back.results[0].allocations?.repetitionsCountPerOp == nil)
        #expect(back.results[0].allocations?.countPerOp == report.results[0].allocations?.countPerOp)
    }

    @Test func allocationsAreTheMedianOfTheRepetitions() {
        let a = AllocationStats(source: "test", repetitions: [(0.15, 10), (3.2, 100), (3.0, 96), (3.0, 96), (2.9, 90)])
        #expect(a.countPerOp == 3.0)
        #expect(a.bytesPerOp == 96)
        #expect(a.countRange?.min == 0.15 && a.countRange?.max == 3.2)
        #expect(a.repetitionsCountPerOp == [0.15, 3.2, 3.0, 3.0, 2.9])
    }

    @Test func topLevelFieldsAreTheDocumentedOnes() throws {
        let object = try JSONSerialization.jsonObject(with: JSONReport.encode(sampleReport())) as? [String: Any]
        #expect(Set(object?.keys.map { $0 } ?? []) == ["schemaVersion", "tool", "machine", "parameters", "results", "targets", "passed", "consistency"])
    }

    func loadError(_ text: String) -> String? {
        do {
            _ = try JSONReport.decode(Data(text.utf8), name: "x.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func wrongSchemasAreRejectedClearly() throws {
        #expect(loadError("not json")?.contains("not valid JSON") == true)
        #expect(loadError("[1,2]")?.contains("not a bench report") == true)
        #expect(loadError("{\"results\": []}")?.contains("schemaVersion") == true)
        #expect(loadError("{\"schemaVersion\": 4}")?.contains("allowed: 1, 2, 3") == true)
        #expect(loadError("{\"schemaVersion\": 1, \"tool\": \"x\"}")?.contains("wrong schema") == true)
        do {
            _ = try JSONReport.load(path: "/nonexistent/report.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("cannot read"))
        }
    }
}

@Suite("compare")
struct CompareTests {
    @Test func thresholdParsing() {
        #expect(Comparison.parseThreshold("10%") == 10)
        #expect(Comparison.parseThreshold("2.5") == 2.5)
        #expect(Comparison.parseThreshold("-1%") == nil)
        #expect(Comparison.parseThreshold("ten") == nil)
    }

    @Test func changeWithinThresholdIsNotARegression() {
        let c = Comparison.compare(baseline: sampleReport(ns: 20), current: sampleReport(ns: 21.5), thresholdPercent: 10)
        #expect(c.regressions.isEmpty)
        let row = c.rows.first { $0.subject == .lockfree && $0.figure == "ns/value" }
        #expect(abs((row?.changePercent ?? 0) - 7.5) < 0.01)
    }

    @Test func growthBeyondThresholdIsARegression() {
        let c = Comparison.compare(baseline: sampleReport(ns: 20), current: sampleReport(ns: 25), thresholdPercent: 10)
        #expect(c.regressions.contains { $0.subject == .lockfree && $0.figure == "ns/value" })
        #expect(c.render().contains("REGRESSION"))
        // ... but not with a looser threshold.
        let loose = Comparison.compare(baseline: sampleReport(ns: 20), current: sampleReport(ns: 25), thresholdPercent: 30)
        #expect(loose.regressions.isEmpty)
    }

    @Test func improvementIsNotARegression() {
        let c = Comparison.compare(baseline: sampleReport(ns: 20), current: sampleReport(ns: 10), thresholdPercent: 0)
        #expect(c.regressions.isEmpty)
    }

    @Test func latencyAndAllocationsAreCompared() {
        // A percentile is one sample with no interval: its change is reported, never a verdict.
        let lat = Comparison.compare(baseline: sampleReport(p99: 100), current: sampleReport(p99: 200), thresholdPercent: 10)
        #expect(lat.regressions.isEmpty)
        let p99 = lat.rows.first { $0.figure == "end-to-end p99 ns" }
        #expect(abs((p99?.changePercent ?? 0) - 100) < 0.01)
        #expect(p99?.note?.contains("reported only") == true)
        // Allocation noise below the floor is ignored; a real per-value allocation is not.
        let noise = Comparison.compare(baseline: sampleReport(allocs: 0), current: sampleReport(allocs: 0.001), thresholdPercent: 10)
        #expect(noise.regressions.isEmpty)
        let real = Comparison.compare(baseline: sampleReport(allocs: 0), current: sampleReport(allocs: 1), thresholdPercent: 10)
        #expect(real.regressions.contains { $0.figure == "allocs/value" })
    }

    /// A change is a regression only when the reports can support it.
    @Test func noVerdictWithoutIntervalsOrAcrossMachines() {
        // Overlapping intervals: 25 ± 6 against 20 ± 6 is noise, not a regression.
        let overlap = Comparison.compare(baseline: sampleReport(ns: 20, halfWidth: 6), current: sampleReport(ns: 25, halfWidth: 6),
                                         thresholdPercent: 10)
        #expect(overlap.regressions.isEmpty)
        // One-launch reports carry no interval.
        let bare = Comparison.compare(baseline: sampleReport(ns: 20, halfWidth: nil), current: sampleReport(ns: 30, halfWidth: nil),
                                      thresholdPercent: 10)
        #expect(bare.regressions.isEmpty)
        #expect(bare.rows.contains { $0.note?.contains("no 95% interval") == true })
        // Different machines: no timing verdict, however large the change.
        let other = Comparison.compare(baseline: sampleReport(ns: 20), current: sampleReport(ns: 40, cpu: "Other CPU"),
                                       thresholdPercent: 10)
        #expect(other.regressions.isEmpty)
        #expect(other.rows.contains { $0.note?.contains("different machines") == true })
        // Allocation counts are still judged across machines.
        let allocs = Comparison.compare(baseline: sampleReport(allocs: 0), current: sampleReport(allocs: 1, cpu: "Other CPU"),
                                        thresholdPercent: 10)
        #expect(allocs.regressions.contains { $0.figure == "allocs/value" })
    }

    @Test func brokenGuaranteeIsARegression() {
        let c = Comparison.compare(baseline: sampleReport(), current: sampleReport(status: .failed), thresholdPercent: 10)
        #expect(c.regressions.contains { $0.figure == "status" })
    }
}

@Suite("reports and targets")
struct ReportTests {
    @Test func targetsAreJudged() {
        let t = sampleReport(ns: 14).targets
        #expect(t.first { $0.id == "send-map" }?.verdict == .met)
        #expect(sampleReport(ns: 16).targets.first { $0.id == "send-map" }?.verdict == .notMet)
        #expect(t.first { $0.id == "fanout" }?.verdict == .notMeasured)
    }

    @Test func renderersShowEveryRowAndStatus() {
        let report = sampleReport()
        let text = TextReport.render(report)
        #expect(text.contains("== send-map"))
        #expect(text.contains("unsupported: no broadcast"))
        #expect(text.contains("result: PASS"))
        let md = MarkdownReport.render(report)
        #expect(md.contains("| subject |"))
        let svg = SVGPlot.render(report)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 1)
        let failing = sampleReport(status: .failed)
        #expect(!failing.passed)
        #expect(TextReport.render(failing).contains("result: FAIL"))
    }
}
