import Foundation
import Signals
import Synchronization

/// Who sends a generated case's values: each value carries its sender and sequence number as
/// a `StressStamp` (`encoded`), so that every check reads them back from what a handler
/// received; these are the senders' numbers.
package enum GeneratedValue {
    /// The sender of thread `thread` sending into `input` (for `.mergedSource`, into its
    /// `instance`th added source: sends into two sources are two senders, each in order).
    package static func sender(thread: Int, input: GeneratedCase.Input, instance: Int = 0) -> Int {
        thread * 4 + input.rawValue + 64 * min(instance, 500)
    }
    /// Values a handler stage sends into the secondary input.
    package static let handlerSender = 16
    /// The `.sequence` source's own values.
    package static let coldSender = 20
    /// The input a sender sends into.
    package static func input(ofSender s: Int) -> GeneratedCase.Input? {
        if s == handlerSender { return .secondary }
        if s == coldSender { return .primary }
        return GeneratedCase.Input(rawValue: s % 64 % 4)
    }
    package static func describe(_ v: Int) -> String {
        let stamp = StressStamp(encoded: v)
        let s = stamp.sender
        let source = s >= 64 ? " #\(s / 64)" : ""
        let who = s == handlerSender ? "handler" : s == coldSender ? "sequence" : "thread \(s % 64 / 4) → \(GeneratedCase.Input(rawValue: s % 4).map { "\($0)" } ?? "?")\(source)"
        return "#\(stamp.seq) of \(who)"
    }
}

/// Whether a run is under `bench explore`'s controlled scheduler or on free threads.
package enum GeneratedMode: Sendable {
    /// Free threads with real contexts (`bench stress`, the tests).
    case free
    /// Under the controlled scheduler: every asynchronous context is one worker thread that
    /// the scheduler runs as a scenario thread.
    case explore
}

/// What one subscription received, recorded by its handler (which holds this and nothing of
/// the graph, so the subscription's output is no part of a cycle).
final class GeneratedRecorder: @unchecked Sendable {
    // Unchecked: `events` and `late` only under `lock`; the flags are atomic.
    enum Event { case value(Int), end(SignalEnd) }
    let index: Int
    private let lock = NSLock()
    private var events: [Event] = []
    private var late = 0
    /// Set once `cancel()` (or the release of the output) has returned.
    let cancelReturned = Atomic<Bool>(false)
    /// Set once an end has been recorded, and the thread that recorded it.
    let endSeen = Atomic<Bool>(false)
    private let endThread = Atomic<UInt>(0)

    /// Whether a graph change (subscribe, cancel, rebind…) was running when the end arrived.
    private let changeRunning: @Sendable () -> Bool
    let endDuringChange = Atomic<Bool>(false)

    init(index: Int, changeRunning: @escaping @Sendable () -> Bool) {
        self.index = index
        self.changeRunning = changeRunning
    }

    func receive(_ r: Result<Int, SignalEnd>) {
        let lateCall = cancelReturned.load(ordering: .acquiring)
        lock.withLock {
            if lateCall { late += 1 }
            switch r {
            case .success(let v): events.append(.value(v))
            case .failure(let e): events.append(.end(e))
            }
        }
        if case .failure = r {
            if changeRunning() { endDuringChange.store(true, ordering: .relaxed) }
            endThread.store(stressThreadToken(), ordering: .relaxed)
            endSeen.store(true, ordering: .releasing)
        }
    }

    /// Whether the end was recorded on the calling thread (by an operation of it that has
    /// returned, when asked at the start of a later one).
    var endSeenOnThisThread: Bool {
        endSeen.load(ordering: .acquiring)
            && endThread.load(ordering: .relaxed) == stressThreadToken()
    }

    var snapshot: (events: [Event], late: Int) { lock.withLock { (events, late) } }
    var count: Int { lock.withLock { events.count } }
}

/// A subscription of the run: its recorder and its output.
final class GeneratedSubscription: @unchecked Sendable {
    // Unchecked: `output` only under `lock`.
    let recorder: GeneratedRecorder
    private let lock = NSLock()
    private var output: SignalOutput<Int>?
    /// A cancel or release of it has begun.
    let ended = Atomic<Bool>(false)

    init(recorder: GeneratedRecorder) { self.recorder = recorder }

    func set(_ o: SignalOutput<Int>) { lock.withLock { output = o } }

    func cancel() {
        ended.store(true, ordering: .relaxed)
        let o = lock.withLock { output }
        o?.cancel()
        recorder.cancelReturned.store(true, ordering: .releasing)
    }

    /// Releases the output: the last reference goes here, outside the lock.
    /// When another thread's `cancel()` still holds the output, this is not its last
    /// reference: it cancels too (which waits for that cancel), so that a subscribe after it
    /// returns must be accepted either way.
    func release() {
        ended.store(true, ordering: .relaxed)
        var o = lock.withLock { () -> SignalOutput<Int>? in defer { output = nil }; return output }
        if o != nil && !isKnownUniquelyReferenced(&o!) { o?.cancel() }
        o = nil
        recorder.cancelReturned.store(true, ordering: .releasing)
    }
}

/// One send as the checks need it.
struct GeneratedSendRecord: Sendable {
    let input: GeneratedCase.Input
    /// Which added source, for `.mergedSource`.
    let instance: Int
    let value: Int
    let accepted: Bool
    /// The subscription current when the send began, and when it returned.
    let subscriptionBefore: Int
    let subscriptionAfter: Int
    /// Disturbing operations begun before the send began, and whether one was still running.
    let disturbancesBefore: Int
    let disturbanceRunning: Bool
    /// The subscription had received its end on this thread (the end was carried there by an
    /// earlier operation of the sending thread) before the send began.
    let endSeenBefore: Bool
    /// The subscription had received its end (on any thread) before the send began: such a
    /// send cannot be owed before that end.
    let endSeenAnywhereBefore: Bool
}

/// The inputs the operations and the handler stages send into, in an object that holds no
/// signal, so that a closure of the graph capturing it makes no cycle through the graph.
final class GeneratedInputs: @unchecked Sendable {
    // Unchecked: the holders are Mutexes; the rest is set before the graph is shared.
    let primary = StressLock<SignalInput<Int>?>(nil)
    var secondary: SignalInput<Int>?
    var trigger: SignalInput<Void>?
    let mergedSource = StressLock<(input: SignalInput<Int>, signal: Signal<Int>)?>(nil)
    /// Which added source `mergedSource` is (each `addSource` makes the next): an end names the
    /// source it came from, and only that source's values are owed before it.
    let mergedSourceInstance = Atomic<Int>(0)
    /// `generate` activations with a live input and runs of the `deferred` factory.
    let sourceStarts = Atomic<Int>(0)
    let handlerSeq = Atomic<Int>(0)
    /// Replaces the primary input; the one replaced is released after the lock (releasing an
    /// input sends `.cancelled`, which can reach a `generate` closure that sets it again).
    func setPrimary(_ i: SignalInput<Int>?) {
        let old = primary.withLock { p -> SignalInput<Int>? in defer { p = i }; return p }
        withExtendedLifetime(old) {}
    }

    /// Sends of handler stages: recorded by the run that owns this (set once).
    var recordHandlerSend: (@Sendable (GeneratedCase.Input, Int, () -> Bool) -> Void)?
}

/// A generated case, built live for one delivery variant, with its operations and its checks.
package final class GeneratedRun: @unchecked Sendable {
    // Unchecked: the mutable state is behind Mutexes or atomics; the rest is set in init.
    package let spec: GeneratedCase
    package let variant: DeliveryVariant
    let mode: GeneratedMode
    let inputs = GeneratedInputs()
    /// The explore worker that runs every asynchronous context (explore mode with a hop only).
    let worker: ExploreWorkerContext?
    private(set) var signal: Signal<Int>!
    private var junction: SignalJunction<Int>?
    private var junctionInput: SignalInput<Int>?
    private var mergedInput: SignalMergedInput<Int>?
    private let subscriptions = StressLock<[GeneratedSubscription]>([])
    private let disturbStarted = Atomic<Int>(0)
    private let disturbFinished = Atomic<Int>(0)
    private let sends = StressLock<[GeneratedSendRecord]>([])
    private let threadsDone = Atomic<Int>(0)
    private let syncQueue = DispatchQueue(label: "signals.generated.sync-queue")
    private let serialQueue = DispatchQueue(label: "signals.generated.serial")

    /// Builds the graph and subscribes once.
    package init(_ spec: GeneratedCase, delivery variant: DeliveryVariant, mode: GeneratedMode) {
        self.spec = spec
        self.variant = variant
        self.mode = mode
        worker = mode == .explore && spec.hasHop ? ExploreWorkerContext() : nil
        let inputs = self.inputs
        inputs.recordHandlerSend = { [weak self] input, value, send in
            if let self { self.recordSend(input, value, send) } else { _ = send() }
        }
        signal = build()
        subscribe()
    }

    // MARK: Building

    private func context(_ c: GeneratedCase.Context) -> Exec {
        if c == .direct { return .direct }
        if let worker { return .custom(worker) }
        switch c {
        case .direct: return .direct
        case .serial: return .queue(serialQueue)
        case .global: return .global
        case .syncQueue: return .syncQueue(syncQueue)
        }
    }

    private func build() -> Signal<Int> {
        let v = variant
        let inputs = self.inputs
        var s: Signal<Int>
        switch spec.source {
        case .create:
            let (i, sig) = Signal<Int>.create(delivery: v)
            inputs.setPrimary(i)
            s = sig
        case .generate:
            s = Signal<Int>.generate(delivery: v) { i in
                if i != nil { inputs.sourceStarts.add(1, ordering: .relaxed) }
                inputs.setPrimary(i)
            }
        case .junction:
            let source = Signal<Int>.generate(delivery: v) { i in
                if i != nil { inputs.sourceStarts.add(1, ordering: .relaxed) }
                inputs.setPrimary(i)
            }
            let (i, sig) = Signal<Int>.create(delivery: v)
            let j = source.junction()
            _ = j.bind(to: i)
            junction = j
            junctionInput = i
            s = sig
        case .mergedInput:
            let (m, sig) = Signal<Int>.createMergedInput(delivery: v)
            mergedInput = m
            inputs.setPrimary(m)
            let (si, ss) = Signal<Int>.create(delivery: v)
            inputs.mergedSource.withLock { $0 = (si, ss) }
            m.add(ss)
            s = sig
        case .sequence:
            s = Signal<Int>.deferred(delivery: v) {
                inputs.sourceStarts.add(1, ordering: .relaxed)
                return Signal<Int>.from((0..<4).map { StressStamp(sender: GeneratedValue.coldSender, seq: $0).encoded }, delivery: v)
            }
        }
        var secondarySignal: Signal<Int>?
        if spec.has(.secondary) {
            let (i, sig) = Signal<Int>.create(delivery: v)
            inputs.secondary = i
            secondarySignal = sig
        }
        var triggerSignal: Signal<Void>?
        if spec.has(.trigger) {
            let (i, sig) = Signal<Void>.create(delivery: v)
            inputs.trigger = i
            triggerSignal = sig
        }
        let pausing = mode == .free
        for step in spec.steps {
            switch step {
            case .map: s = s.map { $0 }
            case .filter: s = s.filter { StressStamp(encoded: $0).seq % 4 != 3 }
            case .take(let n): s = s.take(n)
            case .first: s = s.first()
            case .takeUntil(let immediate):
                s = immediate ? s.takeUntil(Signal<Void>.just((), delivery: v)) : s.takeUntil(triggerSignal!)
            case .onValue(let action):
                s = s.onValue { value in
                    guard action == .sendSecondary, StressStamp(encoded: value).sender != GeneratedValue.handlerSender else { return }
                    Self.handlerSend(inputs)
                }
            case .onEnd(let action):
                s = s.onEnd { _ in
                    switch action {
                    case .none: break
                    case .sleep: if pausing { usleep(2_000) }
                    case .sendSecondary: Self.handlerSend(inputs)
                    }
                }
            case .multicast: s = s.multicast()
            case .continuous: s = s.continuous()
            case .playback: s = s.playback()
            case .hop(let c): s = s.hop(to: context(c))
            case .merge: s = s.merge(with: secondarySignal!)
            case .combineLatest: s = s.combineLatest(secondarySignal!) { a, _ in a }
            case .flatMap(let kind):
                switch kind {
                case .merge: s = s.flatMap { Signal<Int>.just($0, delivery: v) }
                case .latest: s = s.flatMapLatest { Signal<Int>.just($0, delivery: v) }
                case .concat: s = s.concatMap { Signal<Int>.just($0, delivery: v) }
                }
            case .fused(let n): for _ in 0..<n { s = s.map { $0 } }
            case .nodes(let n): for _ in 0..<n { s = s.multicast() }
            }
        }
        return s
    }

    /// A handler stage's send into the secondary input.
    private static func handlerSend(_ inputs: GeneratedInputs) {
        guard let i = inputs.secondary, let record = inputs.recordHandlerSend else { return }
        let seq = inputs.handlerSeq.add(1, ordering: .relaxed).newValue - 1
        let value = StressStamp(sender: GeneratedValue.handlerSender, seq: seq).encoded
        record(.secondary, value) { i.send(value: value) == nil }
    }

    // MARK: Subscriptions

    /// The latest subscription (nil only after `tearDown`, when a late handler may still send).
    private var latest: GeneratedSubscription? { subscriptions.withLock { $0.last } }
    private var current: GeneratedSubscription { latest! }

    @discardableResult
    private func subscribe() -> GeneratedSubscription {
        let index = subscriptions.withLock { $0.count }
        let recorder = GeneratedRecorder(index: index) { [weak self] in
            guard let self else { return false }
            return self.disturbStarted.load(ordering: .sequentiallyConsistent) != self.disturbFinished.load(ordering: .sequentiallyConsistent)
        }
        let sub = GeneratedSubscription(recorder: recorder)
        let output = signal.subscribe { recorder.receive($0) }
        sub.set(output)
        subscriptions.withLock { $0.append(sub) }
        return sub
    }

    private func disturb(_ body: () -> Void) {
        disturbStarted.add(1, ordering: .sequentiallyConsistent)
        body()
        disturbFinished.add(1, ordering: .sequentiallyConsistent)
    }

    // MARK: Operations

    private func recordSend(_ input: GeneratedCase.Input, _ value: Int, instance: Int = 0, _ send: () -> Bool) {
        guard let before = latest else {
            // During the first subscribe (a handler stage sending as the graph activates): in
            // no subscription yet, so never owed to one, but accepted all the same.
            let accepted = send()
            let record = GeneratedSendRecord(
                input: input, instance: instance, value: value, accepted: accepted, subscriptionBefore: -1, subscriptionAfter: -1,
                disturbancesBefore: 0, disturbanceRunning: true, endSeenBefore: false, endSeenAnywhereBefore: false)
            sends.withLock { $0.append(record) }
            return
        }
        let endSeen = before.recorder.endSeenOnThisThread
        let endSeenAnywhere = before.recorder.endSeen.load(ordering: .acquiring)
        let started = disturbStarted.load(ordering: .sequentiallyConsistent)
        let running = started != disturbFinished.load(ordering: .sequentiallyConsistent)
        let accepted = send()
        guard let after = latest else { return }
        let record = GeneratedSendRecord(
            input: input, instance: instance, value: value, accepted: accepted,
            subscriptionBefore: before.recorder.index, subscriptionAfter: after.recorder.index,
            disturbancesBefore: started, disturbanceRunning: running, endSeenBefore: endSeen, endSeenAnywhereBefore: endSeenAnywhere)
        sends.withLock { $0.append(record) }
    }

    private func inputFor(_ input: GeneratedCase.Input) -> SignalInput<Int>? {
        switch input {
        case .primary: return inputs.primary.withLock { $0 }
        case .secondary: return inputs.secondary
        case .trigger: return nil
        case .mergedSource: return inputs.mergedSource.withLock { $0?.input }
        }
    }

    private func send(_ input: GeneratedCase.Input, thread: Int, seq: Int) {
        if input == .trigger {
            let value = StressStamp(sender: GeneratedValue.sender(thread: thread, input: input), seq: seq).encoded
            let t = inputs.trigger
            recordSend(input, value) { t.map { $0.send(value: ()) == nil } ?? false }
            return
        }
        let (i, instance) = input == .mergedSource
            ? inputs.mergedSource.withLock { ($0?.input, inputs.mergedSourceInstance.load(ordering: .relaxed)) }
            : (inputFor(input), 0)
        let value = StressStamp(sender: GeneratedValue.sender(thread: thread, input: input, instance: instance), seq: seq).encoded
        recordSend(input, value, instance: instance) { i.map { $0.send(value: value) == nil } ?? false }
    }

    private func sendEnd(_ input: GeneratedCase.Input, error: Bool) {
        let instance = input == .mergedSource ? inputs.mergedSource.withLock { _ in inputs.mergedSourceInstance.load(ordering: .relaxed) } : 0
        let end: SignalEnd = error ? .other(GeneratedEndError(input: input, instance: instance)) : .complete
        if input == .trigger { inputs.trigger?.send(end: end); return }
        inputFor(input)?.send(end: end)
    }

    /// Runs thread `thread`'s operations.
    package func runThread(_ thread: Int) {
        var seqs = [Int](repeating: 0, count: GeneratedCase.Input.allCases.count)
        for op in spec.threads[thread] {
            switch op {
            case .send(let input, let count):
                for _ in 0..<count {
                    send(input, thread: thread, seq: seqs[input.rawValue])
                    seqs[input.rawValue] += 1
                }
            case .sendEnd(let input, let error): sendEnd(input, error: error)
            case .cancel:
                let s = current
                disturb { s.cancel() }
            case .resubscribe:
                disturb {
                    current.cancel()
                    subscribe()
                }
            case .release:
                disturb {
                    current.release()
                    subscribe()
                }
            case .rebind:
                guard let junction else { break }
                disturb {
                    if let i = junction.disconnect() { _ = junction.bind(to: i) }
                }
            case .addSource:
                guard let mergedInput else { break }
                let (i, s) = Signal<Int>.create(delivery: variant)
                let replaced = inputs.mergedSource.withLock { m -> (input: SignalInput<Int>, signal: Signal<Int>)? in
                    defer { m = (i, s) }
                    inputs.mergedSourceInstance.add(1, ordering: .relaxed)
                    return m
                }
                withExtendedLifetime(replaced) {}
                mergedInput.add(s)
            case .removeSource:
                guard let mergedInput else { break }
                disturb {
                    if let s = inputs.mergedSource.withLock({ $0.take() }) { mergedInput.remove(s.signal) }
                }
            case .pause(let us):
                if mode == .free { usleep(UInt32(max(0, min(us, 100_000)))) }
            }
        }
        threadsDone.add(1, ordering: .releasing)
    }

    /// The scenario threads: one per thread of operations, and the explore worker when a hop
    /// needs one (it runs until every operation thread has finished and nothing is queued).
    package var threadBodies: [@Sendable () -> Void] {
        var bodies: [@Sendable () -> Void] = spec.threads.indices.map { t in { [self] in runThread(t) } }
        if let worker {
            let n = spec.threads.count
            bodies.append { [self] in worker.runWork { threadsDone.load(ordering: .acquiring) >= n } }
        }
        return bodies
    }

    // MARK: Ending

    /// Waits (free mode) until the current subscription has received nothing new for 20 ms
    /// and every send it may be owed has reached it (or it has ended), at most `seconds`:
    /// asynchronous contexts deliver after the senders returned, and on a loaded machine a
    /// queue's delivery can pause for longer than any quiet period (a quiet period alone let
    /// the checks read a value as lost that was still on its way).
    package func settle(seconds: Double = 2) {
        guard mode == .free else { return }
        let deadline = Date().addingTimeInterval(seconds)
        var last = -1, stable = 0
        while Date() < deadline && (stable < 4 || !owedValuesArrived()) {
            let n = subscriptions.withLock { $0.reduce(0) { $0 + $1.recorder.count } }
            if n == last { stable += 1 } else { stable = 0; last = n }
            usleep(5_000)
        }
    }

    /// Whether every send the checks could hold the current subscription to (accepted, sent
    /// within it with no graph change running, on a path that neither filters nor ends) has
    /// reached it, or it has received its end.
    private func owedValuesArrived() -> Bool {
        guard let current = latest else { return true }
        let index = current.recorder.index
        let events = current.recorder.snapshot.events
        var delivered = Set<Int>()
        for e in events {
            switch e {
            case .value(let v): delivered.insert(v)
            case .end: return true
            }
        }
        let records = sends.withLock { $0 }
        for r in records where r.accepted && r.input != .trigger
            && r.subscriptionBefore == index && r.subscriptionAfter == index && !r.disturbanceRunning
            && spec.isLossless(r.input) && !spec.filtered(r.input, seq: StressStamp(encoded: r.value).seq)
            && !spec.path(of: r.input).contains(where: GeneratedCase.isEnding) {
            if !delivered.contains(r.value) { return false }
        }
        return true
    }

    /// Cancels the current subscription and lets go of the inputs and the graph. Returns the
    /// objects that must be freed once the caller has dropped the run.
    package func tearDown() -> [(AnyObject, String)] {
        let subs = subscriptions.withLock { $0 }
        for s in subs { s.cancel() }
        var watched: [(AnyObject, String)] = subs.map { ($0.recorder, "subscription \($0.recorder.index)'s handler state") }
        if let s = signal { watched.append((s, "the graph's last signal")) }
        let removed = subscriptions.withLock { s -> [GeneratedSubscription] in defer { s.removeAll() }; return s }
        withExtendedLifetime(removed) {}
        _ = junction?.disconnect()
        junction = nil
        junctionInput = nil
        inputs.setPrimary(nil)
        let source = inputs.mergedSource.withLock { $0.take() }
        withExtendedLifetime(source) {}
        inputs.secondary = nil
        inputs.trigger = nil
        mergedInput = nil
        signal = nil
        return watched
    }

    // MARK: Checks

    /// The broken promises seen, in words (empty: every promise kept).
    package func check() -> [String] {
        let subs = subscriptions.withLock { $0 }
        let records = sends.withLock { $0 }
        let finalIndex = subs.count - 1
        let totalDisturbances = disturbStarted.load(ordering: .sequentiallyConsistent)
        var problems: [String] = []
        let accepted = Set(records.filter(\.accepted).map(\.value))
        // Where one subscription may see a cold source's values twice or out of order: a cache
        // replays the last activation's, and an asynchronous hop delivers what an earlier
        // activation queued in it to the next subscription (known open, docs/guarantees.md).
        let caches = spec.steps.contains { $0 == .continuous || $0 == .playback } || spec.hasHop

        if spec.sourceMustNotStart {
            let starts = inputs.sourceStarts.load(ordering: .relaxed)
            if starts > 0 {
                problems.append("the source behind an immediate takeUntil started \(starts) time(s) (a cold source must never start)")
            }
        }

        var delivered: [Int: [Int: Int]] = [:]  // subscription → value → position
        var endOf: [Int: (SignalEnd, Int)] = [:]
        // Values accepted before a subscription began, behind an asynchronous hop, may reach it
        // from the hop's queue besides a cache's replay (known open, docs/guarantees.md): their
        // order and uniqueness are judged only in the subscription they were sent in.
        let sentIn = Dictionary(records.filter(\.accepted).map { ($0.value, $0.subscriptionBefore) }, uniquingKeysWith: { a, _ in a })
        for sub in subs {
            let i = sub.recorder.index
            let (events, late) = sub.recorder.snapshot
            if late > 0 { problems.append("subscription \(i): \(late) handler call(s) began after its cancel() or release returned") }
            var positions: [Int: Int] = [:]
            var lastSeq: [Int: Int] = [:]
            var ends: [(SignalEnd, Int)] = []
            for (pos, e) in events.enumerated() {
                switch e {
                case .end(let end): ends.append((end, pos))
                case .value(let v):
                    let stamp = StressStamp(encoded: v)
                    let (sender, seq) = (stamp.sender, stamp.seq)
                    let input = GeneratedValue.input(ofSender: sender)
                    let repeats = input.map { spec.repeats($0) } ?? false
                    let cold = sender == GeneratedValue.coldSender
                        || (spec.hasHop && i > 0 && (sentIn[v] ?? i) < i)
                    if sender != GeneratedValue.coldSender && !accepted.contains(v) {
                        problems.append("subscription \(i): value \(GeneratedValue.describe(v)) delivered but never accepted")
                    }
                    if positions[v] != nil && !repeats && !(cold && caches) {
                        problems.append("subscription \(i): value \(GeneratedValue.describe(v)) delivered twice")
                    }
                    if positions[v] == nil { positions[v] = pos }
                    if let before = lastSeq[sender], !(cold && caches) {
                        if seq < before || (seq == before && !repeats) {
                            problems.append("subscription \(i): \(GeneratedValue.describe(v)) delivered after #\(before) of the same sender")
                        }
                    }
                    lastSeq[sender] = seq
                }
            }
            if ends.count > 1 { problems.append("subscription \(i): the end delivered \(ends.count) times") }
            if let first = ends.first {
                if first.1 != events.count - 1 { problems.append("subscription \(i): \(events.count - 1 - first.1) value(s) delivered after the end") }
                if case .other(let e) = first.0, let b = e as? SignalBindError {
                    problems.append("subscription \(i): subscribe refused with \(b) (a subscribe after cancel() returned must be accepted)")
                }
                endOf[i] = first
            }
            delivered[i] = positions
        }

        // The end's origin: the input whose end it is, when known.
        func origin(_ end: SignalEnd) -> (input: GeneratedCase.Input, instance: Int)? {
            if let e = end.otherError as? GeneratedEndError { return (e.input, e.instance) }
            if end.isComplete && !spec.has(.secondary) && !spec.steps.contains(where: { if case .takeUntil = $0 { true } else { false } })
                && !spec.hasEndingStep {
                return (.primary, 0)
            }
            return nil
        }

        var missing: [String] = []
        var refusedLate: [String] = []
        for r in records {
            // Only a send in one subscription, with no graph change begun since it began, is judged.
            guard r.subscriptionBefore == r.subscriptionAfter, r.subscriptionBefore == finalIndex,
                  !subs[finalIndex].ended.load(ordering: .relaxed),
                  !r.disturbanceRunning, r.disturbancesBefore == totalDisturbances else { continue }
            let end = endOf[finalIndex]
            // A junction's source, and a merged input's added sources, stay active after the
            // signal they feed ended (known open, docs/guarantees.md): not judged here.
            // An end that arrived while another thread's graph change (a subscribe still
            // connecting the node's later inputs) was running can leave an input it connected
            // after the end accepting until that change's pass stops it (known open,
            // docs/guarantees.md): only an end that came outside any change is judged.
            if r.accepted && r.endSeenBefore && !(spec.source == .junction && r.input == .primary) && r.input != .mergedSource
                && !subs[finalIndex].recorder.endDuringChange.load(ordering: .relaxed)
                && !spec.multiAboveEnd(r.input, endEntry: end.flatMap { origin($0.0) }.flatMap { spec.entry(of: $0.input) }) {
                refusedLate.append("\(GeneratedValue.describe(r.value)) into \(r.input)")
                continue
            }
            guard r.accepted, r.input != .trigger, spec.isLossless(r.input),
                  !spec.filtered(r.input, seq: StressStamp(encoded: r.value).seq) else { continue }
            let at = delivered[finalIndex]?[r.value]
            if let end {
                guard let o = origin(end.0), o.input == r.input, o.instance == r.instance, !r.endSeenAnywhereBefore else { continue }
                if at == nil || at! > end.1 { missing.append(GeneratedValue.describe(r.value) + " (before the \(end.0) of the same input)") }
            } else if at == nil && !spec.path(of: r.input).contains(where: GeneratedCase.isEnding) {
                // With no end at the subscriber, an ending stage on the path may still have
                // ended (a merge below it waits for its other input): judged only without one.
                missing.append(GeneratedValue.describe(r.value))
            }
        }
        if !missing.isEmpty {
            problems.append("subscription \(finalIndex): \(missing.count) accepted value(s) (send returned nil) never delivered: \(missing.prefix(4).joined(separator: ", "))")
        }
        if !refusedLate.isEmpty {
            problems.append("subscription \(finalIndex): \(refusedLate.count) send(s) accepted after the end had reached the subscriber: \(refusedLate.prefix(4).joined(separator: ", "))")
        }
        // A multi keeps its source's end for later subscribers: only a path without one
        // restarts the sequence for each subscription.
        let restarts = !spec.path(of: .primary).contains { [.multicast, .continuous, .playback].contains($0) || { if case .nodes = $0 { true } else { false } }($0) }
        if spec.source == .sequence, restarts, let end = endOf[finalIndex], end.0.isComplete, origin(end.0)?.input == .primary,
           spec.isLossless(.primary), !subs[finalIndex].ended.load(ordering: .relaxed) {
            let got = delivered[finalIndex] ?? [:]
            let lost = (0..<4).filter { !spec.filtered(.primary, seq: $0) && got[StressStamp(sender: GeneratedValue.coldSender, seq: $0).encoded] == nil }
            if !lost.isEmpty { problems.append("subscription \(finalIndex): the sequence completed without its value(s) \(lost)") }
        }
        return problems
    }
}
