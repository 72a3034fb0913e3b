import Foundation
import SignalsReports

/// Runs two bench executables against each other through the hidden `_case` child command,
/// which every bench since c7ebe5e offers: one launch measures one subject on one case and
/// prints one `CaseResult`. Launches alternate (A B, B A, A B, …) so drift falls on both.
package struct ABRunner: Sendable {
    package var baseline: String
    package var current: String
    package var baselineEnvironment: [String: String] = [:]
    package var currentEnvironment: [String: String] = [:]
    package var parameters: Parameters
    package var budgetSeconds: Double
    /// Fewest and most launch pairs per row.
    package var minimumPairs = 3
    package var maximumPairs = 30
    package var progress: (@Sendable (String) -> Void)?
    /// Called when a row is done.
    package var finished: (@Sendable (ABRow) -> Void)?

    /// Seconds past the budget that any wait may last: a side that has not answered by
    /// `budget + overrunMargin` (from the start of the comparison) has its process group killed
    /// and its row is not judged, with a note naming the side. It covers the launches a row
    /// needs at least (`minimumPairs`, six served launches) when the budget is short.
    package static let overrunMargin: Double = 20

    /// The moment no wait may outlast (set by `run`).
    package var deadline: Date?

    package init(baseline: String, current: String, parameters: Parameters, budgetSeconds: Double) {
        self.baseline = baseline; self.current = current; self.parameters = parameters; self.budgetSeconds = budgetSeconds
    }

    /// A function running one launch: (executable, environment, case, subject) → result.
    package typealias Launch = @Sendable (String, [String: String], CaseSpec, SubjectID) -> CaseResult

    /// Every case × subject, each given an equal share of the budget (at least `minimumPairs`).
    package func run(cases: [CaseSpec], subjects: [SubjectID], launch: Launch? = nil) -> [ABRow] {
        var runner = self
        let deadline = self.deadline ?? Date().addingTimeInterval(budgetSeconds + Self.overrunMargin)
        runner.deadline = deadline
        let parameters = self.parameters
        let launchOne: Launch = launch ?? { exe, env, spec, subject in
            // Each launch's watchdog is cut to the time left before the deadline.
            var p = parameters
            p.watchdogSeconds = max(1, min(p.watchdogSeconds, Int(max(0, deadline.timeIntervalSinceNow).rounded(.up))))
            if deadline.timeIntervalSinceNow <= 0 {
                return CaseResult(spec: spec, subject: subject, status: .timedOut,
                                  reason: "not started: the time allowed (--budget plus \(Int(Self.overrunMargin)) s) was spent")
            }
            return ChildProcess.runCase(spec: spec, subject: subject, parameters: p, executable: exe, environment: env)
        }
        let rowCount = max(1, cases.count * subjects.count)
        let share = budgetSeconds / Double(rowCount)
        var rows: [ABRow] = []
        for spec in cases {
            let caseLoad = BusyLoad(threads: spec.caseLoadThreads)
            defer { caseLoad.stop() }
            for subject in subjects {
                progress?("\(spec.key) · \(subject.rawValue)")
                let done = runner.row(spec, subject, seconds: share, launch: launchOne)
                finished?(done)
                rows.append(done)
            }
        }
        return rows
    }

    /// Rounds per launch pair when both builds serve rounds.
    package var servedRounds = 10

    /// Served rounds: both builds alive at once, repetitions alternating round by round. Nil
    /// when a build does not serve rounds (the caller then falls back to whole launches).
    func servedRow(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double) -> ABRow? {
        let sides = [ABSide(name: "baseline", executable: baseline, environment: baselineEnvironment),
                     ABSide(name: "current", executable: current, environment: currentEnvironment)]
        var session = ServedSession(sides: sides, spec: spec, subject: subject, parameters: parameters,
                                    roundsPerLaunch: servedRounds, minimumLaunches: max(minimumPairs, PairedStatistics.minimumLaunchesForRobust),
                                    maximumLaunches: maximumPairs * 4)
        session.deadline = deadline
        let outcome = session.measure(seconds: seconds)
        if outcome.unsupported { return nil }
        var row = ABRow(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject, unit: spec.workload.unit,
                        baselineLaunches: outcome.rounds[0], currentLaunches: outcome.rounds[1])
        row.method = ABRow.servedMethod
        row.note = outcome.note
        if !row.baselineLaunches.isEmpty { Self.judge(&row, parameters: parameters) }
        return row
    }

    func row(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double, launch: Launch) -> ABRow {
        if let served = servedRow(spec, subject, seconds: seconds) { return served }
        return launchRow(spec, subject, seconds: seconds, launch: launch)
    }

    func launchRow(_ spec: CaseSpec, _ subject: SubjectID, seconds: Double, launch: Launch) -> ABRow {
        var row = ABRow(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject, unit: spec.workload.unit,
                        baselineLaunches: [], currentLaunches: [])
        let start = Date()
        var pair = 0
        while pair < maximumPairs && (pair < minimumPairs || Date().timeIntervalSince(start) < seconds) {
            if let deadline, Date() >= deadline, pair > 0 {
                row.note = "stopped: the time allowed (--budget plus \(Int(Self.overrunMargin)) s) was spent after \(pair) launch pair(s)"
                break
            }
            // Alternate which build goes first, so neither always runs on a warmer machine.
            let baseFirst = pair % 2 == 0
            let first = baseFirst ? launch(baseline, baselineEnvironment, spec, subject) : launch(current, currentEnvironment, spec, subject)
            let second = baseFirst ? launch(current, currentEnvironment, spec, subject) : launch(baseline, baselineEnvironment, spec, subject)
            let (b, c) = baseFirst ? (first, second) : (second, first)
            if b.status != .ok || c.status != .ok {
                func say(_ r: CaseResult, _ side: String) -> String? {
                    r.status == .ok ? nil : "\(side): \(r.status.rawValue)\(r.reason.map { ": " + $0 } ?? "")"
                }
                row.note = [say(b, "baseline"), say(c, "current")].compactMap { $0 }.joined(separator: "; ")
                break
            }
            row.baselineLaunches.append(b.throughput?.repetitionsNsPerOp ?? [])
            row.currentLaunches.append(c.throughput?.repetitionsNsPerOp ?? [])
            pair += 1
        }
        guard row.note == nil || !row.baselineLaunches.isEmpty, !row.baselineLaunches.isEmpty else { return row }
        Self.judge(&row, parameters: parameters)
        return row
    }

    /// Fills the figures, spreads and the verdict of a row from its launches.
    package static func judge(_ row: inout ABRow, parameters: Parameters) {
        let seed = parameters.seedValue
        row.baseline = PairedStatistics.figure(row.baselineLaunches, seed: seed)
        row.current = PairedStatistics.figure(row.currentLaunches, seed: seed &+ 1)
        row.baselineSpread = LaunchSpread(values: row.baselineLaunches.filter { !$0.isEmpty }.map(median))
        row.currentSpread = LaunchSpread(values: row.currentLaunches.filter { !$0.isEmpty }.map(median))
        row.change = PairedStatistics.compare(subject: row.currentLaunches, reference: row.baselineLaunches,
                                              referenceName: "baseline", smallestEffect: parameters.smallestEffectValue,
                                              seed: seed &+ 2)
    }
}
