/// The performance targets for the lock-free variant (release build, the project's
/// 2-core machine), checked against a run's results. A missed target is reported; it never
/// fails the run.
public enum Targets {
    /// Peer figures measured when the targets were set, shown beside the targets for scale.
    public static let peerReferences: [String] = [
        "send with one map, per value: OpenCombine ≈ 460 ns, RxSwift ≈ 1,300 ns, CwlSignal ≈ 1,200 ns",
        "contended, 2 threads: OpenCombine ≈ 440 ns",
        "subscribe+cancel: ReactiveSwift ≈ 3,200 ns, CwlSignal ≈ 40,000 ns",
        "fan-out per delivery: ReactiveSwift ≈ 100 ns",
        "re-entrant depth 100,000: every callback-based peer overflows the stack",
    ]

    /// Below this many allocations per value counts as "zero in steady state" (a block queue
    /// or a histogram growing once per repetition amortizes far below it).
    public static let zeroAllocationEpsilon = 0.01

    public static func evaluate(_ results: [CaseResult]) -> [TargetResult] {
        func find(_ w: WorkloadID, _ s: SubjectID, variant: ((String) -> Bool)? = nil) -> CaseResult? {
            results.first { $0.workload == w && $0.subject == s && (variant?($0.variant) ?? true) }
        }
        func nsTarget(_ id: String, _ text: String, _ r: CaseResult?, limit: Double, perOp: ((Double) -> Double)? = nil) -> TargetResult {
            guard let r, r.status == .ok, let t = r.throughput else {
                return TargetResult(id: id, description: text, verdict: .notMeasured, measured: nil, limit: limit, unit: "ns")
            }
            let v = perOp?(t.medianNsPerOp) ?? t.medianNsPerOp
            return TargetResult(id: id, description: text, verdict: v <= limit ? .met : .notMet, measured: v, limit: limit, unit: "ns")
        }
        var out: [TargetResult] = []
        out.append(nsTarget("send-map", "lockfree send with one map ≤ 20 ns per value", find(.sendMap, .lockfree), limit: 20))

        // Cost per extra `.direct` map stage: (chain - send-map) / (stages - 1).
        if let chain = find(.chain, .lockfree), let one = find(.sendMap, .lockfree),
           chain.status == .ok, one.status == .ok, let ct = chain.throughput, let ot = one.throughput {
            let stages = Int(chain.variant.split(separator: " ").first ?? "") ?? 10
            let perStage = stages > 1 ? (ct.medianNsPerOp - ot.medianNsPerOp) / Double(stages - 1) : ct.medianNsPerOp
            out.append(TargetResult(id: "chain-per-stage", description: "lockfree each extra .direct map stage ≤ 5 ns",
                                    verdict: perStage <= 5 ? .met : .notMet, measured: perStage, limit: 5, unit: "ns"))
        } else {
            out.append(TargetResult(id: "chain-per-stage", description: "lockfree each extra .direct map stage ≤ 5 ns",
                                    verdict: .notMeasured, measured: nil, limit: 5, unit: "ns"))
        }

        out.append(nsTarget("contended-2", "lockfree contended, 2 threads, ≤ 60 ns per value",
                            find(.contended, .lockfree) { $0 == "2 threads" }, limit: 60))

        // Ahead of mutex at every measured thread count ≥ 2.
        let multi = results.filter { $0.workload == .contended && $0.subject == .lockfree && $0.status == .ok }
            .compactMap { r -> (Int, Double)? in
                guard let t = Int(r.variant.split(separator: " ").first ?? ""), t >= 2, let tp = r.throughput else { return nil }
                return (t, tp.medianNsPerOp)
            }
        var ahead: [Bool] = []
        var worstRatio: Double?
        for (t, ns) in multi {
            if let m = find(.contended, .mutex, variant: { $0 == "\(t) threads" }), m.status == .ok, let mt = m.throughput {
                ahead.append(ns < mt.medianNsPerOp)
                let ratio = ns / mt.medianNsPerOp
                worstRatio = max(worstRatio ?? 0, ratio)
            }
        }
        out.append(TargetResult(id: "contended-vs-mutex", description: "lockfree ahead of mutex on contended from 2 threads up (ratio lockfree/mutex < 1)",
                                verdict: ahead.isEmpty ? .notMeasured : (ahead.allSatisfy { $0 } ? .met : .notMet),
                                measured: worstRatio, limit: 1, unit: "×"))

        out.append(nsTarget("fanout", "lockfree fanout ≤ 10 ns per delivery", find(.fanout, .lockfree), limit: 10))
        out.append(nsTarget("churn", "lockfree churn ≤ 500 ns per subscribe+cancel", find(.churn, .lockfree), limit: 500))
        let reentrant = find(.reentrant, .lockfree) { $0.hasSuffix("alone") }
        let depthOK = reentrant.map { $0.variant.hasPrefix("depth 1000000") } ?? false
        out.append(nsTarget("reentrant", "lockfree reentrant depth 1,000,000 on the default stack ≤ 30 ns per value",
                            depthOK ? reentrant : nil, limit: 30))

        for w in [WorkloadID.send, .chain, .fanout] {
            let id = "zero-alloc-\(w.rawValue)"
            let text = "lockfree zero allocations per \(w.unit) on \(w.rawValue) (< \(zeroAllocationEpsilon))"
            if let r = find(w, .lockfree), r.status == .ok, let a = r.allocations {
                out.append(TargetResult(id: id, description: text, verdict: a.countPerOp < zeroAllocationEpsilon ? .met : .notMet,
                                        measured: a.countPerOp, limit: zeroAllocationEpsilon, unit: "allocs"))
            } else {
                out.append(TargetResult(id: id, description: text, verdict: .notMeasured, measured: nil,
                                        limit: zeroAllocationEpsilon, unit: "allocs"))
            }
        }
        return out
    }
}
