import ArgumentParser
import Foundation
import SignalsReports
import SignalsWorkloads

/// `bench latency`: latency against offered load, open loop (docs/bench-guide.md, "Latency").
struct LatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Latency against offered load: each workload driven at fixed rates (open loop), p50/p99/p99.9/max per rate, the knee per subject.",
        discussion: """
        Each rate is offered for --duration seconds: every send waits for its scheduled time, and \
        latency counts from that time to the handler, so a producer held up by the subject is \
        measured, not hidden (coordinated omission; wrk2's method). A subject's sweep stops after \
        the first rate it did not keep up with. The HTML report draws latency against throughput.
        """
    )

    @Option(name: .long, help: "Workloads, comma-separated: send, contended, hop (default: all three).")
    var workload: [NameList<WorkloadID>] = []

    @Option(name: .long, help: "Subjects to run, comma-separated (default: all). See `bench list`.")
    var subject: [NameList<SubjectID>] = []

    @Option(help: "Senders of `contended`, comma-separated, 2–16 (default: 2).",
            transform: { (text: String) throws -> ThreadCountList in
                do throws(ArgumentError) { return try ThreadCountList(parsing: text) } catch { throw ValidationError(error.message) }
            })
    var threads: [ThreadCountList] = []

    @Option(help: ArgumentHelp("Offered rates in values per second, comma-separated, with k, M or G (default: 50k doubling to 51.2M).",
                               valueName: "rates"),
            transform: { (text: String) throws -> RateList in
                do throws(ArgumentError) { return try RateList(parsing: text) } catch { throw ValidationError(error.message) }
            })
    var rates: [RateList] = []

    @Option(help: "Seconds each rate is offered, 0.01–60 (default: 0.1).")
    var duration: String?

    @Option(name: .customLong("sample-every"), help: "Sample one value in N, a power of two (default: every value up to 20,000 a round).")
    var sampleEvery: Int?

    @Flag(help: "Text with every column: the sample count and the service time with HdrHistogram's coordinated-omission correction.")
    var wide = false

    @OptionGroup var report: ReportOutput

    @OptionGroup var progressOptions: ProgressOptions

    var options: LatencyOptions {
        var o = LatencyOptions()
        o.workloads = workload.flatMap(\.names)
        o.subjects = subject.flatMap(\.names)
        o.threads = threads.flatMap(\.counts)
        o.rates = rates.flatMap(\.rates)
        o.duration = duration
        o.sampleEvery = sampleEvery
        return o
    }

    func validate() throws {
        do {
            _ = try options.parameters()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let parameters: LatencySweepParameters
        do {
            parameters = try options.parameters()
        } catch {
            throw UsageError(error.description)
        }
        let meter = progressOptions.meter("bench latency")
        let progress: @Sendable (OpenLoopProgress) -> Void = { event in
            switch event {
            case .curveStarted(let key, let subject): meter.begin("\(key) · \(subject.rawValue)")
            case .rateFinished(let rate, let point):
                meter.update("\(RateList.spelled(rate))/s: p99 \(point.fromSchedule.map { String($0.p99) } ?? "–") ns")
            }
        }
        let runner = OpenLoopRunner(parameters: parameters, subjects: SubjectRegistry.all(), progress: progress)
        let plan = runner.plan
        meter.start(total: plan.count, what: "\(plan.count) curve(s), up to \(parameters.rates.count) rates of \(String(format: "%g", parameters.durationSeconds)) s each")
        var curves: [LatencyCurve] = []
        for (spec, subject) in plan {
            let curve = runner.sweep(subject, spec)
            curves.append(curve)
            if curve.status == .ok { meter.finish(note: curve.kneeSummary) }
        }
        meter.end()
        let result = LatencyCurveReport(machine: .current(allocator: "system"), parameters: parameters, curves: curves)
        try report.emit(LatencyCurveOutput(report: result, wide: wide))
        // A library subject that broke a guarantee at some rate fails the run, as in `bench run`.
        if curves.contains(where: { $0.subject.isLibrary && ($0.status == .failed || $0.status == .timedOut) }) {
            throw ExitCode(BenchExitCode.finding.rawValue)
        }
    }
}

/// The report as `bench latency` prints it: the text form with `--wide` honoured.
struct LatencyCurveOutput: RenderableReport {
    var report: LatencyCurveReport
    var wide: Bool
    func rendered(_ format: ReportFormat) -> String { report.rendered(format, wide: wide) }
}
