import Foundation
import SignalsReports

/// One side of a served comparison: a bench executable and the environment it runs with.
package struct ABSide: Sendable, Equatable {
    package var name: String
    package var executable: String
    package var environment: [String: String]

    package init(name: String, executable: String, environment: [String: String] = [:]) {
        self.name = name; self.executable = executable; self.environment = environment
    }
}

/// Launches of served rounds for several builds (sides) on one case and subject.
///
/// A launch starts one `_serve` child per side, one after the other (each calibrates and warms
/// up while the others wait), sets them all to the same operation count, and then asks them for
/// `roundsPerLaunch` rounds each, in the side order on even rounds and the reverse on odd ones
/// (A B, B A, …), so a linear drift lands on every side alike. Round `j` of one side and round
/// `j` of another are measured moments apart and form a pair. The side that starts first
/// rotates from launch to launch. Launches go on until the time is spent (at least
/// `minimumLaunches`, at most `maximumLaunches`): they are the unit of independence, since a
/// process's placement and addresses are fixed for its life.
package struct ServedSession: Sendable {
    package var sides: [ABSide]
    package var spec: CaseSpec
    package var subject: SubjectID
    package var parameters: Parameters
    package var roundsPerLaunch: Int
    package var minimumLaunches: Int
    package var maximumLaunches: Int
    /// No wait for a side lasts past this moment (nil: each request still has the watchdog).
    package var deadline: Date?

    package init(sides: [ABSide], spec: CaseSpec, subject: SubjectID, parameters: Parameters,
                roundsPerLaunch: Int, minimumLaunches: Int, maximumLaunches: Int) {
        self.sides = sides; self.spec = spec; self.subject = subject; self.parameters = parameters
        self.roundsPerLaunch = max(1, roundsPerLaunch)
        self.minimumLaunches = max(1, minimumLaunches)
        self.maximumLaunches = max(self.minimumLaunches, maximumLaunches)
    }

    /// What the launches gave.
    package struct Outcome: Sendable {
        /// `rounds[side][launch][round]`, ns per operation.
        package var rounds: [[[Double]]]
        /// Why measuring stopped early, when it did.
        package var note: String?
        /// A side's bench has no served rounds (nothing was measured).
        package var unsupported = false
        package var seconds = 0.0

        package init(rounds: [[[Double]]], note: String? = nil, unsupported: Bool = false, seconds: Double = 0) {
            self.rounds = rounds; self.note = note; self.unsupported = unsupported; self.seconds = seconds
        }
    }

    package func measure(seconds: Double) -> Outcome {
        let start = Date()
        var outcome = Outcome(rounds: Array(repeating: [], count: sides.count))
        var launch = 0
        while launch < maximumLaunches && (launch < minimumLaunches || Date().timeIntervalSince(start) < seconds) {
            if let deadline, Date() >= deadline {
                outcome.note = "stopped: the time allowed (--budget plus \(Int(ABRunner.overrunMargin)) s) was spent after \(launch) launch(es)"
                break
            }
            switch measureLaunch(launch) {
            case .success(let perSide):
                for (i, r) in perSide.enumerated() { outcome.rounds[i].append(r) }
            case .failure(let f):
                if f.status == .unsupported && launch == 0 { outcome.unsupported = true }
                outcome.note = f.reason
                outcome.seconds = Date().timeIntervalSince(start)
                return outcome
            }
            launch += 1
        }
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }

    /// The order sides start in at launch `launch`: rotated by one each launch.
    package static func startOrder(sides: Int, launch: Int) -> [Int] {
        (0..<sides).map { ($0 + launch) % sides }
    }

    /// One launch: every side's rounds, or the first failure (named by side).
    func measureLaunch(_ launch: Int) -> Result<[[Double]], ServedFailure> {
        var children: [ServedChild?] = Array(repeating: nil, count: sides.count)
        defer { for c in children { c?.stop() } }
        let order = Self.startOrder(sides: sides.count, launch: launch)
        for i in order {
            switch ServedChild.start(executable: sides[i].executable, environment: sides[i].environment,
                                     spec: spec, subject: subject, parameters: parameters, deadline: deadline) {
            case .success(let c): children[i] = c
            case .failure(let f):
                return .failure(ServedFailure(status: f.status, reason: "\(sides[i].name): \(f.status.rawValue): \(f.reason)"))
            }
        }
        // One operation count for every side, so each round does the same work everywhere.
        let n = children.compactMap { $0?.operations }.min() ?? 1
        var rounds: [[Double]] = Array(repeating: [], count: sides.count)
        // One untimed round each at the shared count, then the timed ones.
        for r in -1..<roundsPerLaunch {
            let sequence = r % 2 == 0 || r < 0 ? order : order.reversed()
            for i in sequence {
                guard let child = children[i] else { continue }
                switch child.round(operations: n) {
                case .ok(let v): if r >= 0 { rounds[i].append(v) }
                case .failed(let status, let reason):
                    return .failure(ServedFailure(status: status, reason: "\(sides[i].name): \(status.rawValue): \(reason)"))
                }
            }
        }
        return .success(rounds)
    }
}
