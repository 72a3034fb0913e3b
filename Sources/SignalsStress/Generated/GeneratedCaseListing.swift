// How a generated case is printed: as Swift that builds the same `GeneratedCase` (a test
// pastes it and runs it with `GeneratedRun`), and as the graph it stands for, in the
// library's own calls, for a reader.

extension GeneratedCase.Step {
    /// The step as a Swift expression of `GeneratedCase.Step`.
    package var swift: String {
        switch self {
        case .map: return ".map"
        case .filter: return ".filter"
        case .take(let n): return ".take(\(n))"
        case .first: return ".first"
        case .takeUntil(let i): return ".takeUntil(immediate: \(i))"
        case .onValue(let a): return ".onValue(.\(a.rawValue))"
        case .onEnd(let a): return ".onEnd(.\(a.rawValue))"
        case .multicast: return ".multicast"
        case .continuous: return ".continuous"
        case .playback: return ".playback"
        case .hop(let c): return ".hop(.\(c.rawValue))"
        case .merge: return ".merge"
        case .combineLatest: return ".combineLatest"
        case .flatMap(let k): return ".flatMap(.\(k.rawValue))"
        case .fused(let n): return ".fused(\(n))"
        case .nodes(let n): return ".nodes(\(n))"
        }
    }

    /// The step as the library call it makes.
    var call: String {
        switch self {
        case .map: return ".map { $0 }"
        case .filter: return ".filter { seq % 4 != 3 }"
        case .take(let n): return ".take(\(n))"
        case .first: return ".first()"
        case .takeUntil(let i): return i ? ".takeUntil(Signal<Void>.just(()))" : ".takeUntil(trigger)"
        case .onValue(let a): return a == .sendSecondary ? ".onValue { _ in secondary.send(value: …) }" : ".onValue { _ in }"
        case .onEnd(let a):
            switch a {
            case .none: return ".onEnd { _ in }"
            case .sleep: return ".onEnd { _ in usleep(2_000) }"
            case .sendSecondary: return ".onEnd { _ in secondary.send(value: …) }"
            }
        case .multicast: return ".multicast()"
        case .continuous: return ".continuous()"
        case .playback: return ".playback()"
        case .hop(let c):
            switch c {
            case .direct: return ".hop(to: .direct)"
            case .serial: return ".hop(to: .queue(serialQueue))"
            case .global: return ".hop(to: .global)"
            case .syncQueue: return ".hop(to: .syncQueue())"
            }
        case .merge: return ".merge(with: secondarySignal)"
        case .combineLatest: return ".combineLatest(secondarySignal) { a, _ in a }"
        case .flatMap(let k):
            switch k {
            case .merge: return ".flatMap { Signal.just($0) }"
            case .latest: return ".flatMapLatest { Signal.just($0) }"
            case .concat: return ".concatMap { Signal.just($0) }"
            }
        case .fused(let n): return "\(n) × .map { $0 }"
        case .nodes(let n): return "\(n) × .multicast()"
        }
    }
}

extension GeneratedCase.Operation {
    /// The operation as a Swift expression of `GeneratedCase.Operation`.
    package var swift: String {
        switch self {
        case .send(let i, let n): return ".send(.\(i), count: \(n))"
        case .sendEnd(let i, let e): return ".sendEnd(.\(i), error: \(e))"
        case .cancel: return ".cancel"
        case .resubscribe: return ".resubscribe"
        case .release: return ".release"
        case .rebind: return ".rebind"
        case .addSource: return ".addSource"
        case .removeSource: return ".removeSource"
        case .pause(let us): return ".pause(microseconds: \(us))"
        }
    }
}

extension GeneratedCase: CustomStringConvertible {
    /// A Swift listing a test can paste: the case, and the graph it builds as a comment.
    package var swiftListing: String {
        let steps = self.steps.map(\.swift).joined(separator: ", ")
        let threads = self.threads.map { "        [" + $0.map(\.swift).joined(separator: ", ") + "]," }.joined(separator: "\n")
        let sourceCall: String
        switch source {
        case .create: sourceCall = "Signal<Int>.create()"
        case .generate: sourceCall = "Signal<Int>.generate { primary = $0 }"
        case .mergedInput: sourceCall = "Signal<Int>.createMergedInput()  // one create() signal added"
        case .junction: sourceCall = "Signal<Int>.generate { primary = $0 }.junction().bind(to: input of Signal<Int>.create())"
        case .sequence: sourceCall = "Signal<Int>.deferred { Signal.from(0..<4) }"
        }
        let graph = ([sourceCall] + self.steps.map { "    " + $0.call } + ["    .subscribe { … }"]).joined(separator: "\n//   ")
        return """
            // The graph: \(graph)
            let spec = GeneratedCase(
                source: .\(source.rawValue),
                steps: [\(steps)],
                threads: [
            \(threads)
                ])
            """
    }

    package var description: String {
        "\(source.rawValue) → [\(steps.map(\.swift).joined(separator: ", "))], threads: \(threads.map { "[" + $0.map(\.swift).joined(separator: ", ") + "]" }.joined(separator: " "))"
    }

    /// Nodes, steps and operations: the size a shrink reduces.
    package var size: Int {
        steps.reduce(0) {
            switch $1 {
            case .fused(let n), .nodes(let n): return $0 + 1 + n / 10
            default: return $0 + 1
            }
        } + threads.reduce(0) { $0 + 1 + $1.reduce(0) { if case .send(_, let n) = $1 { $0 + n } else { $0 + 1 } } }
    }
}
