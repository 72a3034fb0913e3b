import Foundation
import SignalsReports

/// `bench latency`: drives cases at fixed offered rates (open loop) and records, per rate,
/// the latency from each sampled value's scheduled send time to its handler.
///
/// Each rate is one round of the subject's ordinary workload (`BenchSubject.run`), with an
/// `OpenLoopSchedule` in its sampler: the shared send loops wait for each value's scheduled
/// time instead of sending as fast as they can (`RunContext.sendAll`), and the checkers stamp
/// the sampled values. Every round is verified like a `bench run` round (exactly once, order,
/// no overlap). A subject's sweep goes up the rates until one it did not keep up with (under
/// 95% delivered): that point shows the wall, and higher rates would only grow its backlog.
package struct OpenLoopRunner: Sendable {
    package var parameters: LatencySweepParameters
    package var subjects: [any BenchSubject]
    /// Told when a curve starts (case key, subject) and when a rate is done.
    package var progress: (@Sendable (OpenLoopProgress) -> Void)?

    package init(parameters: LatencySweepParameters, subjects: [any BenchSubject],
                progress: (@Sendable (OpenLoopProgress) -> Void)? = nil) {
        self.parameters = parameters
        self.subjects = subjects
        self.progress = progress
    }

    /// The (case, subject) pairs of the sweep, in order; unsupported ones included (reported so).
    package var plan: [(CaseSpec, any BenchSubject)] {
        let chosen = subjects.filter { parameters.subjects.contains($0.id) }.sorted { $0.id < $1.id }
        return parameters.cases().flatMap { spec in chosen.map { (spec, $0) } }
    }

    package func runAll() -> [LatencyCurve] {
        plan.map { spec, subject in sweep(subject, spec) }
    }

    /// One subject's curve on one case.
    package func sweep(_ subject: any BenchSubject, _ spec: CaseSpec) -> LatencyCurve {
        switch subject.support(for: spec) {
        case .unsupported(let reason):
            return LatencyCurve(spec: spec, subject: subject.id, status: .unsupported, reason: reason)
        case .isolated(let fear):
            return LatencyCurve(spec: spec, subject: subject.id, status: .unsupported, reason: "runs only in a child process (\(fear))")
        case .inProcess:
            break
        }
        progress?(.curveStarted(key: spec.key, subject: subject.id))
        // Warm-up: one unpaced round, so the first rate does not pay for first-touch costs.
        if let failure = round(subject, spec, operations: 20_000, sampler: nil).failure {
            return LatencyCurve(spec: spec, subject: subject.id, status: failure.status, reason: failure.reason)
        }
        let clock = LatencyClock.measure()
        var points: [LatencyPoint] = []
        let senders = spec.workload == .contended ? max(1, spec.threads) : 1
        for rate in parameters.rates {
            let values = max(senders, Int((rate * parameters.durationSeconds).rounded()))
            let perSender = values / senders
            let schedule = OpenLoopSchedule(rate: rate, senders: senders)
            let sampler = LatencySampler(mode: .openLoop(schedule), sampleEvery: parameters.sampling(values: perSender * senders),
                                         senders: senders, valuesPerSender: perSender)
            let r = round(subject, spec, operations: values, sampler: sampler)
            if let failure = r.failure {
                return LatencyCurve(spec: spec, subject: subject.id, status: failure.status,
                                    reason: "at \(RateList.spelled(rate))/s: \(failure.reason)", points: points, clock: clock)
            }
            let ctx = r.ctx
            let delivered = ctx.completedOperations ?? values
            // From the schedule's start to the last sampled delivery: the driver's clock also
            // counts its polling for the last values, which on a loaded machine adds
            // milliseconds to a 0.1 s round.
            let last = sampler.lastDelivery
            let elapsed = last > schedule.start ? max(1, LatencyClock.nanoseconds(last - schedule.start)) : Double(max(1, ctx.elapsedNs))
            let s = sampler.openLoopSummaries(clockCostNs: clock.costNs)
            let point = LatencyPoint(offeredPerSecond: rate, achievedPerSecond: Double(delivered) / elapsed * 1e9,
                                     values: delivered, samples: Int(s.fromSchedule?.count ?? 0), lateSamples: s.behind,
                                     fromSchedule: s.fromSchedule, serviceCorrected: s.serviceCorrected)
            points.append(point)
            progress?(.rateFinished(rate: rate, point: point))
            if !point.keptUp { break }
        }
        return LatencyCurve(spec: spec, subject: subject.id, status: .ok, points: points, clock: clock)
    }

    /// One round of `operations` values; its failure (a stall, a violated guarantee, a
    /// failed set-up) as a status and reason.
    func round(_ subject: any BenchSubject, _ spec: CaseSpec, operations: Int, sampler: LatencySampler?)
        -> (ctx: RunContext, failure: (status: CaseStatus, reason: String)?) {
        let ctx = RunContext(spec: spec, operations: operations, sampler: sampler)
        do {
            try subject.run(ctx)
        } catch {
            return (ctx, (.failed, "setup failed: \(error)"))
        }
        if let stall = ctx.stalled { return (ctx, (.timedOut, stall)) }
        let check = ctx.verify()
        if !check.violations.isEmpty {
            return (ctx, (.failed, check.violations.map(\.description).joined(separator: "; ")))
        }
        return (ctx, nil)
    }
}

/// Where `OpenLoopRunner.runAll` is, for a progress display.
package enum OpenLoopProgress: Sendable {
    case curveStarted(key: String, subject: SubjectID)
    case rateFinished(rate: Double, point: LatencyPoint)
}
