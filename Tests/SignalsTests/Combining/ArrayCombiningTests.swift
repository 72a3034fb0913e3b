import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// `Signal.combineLatest(_:)` and `Signal.zip(_:)` of an array of signals.
@Suite struct ArrayCombiningTests {
    static let variants = DeliveryVariant.allCases

    func inputs(_ v: DeliveryVariant, _ n: Int) -> ([SignalInput<Int>], [Signal<Int>]) {
        var inputs: [SignalInput<Int>] = []
        var signals: [Signal<Int>] = []
        for _ in 0..<n {
            let (i, s) = Signal<Int>.create(delivery: v)
            inputs.append(i)
            signals.append(s)
        }
        return (inputs, signals)
    }

    @Test(arguments: variants) func combineLatestEmitsOnceEveryInputHasAValue(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 3)
        let rec = Recorder(Signal.combineLatest(s))
        i[0].send(value: 1)
        i[1].send(value: 2)
        #expect(rec.values == [])
        i[2].send(value: 3)
        i[1].send(value: 20)
        #expect(rec.values == [[1, 2, 3], [1, 20, 3]])
        i[0].complete()
        i[0].send(value: 99)  // refused: that input has ended
        i[2].send(value: 30)
        #expect(rec.values == [[1, 2, 3], [1, 20, 3], [1, 20, 30]])
        i[1].complete()
        #expect(rec.end == nil)
        i[2].complete()
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func combineLatestEnds(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 3)
        let rec = Recorder(Signal.combineLatest(s))
        i[0].send(value: 1)
        i[1].complete()  // never sent a value: no array can be made, but the others still run
        i[2].send(value: 3)
        #expect(rec.values == [])
        #expect(rec.end == nil, "waits for every input to end (RxJS)")
        i[0].complete()
        i[2].send(end: .cancelled)
        #expect(rec.end == .cancelled, "the last input's end")
        let (j, t) = inputs(v, 2)
        let failed = Recorder(Signal.combineLatest(t))
        j[0].send(value: 1)
        j[1].send(end: .other(TestError.boom))
        #expect(failed.end == .boom)
        withExtendedLifetime((i, j)) {}
    }

    @Test(arguments: variants) func zipPairsTheNthValues(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 3)
        let rec = Recorder(Signal.zip(s))
        i[0].send(value: 1)
        i[0].send(value: 2)
        i[1].send(value: 10)
        i[1].send(value: 20)
        #expect(rec.values == [])
        i[2].send(value: 100)
        #expect(rec.values == [[1, 10, 100]])
        i[0].complete()  // one unpaired value left there: not the end yet
        #expect(rec.end == nil)
        i[2].send(value: 200)
        #expect(rec.values == [[1, 10, 100], [2, 20, 200]])
        #expect(rec.end == .complete, "the ended input's values are used up")
        withExtendedLifetime(i) {}
    }

    @Test(arguments: variants) func zipEnds(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 2)
        let rec = Recorder(Signal.zip(s))
        i[1].complete()
        #expect(rec.end == .complete)
        let (j, t) = inputs(v, 2)
        let failed = Recorder(Signal.zip(t))
        j[0].send(value: 1)
        j[1].send(end: .other(TestError.boom))
        #expect(failed.values == [])
        #expect(failed.end == .boom)
        withExtendedLifetime((i, j)) {}
    }

    @Test(arguments: variants) func anEmptyArrayCompletesAtOnce(_ v: DeliveryVariant) {
        let latest = Recorder(Signal<Int>.combineLatest([], delivery: v))
        #expect(latest.values == [])
        #expect(latest.end == .complete)
        let zipped = Recorder(Signal<Int>.zip([], delivery: v))
        #expect(zipped.values == [])
        #expect(zipped.end == .complete)
    }

    @Test(arguments: variants) func oneInput(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 1)
        let rec = Recorder(Signal.combineLatest(s))
        i[0].send(value: 1)
        i[0].send(value: 2)
        i[0].complete()
        #expect(rec.values == [[1], [2]])
        #expect(rec.end == .complete)
    }

    @Test(arguments: variants) func aTakenInputEndsTheResultAsADuplicate(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 2)
        let first = Recorder(s[1])
        let rec = Recorder(Signal.combineLatest(s))
        #expect(rec.end == End.error(String(describing: SignalBindError.duplicate)))
        first.cancel()
        withExtendedLifetime(i) {}
    }

    @Test(arguments: variants) func stateIsPerActivation(_ v: DeliveryVariant) {
        let (i, s) = inputs(v, 2)
        let shared = Signal.zip(s).multicast()
        let a = Recorder(shared)
        i[0].send(value: 1)
        a.cancel()
        let b = Recorder(shared)
        i[1].send(value: 10)
        #expect(b.values == [], "the first activation's unpaired value is forgotten")
        i[0].send(value: 2)
        #expect(b.values == [[2, 10]])
        b.cancel()
    }

    /// One node with a feeder per input: 100,000 inputs build, activate, deliver and tear
    /// down on a 512 KiB stack (a pairwise fold would nest 100,000 stages).
    @Test(.tags(.startsThreads), .stackThreadOnly, arguments: variants) func aHundredThousandInputsOnASmallStack(_ v: DeliveryVariant) {
        let n = 100_000
        let result = runOnSmallStack {
            let (i, s) = inputs(v, n)
            let latest = Recorder(Signal.combineLatest(s))
            for k in 0..<n { i[k].send(value: k) }
            i[n - 1].send(value: -1)
            let latestCount = latest.values.count
            let lastRow = latest.values.last
            latest.cancel()
            let (j, t) = inputs(v, n)
            let zipped = Recorder(Signal.zip(t))
            for k in 0..<n { j[k].send(value: k) }
            for k in 0..<n { j[k].complete() }
            let zipValues = zipped.values
            let zipEnd = zipped.end
            return (latestCount, lastRow?.count, lastRow?.last, lastRow?.first, zipValues.count, zipValues.first?.count, zipEnd)
        }
        #expect(result.0 == 2)
        #expect(result.1 == n)
        #expect(result.2 == -1)
        #expect(result.3 == 0)
        #expect(result.4 == 1)
        #expect(result.5 == n)
        #expect(result.6 == .complete)
    }
}

/// Work handed to a thread started with a small stack (non-generic: the thread's entry point
/// is a C function and cannot capture a generic type).
final class SmallStackJob: @unchecked Sendable {
    // Unchecked: set before the thread starts, run and cleared by it, then joined.
    var work: (() -> Void)?
    init(_ work: @escaping () -> Void) { self.work = work }
}

/// Where the small-stack thread leaves its result; read after the thread is joined.
final class SmallStackResult<R>: @unchecked Sendable {
    var value: R?
}

/// Runs `body` on a thread with a 512 KiB stack and returns its result: graph work that
/// recursed per input or per stage would overflow it.
func runOnSmallStack<R>(_ body: @escaping () -> R) -> R {
    let result = SmallStackResult<R>()
    let job = SmallStackJob { result.value = body() }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 512 * 1024)
    var thread = pthread_t()
    let created = pthread_create(&thread, &attributes, { raw in
        let job = Unmanaged<SmallStackJob>.fromOpaque(raw!).takeRetainedValue()
        job.work?()
        job.work = nil
        return nil
    }, Unmanaged.passRetained(job).toOpaque())
    pthread_attr_destroy(&attributes)
    precondition(created == 0, "pthread_create failed")
    pthread_join(thread, nil)
    return result.value!
}
