import DeliveryFloor
import Foundation
import SignalsReports
import SignalsWorkloads
import Testing

/// The C model on its own: every modelled workload delivers every value, in order, with the
/// map applied, to handlers that accumulate into sinks the test reads back.
@Suite("floor model")
struct FloorModelTests {
    /// send (no stage), send-map (one) and a chain of ten: count and sum as sent plus the stages.
    @Test(arguments: [0, 1, 10])
    func stagesDeliverEveryValueMapped(stages: Int) throws {
        let created = floor_node_create(Int32(stages), floor_add_one, 0)
        let node = try #require(created)
        defer { floor_node_destroy(node) }
        var sink = floor_sum(count: 0, sum: 0)
        let n = 10_000
        withUnsafeMutablePointer(to: &sink) { s in
            floor_node_set_handler(node, floor_sum_handler, s)
            for i in 0..<n { #expect(floor_send(node, i) == 1) }
        }
        #expect(sink.count == n)
        #expect(sink.sum == n * (n - 1) / 2 + n * stages)
        #expect(node.pointee.contendedSends == 0)
    }

    /// Fan-out: each subscriber gets every value; a closed gate keeps a subscriber out.
    @Test func fanOutDeliversToEveryOpenSubscriber() throws {
        let subscribers = 8
        let created = floor_node_create(0, floor_add_one, Int32(subscribers))
        let node = try #require(created)
        defer { floor_node_destroy(node) }
        let sinks = UnsafeMutablePointer<floor_sum>.allocate(capacity: subscribers)
        sinks.initialize(repeating: floor_sum(count: 0, sum: 0), count: subscribers)
        defer { sinks.deallocate() }
        for i in 0..<subscribers { floor_node_set_branch(node, Int32(i), floor_sum_handler, sinks + i) }
        for i in 0..<1_000 { _ = floor_send(node, i) }
        node.pointee.branches[subscribers - 1].open = 0
        for i in 1_000..<2_000 { _ = floor_send(node, i) }
        for i in 0..<subscribers - 1 {
            #expect(sinks[i].count == 2_000)
            #expect(sinks[i].sum == 2_000 * 1_999 / 2)
        }
        #expect(sinks[subscribers - 1].count == 1_000)
    }

    /// A handler re-sending into its own node: the values are queued on the holder's ring and
    /// delivered after it returns, so a chain far deeper than the stack allows completes, in
    /// order, on the thread that sent the first value.
    @Test func reentrantChainIsQueuedNotRecursive() throws {
        let created = floor_node_create(0, floor_add_one, 0)
        let node = try #require(created)
        defer { floor_node_destroy(node) }
        let depth = 1_000_000
        var resend = floor_resend(node: node, depth: depth, sink: floor_sum(count: 0, sum: 0))
        withUnsafeMutablePointer(to: &resend) { r in
            floor_node_set_handler(node, floor_resend_handler, r)
            #expect(floor_send(node, 0) == 1)
        }
        #expect(resend.sink.count == depth + 1)
        #expect(resend.sink.sum == depth * (depth + 1) / 2)
        #expect(node.pointee.claim == 0)
    }

    /// An ended input refuses values; the claim is left idle after every send.
    @Test func closedInputRefuses() throws {
        let created = floor_node_create(1, floor_add_one, 0)
        let node = try #require(created)
        defer { floor_node_destroy(node) }
        var sink = floor_sum(count: 0, sum: 0)
        withUnsafeMutablePointer(to: &sink) { s in
            floor_node_set_handler(node, floor_sum_handler, s)
            #expect(floor_send(node, 1) == 1)
            floor_node_close(node)
            #expect(floor_send(node, 2) == 0)
        }
        #expect(sink.count == 1 && sink.sum == 2)
        // Stages in front of a fan-out are not modelled: refused rather than ignored.
        let mixed = floor_node_create(1, floor_add_one, 2)
        #expect(mixed == nil)
    }
}

/// The floor as a subject of `bench run`: the harness's checks pass on each modelled workload,
/// the others say why not, and the merged results carry ×floor to every report format.
@Suite("floor subject", .serialized)
struct FloorSubjectTests {
    func parameters() -> Parameters {
        var p = tinyParameters()
        p.stallSeconds = 5
        p.subscribers = 10
        p.stages = 3
        p.threads = [2]
        return p
    }

    @Test(.tags(.startsThreads)) func runsEveryModelledWorkloadChecked() async {
        let subject = FloorSubject()
        let runner = Runner(parameters: parameters(), subjects: [subject])
        var ran: Set<String> = []
        for spec in parameters().cases() {
            let r = await offPool { runner.run(subject, spec) }
            let modelled = [WorkloadID.send, .sendMap, .chain, .fanout].contains(spec.workload)
                || (spec.workload == .reentrant && spec.threads == 0)
            if modelled {
                #expect(r.status == .ok, "\(spec.key): \(r.status) \(r.reason ?? "")")
                #expect(r.violations.isEmpty, "\(spec.key): \(r.violations)")
                #expect((r.throughput?.medianNsPerOp ?? 0) > 0, "\(spec.key)")
                ran.insert(spec.workload.rawValue)
            } else {
                #expect(r.status == .unsupported, "\(spec.key)")
                #expect((r.reason ?? "").hasPrefix("not modelled"), "\(spec.key): \(r.reason ?? "")")
            }
        }
        #expect(ran == ["send", "send-map", "chain", "fanout", "reentrant"])
    }

    /// Paired with the library in the same rounds, every other subject's row gets its ratio to
    /// the floor; the floor's own row has none.
    @Test(.tags(.startsThreads)) func pairedRoundsGiveEveryRowItsRatioToTheFloor() async throws {
        let spec = CaseSpec(workload: .sendMap, stages: 1)
        var p = parameters()
        p.repetitions = 3
        let subjects: [any BenchSubject] = [SubjectRegistry.subject(.lockfree)!, SubjectRegistry.subject(.mutex)!, FloorSubject()]
        let runner = Runner(parameters: p, subjects: subjects)
        let launches = await offPool { (0..<2).map { runner.measurePaired(subjects, spec, seed: UInt64($0)) } }
        let merged = Runner.merge(launches: launches, subjects: [.lockfree, .mutex, .floor], spec: spec, parameters: p)
        let floor = try #require(merged.first { $0.subject == .floor })
        #expect(floor.status == .ok && floor.versusFloor == nil)
        for id in [SubjectID.lockfree, .mutex] {
            let r = try #require(merged.first { $0.subject == id })
            let ratio = try #require(r.versusFloor, "\(id)")
            #expect(ratio.reference == "floor")
            #expect(ratio.ratio.lower <= ratio.ratio.estimate && ratio.ratio.estimate <= ratio.ratio.upper)
        }
        // The reference of ×mutex stays mutex with the floor beside it.
        #expect(merged.first { $0.subject == .lockfree }?.versus?.reference == "mutex")
        #expect(floor.versus?.reference == "mutex")
    }

    /// A report whose rows carry ×floor shows it in every format that shows ×mutex.
    @Test func everyFormatShowsTimesFloor() throws {
        let report = floorReport()
        let text = RunReport(report: report).rendered(.text)
        #expect(text.contains("×floor [95%]"), "\(text)")
        #expect(text.contains("2.50 [2.30–2.70]"), "\(text)")
        #expect(text.contains("floor: a C model of the single-thread delivery path"))
        let wide = RunReport(report: report, wide: true).rendered(.text)
        #expect(wide.contains("×floor (95%)") && wide.contains("2.50 [2.30–2.70]"), "\(wide)")
        let markdown = report.rendered(.markdown)
        #expect(markdown.contains("×floor (95%)") && markdown.contains("2.50 [2.30–2.70]"), "\(markdown)")
        let html = report.rendered(.html)
        #expect(html.contains("×floor [95%]") && html.contains("2.50 [2.30–2.70]"))
        #expect(html.contains("subject / floor with its 95% interval"))
        let csv = report.rendered(.csv).split(separator: "\n").map { Self.csvFields(String($0)) }
        let header = try #require(csv.first)
        let column = try #require(header.firstIndex(of: "ratio_to_floor"))
        #expect(header[column + 1] == "ratio_to_floor_lower95" && header[column + 2] == "ratio_to_floor_upper95")
        let lockfree = try #require(csv.first { $0.count > 2 && $0[2] == "lockfree" })
        #expect(Double(lockfree[column]) == 2.5 && Double(lockfree[column + 1]) == 2.3 && Double(lockfree[column + 2]) == 2.7)
        let json = JSONReport.render(report)
        #expect(json.contains("\"versusFloor\""))
        let back = try JSONReport.decode(Data(json.utf8))
        #expect(back.results.first { $0.subject == .lockfree }?.versusFloor?.ratio.estimate == 2.5)
        for line in text.split(separator: "\n") { #expect(line.count <= TextReport.width, "\(line)") }
    }

    /// A subject name is checked against the list that now includes the floor.
    @Test func floorIsANamedSubject() {
        #expect(SubjectID(rawValue: "floor") == .floor)
        #expect(!SubjectID.floor.isLibrary)
        #expect(SubjectRegistry.subject(.floor) is FloorSubject)
    }

    /// The fields of one CSV line (a quoted field may hold commas; "" is a quote).
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { field.append(c) }
            } else if c == "\"" {
                if field.last == "\"" || !field.isEmpty { field.append(c) }
                quoted = true
            } else if c == "," {
                fields.append(field); field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }

    func floorReport() -> BenchReport {
        let machine = MachineInfo(cores: 2, cpuModel: "Test CPU", toolchain: "Swift 6.3", buildConfiguration: "release",
                                  allocator: "jemalloc", os: "Linux", date: "2026-01-01T00:00:00Z", timerOverheadNs: 20)
        var p = Parameters()
        p.launches = 6
        let spec = CaseSpec(workload: .reentrant, caseLabel: "depth 1000000, 1 busy sender", threads: 1, depth: 1_000_000)
        func row(_ subject: SubjectID, _ ns: Double, floor: Double?, mutex: Double?) -> CaseResult {
            var r = CaseResult(spec: spec, subject: subject, status: .ok)
            r.throughput = ThroughputStats(operations: 1000, repetitionsNsPerOp: [ns, ns, ns])
            r.interval = Interval(estimate: ns, lower: ns * 0.9, upper: ns * 1.1)
            r.launchRounds = [[ns, ns, ns]]
            if let mutex {
                r.versus = PairedComparison(reference: "mutex", ratio: Interval(estimate: mutex, lower: mutex - 0.1, upper: mutex + 0.1),
                                            verdict: .faster, smallestEffect: 0.03, launches: 6, rounds: 30)
            }
            if let floor {
                r.versusFloor = PairedComparison(reference: "floor", ratio: Interval(estimate: floor, lower: floor - 0.2, upper: floor + 0.2),
                                                 verdict: .slower, smallestEffect: 0.03, launches: 6, rounds: 30)
            }
            return r
        }
        let results = [row(.lockfree, 1_234.5, floor: 2.5, mutex: 0.8), row(.mutex, 1_543.1, floor: 3.1, mutex: nil),
                       row(.floor, 493.8, floor: nil, mutex: 0.32)]
        return BenchReport(machine: machine, parameters: p, results: results, targets: [])
    }
}
