/// A command-line value that is out of range or unknown. The message names the flag and the
/// allowed values; the CLI prints it and exits with status 2.
package struct ArgumentError: Error, Equatable, CustomStringConvertible {
    package var flag: String
    package var message: String
    package init(flag: String, message: String) { self.flag = flag; self.message = message }
    package var description: String { "\(flag): \(message)" }
}

/// A name the command line accepts from a fixed set (a workload, a subject).
package protocol CommandLineName: RawRepresentable, CaseIterable, Sendable, Equatable where RawValue == String {
    /// What one of these is called in messages ("workload").
    static var kind: String { get }
}

extension WorkloadID: CommandLineName { package static var kind: String { "workload" } }
extension SubjectID: CommandLineName { package static var kind: String { "subject" } }

/// One comma-separated command-line value of names, e.g. `--workload send,chain`. One spelling per
/// name (`lockfree`, not `lockFree`): another spelling is an error that lists the accepted ones.
/// The CLI makes it `ExpressibleByArgument`, so an unknown name is rejected while parsing,
/// with the flag and every allowed name in the message.
package struct NameList<Name: CommandLineName>: Sendable, Equatable {
    package var names: [Name]

    /// Every accepted name, in declaration order.
    package static var allowed: [String] { Name.allCases.map(\.rawValue) }

    /// Fails with the offending name and the allowed ones.
    package init(parsing text: String, flag: String) throws(ArgumentError) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else {
            throw ArgumentError(flag: flag, message: "expected one or more \(Name.kind)s; allowed: \(Self.allowed.joined(separator: ", "))")
        }
        var names: [Name] = []
        for part in parts {
            guard let name = Name(rawValue: part) else {
                throw ArgumentError(flag: flag, message: "unknown \(Name.kind) '\(part)'; allowed: \(Self.allowed.joined(separator: ", "))")
            }
            names.append(name)
        }
        self.names = names
    }
}

/// One comma-separated `--threads` value, e.g. `1,2,4`: whole numbers from 1 to `RunOptions.maxThreads`.
package struct ThreadCountList: Sendable, Equatable {
    package var counts: [Int]

    package init(parsing text: String, flag: String = "--threads") throws(ArgumentError) {
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let t = part.trimmingCharacters(in: .whitespaces)
            guard let v = Int(t), v >= 1, v <= RunOptions.maxThreads else {
                throw ArgumentError(flag: flag, message: "must be whole numbers from 1 to \(RunOptions.maxThreads), comma-separated (got '\(t)')")
            }
            counts.append(v)
        }
        self.counts = counts
    }
}

/// The options of a run, typed by the CLI's parser; `parameters()` checks ranges and applies
/// defaults. Kept out of the CLI target so the tests can exercise every argument error.
package struct RunOptions: Sendable {
    package var workloads: [WorkloadID] = []
    package var subjects: [SubjectID] = []
    package var stages: Int?
    package var subscribers: Int?
    package var threads: [Int] = []
    package var depth: Int?
    package var repetitions: Int?
    package var sampleEvery: Int?
    package var quick = false
    package var launches: Int?
    package var load: Int?
    package var seed: UInt64?
    /// `--smallest-effect` as typed ("3%", "2.5").
    package var smallestEffect: String?

    package init() {}

    package static let maxThreads = 64

    package func parameters() throws(ArgumentError) -> Parameters {
        var p = quick ? Parameters.quick : Parameters()
        if !quick { p.launches = 6 }
        // Repeated names count once, first occurrence first.
        func unique<T: Equatable>(_ values: [T]) -> [T] {
            var out: [T] = []
            for v in values where !out.contains(v) { out.append(v) }
            return out
        }
        if !workloads.isEmpty { p.workloads = unique(workloads) }
        if !subjects.isEmpty { p.subjects = unique(subjects) }
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
            for t in threads where t < 1 || t > Self.maxThreads {
                throw ArgumentError(flag: "--threads", message: "must be whole numbers from 1 to \(Self.maxThreads), comma-separated (got '\(t)')")
            }
            p.threads = unique(threads)
        }
        if quick && depth == nil { p.depth = 1_000_000 }
        if let v = try positive(launches, "--launches", max: 100) { p.launches = v }
        if let load {
            guard load >= 0 && load <= Self.maxThreads else {
                throw ArgumentError(flag: "--load", message: "must be a whole number of busy threads from 0 to \(Self.maxThreads) (got \(load))")
            }
            p.load = load
        }
        if let seed { p.seed = seed }
        if let smallestEffect {
            guard let v = Comparison.parseThreshold(smallestEffect), v < 100 else {
                throw ArgumentError(flag: "--smallest-effect", message: "expected a percentage from 0 to 100 such as 3% or 2.5 (got '\(smallestEffect)')")
            }
            p.smallestEffect = v / 100
        }
        return p
    }
}
