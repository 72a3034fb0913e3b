import SignalsWorkloadRegistry

/// What a workload measures: the name of a declaration in `WorkloadRegistry.all` that has a
/// `bench run` part. The raw value is the name used on the command line and in JSON; a name
/// the registry does not hold is rejected (by the command line and by the JSON decoder).
package struct WorkloadID: RawRepresentable, CaseIterable, Codable, Sendable, Hashable, Comparable {
    package let rawValue: String

    package init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(registered name: String) { rawValue = name }

    /// Every `bench run` workload, in table order (the registry's order).
    package static let allCases: [WorkloadID] =
        WorkloadRegistry.all.filter { $0.bench != nil }.map { WorkloadID(registered: $0.name) }

    /// The workloads the harness names in code (targets, report checks, `bench ab`'s defaults).
    package static let send = named("send")
    package static let sendMap = named("send-map")
    package static let chain = named("chain")
    package static let fanout = named("fanout")
    package static let contended = named("contended")
    package static let reentrant = named("reentrant")
    package static let churn = named("churn")
    package static let mutation = named("mutation")
    package static let hop = named("hop")

    private static func named(_ name: String) -> WorkloadID {
        guard let id = WorkloadID(rawValue: name) else { preconditionFailure("no bench workload '\(name)' in WorkloadRegistry.all") }
        return id
    }

    /// Its declaration's `bench run` part.
    package var bench: WorkloadDeclaration.Bench { WorkloadRegistry.declaration(named: rawValue)!.bench! }

    /// One line saying what is measured; printed by `bench list` and as each table's title.
    package var summary: String { bench.summary }

    /// What one "operation" of the throughput figure is.
    package var unit: String { bench.unit }

    package static func < (a: WorkloadID, b: WorkloadID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Who is measured: the library's two delivery variants, the peers, and the floor (a C model
/// of the single-thread delivery path: what the machine allows, the ×floor column's reference).
package enum SubjectID: String, CaseIterable, Codable, Sendable, Comparable {
    case lockfree
    case mutex
    case opencombine
    case asyncstream
    case asyncchannel
    case floor

    package var summary: String {
        switch self {
        case .lockfree: return "Signals, Signal<T>.create(delivery: .lockFree)"
        case .mutex: return "Signals, Signal<T>.create(delivery: .mutex)"
        case .opencombine: return "OpenCombine 0.14.0 PassthroughSubject"
        case .asyncstream: return "Swift concurrency AsyncStream (unbounded buffer)"
        case .asyncchannel: return "swift-async-algorithms 1.1.4 AsyncChannel"
        case .floor: return "C model of the single-thread delivery path (claim, gates, map, handler, release): the machine's floor"
        }
    }

    /// True for the library's own variants: a violated guarantee here fails the run.
    package var isLibrary: Bool { self == .lockfree || self == .mutex }

    package static func < (a: SubjectID, b: SubjectID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where the `hop` workload's subscriber runs.
package enum HopContext: String, CaseIterable, Codable, Sendable {
    /// On the sending thread.
    case direct
    /// On a serial dispatch queue.
    case serialQueue = "serial-queue"
    /// On a global concurrent dispatch queue (the library serializes the handler).
    case globalQueue = "global-queue"
    /// On a consuming task (how the async peers deliver; they have no other way).
    case task
}

/// One row of one table: a workload with its concrete parameters.
package struct CaseSpec: Codable, Sendable, Hashable {
    package var workload: WorkloadID
    /// A short human label distinguishing rows of the same workload ("2 threads", "serial-queue");
    /// "variant" in JSON (the schema's name, kept so reports and older builds still read it).
    /// Not to be confused with the delivery variant (`DeliveryVariant`, lockfree or mutex).
    package var caseLabel: String
    package var threads: Int
    package var stages: Int
    package var subscribers: Int
    package var depth: Int
    package var hop: HopContext?
    /// Busy threads that run beside this case alone, on top of `--load` (churn's loaded
    /// cases); nil for none. Started by the process that drives the launches, as `--load` is.
    package var load: Int?

    enum CodingKeys: String, CodingKey {
        case workload, caseLabel = "variant", threads, stages, subscribers, depth, hop, load
    }

    package init(workload: WorkloadID, caseLabel: String = "", threads: Int = 1, stages: Int = 0,
                subscribers: Int = 1, depth: Int = 0, hop: HopContext? = nil, load: Int? = nil) {
        self.workload = workload
        self.caseLabel = caseLabel
        self.threads = threads
        self.stages = stages
        self.subscribers = subscribers
        self.depth = depth
        self.hop = hop
        self.load = load
    }

    /// The case's own busy threads (0 for none).
    package var caseLoadThreads: Int { max(0, load ?? 0) }

    /// `workload` or `workload[variant]`: the key `compare` matches on.
    package var key: String { Self.key(workload: workload, caseLabel: caseLabel) }

    /// The key of a case: `workload`, or `workload[variant]` when it has a variant. Results,
    /// `bench ab` rows and calibrations name their case the same way.
    package static func key(workload: WorkloadID, caseLabel: String) -> String {
        caseLabel.isEmpty ? workload.rawValue : "\(workload.rawValue)[\(caseLabel)]"
    }
}

/// Everything a run is parameterized by, with the defaults of `bench run`.
package struct Parameters: Codable, Sendable, Equatable {
    package var workloads: [WorkloadID] = WorkloadID.allCases
    package var subjects: [SubjectID] = SubjectID.allCases
    package var stages = 10
    package var subscribers = 100
    package var threads: [Int] = [2]
    package var depth = 1_000_000
    /// Timed rounds per launch: in each round every paired subject runs one repetition.
    package var repetitions = 5
    package var quick = false
    /// Wall time one timed repetition aims for; the operation count is calibrated to it.
    package var targetRepetitionMilliseconds = 40
    /// One send in `latencySampleEvery` is timed (a power of two).
    package var latencySampleEvery = 64
    /// Seconds after which an isolated (child-process) case is killed and reported as hung.
    package var watchdogSeconds = 60
    /// Seconds without any delivery after which a driver stops waiting (and the checks report
    /// what is missing) or declares a re-entrant chain stalled.
    package var stallSeconds = 2.0
    /// Fresh process launches per case (`--launches`); nil (a report before launches existed)
    /// means one, in process.
    package var launches: Int?
    /// Busy threads running beside every case (`--load`); nil or 0 for none.
    package var load: Int?
    /// Seed of the round order shuffles and of the bootstrap (`--seed`), so a report's
    /// intervals can be recomputed.
    package var seed: UInt64?
    /// Smallest change (fraction: 0.03 is 3%) a verdict counts as a difference.
    package var smallestEffect: Double?

    package init() {}

    /// Launches per case, at least one.
    package var launchCount: Int { max(1, launches ?? 1) }
    /// The seed, or a fixed one for reports that recorded none.
    package var seedValue: UInt64 { seed ?? 0x5EED }
    /// The smallest effect, 3% unless set.
    package var smallestEffectValue: Double { smallestEffect ?? 0.03 }
    /// Busy threads beside each case.
    package var loadThreads: Int { max(0, load ?? 0) }

    /// The CI-sized run: fewer repetitions, shorter ones, smaller depth.
    package static var quick: Parameters {
        var p = Parameters()
        p.quick = true
        p.repetitions = 3
        p.targetRepetitionMilliseconds = 15
        p.watchdogSeconds = 20
        p.launches = 6
        return p
    }

    /// The busy threads of churn's loaded cases: 1, 2 and 4; 2 alone in a quick run.
    package static func churnLoads(quick: Bool) -> [Int] { quick ? [2] : [1, 2, 4] }

    /// Expands the selected workloads into concrete cases (rows).
    package func cases() -> [CaseSpec] {
        var out: [CaseSpec] = []
        for w in workloads.sorted() {
            switch w.bench.shape {
            case .sequential(let pipeline):
                switch pipeline.stages {
                case .fixed(let n): out.append(CaseSpec(workload: w, stages: n))
                case .configured: out.append(CaseSpec(workload: w, caseLabel: "\(stages) stages", stages: stages))
                }
            case .fanout: out.append(CaseSpec(workload: w, caseLabel: "\(subscribers) subscribers", subscribers: subscribers))
            case .contended:
                for t in threads { out.append(CaseSpec(workload: w, caseLabel: "\(t) threads", threads: t)) }
            case .reentrant:
                out.append(CaseSpec(workload: w, caseLabel: "depth \(depth), alone", threads: 0, depth: depth))
                out.append(CaseSpec(workload: w, caseLabel: "depth \(depth), 1 busy sender", threads: 1, depth: depth))
            case .churn:
                // Quiet, then beside busy threads: a wait that burns the core its holder needs
                // shows as a loaded figure far above the quiet one (docs/design/churn.md).
                out.append(CaseSpec(workload: w, caseLabel: "10 standing", subscribers: 10))
                for n in Self.churnLoads(quick: quick) {
                    out.append(CaseSpec(workload: w, caseLabel: "10 standing, \(n) busy", subscribers: 10, load: n))
                }
            case .mutation:
                for t in threads { out.append(CaseSpec(workload: w, caseLabel: "\(t) senders", threads: t)) }
            case .hop:
                for h in HopContext.allCases { out.append(CaseSpec(workload: w, caseLabel: h.rawValue, hop: h)) }
            }
        }
        return out
    }
}
