/// Reduces a failing generated case while it still fails: fewer threads, operations and
/// steps, smaller counts and runs, a simpler source. Greedy, as QuickCheck and Hypothesis
/// shrink: the first smaller candidate (in a fixed order) that still fails is taken, and the
/// search starts again from it, until none fails or the budget is spent.
///
/// The candidates of a case come in a fixed order, so a shrunk case is written as its seed
/// and the candidate indices taken (`1234~3.0.5`): `replay(_:)` rebuilds it exactly.
package enum GeneratedShrinker {
    /// The smaller cases to try instead of `c`, in the order they are tried.
    package static func candidates(_ c: GeneratedCase) -> [GeneratedCase] {
        var out: [GeneratedCase] = []
        // Whole threads first (at least one stays), then single operations.
        if c.threads.count > 1 {
            for t in c.threads.indices {
                var d = c
                d.threads.remove(at: t)
                out.append(d)
            }
        }
        for t in c.threads.indices {
            for o in c.threads[t].indices {
                var d = c
                d.threads[t].remove(at: o)
                if !d.threads[t].isEmpty || d.threads.count == 1 { out.append(d) }
            }
        }
        // Steps: removed, then runs and counts made smaller.
        for s in c.steps.indices {
            var d = c
            d.steps.remove(at: s)
            out.append(normalized(d))
        }
        for s in c.steps.indices {
            var d = c
            switch c.steps[s] {
            case .fused(let n) where n > 1: d.steps[s] = .fused(n > 65 ? 65 : 1)
            case .nodes(let n) where n > 1: d.steps[s] = .nodes(n > 9 ? 9 : 1)
            case .onEnd(let a) where a != .none: d.steps[s] = .onEnd(.none)
            case .onValue(let a) where a != .none: d.steps[s] = .onValue(.none)
            case .hop(let ctx) where ctx != .global && ctx != .direct: d.steps[s] = .hop(.global)
            default: continue
            }
            out.append(d)
        }
        for t in c.threads.indices {
            for o in c.threads[t].indices {
                var d = c
                switch c.threads[t][o] {
                case .send(let i, let n) where n > 1: d.threads[t][o] = .send(i, count: n - 1)
                case .pause(let us) where us > 500: d.threads[t][o] = .pause(microseconds: 500)
                default: continue
                }
                out.append(d)
            }
        }
        // A simpler source, where the operations still make sense for it.
        if c.source != .create && c.source != .generate {
            var d = c
            d.source = .generate
            out.append(normalized(d))
        }
        return out.filter { $0 != c }
    }

    /// `c` without the operations and handler actions that need an input it no longer has,
    /// and without handler sends into the secondary input behind a combineLatest (each
    /// secondary value makes another combined value: a loop without end).
    package static func normalized(_ c: GeneratedCase) -> GeneratedCase {
        var d = c
        if !d.has(.secondary) || d.steps.contains(.combineLatest) {
            d.steps = d.steps.map {
                switch $0 {
                case .onValue(.sendSecondary): return .onValue(.none)
                case .onEnd(.sendSecondary): return .onEnd(.none)
                default: return $0
                }
            }
        }
        d.threads = d.threads.map { ops in
            ops.filter {
                switch $0 {
                case .send(let i, _), .sendEnd(let i, _): return d.has(i)
                case .rebind: return d.source == .junction
                case .addSource, .removeSource: return d.source == .mergedInput
                default: return true
                }
            }
        }
        return d
    }

    /// The shrunk case and the path of candidate indices that leads to it from `c`.
    /// `fails` decides whether a candidate still fails; `budget` bounds the candidates tried.
    package static func shrink(_ c: GeneratedCase, budget: Int = 200, fails: (GeneratedCase) -> Bool) -> (GeneratedCase, [Int]) {
        var current = c
        var path: [Int] = []
        var tried = 0
        outer: while tried < budget {
            for (i, d) in candidates(current).enumerated() {
                if tried >= budget { break outer }
                tried += 1
                if fails(d) {
                    current = d
                    path.append(i)
                    continue outer
                }
            }
            break
        }
        return (current, path)
    }

    /// The case a seed and a shrink path stand for, or nil if the path does not fit it.
    package static func replay(seed: UInt64, path: [Int], maxThreads: Int) -> GeneratedCase? {
        var c = GeneratedCaseGenerator.make(seed: seed, maxThreads: maxThreads)
        for i in path {
            let cs = candidates(c)
            guard cs.indices.contains(i) else { return nil }
            c = cs[i]
        }
        return c
    }

    /// `seed~i.j.k`, or `seed` alone for an unshrunk case.
    package static func caseName(seed: UInt64, path: [Int]) -> String {
        path.isEmpty ? "\(seed)" : "\(seed)~" + path.map(String.init).joined(separator: ".")
    }

    /// The seed and path of `caseName`, or nil.
    package static func parseCaseName(_ text: String) -> (seed: UInt64, path: [Int])? {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count <= 2, let seed = UInt64(parts[0]) else { return nil }
        if parts.count == 1 { return (seed, []) }
        let items = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        var path: [Int] = []
        for item in items {
            guard let i = Int(item), i >= 0, i < 10_000 else { return nil }
            path.append(i)
        }
        return path.isEmpty ? nil : (seed, path)
    }
}
