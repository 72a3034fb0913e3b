// A generated scenario as a value: the graph's source, its steps from the source to the one
// subscriber, and each thread's operations. `GeneratedCaseGenerator` makes one from a seed,
// `GeneratedShrinker` makes it smaller, `GeneratedGraph` runs it, and `swiftListing` prints it
// as code a regression test can paste (docs/stress.md, "Generated scenarios").

/// A graph and the operations that race on it, made from a seed or written in a test.
package struct GeneratedCase: Sendable, Hashable {
    /// Where the primary input's values come from.
    package enum Source: String, Sendable, Hashable, CaseIterable {
        /// `Signal.create()`: one input for every activation.
        case create
        /// `Signal.generate`: a fresh input per activation, nil on deactivation.
        case generate
        /// `Signal.createMergedInput()`: the merged input is the primary input; whole signals
        /// are added and removed (`addSource`, `removeSource`).
        case mergedInput
        /// A `generate` source's `junction()` bound to a `create()` input, whose signal the steps
        /// follow; `rebind` disconnects and binds it again.
        case junction
        /// `Signal.deferred { Signal.from(0..<4) }`: cold, four values then `.complete`, anew for
        /// each activation (the factory's runs are counted).
        case sequence
    }

    /// Where a `hop(to:)` runs what follows it.
    package enum Context: String, Sendable, Hashable, CaseIterable {
        case direct, serial, global, syncQueue
    }

    /// What a handler stage does beside passing everything on.
    package enum Action: String, Sendable, Hashable, CaseIterable {
        case none
        /// Sleeps 2 ms (`bench stress`; a no-op under `bench explore`, which finds the window by
        /// its schedule points instead), so that graph changes land while the end is held there.
        case sleep
        /// Sends a value of its own into the secondary input (needs a merge or combineLatest).
        case sendSecondary
    }

    /// Which `flatMap` of the family, each with `Signal.just(value)` as the inner signal.
    package enum FlatMapKind: String, Sendable, Hashable, CaseIterable {
        case merge, latest, concat
    }

    /// One step between the source and the subscriber.
    package enum Step: Sendable, Hashable {
        case map
        /// Drops the values whose sequence number is 3 mod 4 (the checks know which).
        case filter
        case take(Int)
        case first
        /// `takeUntil` a trigger: `Signal<Void>.just(())` when `immediate` (it ends the result as
        /// it is connected, so the source before it must never start), else an input the
        /// operation `trigger` sends into.
        case takeUntil(immediate: Bool)
        case onValue(Action)
        case onEnd(Action)
        case multicast, continuous, playback
        case hop(Context)
        /// `merge(with:)` the secondary input's signal.
        case merge
        /// `combineLatest` with the secondary input's signal, keeping the primary's value.
        case combineLatest
        case flatMap(FlatMapKind)
        /// `n` `.direct` maps in a row (fused into one node's closure; past 64 a node starts the
        /// next run).
        case fused(Int)
        /// `n` `multicast()` nodes in a row (past 8 nested activations or hand-overs the work is
        /// deferred or queued).
        case nodes(Int)
    }

    /// An input the operations send into.
    package enum Input: Int, Sendable, Hashable, CaseIterable {
        /// The source's input (for `.sequence`, none: sends are refused).
        case primary
        /// The input of the signal a `merge` or `combineLatest` step joins.
        case secondary
        /// The non-immediate `takeUntil`'s trigger.
        case trigger
        /// The source currently added to a `.mergedInput` source.
        case mergedSource
    }

    /// One thing a thread does.
    package enum Operation: Sendable, Hashable {
        /// Sends `count` values, one after another.
        case send(Input, count: Int)
        /// Sends an end: `.other(GeneratedEndError)` naming the input when `error`, else `.complete`.
        case sendEnd(Input, error: Bool)
        /// Cancels the current subscription.
        case cancel
        /// Cancels the current subscription and subscribes again at once.
        case resubscribe
        /// Releases the current subscription's output (its last reference) and subscribes again.
        case release
        /// `.junction`: `disconnect()` and `bind(to:)` the same input again.
        case rebind
        /// `.mergedInput`: adds a fresh `create()` signal as a source.
        case addSource
        /// `.mergedInput`: removes the current added source.
        case removeSource
        /// Waits about `microseconds` (`bench stress`; a turn of the scheduler under `bench explore`).
        case pause(microseconds: Int)
    }

    /// The primary source.
    package var source: Source
    /// The steps from the source to the subscriber, in order.
    package var steps: [Step]
    /// Each thread's operations, in order.
    package var threads: [[Operation]]

    /// A case.
    package init(source: Source, steps: [Step], threads: [[Operation]]) {
        self.source = source
        self.steps = steps
        self.threads = threads
    }
}

/// The error an input's `sendEnd(_:error: true)` sends: which input ended the graph.
package struct GeneratedEndError: Error, Sendable, Equatable, CustomStringConvertible {
    package let input: GeneratedCase.Input
    /// Which added source, for `.mergedSource` (0 otherwise).
    package var instance = 0
    package var description: String { instance == 0 ? "end of \(input)" : "end of \(input) #\(instance)" }
}

// MARK: - What the checks need to know of a shape

extension GeneratedCase {
    /// Whether the graph has an input of this kind.
    package func has(_ input: Input) -> Bool {
        switch input {
        case .primary: return source != .sequence
        case .secondary: return steps.contains { $0 == .merge || $0 == .combineLatest }
        case .trigger: return steps.contains(.takeUntil(immediate: false))
        case .mergedSource: return source == .mergedInput
        }
    }

    /// The index of the first step the input's values pass (`steps.count`: straight to the
    /// subscriber), or nil when its values never reach the subscriber (a trigger).
    package func entry(of input: Input) -> Int? {
        switch input {
        case .primary, .mergedSource: return 0
        case .secondary:
            return steps.firstIndex { $0 == .merge || $0 == .combineLatest }.map { $0 + 1 }
        case .trigger: return nil
        }
    }

    /// The steps an input's values pass.
    package func path(of input: Input) -> ArraySlice<Step> {
        guard let e = entry(of: input) else { return [] }
        return steps[min(e, steps.count)...]
    }

    /// Whether a step can end the subscription by itself (or, for a combineLatest, hold or
    /// repeat values): past it, an accepted value may be dropped once that end is on its way.
    package static func isEnding(_ step: Step) -> Bool {
        switch step {
        case .take, .first, .takeUntil: return true
        default: return false
        }
    }

    /// Every value of the input that reaches the subscriber reaches it once, and every accepted
    /// value passing the filters reaches it (unless an end or a graph change excuses it).
    package func isLossless(_ input: Input) -> Bool {
        guard entry(of: input) != nil else { return false }
        if input == .mergedSource && threads.joined().contains(.removeSource) { return false }
        // A merged input's sources stay attached after its own end (known open).
        if input == .mergedSource && threads.joined().contains(where: { if case .sendEnd(.primary, _) = $0 { true } else { false } }) {
            return false
        }
        // flatMapLatest drops an inner signal that a newer value supersedes before it has
        // started (a synchronous source's values during one activation pass).
        return !path(of: input).contains(.combineLatest) && !(input == .secondary && steps.contains(.combineLatest))
            && !path(of: input).contains(.flatMap(.latest))
    }

    /// Whether values of the input may be delivered more than once (combineLatest repeats the
    /// latest primary value for each secondary value).
    package func repeats(_ input: Input) -> Bool { path(of: input).contains(.combineLatest) }

    /// Whether a value of the input with sequence number `seq` is dropped by a filter on its path.
    package func filtered(_ input: Input, seq: Int) -> Bool {
        path(of: input).contains(.filter) && seq % 4 == 3
    }

    /// Whether the input's path has a multi node above the point where the end entered the
    /// graph (the entry of the input it came from, or, for a stage's end, the last stage that
    /// can end): an end ends what is below where it enters, and a multi above it that is
    /// still held (`GeneratedRun` holds the last signal, as a user holds a multi) keeps its
    /// upstream active after its branch ended: what it accepts then is its own, not the
    /// ended part's.
    package func multiAboveEnd(_ input: Input, endEntry: Int?) -> Bool {
        guard let start = entry(of: input) else { return false }
        // An end of unknown origin (a `.complete` through a merge, an end kept by an input and
        // replayed to a later subscription) may have entered anywhere: the whole path counts.
        let stop = endEntry ?? steps.count
        guard start < stop else { return false }
        return steps[start..<min(stop, steps.count)].contains {
            switch $0 {
            case .multicast, .continuous, .playback, .nodes: true
            default: false
            }
        }
    }

    /// Whether the graph has a step that can end it by itself.
    package var hasEndingStep: Bool { steps.contains(where: Self.isEnding) }

    /// Whether an immediate `takeUntil` sits on the primary's path: then the source must never
    /// start (no `generate` activation with a live input, no run of the `deferred` factory).
    /// (Not for a `.junction` source: the junction's `bind(to:)` starts its source, whatever
    /// the signal of the input it is bound to does.)
    /// (Nor behind a `continuous()` or `playback()`: those multis are eager, they start their
    /// source when they are made.)
    package var sourceMustNotStart: Bool {
        guard source != .junction, let i = steps.firstIndex(of: .takeUntil(immediate: true)) else { return false }
        return !steps[..<i].contains { $0 == .continuous || $0 == .playback }
    }

    /// Whether a hop runs on an asynchronous context (under `bench explore`, the worker thread).
    package var hasHop: Bool {
        steps.contains { if case .hop(let c) = $0 { c != .direct } else { false } }
    }
}
