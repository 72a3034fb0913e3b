import Signals
import Testing

/// `Signal.from(_:context:delivery:)`: one element per job on its context.
@Suite struct SequenceOnContextTests {
    static let variants = DeliveryVariant.allCases

    /// The first job, the activation's own, sends the first element; each later element
    /// takes one job, and the completion the job after the last.
    @Test(arguments: variants) func sendsOneElementPerJob(_ v: DeliveryVariant) {
        let context = ManualContext()
        let sequence = SteppedSequence(limit: 3)
        let rec = Recorder(Signal.from(sequence, context: .custom(context), delivery: v))
        #expect(rec.values == [])
        #expect(context.pending == 1)
        context.runOne()  // the activation, which sends the first element
        #expect(rec.values == [0])
        #expect(sequence.stepped == 1)
        context.runOne()
        #expect(rec.values == [0, 1])
        context.runOne()
        #expect(rec.values == [0, 1, 2])
        #expect(rec.end == nil)
        context.runOne()
        #expect(rec.end == .complete)
    }

    /// An empty sequence completes in the first job.
    @Test(arguments: variants) func anEmptySequenceCompletesInTheFirstJob(_ v: DeliveryVariant) {
        let context = ManualContext()
        let rec = Recorder(Signal<Int>.from([], context: .custom(context), delivery: v))
        #expect(rec.end == nil)
        context.runOne()
        #expect(rec.end == .complete)
        #expect(context.pending == 0)
    }

    @Test(arguments: variants) func cancellingBetweenElementsStopsTheIteration(_ v: DeliveryVariant) {
        let context = ManualContext()
        let sequence = SteppedSequence(limit: 1_000_000)
        let rec = Recorder(Signal.from(sequence, context: .custom(context), delivery: v))
        context.runOne()
        context.runOne()
        #expect(rec.values == [0, 1])
        rec.cancel()
        context.runAll()
        #expect(sequence.stepped <= 3, "stepped \(sequence.stepped) times")
        #expect(context.pending == 0)
    }

    @Test(arguments: variants) func stopsOnceTheDownstreamHasEnded(_ v: DeliveryVariant) {
        let context = ManualContext()
        let sequence = SteppedSequence(limit: 1_000_000)
        let rec = Recorder(Signal.from(sequence, context: .custom(context), delivery: v).take(2))
        context.runAll()
        #expect(rec.values == [0, 1])
        #expect(rec.end == .complete)
        #expect(sequence.stepped <= 3, "stepped \(sequence.stepped) times")
    }

    @Test(arguments: variants) func anEmptySequenceCompletes(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let rec = Recorder(Signal<Int>.from([], context: .custom(vt), delivery: v))
        #expect(rec.end == nil)
        vt.advance(by: .zero)
        #expect(rec.values == [])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func aVirtualTimeAdvanceRunsEveryJobDueInIt(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let rec = Recorder(Signal.from([1, 2], context: .custom(vt), delivery: v))
        #expect(rec.values == [])
        vt.advance(by: .zero)
        #expect(rec.values == [1, 2])
        #expect(rec.end == .complete)
    }
}
