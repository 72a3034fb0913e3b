import Foundation
/// The library's performance goals (release build), checked against a run's
/// results. A missed target is reported; it never fails the run. The ns goals were set for a
/// 16-core Xeon (`../shared/scripts/device-bench`); on the 2-core VM they are reported too.
package enum Targets {
    /// Peer figures from outside this harness (no run of `bench` measured them, on this machine
    /// or any other, and their source is not recorded), printed beside the targets for scale
    /// only: they are not comparable with a report's figures. What is known of them:
    /// `peerReferencesRecord`.
    package static let peerReferences: [String] = [
        "send with one map, per value: OpenCombine ≈ 460 ns, RxSwift ≈ 1,300 ns, CwlSignal ≈ 1,200 ns",
        "contended, 2 threads: OpenCombine ≈ 440 ns",
        "subscribe+cancel: ReactiveSwift ≈ 3,200 ns, CwlSignal ≈ 40,000 ns",
        "fan-out per delivery: ReactiveSwift ≈ 100 ns",
        "re-entrant depth 100,000: every callback-based peer overflows the stack",
    ]

    /// The record of `peerReferences`, relative to the repository's root.
    package static let peerReferencesRecord = "docs/records/2026-11-22-peer-references.md"

    /// The line a text report prints them in: labelled as figures from elsewhere, with their record.
    package static var peerReferencesLine: String {
        "peer references (measured elsewhere, not by this run, not comparable with the tables above: "
            + peerReferencesRecord + "): " + peerReferences.joined(separator: "; ")
    }

    /// Below this many allocations per value counts as "zero in steady state" (a block queue
    /// or a histogram growing once per repetition amortizes far below it).
    package static let zeroAllocationEpsilon = 0.01

    package static func evaluate(_ results: [CaseResult], cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> [TargetResult] {
        func find(_ w: WorkloadID, _ s: SubjectID) -> CaseResult? {
            // A workload's unloaded case (churn also has cases beside busy threads).
            results.first { $0.workload == w && $0.subject == s && ($0.spec?.load ?? 0) == 0 }
        }
        func nsTarget(_ id: String, _ text: String, _ r: CaseResult?, limit: Double, perOp: ((Double) -> Double)? = nil) -> TargetResult {
            guard let r, r.status == .ok, let t = r.throughput else {
                return TargetResult(id: id, description: text, verdict: .notMeasured, measured: nil, limit: limit, unit: "ns")
            }
            let v = perOp?(t.medianNsPerOp) ?? t.medianNsPerOp
            return TargetResult(id: id, description: text, verdict: v <= limit ? .met : .notMet, measured: v, limit: limit, unit: "ns")
        }
        var out: [TargetResult] = []
        out.append(nsTarget("send-map", "lockfree send → map → sink ≤ 15 ns per value", find(.sendMap, .lockfree), limit: 15))

        // Cost per extra `.direct` map stage: (chain - send-map) / (stages - 1).
        let stageText = "lockfree each extra fused .direct map stage ≤ 3 ns"
        if let chain = find(.chain, .lockfree), let one = find(.sendMap, .lockfree),
           chain.status == .ok, one.status == .ok, let ct = chain.throughput, let ot = one.throughput {
            let stages = chain.stages ?? 10
            let perStage = stages > 1 ? (ct.medianNsPerOp - ot.medianNsPerOp) / Double(stages - 1) : ct.medianNsPerOp
            // A chain faster than one map means the two figures were taken under different
            // conditions (a loaded machine): no stage cost can be read from them.
            out.append(TargetResult(id: "chain-per-stage", description: stageText,
                                    verdict: perStage < 0 ? .notMeasured : (perStage <= 3 ? .met : .notMet),
                                    measured: perStage < 0 ? nil : perStage, limit: 3, unit: "ns"))
        } else {
            out.append(TargetResult(id: "chain-per-stage", description: stageText,
                                    verdict: .notMeasured, measured: nil, limit: 3, unit: "ns"))
        }

        let reentrant = results.first { $0.workload == .reentrant && $0.subject == .lockfree && $0.reentrantDepth?.busySender == false }
        let depthOK = reentrant?.reentrantDepth?.depth == 1_000_000
        out.append(nsTarget("reentrant", "lockfree re-entrant send, depth 1,000,000 on the default stack, ≤ 25 ns per value",
                            depthOK ? reentrant : nil, limit: 25))
        out.append(nsTarget("churn", "lockfree subscribe+cancel on a multicast with 10 standing subscribers while values flow ≤ 300 ns",
                            find(.churn, .lockfree), limit: 300))
        // Churn beside two busy threads against churn quiet, each variant: a wait that burns
        // the core the thread it waits for needs shows here first (docs/design/churn.md).
        for subject in [SubjectID.lockfree, .mutex] {
            let text = "\(subject.rawValue) churn beside 2 busy threads ≤ 2.5× its quiet figure"
            let id = "churn-load-\(subject.rawValue)"
            let loaded = results.first { $0.workload == .churn && $0.subject == subject && $0.spec?.load == 2 }
            if let q = find(.churn, subject), q.status == .ok, let qt = q.throughput, qt.medianNsPerOp > 0,
               let l = loaded, l.status == .ok, let lt = l.throughput {
                let ratio = lt.medianNsPerOp / qt.medianNsPerOp
                out.append(TargetResult(id: id, description: text, verdict: ratio <= 2.5 ? .met : .notMet,
                                        measured: ratio, limit: 2.5, unit: "×"))
            } else {
                out.append(TargetResult(id: id, description: text, verdict: .notMeasured, measured: nil, limit: 2.5, unit: "×"))
            }
        }
        out.append(nsTarget("fanout", "lockfree fan-out ≤ 6 ns per delivery", find(.fanout, .lockfree), limit: 6))

        // Contended, per thread count ("N threads" cases that ran ok).
        func contended(_ s: SubjectID) -> [Int: Double] {
            var out: [Int: Double] = [:]
            for r in results where r.workload == .contended && r.subject == s && r.status == .ok {
                if let t = r.senderThreads, let tp = r.throughput { out[t] = tp.medianNsPerOp }
            }
            return out
        }
        let lockfree = contended(.lockfree), mutex = contended(.mutex), openCombine = contended(.opencombine)
        /// Worst ratio a/b over the thread counts ≥ 2 both measured, judged against `limit`.
        func ratioTarget(_ id: String, _ text: String, _ a: [Int: Double], _ b: [Int: Double], limit: Double,
                         strictlyBelow: Bool) -> TargetResult {
            let ratios = a.keys.filter { $0 >= 2 && b[$0] != nil }.map { a[$0]! / b[$0]! }
            guard let worst = ratios.max() else {
                return TargetResult(id: id, description: text, verdict: .notMeasured, measured: nil, limit: limit, unit: "×")
            }
            let ok = strictlyBelow ? worst < limit : worst <= limit
            return TargetResult(id: id, description: text, verdict: ok ? .met : .notMet, measured: worst, limit: limit, unit: "×")
        }
        out.append(ratioTarget("contended-vs-mutex",
                               "lockfree ahead of mutex on contended at every thread count ≥ 2 (worst lockfree/mutex < 1)",
                               lockfree, mutex, limit: 1, strictlyBelow: true))
        out.append(ratioTarget("contended-mutex-vs-opencombine",
                               "mutex within 2× of OpenCombine on contended at every thread count ≥ 2 (worst mutex/OpenCombine ≤ 2)",
                               mutex, openCombine, limit: 2, strictlyBelow: false))
        // Judged where the counts ran: the goal is set for a machine with ≥ 16 cores, and on
        // fewer cores the higher counts oversubscribe it.
        let counts = lockfree.filter { (2...16).contains($0.key) }
        let perValueText = "lockfree contended ≤ 60 ns per value at every thread count 2–16 (worst count shown; judged on a machine with ≥ 16 cores)"
        if let worst = counts.values.max() {
            // A goal set for ≥ 16 cores is reported, not judged, on fewer: a 2-core machine
            // cannot run 16 senders in parallel, so its figure says nothing about the goal.
            let verdict: TargetResult.Verdict = cores < 16 ? .notJudged : (worst <= 60 ? .met : .notMet)
            out.append(TargetResult(id: "contended-2-16",
                                    description: cores < 16 ? perValueText + " — not judged on \(cores) cores" : perValueText,
                                    verdict: verdict, measured: worst, limit: 60, unit: "ns"))
        } else {
            out.append(TargetResult(id: "contended-2-16", description: perValueText, verdict: .notMeasured, measured: nil, limit: 60, unit: "ns"))
        }

        // The allocation threshold of `Benchmarks/` for churn, checked here too.
        let churnAllocText = "lockfree churn ≤ 3 allocations per subscribe+cancel"
        if let r = find(.churn, .lockfree), r.status == .ok, let a = r.allocations {
            out.append(TargetResult(id: "churn-allocs", description: churnAllocText, verdict: a.countPerOp <= 3 + zeroAllocationEpsilon ? .met : .notMet,
                                    measured: a.countPerOp, limit: 3, unit: "allocs"))
        } else {
            out.append(TargetResult(id: "churn-allocs", description: churnAllocText, verdict: .notMeasured, measured: nil, limit: 3, unit: "allocs"))
        }

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
