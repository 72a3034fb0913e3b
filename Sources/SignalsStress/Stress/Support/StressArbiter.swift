import Signals

/// How an outcome is judged, as in jcstress.
package enum StressGrade: String, Codable, Sendable, Comparable {
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

    package static func < (a: StressGrade, b: StressGrade) -> Bool { a.rank < b.rank }
}

/// One thing an arbiter noticed in one iteration.
package struct StressFinding: Sendable, CustomStringConvertible {
    /// Its grade.
    package var grade: StressGrade
    /// The outcome's name (one of `StressCheck`'s for forbidden ones).
    package var name: String
    /// What exactly was seen (sender, sequence numbers…).
    package var detail: String

    /// A finding.
    package init(_ grade: StressGrade, _ name: String, _ detail: String = "") {
        self.grade = grade
        self.name = name
        self.detail = detail
    }

    /// A broken promise.
    package static func forbidden(_ name: String, _ detail: String = "") -> StressFinding { .init(.forbidden, name, detail) }
    /// An allowed outcome worth seeing.
    package static func interesting(_ name: String, _ detail: String = "") -> StressFinding { .init(.interesting, name, detail) }

    package var description: String { "\(grade.rawValue) \(name)" + (detail.isEmpty ? "" : ": \(detail)") }
}

/// The names of the invariants; a FORBIDDEN outcome is named after the one it broke.
package enum StressCheck {
    package static let concurrentEntry = "concurrent handler entry"
    package static let fifo = "per-sender FIFO violated"
    package static let duplicate = "duplicate delivery"
    package static let lost = "accepted value lost"
    package static let refusedDelivered = "refused value delivered"
    package static let unknownDelivered = "unknown value delivered"
    package static let afterCancel = "delivery after cancel returned"
    package static let endTwice = "end delivered twice"
    package static let valueAfterEnd = "value after end"
    package static let endMissing = "end missing"
    package static let wrongEnd = "wrong end"
    package static let leak = "leak"
    package static let deadlock = "deadlock"
    package static let staleCache = "stale or missing cached value"
    package static let cacheOrder = "cached values not first, once, in order"
    package static let crossActivation = "value from another activation"
    package static let staleInput = "stale input accepted a value"
    package static let activationOrder = "activation callbacks out of order"
    package static let setupFailed = "graph setup failed"
    package static let activationNotCaptured = "activation value not captured"
}

/// What an arbiter tolerates when checking one stream.
package struct StressStreamPolicy: Sendable {
    /// How an accepted value that never arrived is judged: nil makes it FORBIDDEN
    /// (`StressCheck.lost`); otherwise the INTERESTING outcome's name.
    package var lossName: String?
    /// The end the stream must finish with ("complete", "cancelled"), or nil if it must not end.
    /// `"any"` accepts an end or none.
    package var expectedEnd: String?

    /// A policy.
    package init(lossName: String? = nil, expectedEnd: String? = "complete") {
        self.lossName = lossName
        self.expectedEnd = expectedEnd
    }
}

/// Checks one recorded stream against what its senders sent: exactly once or explicitly
/// dropped, per-sender FIFO, the end at most once and last, plus the recorder's own entry checks.
package func stressCheckStream(
    _ who: String, _ recorder: StressRecorder, senders: [StressSender], policy: StressStreamPolicy
) -> [StressFinding] {
    var findings = recorder.entryFindings(who)
    findings += stressCheckEvents(who, recorder.events, senders: senders, policy: policy)
    return findings
}

/// `stressCheckStream` on a list of events.
package func stressCheckEvents(
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

/// Checks that no sender had a send accepted after one of its own sends was refused: once the
/// end wins, it wins for every later send.
func stressCheckRefusalIsFinal(_ who: String, senders: [StressSender]) -> [StressFinding] {
    for s in senders {
        guard let firstRefused = s.status.firstIndex(of: StressSender.refused) else { continue }
        if let q = s.status[firstRefused...].firstIndex(of: StressSender.accepted) {
            return [.forbidden(
                "send accepted after refusal",
                "\(who): sender \(s.id) accepted \(q) after \(firstRefused) was refused")]
        }
    }
    return []
}
