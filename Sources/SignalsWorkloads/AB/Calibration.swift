import Foundation
import SignalsReports

/// `bench ab --calibrate`: how often `bench ab` cries wolf, and how small a slowdown it finds.
///
/// Every calibration run is one served session (see `ServedSession`) with these sides, all the
/// same executable: A, a second A, and one A′ per requested slowdown, launched with
/// `SIGNALS_BENCH_ADDED_COST` (see `AddedCost`) so that its every repetition takes exactly that
/// fraction longer. Each run is judged exactly as `bench ab` judges a row (second A against A
/// for the false alarms, each A′ against A for the detections), from the same rounds, so one
/// session gives both. `runs` such sessions per case, each within `budget` seconds, give the
/// false-alarm rate (a `slower` or `faster` verdict on A/A) and each slowdown's detection rate.
package struct Calibration: Sendable {
    package var executable: String
    package var parameters: Parameters
    package var subject: SubjectID
    package var runs: Int
    package var budgetSeconds: Double
    package var slowdowns: [Double]
    package var roundsPerLaunch: Int
    package var progress: (@Sendable (String) -> Void)?

    package init(executable: String, parameters: Parameters, subject: SubjectID, runs: Int, budgetSeconds: Double,
                slowdowns: [Double], roundsPerLaunch: Int) {
        self.executable = executable; self.parameters = parameters; self.subject = subject; self.runs = runs
        self.budgetSeconds = budgetSeconds; self.slowdowns = slowdowns; self.roundsPerLaunch = roundsPerLaunch
    }

    /// The sides of one calibration session.
    package func sides() -> [ABSide] {
        var sides = [ABSide(name: "A", executable: executable), ABSide(name: "A (again)", executable: executable)]
        for s in slowdowns {
            sides.append(ABSide(name: "A′ +\(CalibrationReport.percent(s))", executable: executable,
                                environment: [AddedCost.environmentVariable: String(s)]))
        }
        return sides
    }

    package func run(cases: [CaseSpec]) -> [CalibrationReport.CaseCalibration] {
        cases.map { spec in
            let caseLoad = BusyLoad(threads: spec.caseLoadThreads)
            defer { caseLoad.stop() }
            var runsDone: [CalibrationReport.Run] = []
            for i in 0..<runs {
                progress?("\(spec.key) · \(subject.rawValue): run \(i + 1) of \(runs)")
                runsDone.append(runOnce(spec, index: i))
            }
            return CalibrationReport.CaseCalibration(workload: spec.workload, caseLabel: spec.caseLabel, subject: subject,
                                                     slowdowns: slowdowns, runs: runsDone)
        }
    }

    func runOnce(_ spec: CaseSpec, index: Int) -> CalibrationReport.Run {
        var session = ServedSession(sides: sides(), spec: spec, subject: subject, parameters: parameters,
                                    roundsPerLaunch: roundsPerLaunch, minimumLaunches: PairedStatistics.minimumLaunchesForRobust,
                                    maximumLaunches: 200)
        session.deadline = Date().addingTimeInterval(budgetSeconds + ABRunner.overrunMargin)
        let outcome = session.measure(seconds: budgetSeconds)
        return Self.judge(outcome, slowdowns: slowdowns.count, parameters: parameters, seed: parameters.seedValue &+ UInt64(index) &* 7919)
    }

    /// Judges a session's rounds as `bench ab` would: side 1 and each side from 2 on against side 0.
    package static func judge(_ outcome: ServedSession.Outcome, slowdowns: Int, parameters: Parameters, seed: UInt64) -> CalibrationReport.Run {
        func judgement(_ side: Int) -> CalibrationReport.Judgement? {
            guard outcome.rounds.indices.contains(side), !outcome.rounds[0].isEmpty else { return nil }
            guard let c = PairedStatistics.compare(subject: outcome.rounds[side], reference: outcome.rounds[0], referenceName: "A",
                                                   smallestEffect: parameters.smallestEffectValue, seed: seed &+ UInt64(side))
            else { return nil }
            return CalibrationReport.Judgement(comparison: c, launches: c.launches)
        }
        return CalibrationReport.Run(seconds: outcome.seconds, aa: judgement(1), slowed: (0..<slowdowns).map { judgement(2 + $0) }, note: outcome.note)
    }
}
