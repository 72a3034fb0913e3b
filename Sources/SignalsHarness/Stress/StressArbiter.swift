import Signals

/// How an outcome is judged, as in jcstress.
public enum StressGrade: String, Codable, Sendable, Comparable {
    /// What the library promises.
    case acceptable = "ACCEPTABLE"
    /// Allowed, but worth seeing (a value dropped in transit during a rebind…).
    case interesting = "INTERESTING"
    /// A broken promise.
    case forbidden = "FORBIDDEN"

    var rank: Int {
        switch self {
        case .acceptable: return 0
        case .interesting: return 1
        case .forbidden: return 2
        }
    }

    public static func < (a: StressGrade, b: StressGrade) -> Bool { a.rank < b.rank }
}

/// One thing an arbiter noticed in one iteration.
public struct StressFinding: Sendable, CustomStringConvertible {
    /// Its grade.
    public var grade: StressGrade
    /// The outcome's name (one of `StressCheck`'s for forbidden ones).
    public var name: String
    /// What exactly was seen (sender, sequence numbers…).
    public var detail: String

    /// A finding.
    public init(_ grade: StressGrade, _ name: String, _ detail: String = "") {
        self.grade = grade
        self.name = name
        self.detail = detail
    }

    /// A broken promise.
    public static func forbidden(_ name: String, _ detail: String = "") -> StressFinding { .init(.forbidden, name, detail) }
    /// An allowed outcome worth seeing.
    public static func interesting(_ name: String, _ detail: String = "") -> StressFinding { .init(.interesting, name, detail) }

    public var description: String { "\(grade.rawValue) \(name)" + (detail.isEmpty ? "" : ": \(detail)") }
}

/// The names of the invariants; a FORBIDDEN outcome is named after the one it broke.
public enum StressCheck {
    public static let concurrentEntry = "concurrent handler entry"
    public static let fifo = "per-sender FIFO violated"
    public static let duplicate = "duplicate delivery"
    public static let lost = "accepted value lost"
    public static let refusedDelivered = "refused value delivered"
    public static let unknownDelivered = "unknown value delivered"
    public static let afterCancel = "delivery after cancel returned"
    public static let endTwice = "end delivered twice"
    public static let valueAfterEnd = "value after end"
    public static let endMissing = "end missing"
    public static let wrongEnd = "wrong end"
    public static let leak = "leak"
    public static let deadlock = "deadlock"
    public static let staleCache = "stale or missing cached value"
    public static let cacheOrder = "cached values not first, once, in order"
    public static let crossActivation = "value from another activation"
    public static let staleInput = "stale input accepted a value"
    public static let activationOrder = "activation callbacks out of order"
    public static let setupFailed = "graph setup failed"
    public static let activationNotCaptured = "activation value not captured"
}

/// What an arbiter tolerates when checking one stream.
public struct StressStreamPolicy: Sendable {
    /// How an accepted value that never arrived is judged: nil makes it FORBIDDEN
    /// (`StressCheck.lost`); otherwise the INTERESTING outcome's name.
    public var lossName: String?
    /// The end the stream must finish with ("complete", "cancelled"), or nil if it must not end.
    /// `"any"` accepts an end or none.
    public var expectedEnd: String?

    /// A policy.
    public init(lossName: String? = nil, expectedEnd: String? = "complete") {
        self.lossName = lossName
        self.expectedEnd = expectedEnd
    }
}

/// Checks one recorded stream against what its senders sent: exactly once or explicitly
/// dropped, per-sender FIFO, the end at most once and last, plus the recorder's own entry checks.
public func stressCheckStream(
    _ who: String, _ recorder: StressRecorder, senders: [StressSender], policy: StressStreamPolicy
) -> [StressFinding] {
    var findings = recorder.entryFindings(who)
    findings += stressCheckEvents(who, recorder.events, senders: senders, policy: policy)
    return findings
}

/// `stressCheckStream` on a list of events.
public func stressCheckEvents(
    _ who: String, _ events: [StressEvent], senders: [StressSender], policy: StressStreamPolicy
) -> [StressFinding] {
    var findings: [StressFinding] = []
    func once(_ f: StressFinding) {
        if !findings.contains(where: { $0.name == f.name }) { findings.append(f) }
    }
    let byID = Dictionary(senders.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var seen: [Int: [Bool]] = [:]
    var last: [Int: Int] = [:]
    var endsSeen = 0
    var endName: String?
    for (index, e) in events.enumerated() {
        switch e {
        case .end(let name):
            endsSeen += 1
            if endsSeen == 2 { once(.forbidden(StressCheck.endTwice, "\(who): ends at \(index) and before")) }
            endName = endName ?? name
        case .value(let s, let q, _):
            if endsSeen > 0 { once(.forbidden(StressCheck.valueAfterEnd, "\(who): \(s):\(q) at \(index) after \(endName ?? "")")) }
            guard let sender = byID[s], q < sender.status.count else {
                once(.forbidden(StressCheck.unknownDelivered, "\(who): \(s):\(q) was never sent"))
                continue
            }
            if sender.status[q] == StressSender.refused {
                once(.forbidden(StressCheck.refusedDelivered, "\(who): \(s):\(q) refused by send but delivered"))
            } else if sender.status[q] == StressSender.unsent {
                once(.forbidden(StressCheck.unknownDelivered, "\(who): \(s):\(q) was never sent"))
            }
            var marks = seen[s] ?? [Bool](repeating: false, count: sender.status.count)
            if marks[q] { once(.forbidden(StressCheck.duplicate, "\(who): \(s):\(q) delivered twice")) }
            marks[q] = true
            seen[s] = marks
            if let l = last[s], q <= l {
                once(.forbidden(StressCheck.fifo, "\(who): sender \(s) delivered \(q) after \(l)"))
            }
            last[s] = max(last[s] ?? -1, q)
        }
    }
    switch policy.expectedEnd {
    case nil:
        if endsSeen > 0 { once(.forbidden(StressCheck.wrongEnd, "\(who): ended (\(endName ?? "")) though nothing ended it")) }
    case "any"?:
        break
    case let expected?:
        if endsSeen == 0 {
            once(.forbidden(StressCheck.endMissing, "\(who): no end, expected \(expected)"))
        } else if endName != expected {
            once(.forbidden(StressCheck.wrongEnd, "\(who): ended with \(endName ?? ""), expected \(expected)"))
        }
    }
    for sender in senders {
        let marks = seen[sender.id]
        var lost: [Int] = []
        var lostForbidden: [Int] = []
        for q in 0..<sender.status.count where sender.status[q] == StressSender.accepted && !(marks?[q] ?? false) {
            if q < sender.mustArriveBelow { lostForbidden.append(q) } else { lost.append(q) }
        }
        if policy.lossName == nil { lostForbidden += lost; lost = [] }
        if !lostForbidden.isEmpty {
            once(.forbidden(StressCheck.lost, "\(who): sender \(sender.id) lost \(lostForbidden.count) accepted values, first \(lostForbidden[0])"))
        }
        if !lost.isEmpty, let name = policy.lossName {
            once(.interesting(name, "\(who): sender \(sender.id) dropped \(lost.count)"))
        }
    }
    return findings
}
