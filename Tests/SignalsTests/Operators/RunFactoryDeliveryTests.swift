import Signals
import Synchronization
import Testing

/// The factory-based forms (`Signal.retry` and `Signal.repeat`) build their own stage: its
/// delivery variant is the `delivery:` argument, as for `Signal.create(delivery:)`, whatever
/// the variant of the signals the factory makes; and `retry(count:)` at its limits.
@Suite struct RunFactoryDeliveryTests {
    static let variants = DeliveryVariant.allCases

    /// Every form, each given `v`: the result is on `v` and delivers as the default form does.
    @Test(arguments: variants) func everyFormBuildsItsStageOnTheGivenVariant(_ v: DeliveryVariant) throws {
        // Runs on the other variant, so only the argument can make the stage `v`.
        let other: DeliveryVariant = v == .lockFree ? .mutex : .lockFree
        let calls = Atomic<Int>(0)
        let failTwice: @Sendable () -> Signal<Int> = {
            let n = calls.wrappingAdd(1, ordering: .relaxed).newValue
            return n < 3 ? Signal.just(n, delivery: other).concat(Signal<Int>.failing(TestError.boom)) : Signal.just(n, delivery: other)
        }
        let throwingFailTwice: @Sendable () throws -> Signal<Int> = { failTwice() }
        let once: @Sendable () -> Signal<Int> = { Signal.just(5, delivery: other) }
        let throwingOnce: @Sendable () throws -> Signal<Int> = { once() }
        let forms: [(String, Signal<Int>, [Int])] = [
            ("repeat(count:)", Signal.repeat(count: 2, delivery: v, once), [5, 5]),
            ("repeat(count:) throwing", Signal.repeat(count: 2, delivery: v, throwingOnce), [5, 5]),
            ("repeat(when:)", Signal.repeat(when: { n in n < 2 ? Signal<Void>.just(()) : nil }, delivery: v, once), [5, 5]),
            ("repeat(when:) throwing", Signal.repeat(when: { n throws in n < 2 ? Signal<Void>.just(()) : nil }, delivery: v, throwingOnce), [5, 5]),
            ("repeat(whenCompletions:)", Signal.repeat(whenCompletions: { $0.take(1) }, delivery: v, once), [5, 5]),
        ]
        for (name, signal, expected) in forms {
            #expect(signal.delivery == v, "\(name)")
            let rec = Recorder(signal)
            #expect(rec.values == expected, "\(name)")
            #expect(rec.end == .complete, "\(name)")
        }
        let retries: [(String, () -> Signal<Int>)] = [
            ("retry(count:)", { Signal.retry(count: 2, delivery: v, failTwice) }),
            ("retry(count:) throwing", { Signal.retry(count: 2, delivery: v, throwingFailTwice) }),
            ("retry(when:)", { Signal.retry(when: { _, n in n <= 2 ? Signal<Void>.just(()) : nil }, delivery: v, failTwice) }),
            ("retry(when:) throwing", { Signal.retry(when: { _, n throws in n <= 2 ? Signal<Void>.just(()) : nil }, delivery: v, throwingFailTwice) }),
            ("retry(whenErrors:)", { Signal.retry(whenErrors: { $0.map { _ in () } }, delivery: v, failTwice) }),
        ]
        for (name, make) in retries {
            calls.store(0, ordering: .relaxed)
            let signal = make()
            #expect(signal.delivery == v, "\(name)")
            let rec = Recorder(signal)
            #expect(rec.values == [1, 2, 3], "\(name)")
            #expect(rec.end == .complete, "\(name)")
        }
    }

    /// Left out, the stage is lock-free (the library's default variant), and each form still
    /// delivers (a throwing overload once resolved to itself here: infinite recursion).
    @Test func theDefaultIsLockFree() {
        let forms: [(String, Signal<Int>)] = [
            ("repeat(count:)", Signal<Int>.repeat(count: 2) { Signal.just(1, delivery: .mutex) }),
            ("repeat(count:) throwing", Signal<Int>.repeat(count: 2) { () throws in Signal.just(1, delivery: .mutex) }),
            ("retry(count:)", Signal<Int>.retry(count: 2) { Signal.just(1, delivery: .mutex) }),
            ("retry(count:) throwing", Signal<Int>.retry(count: 2) { () throws in Signal.just(1, delivery: .mutex) }),
            ("repeat(when:)", Signal<Int>.repeat(when: { _ in nil }) { Signal.just(1, delivery: .mutex) }),
            ("retry(when:)", Signal<Int>.retry(when: { _, _ in nil }) { Signal.just(1, delivery: .mutex) }),
        ]
        for (name, signal) in forms {
            #expect(signal.delivery == .lockFree, "\(name)")
            let rec = Recorder(signal)
            #expect(rec.values.first == 1, "\(name)")
            #expect(rec.end == .complete, "\(name)")
        }
    }

    /// `retry(count:)` of 0 or less passes the first error on after one attempt; `Int.max`
    /// retries as long as errors come.
    @Test(arguments: variants) func retryCountAtItsLimits(_ v: DeliveryVariant) {
        for count in [0, -1, Int.min] {
            let calls = Atomic<Int>(0)
            let rec = Recorder(Signal.retry(count: count, delivery: v) { () -> Signal<Int> in
                _ = calls.wrappingAdd(1, ordering: .relaxed)
                return Signal.just(1, delivery: v).concat(Signal<Int>.failing(TestError.boom))
            })
            #expect(rec.values == [1], "count \(count)")
            #expect(rec.end == .boom, "count \(count)")
            #expect(calls.load(ordering: .relaxed) == 1, "count \(count): one attempt")
        }
        let calls = Atomic<Int>(0)
        let rec = Recorder(Signal.retry(count: .max, delivery: v) { () -> Signal<Int> in
            let n = calls.wrappingAdd(1, ordering: .relaxed).newValue
            return n < 1_000 ? Signal<Int>.failing(TestError.boom, delivery: v) : Signal.just(n, delivery: v)
        })
        #expect(rec.values == [1_000])
        #expect(rec.end == .complete)
    }
}
