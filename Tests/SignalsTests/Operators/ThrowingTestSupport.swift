import Signals
import Synchronization
import Testing

/// A user closure's calls, throwing `TestError.boom` at a chosen value.
final class ThrowingProbe: Sendable {
    let calls = Mutex<[Int]>([])
    let throwAt: Int?

    init(throwAt: Int?) { self.throwAt = throwAt }

    /// Records `v` and throws at `throwAt`.
    @Sendable func check(_ v: Int) throws {
        calls.withLock { $0.append(v) }
        if v == throwAt { throw TestError.boom }
    }

    var seen: [Int] { calls.withLock { $0 } }
}

/// What came out of a throwing operator: the values, the end, the number of results (an end
/// after the end would show) and the values its closure was called with.
struct ThrowingRun<U: Sendable> {
    var values: [U]
    var end: End?
    var resultCount: Int
    var calls: [Int]
}

/// Feeds `values` (then `end`) through `op`, whose closure calls `probe.check`, and observes the
/// result behind a hop to a virtual-time context that runs only after the last send. The
/// stage therefore stays attached after it has ended (its end waits in the hop's queue), so
/// a call of its closure or a result after the end would show.
func runThrowing<U: Sendable>(
    _ variant: DeliveryVariant,
    _ values: [Int],
    throwAt: Int?,
    end: SignalEnd? = .complete,
    _ op: (Signal<Int>, ThrowingProbe) -> Signal<U>
) -> ThrowingRun<U> {
    let probe = ThrowingProbe(throwAt: throwAt)
    let vt = VirtualTimeContext()
    let (input, signal) = Signal<Int>.create(delivery: variant)
    let recorder = Recorder(op(signal, probe).hop(to: .custom(vt)))
    for v in values { input.send(value: v) }
    if let end { input.send(end: end) }
    vt.runUntilIdle()
    let result = ThrowingRun(values: recorder.values, end: recorder.end, resultCount: recorder.count, calls: probe.seen)
    recorder.cancel()
    withExtendedLifetime(input) {}
    return result
}

/// The input of the current activation of a `generate` source.
final class GeneratedInput: Sendable {
    let current = Mutex<SignalInput<Int>?>(nil)
    init() {}
    func replace(_ input: SignalInput<Int>?) {
        let old = current.withLock { c -> SignalInput<Int>? in
            defer { c = input }
            return c
        }
        withExtendedLifetime(old) {}
    }
    func send(_ values: [Int]) {
        let input = current.withLock { $0 }
        for v in values { input?.send(value: v) }
    }
}

/// Activates `op` over a `generate` source, feeds `first` (the closure throws at `throwAt`),
/// then subscribes the same result again and feeds `second`: the second activation must start
/// afresh (state back to its initial value, the closure called again).
func throwThenReactivate<U: Sendable>(
    _ variant: DeliveryVariant,
    first: [Int],
    second: [Int],
    throwAt: Int,
    _ op: (Signal<Int>, ThrowingProbe) -> Signal<U>
) -> (first: [U], firstEnd: End?, second: [U], secondEnd: End?) {
    let source = GeneratedInput()
    let probe = ThrowingProbe(throwAt: throwAt)
    let result = op(Signal<Int>.generate(delivery: variant) { source.replace($0) }, probe)
    let r1 = Recorder(result)
    source.send(first)
    r1.cancel()
    let r2 = Recorder(result)
    source.send(second)
    let outcome = (r1.values, r1.end, r2.values, r2.end)
    r2.cancel()
    source.replace(nil)
    return outcome
}

/// A throwing operator beside its non-throwing form, for the checks every throwing form
/// passes (`checkThrowingForm`). Both produce strings so one table can hold every operator.
struct ThrowingCase: Sendable {
    let name: String
    /// The non-throwing form, with the same closure minus the probe.
    let plain: @Sendable (Signal<Int>) -> Signal<String>
    /// The throwing form; its closure calls `probe.check` with each value it is given.
    let throwing: @Sendable (Signal<Int>, ThrowingProbe) -> Signal<String>
    /// Values to throw at: the first value the closure is called with, and a later one.
    let throwAt: [Int]
}

/// The values every case is fed.
let throwingCaseInput = [1, 2, 3, 4]

/// The checks every throwing form passes, on one variant:
/// * without a throw it gives what the non-throwing form gives, for a completion and for an
///   upstream error;
/// * a throw at `k` gives what the non-throwing form gives for the values before `k`, then
///   `.other(error)` and nothing else; the closure is not called again, though the stage stays
///   attached and later values reach it;
/// * after a throw, a new activation starts afresh.
func checkThrowingForm(_ c: ThrowingCase, _ v: DeliveryVariant, sourceLocation: SourceLocation = #_sourceLocation) {
    for end in [SignalEnd.complete, .other(TestError.other)] {
        let plain = run(v, throwingCaseInput, end: end, c.plain)
        let thrown = runThrowing(v, throwingCaseInput, throwAt: nil, end: end, c.throwing)
        #expect(thrown.values == plain.values, "\(c.name) without a throw, end \(end)", sourceLocation: sourceLocation)
        #expect(thrown.end == plain.end, "\(c.name) without a throw, end \(end)", sourceLocation: sourceLocation)
    }
    for k in c.throwAt {
        let before = Array(throwingCaseInput.prefix { $0 != k })
        let plain = run(v, before, end: nil, c.plain)
        let thrown = runThrowing(v, throwingCaseInput, throwAt: k, c.throwing)
        #expect(thrown.values == plain.values, "\(c.name) throwing at \(k)", sourceLocation: sourceLocation)
        #expect(thrown.end == .boom, "\(c.name) throwing at \(k)", sourceLocation: sourceLocation)
        #expect(thrown.resultCount == thrown.values.count + 1, "\(c.name) throwing at \(k): results after the end",
                sourceLocation: sourceLocation)
        #expect(thrown.calls.last == k, "\(c.name) throwing at \(k): calls \(thrown.calls)", sourceLocation: sourceLocation)
        #expect(!thrown.calls.contains { $0 > k }, "\(c.name) throwing at \(k): called after the throw: \(thrown.calls)",
                sourceLocation: sourceLocation)

        // Afresh after the throw: the second activation gives what a fresh non-throwing form
        // gives for the same values.
        let second = [5, 6, 7]
        let again = throwThenReactivate(v, first: throwingCaseInput, second: second, throwAt: k, c.throwing)
        let fresh = run(v, second, end: nil, c.plain)
        #expect(again.first == plain.values, "\(c.name) first activation, throwing at \(k)", sourceLocation: sourceLocation)
        #expect(again.firstEnd == .boom, "\(c.name) first activation, throwing at \(k)", sourceLocation: sourceLocation)
        #expect(again.second == fresh.values, "\(c.name) re-activated after a throw at \(k)", sourceLocation: sourceLocation)
        #expect(again.secondEnd == fresh.end, "\(c.name) re-activated after a throw at \(k)", sourceLocation: sourceLocation)
    }
}
