import Signals
import Synchronization
import Testing

/// A sequence that counts how many elements were asked of it, up to `limit` (so a source
/// that never stops still returns, and the count shows it).
struct SteppedSequence: Sequence, Sendable {
    final class Steps: Sendable {
        let count = Atomic<Int>(0)
    }
    let limit: Int
    let steps = Steps()

    struct Iterator: IteratorProtocol {
        var current = 0
        let limit: Int
        let steps: Steps
        mutating func next() -> Int? {
            guard current < limit else { return nil }
            steps.count.add(1, ordering: .relaxed)
            defer { current += 1 }
            return current
        }
    }

    func makeIterator() -> Iterator { Iterator(limit: limit, steps: steps) }
    var stepped: Int { steps.count.load(ordering: .relaxed) }
}

/// A context that runs nothing until told: each `runOne` runs the oldest job queued on it.
final class ManualContext: ExecutionContext {
    let jobs = Mutex<[@Sendable () -> Void]>([])
    func invoke(_ work: @escaping @Sendable () -> Void) { jobs.withLock { $0.append(work) } }
    func now() -> Duration { .zero }
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Lifetime {
        invoke(work)
        return ManualLifetime()
    }
    final class ManualLifetime: Lifetime {
        func cancel() {}
    }
    var pending: Int { jobs.withLock { $0.count } }
    /// Runs the oldest queued job; false if there was none.
    @discardableResult func runOne() -> Bool {
        let job = jobs.withLock { j -> (@Sendable () -> Void)? in j.isEmpty ? nil : j.removeFirst() }
        job?()
        return job != nil
    }
    func runAll() { while runOne() {} }
}

/// Sequence sources stop iterating once their downstream has ended.
@Suite struct SequenceSourceTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func fromStopsOnceTheDownstreamHasEnded(_ v: DeliveryVariant) {
        let sequence = SteppedSequence(limit: 1_000_000)
        let rec = Recorder(Signal.from(sequence, delivery: v).take(3))
        #expect(rec.values == [0, 1, 2])
        #expect(rec.end == .complete)
        #expect(sequence.stepped <= 5, "stepped \(sequence.stepped) times for 3 values")
    }

    @Test(arguments: variants) func fromAnEndlessSequenceReturnsOnceTaken(_ v: DeliveryVariant) {
        let rec = Recorder(Signal.from(0..., delivery: v).take(4))
        #expect(rec.values == [0, 1, 2, 3])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func repeatCollectionOfNothingCompletesAtOnce(_ v: DeliveryVariant) {
        let rec = Recorder(Signal<Int>.repeatCollection([], count: Int.max, delivery: v))
        #expect(rec.values == [])
        #expect(rec.end == .complete)
    }
}
