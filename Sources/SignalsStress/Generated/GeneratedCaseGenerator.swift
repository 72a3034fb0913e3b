/// Makes a `GeneratedCase` from a seed: everything (the source, the steps, the threads and
/// their operations) comes from one `StressRandom` stream, so a seed is a case.
///
/// The grammar (docs/stress.md, "Generated scenarios"): one source; 0–4 steps, at most one of
/// them joining the secondary input (`merge`, `combineLatest`) and at most one `takeUntil`,
/// with runs past each depth bound (`fused(70)`: 65 fused stages and more; `nodes(10)`: 9
/// nodes and more); 2–4 threads (2–3 under `bench explore`, which adds a worker thread for
/// hops) of 1–4 operations each. Only thread 0 subscribes again (`resubscribe`, `release`), so
/// the single output is never subscribed twice at once; any thread may `cancel`.
package enum GeneratedCaseGenerator {
    /// The case of `seed`. `maxThreads` bounds the operation threads (3 for `bench explore`).
    package static func make(seed: UInt64, maxThreads: Int = 4) -> GeneratedCase {
        var r = StressRandom(seed: seed)
        func pick<T>(_ weighted: [(T, Int)]) -> T {
            let total = weighted.reduce(0) { $0 + $1.1 }
            var x = r.below(total)
            for (v, w) in weighted {
                if x < w { return v }
                x -= w
            }
            return weighted[0].0
        }

        let source: GeneratedCase.Source = pick([(.create, 3), (.generate, 4), (.mergedInput, 2), (.junction, 2), (.sequence, 1)])
        var steps: [GeneratedCase.Step] = []
        var joined = false, triggered = false
        let count = pick([(0, 1), (1, 3), (2, 3), (3, 2), (4, 1)])
        for _ in 0..<count {
            let kind = pick([
                ("map", 2), ("filter", 1), ("take", 1), ("first", 1), ("takeUntil", 2), ("onValue", 2), ("onEnd", 3),
                ("multicast", 2), ("continuous", 1), ("playback", 1), ("hop", 4), ("merge", 3), ("combineLatest", 1),
                ("flatMap", 1), ("fused", 1), ("nodes", 2),
            ])
            switch kind {
            case "map": steps.append(.map)
            case "filter": steps.append(.filter)
            case "take": steps.append(.take(pick([(1, 1), (3, 2)])))
            case "first": steps.append(.first)
            case "takeUntil":
                guard !triggered else { continue }
                triggered = true
                steps.append(.takeUntil(immediate: r.below(3) == 0))
            case "onValue": steps.append(.onValue(pick([(.none, 1), (.sendSecondary, 2)])))
            case "onEnd": steps.append(.onEnd(pick([(.none, 1), (.sleep, 3), (.sendSecondary, 1)])))
            case "multicast": steps.append(.multicast)
            case "continuous": steps.append(.continuous)
            case "playback": steps.append(.playback)
            case "hop": steps.append(.hop(pick([(.direct, 1), (.serial, 2), (.global, 2), (.syncQueue, 1)])))
            case "merge", "combineLatest":
                guard !joined else { continue }
                joined = true
                steps.append(kind == "merge" ? .merge : .combineLatest)
            case "flatMap": steps.append(.flatMap(pick([(.merge, 1), (.latest, 1), (.concat, 1)])))
            case "fused": steps.append(.fused(pick([(3, 1), (70, 2)])))
            default: steps.append(.nodes(pick([(2, 1), (10, 2)])))
            }
        }
        var spec = GeneratedCase(source: source, steps: steps, threads: [])
        // A handler that sends into the secondary input needs one (and none behind a
        // combineLatest, where it would feed itself): the shrinker's rule.
        spec = GeneratedShrinker.normalized(spec)

        let inputs = GeneratedCase.Input.allCases.filter { spec.has($0) }
        let threadCount = 2 + r.below(max(1, maxThreads - 1))
        for t in 0..<threadCount {
            var ops: [GeneratedCase.Operation] = []
            for _ in 0..<(1 + r.below(4)) {
                var choices: [(GeneratedCase.Operation, Int)] = []
                for i in inputs {
                    choices.append((.send(i, count: 1 + r.below(3)), i == .trigger ? 1 : 6))
                    choices.append((.sendEnd(i, error: r.below(2) == 0), i == .primary ? 2 : 1))
                }
                choices.append((.cancel, 1))
                if t == 0 {
                    choices.append((.resubscribe, 3))
                    choices.append((.release, 1))
                }
                if source == .junction { choices.append((.rebind, 3)) }
                if source == .mergedInput {
                    choices.append((.addSource, 1))
                    choices.append((.removeSource, 1))
                }
                choices.append((.pause(microseconds: [500, 5_000][r.below(2)]), 2))
                ops.append(pick(choices))
            }
            spec.threads.append(ops)
        }
        return spec
    }
}
