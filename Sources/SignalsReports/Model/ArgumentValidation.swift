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

    /// Fails with the offending name and the allowed ones, on an empty item (`a,,b`, a
    /// trailing comma, an empty value) and on a name given twice.
    package init(parsing text: String, flag: String) throws(ArgumentError) {
        let allowedText = "allowed: \(Self.allowed.joined(separator: ", "))"
        let parts = try ArgumentCheck.listItems(text, flag: flag, what: "\(Name.kind)s", allowed: allowedText)
        var names: [Name] = []
        for part in parts {
            guard let name = Name(rawValue: part) else {
                throw ArgumentError(flag: flag, message: "unknown \(Name.kind) '\(part)'; \(allowedText)")
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
        let allowed = "must be whole numbers from 1 to \(RunOptions.maxThreads), comma-separated"
        var counts: [Int] = []
        for t in try ArgumentCheck.listItems(text, flag: flag, what: "thread counts", allowed: allowed) {
            guard let v = Int(t), v >= 1, v <= RunOptions.maxThreads else {
                throw ArgumentError(flag: flag, message: "\(allowed) (got '\(t)')")
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
        // A name given twice (in one list or in repeated flags) is a mistake, not a request.
        if !workloads.isEmpty { p.workloads = try ArgumentCheck.distinct(workloads.map(\.rawValue), flag: "--workload").map { WorkloadID(rawValue: $0)! } }
        if !subjects.isEmpty { p.subjects = try ArgumentCheck.distinct(subjects.map(\.rawValue), flag: "--subject").map { SubjectID(rawValue: $0)! } }
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
            p.threads = try ArgumentCheck.distinct(threads.map(String.init), flag: "--threads").compactMap { Int($0) }
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

/// The checks every subcommand's arguments share, so that each flag is refused the same way:
/// exit 2 with a message naming the flag, what it accepts and what it got. `bench`'s commands
/// call these from `validate()`; a subcommand added later uses them too.
package enum ArgumentCheck {
    /// The most seconds any duration flag accepts (a week): far beyond any useful run, and small
    /// enough that converting it to nanoseconds (`Int(seconds * 1e9)`, `DispatchTime`) and
    /// adding it to a clock reading cannot overflow.
    package static let maxSeconds: Double = 604_800

    /// A number of seconds in `range`: finite (not `inf`, `nan` or a literal too large for a
    /// Double, such as `1e400`, which parses as infinity) and inside `range`.
    package static func seconds(_ value: Double, flag: String, in range: ClosedRange<Double>) throws(ArgumentError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw ArgumentError(flag: flag, message: "expected seconds from \(number(range.lowerBound)) to \(number(range.upperBound)) (got \(value))")
        }
        return value
    }

    /// A number of seconds above 0 and at most `upper`.
    package static func positiveSeconds(_ value: Double, flag: String, upTo upper: Double = maxSeconds) throws(ArgumentError) -> Double {
        guard value.isFinite, value > 0, value <= upper else {
            throw ArgumentError(flag: flag, message: "expected seconds above 0 and at most \(number(upper)) (got \(value))")
        }
        return value
    }

    /// A finite number in `range` (a percentage, a ratio).
    package static func finite(_ value: Double, flag: String, in range: ClosedRange<Double>, what: String) throws(ArgumentError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw ArgumentError(flag: flag, message: "expected \(what) from \(number(range.lowerBound)) to \(number(range.upperBound)) (got \(value))")
        }
        return value
    }

    /// A whole number in `range`.
    package static func whole(_ value: Int, flag: String, in range: ClosedRange<Int>) throws(ArgumentError) -> Int {
        guard range.contains(value) else {
            throw ArgumentError(flag: flag, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(value))")
        }
        return value
    }

    /// The items of a comma-separated value, trimmed: an empty value, an empty item (`a,,b`,
    /// `a,`) or an item given twice is an error naming the flag. `what` names the items
    /// ("workloads"), `allowed` says what is accepted.
    package static func listItems(_ text: String, flag: String, what: String, allowed: String) throws(ArgumentError) -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ArgumentError(flag: flag, message: "expected one or more \(what), comma-separated, and got an empty value; \(allowed)")
        }
        if items.contains(where: \.isEmpty) {
            throw ArgumentError(flag: flag, message: "an empty item in '\(text)' (two commas in a row, or one at an end); \(allowed)")
        }
        return try distinct(items, flag: flag)
    }

    /// `items` unchanged when no item repeats; otherwise an error naming the first repeated one.
    package static func distinct(_ items: [String], flag: String) throws(ArgumentError) -> [String] {
        var seen = Set<String>()
        for item in items where !seen.insert(item).inserted {
            throw ArgumentError(flag: flag, message: "'\(item)' is given twice; give each once")
        }
        return items
    }

    /// `v` without a trailing ".0" when whole.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
