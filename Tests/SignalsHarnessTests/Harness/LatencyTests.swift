import Foundation
import Signals
import SignalsReports
import SignalsWorkloads
import Testing

/// Spins for `ns` nanoseconds on the harness clock.
private func spin(_ ns: UInt64) {
    let end = monotonicNanos() &+ ns
    while monotonicNanos() < end {}
}

/// A subject on a direct graph of the library whose handler does extra work after the checker
/// has seen (and, in an end-to-end round, stamped) the value:
/// - `.always`: a heavier handler, every value;
/// - `.whileObserved`: only while the checker stores latency timestamps, i.e. a heavier
///   observer: the cost a handler's own sampling adds.
struct HeavyHandlerSubject: BenchSubject {
    enum Extra: Sendable { case none, always, whileObserved }
    let variant: DeliveryVariant
    let extra: Extra
    let extraNs: UInt64
    var id: SubjectID { variant == .lockFree ? .lockfree : .mutex }
    func support(for spec: CaseSpec) -> Support { .inProcess }

    struct Sender: ValueSender {
        let input: SignalInput<Int>
        func send(_ value: Int) { input.send(value: value) }
    }

    func run(_ ctx: RunContext) throws {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = ctx.makeChecker(senders: 1)
        let heavy = extra == .always || (extra == .whileObserved && c.stampsLatency)
        let ns = extraNs
        let output = signal.subscribeValues { v in
            c.receive(v)
            if heavy { spin(ns) }
        }
        defer { output.cancel(); input.cancel() }
        ctx.driveSequential(Sender(input: input), checker: c)
    }
}

@Suite("latency without observer effect", .serialized)
struct LatencyObserverTests {
    static func measure(_ subject: HeavyHandlerSubject) throws -> (send: Double, endToEnd: Double) {
        var p = Parameters()
        p.repetitions = 1
        p.targetRepetitionMilliseconds = 20
        p.latencySampleEvery = 4
        let r = Runner(parameters: p, subjects: [subject]).measure(subject, CaseSpec(workload: .send))
        #expect(r.status == .ok, "\(r.reason ?? "")")
        let l = try #require(r.latency)
        return (Double(try #require(l.send).p50), Double(try #require(l.endToEnd).p50))
    }

    /// 20 µs of extra handler work, far above a send's cost in any build, so the figure that
    /// must move moves by most of it and the one that must not stays far below it.
    static let extraNs: UInt64 = 20_000

    /// A heavier handler is inside the send call on a direct graph: the send-call p50 grows by
    /// about the extra work. The end-to-end sample ends where the handler stamps the value,
    /// before the extra work, so it does not.
    @Test(arguments: DeliveryVariant.allCases)
    func heavierHandlerMovesOnlyTheSendCall(variant: DeliveryVariant) throws {
        let light = try Self.measure(HeavyHandlerSubject(variant: variant, extra: .none, extraNs: 0))
        let heavy = try Self.measure(HeavyHandlerSubject(variant: variant, extra: .always, extraNs: Self.extraNs))
        let k = Double(Self.extraNs)
        #expect(heavy.send - light.send > 0.8 * k, "send call: light \(light.send) ns, heavy \(heavy.send) ns")
        #expect(heavy.endToEnd - light.endToEnd < 0.25 * k, "end-to-end: light \(light.endToEnd) ns, heavy \(heavy.endToEnd) ns")
    }

    /// A heavier observer (work the handler does only while latency is being sampled) must
    /// move neither figure: the send call is timed in a round whose handler stores nothing, and
    /// the end-to-end stamp comes before it. When the handler recorded its end-to-end sample
    /// inside the timed send, the send-call figure included that work.
    @Test(arguments: DeliveryVariant.allCases)
    func heavierObserverMovesNoFigure(variant: DeliveryVariant) throws {
        let light = try Self.measure(HeavyHandlerSubject(variant: variant, extra: .none, extraNs: 0))
        let observed = try Self.measure(HeavyHandlerSubject(variant: variant, extra: .whileObserved, extraNs: Self.extraNs))
        let k = Double(Self.extraNs)
        #expect(observed.send - light.send < 0.25 * k, "send call: light \(light.send) ns, observed \(observed.send) ns")
        #expect(observed.endToEnd - light.endToEnd < 0.25 * k, "end-to-end: light \(light.endToEnd) ns, observed \(observed.endToEnd) ns")
    }
}

@Suite("latency clock")
struct LatencyClockTests {
    @Test func tscIsUsedOnlyWhereInvariant() {
        let both = "processor : 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc rdtscp\n"
        #expect(LatencyClock.tscIsInvariant(cpuinfo: both, clocksource: "tsc\n"))
        #expect(!LatencyClock.tscIsInvariant(cpuinfo: both, clocksource: "kvm-clock\n"))
        #expect(!LatencyClock.tscIsInvariant(cpuinfo: "flags : fpu tsc constant_tsc\n", clocksource: "tsc"))
        #expect(!LatencyClock.tscIsInvariant(cpuinfo: "flags : fpu tsc nonstop_tsc\n", clocksource: "tsc"))
        #expect(!LatencyClock.tscIsInvariant(cpuinfo: "", clocksource: "tsc"))
    }

    /// The clock ticks forward at the calibrated rate: 20 ms of CLOCK_MONOTONIC is 20 ms of it
    /// (within 10%: a preemption between the reads lengthens one side only).
    @Test func calibratedAgainstTheMonotonicClock() {
        let clock = LatencyClock.measure(reads: 1_001)
        #expect(clock.costNs > 0 && clock.costNs < 100_000, "cost \(clock.costNs)")
        #expect(clock.resolutionNs > 0 && clock.resolutionNs <= clock.costNs * 10 + 1_000, "resolution \(clock.resolutionNs)")
        var ratios: [Double] = []
        for _ in 0..<3 {
            let t0 = LatencyClock.now(), n0 = monotonicNanos()
            usleep(20_000)
            let t1 = LatencyClock.now(), n1 = monotonicNanos()
            ratios.append(LatencyClock.nanoseconds(t1 - t0) / Double(n1 - n0))
        }
        #expect(ratios.contains { abs($0 - 1) < 0.1 }, "\(ratios) (\(LatencyClock.source))")
    }
}

@Suite("latency consistency check")
struct LatencyConsistencyTests {
    static let clock = ClockInfo(source: "tsc", costNs: 20, resolutionNs: 10, nsPerTick: 0.4)

    static func summary(p50: UInt64) -> LatencySummary {
        LatencySummary(count: 1_000, p50: p50, p90: p50, p99: p50, p999: p50, p9999: p50, max: p50, distribution: [])
    }

    static func result(_ workload: WorkloadID, _ subject: SubjectID, nsPerValue: Double, rawP50: UInt64?,
                       clock: ClockInfo? = clock, hop: HopContext? = nil) -> CaseResult {
        let spec = hop.map { CaseSpec(workload: .hop, caseLabel: $0.rawValue, hop: $0) } ?? CaseSpec(workload: workload)
        var r = CaseResult(spec: spec, subject: subject, status: .ok)
        r.throughput = ThroughputStats(operations: 1_000, repetitionsNsPerOp: [nsPerValue, nsPerValue, nsPerValue])
        if let rawP50 {
            let corrected = summary(p50: UInt64(max(0, Double(rawP50) - (clock?.costNs ?? 0))))
            r.latency = LatencyStats(sampleEvery: 64, send: corrected, endToEnd: nil, clock: clock,
                                     sendRaw: clock == nil ? nil : summary(p50: rawP50))
        }
        return r
    }

    static let machine = MachineInfo(cores: 2, cpuModel: "Test CPU", toolchain: "Swift 6.3", buildConfiguration: "release",
                                     allocator: "jemalloc", os: "Linux", date: "2026-01-01T00:00:00Z")

    /// The figures agree: 33 ns raw − 20 ns clock = 13 ns against 13.4 ns per value.
    @Test func agreeingFiguresPass() throws {
        let results = [Self.result(.send, .lockfree, nsPerValue: 13.4, rawP50: 33), Self.result(.sendMap, .mutex, nsPerValue: 27, rawP50: 45)]
        let checks = LatencyConsistency.check(results)
        #expect(checks.count == 2 && checks.allSatisfy(\.consistent))
        let report = BenchReport(machine: Self.machine, parameters: Parameters(), results: results, targets: [])
        #expect(report.passed)
        let text = TextReport.render(report)
        #expect(text.contains("send-call p50 vs ns/value, lockfree: consistent (p50 13.0 ns vs 13.4 ns/value"), "\(text)")
        #expect(text.contains("result: PASS"))
    }

    /// The contradiction bench used to print (send call p50 80 ns against 13 ns per value)
    /// fails the report, which names the gap.
    @Test func contradictingFiguresFail() throws {
        let results = [Self.result(.send, .lockfree, nsPerValue: 13, rawP50: 100)]
        let check = try #require(LatencyConsistency.check(results).first)
        #expect(!check.consistent)
        #expect(check.gapNs == 67 && check.highestNs == 28)
        let report = BenchReport(machine: Self.machine, parameters: Parameters(), results: results, targets: [])
        #expect(!report.passed)
        let text = TextReport.render(report)
        #expect(text.contains("INCONSISTENT (p50 80.0 ns vs 13.0 ns/value: gap +67.0 ns"), "\(text)")
        #expect(text.contains("result: FAIL"))
        #expect(MarkdownReport.render(report).contains("**Result: FAIL**"))
        #expect(HTMLReport.render(report).contains("latency contradicts throughput"))
        // The verdict travels in the JSON.
        let decoded = try JSONReport.decode(Data(JSONReport.render(report).utf8))
        #expect(decoded.passed == false && decoded.consistency?.first?.consistent == false)
    }

    /// The accepted p50s: the span of the timed rounds, widened on both sides by the clock's
    /// resolution + max(5 ns, 25% of the figure).
    @Test func marginIsTheRoundsSpanPlusResolutionPlusStatedMargin() throws {
        // Rounds all at 100: 10 ns resolution + max(5, 0.25 × 100) = 35 ns; 134 passes, 136 does not.
        #expect(try #require(LatencyConsistency.check([Self.result(.send, .opencombine, nsPerValue: 100, rawP50: 154)]).first).consistent)
        #expect(try !#require(LatencyConsistency.check([Self.result(.send, .opencombine, nsPerValue: 100, rawP50: 156)]).first).consistent)
        #expect(try !#require(LatencyConsistency.check([Self.result(.send, .opencombine, nsPerValue: 100, rawP50: 84)]).first).consistent)
        // Rounds from 90 to 130 (a machine that drifted, a thread preempted): 55 to 165 agree.
        var spread = Self.result(.send, .opencombine, nsPerValue: 100, rawP50: 170)
        spread.throughput = ThroughputStats(operations: 1_000, repetitionsNsPerOp: [90, 100, 130])
        let c = try #require(LatencyConsistency.check([spread]).first)
        #expect(c.consistent && c.lowestNs == 55 && c.highestNs == 165)
        #expect(c.summary == "consistent (p50 150 ns vs 100 ns/value: gap +50.0 ns; rounds 90.0–130 ± 35.0)", "\(c.summary)")
    }

    /// Only one-thread direct cases are checked, and only reports that carry their clock.
    @Test func appliesToDirectOneThreadCasesOnly() {
        let results = [
            Self.result(.send, .asyncstream, nsPerValue: 1_300, rawP50: 100),
            Self.result(.contended, .lockfree, nsPerValue: 13, rawP50: 100),
            Self.result(.fanout, .lockfree, nsPerValue: 3, rawP50: 300),
            Self.result(.hop, .lockfree, nsPerValue: 500, rawP50: 60, hop: .serialQueue),
            Self.result(.send, .lockfree, nsPerValue: 13, rawP50: 100, clock: nil),
            Self.result(.send, .lockfree, nsPerValue: 13, rawP50: nil),
        ]
        #expect(LatencyConsistency.check(results).isEmpty)
        #expect(LatencyConsistency.check([Self.result(.hop, .mutex, nsPerValue: 25, rawP50: 45, hop: .direct)]).count == 1)
    }
}

@Suite("bench latency: open loop", .serialized)
struct OpenLoopTests {
    @Test func scheduleSpreadsSendersEvenly() {
        let s = OpenLoopSchedule(rate: 1_000_000, senders: 2)
        s.start = 1_000_000
        // 1M/s over two senders: each sends every 2 µs, sender 1 half an interval after sender 0.
        #expect(abs(s.intervalNs - 2_000) < 0.01)
        let d0 = LatencyClock.nanoseconds(s.due(sender: 0, index: 3) - s.start)
        let d1 = LatencyClock.nanoseconds(s.due(sender: 1, index: 3) - s.start)
        #expect(abs(d0 - 6_000) < 2 && abs(d1 - 7_000) < 2, "\(d0) \(d1)")
    }

    static func point(_ offered: Double, achieved: Double? = nil, p99: UInt64) -> LatencyPoint {
        LatencyPoint(offeredPerSecond: offered, achievedPerSecond: achieved ?? offered, values: 1_000, samples: 1_000, lateSamples: 0,
                     fromSchedule: LatencyConsistencyTests.summary(p50: p99), serviceCorrected: nil)
    }

    /// The knee: the last point before p99 rises above 4× the lowest p99 before it + 1 µs, or
    /// before the subject stops keeping up.
    @Test func kneeIsTheLastPointBeforeTheRise() {
        var c = LatencyCurve(spec: CaseSpec(workload: .send), subject: .lockfree, status: .ok,
                             points: [Self.point(1e5, p99: 200), Self.point(2e5, p99: 150), Self.point(4e5, p99: 900),
                                      Self.point(8e5, p99: 50_000)])
        #expect(c.knee?.offeredPerSecond == 4e5)
        c.points[2] = Self.point(4e5, achieved: 3e5, p99: 900)
        #expect(c.knee?.offeredPerSecond == 2e5)
        #expect(c.kneeSummary.contains("knee at 200k/s") && c.kneeSummary.contains("saturated at 400k/s offered: 300k/s delivered"), "\(c.kneeSummary)")
    }

    /// A sweep of a direct graph at low rates: every value sampled, every sample delivered and
    /// timed from its schedule, never shorter than its service time; the report renders in
    /// every format. (Whether a rate is kept up with is the machine's business: on a loaded
    /// machine even these rates may not be, and the sweep then stops there.)
    @Test(arguments: DeliveryVariant.allCases)
    func sweepSamplesEveryValueFromItsSchedule(variant: DeliveryVariant) throws {
        var p = LatencySweepParameters()
        p.workloads = [.send]
        p.subjects = [variant == .lockFree ? .lockfree : .mutex]
        p.rates = [20_000, 40_000]
        p.durationSeconds = 0.05
        let curves = OpenLoopRunner(parameters: p, subjects: SubjectRegistry.all()).runAll()
        let c = try #require(curves.first)
        #expect(curves.count == 1 && c.status == .ok, "\(c.reason ?? "")")
        #expect(!c.points.isEmpty && c.points.count <= 2)
        for pt in c.points {
            #expect(pt.values == Int(pt.offeredPerSecond * 0.05))
            #expect(pt.samples == pt.values, "every value sampled at these rates")
            let s = try #require(pt.fromSchedule), v = try #require(pt.serviceCorrected)
            #expect(s.count == UInt64(pt.samples))
            // Each sample from its schedule is at least its service time (the send is never early).
            #expect(s.max + 2 >= v.max, "from schedule max \(s.max), service max \(v.max)")
        }
        if c.points.count == 2 { #expect(c.points[0].keptUp, "the sweep goes on only after a rate kept up with") }
        let report = LatencyCurveReport(machine: LatencyConsistencyTests.machine, parameters: p, curves: curves)
        #expect(report.rendered(.text).contains("== send — one thread, input → subscriber =="))
        #expect(report.rendered(.html).contains("<polyline"))
        #expect(report.rendered(.csv).hasPrefix("workload,case,subject,status,offered_per_s"))
        let decoded = try JSONDecoder().decode(LatencyCurveReport.self, from: Data(report.rendered(.json).utf8))
        #expect(decoded.curves == curves)
    }

    /// A handler slower than the offered rate (50 µs a value: at most 20k/s, offered 100k/s):
    /// the subject does not keep up, the sweep stops at that rate, and the latency counted
    /// from the schedule includes the producer's lag (late samples), far above the handler's
    /// own 50 µs: the open loop sees the queueing a closed loop would hide (coordinated
    /// omission).
    @Test func saturatedSubjectShowsTheBacklog() throws {
        let subject = HeavyHandlerSubject(variant: .lockFree, extra: .always, extraNs: 50_000)
        var p = LatencySweepParameters()
        p.rates = [100_000, 200_000]
        p.durationSeconds = 0.05
        let c = OpenLoopRunner(parameters: p, subjects: [subject]).sweep(subject, CaseSpec(workload: .send))
        #expect(c.status == .ok, "\(c.reason ?? "")")
        #expect(c.points.count == 1, "stops after the first rate not kept up")
        let sat = try #require(c.points.first)
        #expect(!sat.keptUp && sat.achievedPerSecond < 25_000, "\(sat.achievedPerSecond)/s")
        #expect(sat.lateSamples > sat.samples / 2)
        #expect(Double(sat.fromSchedule?.p99 ?? 0) > 1_000_000, "p99 \(sat.fromSchedule?.p99 ?? 0) ns")
        #expect(c.knee == nil && c.kneeSummary.hasPrefix("past the knee at the lowest rate"))
    }

    /// Unsupported pairs are reported with their reason, not run.
    @Test func unsupportedPairsAreReported() {
        var p = LatencySweepParameters()
        p.workloads = [.hop]
        p.subjects = [.opencombine]
        let curves = OpenLoopRunner(parameters: p, subjects: SubjectRegistry.all()).runAll()
        #expect(curves.count == 3 && curves.allSatisfy { $0.status == .unsupported && $0.reason != nil })
    }
}

@Suite("bench latency: arguments")
struct LatencyArgumentTests {
    @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "0", "-5", "-1k", "2G", "1e300", "1M,,2M", "", ",", "1M,", "fast", "1k5", "999"])
    func badRatesNameTheFlag(text: String) {
        #expect(throws: ArgumentError.self) { try RateList(parsing: text) }
        do {
            _ = try RateList(parsing: text)
        } catch {
            #expect(error.flag == "--rates" && error.message.contains("1k to 1G"), "\(error)")
        }
    }

    @Test func ratesWithSuffixes() throws {
        #expect(try RateList(parsing: "50k, 1.5M,2e6,1G,1000").rates == [50_000, 1_500_000, 2_000_000, 1e9, 1_000])
        #expect(RateList.spelled(1_500_000) == "1.5M" && RateList.spelled(50_000) == "50k" && RateList.spelled(51_200_000) == "51.2M")
    }

    @Test(arguments: ["nan", "inf", "0", "-1", "1e9", "", "61", "0.001", "soon"])
    func badDurationsNameTheFlag(text: String) {
        var o = LatencyOptions()
        o.duration = text
        #expect(throws: ArgumentError.self) { try o.parameters() }
        do { _ = try o.parameters() } catch { #expect(error.flag == "--duration") }
    }

    @Test func optionsAndDefaults() throws {
        let d = try LatencyOptions().parameters()
        #expect(d.workloads == [.send, .contended, .hop] && d.durationSeconds == 0.1)
        #expect(d.rates.first == 50_000 && d.rates.last == 51_200_000)
        #expect(d.cases().map(\.key) == ["send", "contended[2 threads]", "hop[serial-queue]", "hop[global-queue]", "hop[task]"])
        var o = LatencyOptions()
        o.rates = [2e6, 1e6, 2e6]
        o.duration = "2s"
        o.threads = [4, 16]
        let p = try o.parameters()
        #expect(p.rates == [1e6, 2e6] && p.durationSeconds == 2 && p.threads == [4, 16])
        o.threads = [1]
        #expect(throws: ArgumentError.self) { try o.parameters() }
        o.threads = [17]
        #expect(throws: ArgumentError.self) { try o.parameters() }
        var w = LatencyOptions()
        w.workloads = [.chain]
        do { _ = try w.parameters(); Issue.record("chain accepted") } catch { #expect(error.flag == "--workload") }
        var r = LatencyOptions()
        r.rates = [.nan]
        do { _ = try r.parameters(); Issue.record("NaN accepted") } catch { #expect(error.flag == "--rates") }
        var s = LatencyOptions()
        s.sampleEvery = 3
        do { _ = try s.parameters(); Issue.record("3 accepted") } catch { #expect(error.flag == "--sample-every") }
    }

    @Test func samplingKeepsRoundsNearTwentyThousandSamples() {
        let p = LatencySweepParameters()
        #expect(p.sampling(values: 5_000) == 1)
        #expect(p.sampling(values: 20_000) == 1)
        #expect(p.sampling(values: 5_120_000) == 256)
    }
}

/// `bench latency`'s argument errors on the real command line: exit 2, the flag named.
@Suite("bench latency command line", .enabled(if: benchExecutable() != nil))
struct LatencyCLITests {
    @Test(arguments: [
        (["latency", "--rates", "nan"], "--rates"),
        (["latency", "--rates", "inf"], "--rates"),
        (["latency", "--rates", "0"], "--rates"),
        (["latency", "--rates=-1M"], "--rates"),
        (["latency", "--rates", "1e12"], "--rates"),
        (["latency", "--rates", "1M,,2M"], "--rates"),
        (["latency", "--duration", "nan"], "--duration"),
        (["latency", "--duration", "0"], "--duration"),
        (["latency", "--duration", "1e9"], "--duration"),
        (["latency", "--workload", "churn"], "--workload"),
        (["latency", "--threads", "1"], "--threads"),
        (["latency", "--sample-every", "3"], "--sample-every"),
        (["latency", "--format", "yaml"], "--format"),
        (["latency", "--output", "/nonexistent-dir/latency.json"], "--output"),
    ])
    func badArgumentsExitTwo(arguments: [String], mention: String) throws {
        let r = try runBench(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(mention), "\(r.stderr)")
    }

    /// A short sweep end to end: JSON on standard output, exit 0.
    @Test func shortSweepWritesJSON() throws {
        let r = try runBench(["latency", "--workload", "send", "--subject", "lockfree", "--rates", "10k,20k", "--duration", "0.02",
                              "--format", "json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(LatencyCurveReport.self, from: Data(r.stdout.utf8))
        #expect(report.curves.count == 1 && !report.curves[0].points.isEmpty)
    }
}
