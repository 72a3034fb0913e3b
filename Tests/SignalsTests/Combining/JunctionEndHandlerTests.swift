import Dispatch
import Signals
import Synchronization
import Testing

/// A `generate` source that keeps its current input (a released input would end the stream)
/// and counts its activations.
final class KeptInputSource: Sendable {
    let state = Shared<(activations: Int, input: SignalInput<Int>?)>((0, nil))
    let signal: Signal<Int>

    init(_ v: DeliveryVariant, context: Exec = .direct, onActivate: (@Sendable (SignalInput<Int>) -> Void)? = nil) {
        let state = self.state
        signal = Signal<Int>.generate(context: context, delivery: v) { input in
            state.update { s in
                if input != nil { s.activations += 1 }
                s.input = input
            }
            if let input { onActivate?(input) }
        }
    }

    var activations: Int { state.value.activations }
    var input: SignalInput<Int>? { state.value.input }
}

/// `bind(to:onEnd:)`'s handler may bind again (the retry pattern), whether the source ends
/// while the first `bind` is still attaching (a synchronous source) or later on another thread.
@Suite struct JunctionEndHandlerTests {
    static let variants = DeliveryVariant.allCases

    /// A synchronous source ends inside the first `bind`: the handler's `bind` is accepted
    /// (nil), and the values arrive twice, then the end the second handler sends on.
    @Test(arguments: variants) func bindAgainFromEndHandlerOfSynchronousSource(_ v: DeliveryVariant) {
        let junction = Signal<Int>.from([1, 2, 3], delivery: v).junction()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (c, out) = signal.collect()
        let refusals = Shared<[String]>([])
        let first = junction.bind(to: input) { j, _, i in
            let second = j.bind(to: i) { _, e, i in i.send(end: e) }
            refusals.update { $0.append(second.map { "\($0)" } ?? "nil") }
        }
        #expect(first == nil)
        #expect(refusals.value == ["nil"])
        #expect(c.events == [.value(1), .value(2), .value(3), .value(1), .value(2), .value(3), .complete])
        withExtendedLifetime(out) {}
    }

    /// An asynchronous source ends after the first `bind` returned: the old binding's end
    /// must not tear down the binding its handler made.
    @Test(.tags(.startsThreads), arguments: variants) func bindAgainFromEndHandlerOfAsynchronousSource(_ v: DeliveryVariant) {
        for _ in 0..<20 {
            let source = Signal<Int>.generate(context: .global, delivery: v) { input in
                input?.send(value: 1)
                input?.send(end: .complete)
            }
            let junction = source.junction()
            let (input, signal) = Signal<Int>.create(delivery: v)
            let (c, out) = signal.collect()
            let refusals = Shared<[String]>([])
            let first = junction.bind(to: input) { j, _, i in
                let second = j.bind(to: i) { _, e, i in i.send(end: e) }
                refusals.update { $0.append(second.map { "\($0)" } ?? "nil") }
            }
            #expect(first == nil)
            c.expectEnd(within: 10)
            #expect(refusals.value == ["nil"])
            #expect(c.events == [.value(1), .value(1), .complete])
            withExtendedLifetime((out, junction)) {}
            if c.events != [.value(1), .value(1), .complete] { break }
        }
    }

    /// A handler that always binds again, and an end handler that stops after `n` rounds,
    /// for a source ending synchronously: every round runs, with nothing refused.
    @Test(arguments: variants) func bindAgainManyTimesFromEndHandler(_ v: DeliveryVariant) {
        let junction = Signal<Int>.from([7], delivery: v).junction()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (c, out) = signal.collect()
        let rounds = Shared(0)
        let refused = Shared(0)
        @Sendable func handler(_ j: SignalJunction<Int>, _ e: SignalEnd, _ i: SignalInput<Int>) {
            if rounds.update({ $0 += 1; return $0 }) >= 5 { i.send(end: e); return }
            if j.bind(to: i, onEnd: handler) != nil { refused.update { $0 += 1 } }
        }
        #expect(junction.bind(to: input, onEnd: handler) == nil)
        #expect(refused.value == 0)
        #expect(c.events == [.value(7), .value(7), .value(7), .value(7), .value(7), .complete])
        withExtendedLifetime(out) {}
    }

    /// `retry(count:delayInterval:)` makes `count + 1` attempts of a source that fails at
    /// once, then passes the error on.
    @Test(.tags(.startsThreads), arguments: variants) func retryRunsEveryAttempt(_ v: DeliveryVariant) {
        for _ in 0..<20 {
            let attempts = Shared(0)
            let source = Signal<Int>.generate(delivery: v) { input in
                guard let input else { return }
                let n = attempts.update { $0 += 1; return $0 }
                input.send(value: n)
                input.send(end: .other(CoreError.boom))
            }
            let (c, out) = source.retry(count: 2, delayInterval: .zero).collect()
            c.expectEnd(within: 10)
            #expect(c.events == [.value(1), .value(2), .value(3), .boom])
            withExtendedLifetime(out) {}
            if c.events != [.value(1), .value(2), .value(3), .boom] { break }
        }
    }
}
