import Foundation
import SignalsReports

/// Where `Runner.runAll` is, for a progress display.
package enum RunProgress: Sendable {
    /// Case `index` of `total` (from 1) begins.
    case caseStarted(index: Int, total: Int, key: String)
    /// Launch `launch` of `launches` (from 1) of the current case begins.
    case launchStarted(launch: Int, launches: Int)
    /// Case `index` is done, with its results.
    case caseFinished(index: Int, total: Int, results: [CaseResult])
}

/// Runs cases against subjects: calibration, warm-up, timed repetitions, one sampled latency
/// repetition, verification after each, and isolation of risky cases.
package struct Runner: Sendable {
    package var parameters: Parameters
    package var subjects: [any BenchSubject]
    /// Runs an isolated case elsewhere (the CLI re-executes itself); nil runs it in process.
    package var isolate: (@Sendable (CaseSpec, SubjectID) -> CaseResult)?
    /// Told where the run is: a case starts, a launch of it starts, a case is done.
    package var progress: (@Sendable (RunProgress) -> Void)?
    /// Runs one launch of paired rounds in a child process: (case, subjects, seed) → results;
    /// nil runs the launches in this process.
    package var launcher: (@Sendable (CaseSpec, [SubjectID], UInt64) -> [CaseResult])?

    package init(parameters: Parameters, subjects: [any BenchSubject],
                isolate: (@Sendable (CaseSpec, SubjectID) -> CaseResult)? = nil,
                progress: (@Sendable (RunProgress) -> Void)? = nil) {
        self.parameters = parameters
        self.subjects = subjects
        self.isolate = isolate
        self.progress = progress
    }

    /// Every selected case against every selected subject, in table order. The subjects that
    /// run in process are measured together in paired rounds, over `parameters.launchCount`
    /// launches (child processes when `launcher` is set); the others run alone.
    package func runAll() -> [CaseResult] {
        let cases = parameters.cases()
        let chosen = subjects.filter { parameters.subjects.contains($0.id) }.sorted { $0.id < $1.id }
        let total = cases.count
        var results: [CaseResult] = []
        for (index, spec) in cases.enumerated() {
            progress?(.caseStarted(index: index + 1, total: total, key: spec.key))
            let caseLoad = BusyLoad(threads: spec.caseLoadThreads)
            defer { caseLoad.stop() }
            var paired: [any BenchSubject] = []
            var caseResults: [CaseResult] = []
            for subject in chosen {
                if pairable(subject, spec) { paired.append(subject) } else { caseResults.append(run(subject, spec)) }
            }
            if !paired.isEmpty { caseResults += runLaunches(paired, spec) }
            let sorted = caseResults.sorted { $0.subject < $1.subject }
            progress?(.caseFinished(index: index + 1, total: total, results: sorted))
            results += sorted
        }
        return results
    }

    /// Whether `subject` joins the paired rounds of `spec`. In-process subjects always do. The
    /// library's own variants are isolated on the re-entrant workload only as a guard (a
    /// library that recursed would overflow the stack); when every launch is a child process
    /// anyway, that guard holds for the paired launch too, so they are paired there as well and
    /// lock-free/mutex gets its interval on every workload. A peer isolated because it is
    /// expected to crash or hang keeps a child of its own, so it cannot take the others down.
    func pairable(_ subject: any BenchSubject, _ spec: CaseSpec) -> Bool {
        switch subject.support(for: spec) {
        case .inProcess: return true
        case .isolated: return launcher != nil && (subject.id == .lockfree || subject.id == .mutex)
        case .unsupported: return false
        }
    }

    /// The seed of launch `launch` of `spec`: distinct per case and launch, fixed by the run's seed.
    package func seed(for spec: CaseSpec, launch: Int) -> UInt64 {
        var h = parameters.seedValue
        for b in spec.key.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h &+ UInt64(launch) &* 0x9E37_79B9_7F4A_7C15
    }

    /// `parameters.launchCount` launches of paired rounds, merged into one result per subject.
    func runLaunches(_ paired: [any BenchSubject], _ spec: CaseSpec) -> [CaseResult] {
        var launches: [[CaseResult]] = []
        for i in 0..<parameters.launchCount {
            progress?(.launchStarted(launch: i + 1, launches: parameters.launchCount))
            let seed = seed(for: spec, launch: i)
            if let launcher {
                launches.append(launcher(spec, paired.map(\.id), seed))
            } else {
                launches.append(measurePaired(paired, spec, seed: seed))
            }
        }
        return Self.merge(launches: launches, subjects: paired.map(\.id), spec: spec, parameters: parameters)
    }

    /// The subject every other one in a case is compared with: mutex when it ran (the library's
    /// simple variant), else the first subject. The floor is the reference of its own column
    /// (×floor), and of this one only when it ran alone.
    package static func reference(among subjects: [SubjectID]) -> SubjectID? {
        subjects.contains(.mutex) ? .mutex : (subjects.filter { $0 != .floor }.sorted().first ?? subjects.first)
    }

    /// One result per subject from several launches: every launch's rounds kept, the figure
    /// and its interval over launches and rounds, the launches' spread and modes, and the
    /// paired ratio to the reference. Latency, allocations and counters are the last launch's.
    package static func merge(launches: [[CaseResult]], subjects: [SubjectID], spec: CaseSpec, parameters: Parameters) -> [CaseResult] {
        var merged: [SubjectID: CaseResult] = [:]
        var rounds: [SubjectID: [[Double]]] = [:]
        for subject in subjects {
            let mine = launches.compactMap { l in l.first { $0.subject == subject } }
            // A launch that failed fails the subject: the first failure is the result.
            if let bad = mine.first(where: { $0.status != .ok }) {
                merged[subject] = bad
                continue
            }
            guard var r = mine.last else { continue }
            let perLaunch = mine.map { $0.throughput?.repetitionsNsPerOp ?? [] }
            rounds[subject] = perLaunch
            r.launchRounds = perLaunch
            let probes = mine.compactMap { $0.counters[CrossCoreProbe.counterName] }.map(Double.init)
            r.launchCrossCoreNs = probes.isEmpty ? nil : probes
            r.counters[CrossCoreProbe.counterName] = nil
            r.launchSpread = LaunchSpread(values: perLaunch.filter { !$0.isEmpty }.map(median))
            let seed = parameters.seedValue &+ UInt64(subjects.firstIndex(of: subject) ?? 0)
            let figure = PairedStatistics.figure(perLaunch, seed: seed)
            r.interval = figure
            if var t = r.throughput, figure.estimate.isFinite {
                t.repetitionsNsPerOp = perLaunch.flatMap { $0 }
                t.medianNsPerOp = figure.estimate
                t.minNsPerOp = t.repetitionsNsPerOp.min() ?? 0
                t.maxNsPerOp = t.repetitionsNsPerOp.max() ?? 0
                t.opsPerSecond = figure.estimate > 0 ? 1e9 / figure.estimate : 0
                r.throughput = t
            }
            merged[subject] = r
        }
        if let ref = reference(among: subjects.filter { rounds[$0] != nil }), let refRounds = rounds[ref] {
            for subject in subjects where subject != ref {
                guard let mine = rounds[subject] else { continue }
                merged[subject]?.versus = PairedStatistics.compare(subject: mine, reference: refRounds, referenceName: ref.rawValue,
                                                                   smallestEffect: parameters.smallestEffectValue,
                                                                   seed: parameters.seedValue)
            }
        }
        // Every subject's distance from the machine's floor, paired round by round as the
        // reference's ratio is.
        if let floorRounds = rounds[.floor] {
            for subject in subjects where subject != .floor {
                guard let mine = rounds[subject] else { continue }
                merged[subject]?.versusFloor = PairedStatistics.compare(subject: mine, reference: floorRounds, referenceName: SubjectID.floor.rawValue,
                                                                        smallestEffect: parameters.smallestEffectValue,
                                                                        seed: parameters.seedValue)
            }
        }
        return subjects.compactMap { merged[$0] }
    }

    /// Several subjects on one case in this process, in interleaved rounds: each is calibrated
    /// and warmed up, then every round runs each subject once, in an order shuffled per round,
    /// so drift during the case falls on all of them alike and round `j` of one subject is
    /// paired with round `j` of another.
    package func measurePaired(_ subjects: [any BenchSubject], _ spec: CaseSpec, seed: UInt64) -> [CaseResult] {
        let trials = subjects.map { Trial(subject: $0, spec: spec, parameters: parameters) }
        for t in trials { _ = t.calibrate() }
        // One untimed repetition each, after every calibration, so that the subject calibrated
        // first is as warm as the one calibrated last.
        for t in trials where !t.failed { _ = t.once(t.n) }
        var rng = SplitMix64(seed: seed)
        for _ in 0..<max(1, parameters.repetitions) {
            for t in trials.shuffled(using: &rng) where !t.failed { _ = t.repeatOnce() }
        }
        for t in trials where !t.failed { t.finish() }
        var results = trials.map(\.result)
        // After the rounds, so the probe never disturbs them; a slow phase of the machine
        // lasts tens of seconds, far longer than a launch.
        if spec.workload.runsSeveralThreads, let ns = CrossCoreProbe.roundTripNs() {
            for i in results.indices { results[i].counters[CrossCoreProbe.counterName] = Int(ns.rounded()) }
        }
        return results
    }

    /// One subject on one case, honouring its `Support`.
    package func run(_ subject: any BenchSubject, _ spec: CaseSpec) -> CaseResult {
        switch subject.support(for: spec) {
        case .unsupported(let reason):
            return CaseResult(spec: spec, subject: subject.id, status: .unsupported, reason: reason)
        case .isolated(let fear):
            if let isolate {
                var r = isolate(spec, subject.id)
                r.isolated = true
                if r.status == .crashed || r.status == .timedOut {
                    r.reason = (r.reason ?? "") + " [\(fear)]"
                }
                return r
            }
            return measure(subject, spec)
        case .inProcess:
            return measure(subject, spec)
        }
    }

    /// Largest operation count a repetition may use, whatever the calibration says.
    static let maxOperations = 50_000_000

    /// Measures in this process: calibrate, warm up, repeat, sample latency, verify.
    package func measure(_ subject: any BenchSubject, _ spec: CaseSpec) -> CaseResult {
        let trial = Trial(subject: subject, spec: spec, parameters: parameters)
        guard trial.calibrate() else { return trial.result }
        // A case whose single run already takes far longer than the target (a slow peer on
        // the fixed-depth re-entrant chain) gets fewer repetitions, so the suite stays
        // within its time budget; the repetition count is visible in the JSON.
        var repetitions = max(1, parameters.repetitions)
        guard let probe = trial.once(trial.n) else { return trial.result }
        if trial.isLong(probe.ctx) {
            // Long enough to be its own warm-up: count the probe as the first repetition.
            repetitions = parameters.quick ? 1 : min(repetitions, 3)
            trial.record(probe)
        }
        while trial.reps.count < repetitions {
            guard trial.repeatOnce() else { return trial.result }
        }
        trial.finish()
        return trial.result
    }

    /// Workloads whose sends are timed (the others measure structural operations).
    package static func hasLatency(_ w: WorkloadID) -> Bool { w.bench.timesSends }
}
