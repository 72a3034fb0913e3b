// Once a subscription has ended, subscribing again re-activates the graph
// and cold sources (`just`, `from`, `generate`) send again, behind every kind of stage: fused
// stages did, but nodes (`merge`, `combine` and what is built on it, `hop(to:)`) kept the old
// end and gave the second subscriber only that end.

import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Signals
import Synchronization
import Testing

@Suite("Re-subscription behind a node", .tags(.startsThreads))
struct ResubscribeBehindNodeTests {
    /// Graphs with a node between the cold source and the subscriber, each built from cold sources.
    static let graphs: [(name: String, make: @Sendable (DeliveryVariant) -> Signal<Int>)] = [
        ("merge", { v in Signal<Int>.just(1, 2, delivery: v).merge(with: Signal<Int>.just(3, delivery: v)) }),
        ("combineLatest", { v in Signal<Int>.just(1, delivery: v).combineLatest(Signal<Int>.just(10, delivery: v)) { $0 + $1 } }),
        ("zip", { v in Signal<Int>.just(1, 2, delivery: v).zip(Signal<Int>.just(10, 20, delivery: v)).map { $0.0 + $0.1 } }),
        ("startWith", { v in Signal<Int>.just(5, delivery: v).startWith(1, 2) }),
        ("concat", { v in Signal<Int>.just(1, delivery: v).concat(Signal<Int>.just(2, delivery: v)) }),
        ("deferred", { v in Signal<Int>.deferred { Signal<Int>.just(7, 8, delivery: v) } }),
        ("hop", { v in Signal<Int>.just(1, 2, 3, delivery: v).hop(to: .global) }),
        ("generate behind merge", { v in
            Signal<Int>.generate(delivery: v) { input in
                guard let input else { return }
                input.send(value: 4)
                input.complete()
            }.merge(with: Signal<Int>.just(5, delivery: v))
        }),
    ]

    /// Subscribes, waits for the end, and returns every result as text.
    static func collect(_ signal: Signal<Int>) -> [String] {
        let (c, out) = signal.collect()
        c.waitForEnd(seconds: 10)
        out.cancel()
        return c.results.map { r in
            switch r {
            case .success(let v): "\(v)"
            case .failure(let e): "end \(e)"
            }
        }
    }

    @Test(arguments: DeliveryVariant.allCases, 0..<8)
    func secondSubscriptionRunsTheSourcesAgain(variant: DeliveryVariant, index: Int) {
        let (name, make) = Self.graphs[index]
        let signal = make(variant)
        let first = Self.collect(signal)
        // Behind `hop(to:)` the end reaches the handler on another thread, and the output is
        // free once that delivery has finished, a moment after the handler signalled: until
        // then a new subscriber is refused with `.duplicate`, as documented. Wait for that
        // moment (bounded) rather than race it.
        var second = Self.collect(signal)
        for _ in 0..<200 where second == ["end other(duplicate)"] {
            usleep(5_000)
            second = Self.collect(signal)
        }
        #expect(first.count > 1, "\(name): the first subscription got \(first)")
        // Ordering between two sources may differ between runs for `merge`; the multiset
        // of results must be the same.
        #expect(first.sorted() == second.sorted(), "\(name): first \(first), second \(second)")
    }

    /// An input that has ended stays ended: a node behind a `create` input still replays the
    /// end to a new subscriber, as before (the input is closed for good).
    @Test(arguments: DeliveryVariant.allCases)
    func anEndedInputBehindANodeStaysEnded(variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let merged = signal.merge(with: Signal<Int>.just(9, delivery: variant))
        let first = Mutex<[String]>([])
        var out: SignalOutput<Int>? = merged.subscribe { r in first.withLock { $0.append("\(r)") } }
        _ = input.send(value: 1)
        input.complete()
        out = nil
        let second = Self.collect(merged)
        #expect(second.contains("9"))
        #expect(second.last?.hasPrefix("end") == true)
        _ = input.send(value: 2)   // refused: the input has ended
        #expect(!second.contains("2"))
        withExtendedLifetime(out) {}
    }
}
