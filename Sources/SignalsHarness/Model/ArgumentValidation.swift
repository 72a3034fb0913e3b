/// A command-line value that is out of range or unknown. The message names the flag and the
/// allowed values; the CLI prints it and exits with status 2.
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    public var flag: String
    public var message: String
    public init(flag: String, message: String) { self.flag = flag; self.message = message }
    public var description: String { "\(flag): \(message)" }
}

/// The raw options of a run, as typed; `parameters()` validates them. Kept out of the CLI
/// target so the tests can exercise every argument error.
public struct RunOptions: Sendable {
    public var workloads: [String] = []
    public var subjects: [String] = []
    public var stages: Int?
    public var subscribers: Int?
    public var threads: [String] = []
    public var depth: Int?
    public var repetitions: Int?
    public var sampleEvery: Int?
    public var quick = false

    public init() {}

    public static let maxThreads = 64

    public func parameters() throws(ArgumentError) -> Parameters {
        var p = quick ? Parameters.quick : Parameters()
        if !workloads.isEmpty {
            var chosen: [WorkloadID] = []
            for w in workloads {
                guard let id = WorkloadID(rawValue: w.lowercased()) else {
                    throw ArgumentError(flag: "--workload", message: "unknown workload '\(w)'; allowed: \(WorkloadID.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if !chosen.contains(id) { chosen.append(id) }
            }
            p.workloads = chosen
        }
        if !subjects.isEmpty {
            var chosen: [SubjectID] = []
            for s in subjects {
                guard let id = SubjectID(rawValue: s.lowercased()) else {
                    throw ArgumentError(flag: "--subject", message: "unknown subject '\(s)'; allowed: \(SubjectID.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if !chosen.contains(id) { chosen.append(id) }
            }
            p.subjects = chosen
        }
        func positive(_ v: Int?, _ flag: String, max: Int) throws(ArgumentError) -> Int? {
            guard let v else { return nil }
            guard v >= 1 && v <= max else {
                throw ArgumentError(flag: flag, message: "must be a whole number from 1 to \(max) (got \(v))")
            }
            return v
        }
        if let v = try positive(stages, "--stages", max: 1_000) { p.stages = v }
        if let v = try positive(subscribers, "--subscribers", max: 100_000) { p.subscribers = v }
        if let v = try positive(depth, "--depth", max: 100_000_000) { p.depth = v }
        if let v = try positive(repetitions, "--repetitions", max: 1_000) { p.repetitions = v }
        if let v = try positive(sampleEvery, "--sample-every", max: 1 << 20) {
            guard v & (v - 1) == 0 else {
                throw ArgumentError(flag: "--sample-every", message: "must be a power of two: 1, 2, 4, ... 1048576 (got \(v))")
            }
            p.latencySampleEvery = v
        }
        if !threads.isEmpty {
            var list: [Int] = []
            for t in threads {
                guard let v = Int(t), v >= 1, v <= Self.maxThreads else {
                    throw ArgumentError(flag: "--threads", message: "must be whole numbers from 1 to \(Self.maxThreads), comma-separated (got '\(t)')")
                }
                if !list.contains(v) { list.append(v) }
            }
            p.threads = list
        }
        if quick && depth == nil { p.depth = 1_000_000 }
        return p
    }
}
