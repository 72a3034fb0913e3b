import Signals
import Synchronization
import Testing

/// The timeout forms' `error:` closure: what the timeout saw (`TimeoutInfo`, RxJS's
/// `TimeoutError.info`), and `SignalTimeoutError` carrying it.
@Suite struct TimeoutInfoTests {
    static let variants = DeliveryVariant.allCases

    typealias Form = @Sendable (Signal<String>, Exec, (@Sendable (TimeoutInfo<String>) -> any Error)?) -> Signal<String>

    /// Every timeout form, each timing out 1 s after the last of values sent at 0 s and 0.5 s
    /// (and never before).
    static let forms: [(String, Form)] = [
        ("interval", { s, c, e in s.timeout(interval: .seconds(1), context: c, error: e) }),
        ("first each", { s, c, e in s.timeout(first: .seconds(1), each: .seconds(1), context: c, error: e) }),
        ("firstBy each", { s, c, e in s.timeout(firstBy: .seconds(1), each: .seconds(1), context: c, error: e) }),
    ]

    func timedOut(_ v: DeliveryVariant, _ form: Form, values: [String], error: (@Sendable (TimeoutInfo<String>) -> any Error)?) -> (values: [String], end: SignalEnd?) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<String>.create(delivery: v)
        let rec = Recorder(form(signal, .custom(vt), error))
        for (i, x) in values.enumerated() {
            vt.advance(to: .milliseconds(500 * i))
            input.send(value: x)
        }
        vt.advance(by: .seconds(10))
        withExtendedLifetime(input) {}
        return (rec.values, rec.ends.last)
    }

    @Test(arguments: variants) func theErrorCarriesTheCountAndTheLastValue(_ v: DeliveryVariant) {
        for (name, form) in Self.forms {
            let got = timedOut(v, form, values: ["a", "b"], error: { SignalTimeoutError(info: $0) })
            #expect(got.values == ["a", "b"], "\(name)")
            let error = got.end?.otherError as? SignalTimeoutError<String>
            #expect(error?.info == TimeoutInfo(seen: 2, lastValue: "b"), "\(name): \(String(describing: got.end))")
            #expect(error.map(String.init(describing:)) == "SignalTimeoutError(seen: 2, lastValue: b)", "\(name)")
        }
    }

    @Test(arguments: variants) func withoutValuesTheInfoIsEmpty(_ v: DeliveryVariant) {
        for (name, form) in Self.forms {
            let got = timedOut(v, form, values: [], error: { SignalTimeoutError(info: $0) })
            #expect((got.end?.otherError as? SignalTimeoutError<String>)?.info == TimeoutInfo(seen: 0, lastValue: nil), "\(name)")
        }
    }

    @Test(arguments: variants) func withoutTheClosureTheErrorStaysSignalOperatorErrorTimeout(_ v: DeliveryVariant) {
        for (name, form) in Self.forms {
            let got = timedOut(v, form, values: ["a"], error: nil)
            #expect(got.end?.otherError as? SignalOperatorError == .timeout, "\(name)")
            // A `switch` over `.timeout`, as existing code matches it.
            let matched: Bool = switch got.end?.otherError as? SignalOperatorError {
            case .timeout?: true
            default: false
            }
            #expect(matched, "\(name)")
        }
    }

    @Test(arguments: variants) func anyErrorCanBeMadeAndTheClosureRunsOnlyOnTimeout(_ v: DeliveryVariant) {
        struct Late: Error, Equatable { let seen: Int }
        for (name, form) in Self.forms {
            let calls = Mutex(0)
            let got = timedOut(v, form, values: ["a", "b", "c"], error: { info in
                calls.withLock { $0 += 1 }
                return Late(seen: info.seen)
            })
            #expect(got.end?.otherError as? Late == Late(seen: 3), "\(name)")
            #expect(calls.withLock { $0 } == 1, "\(name)")

            // The source ends first: the closure is never called.
            let vt = VirtualTimeContext()
            let (input, signal) = Signal<String>.create(delivery: v)
            let unused = Mutex(0)
            let rec = Recorder(form(signal, .custom(vt), { _ in unused.withLock { $0 += 1 }; return Late(seen: -1) }))
            input.send(value: "x")
            input.complete()
            vt.advance(by: .seconds(10))
            #expect(rec.end == .complete, "\(name)")
            #expect(unused.withLock { $0 } == 0, "\(name)")
        }
    }

    @Test(arguments: variants) func theCountIsPerActivation(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<String>.create(delivery: v)
        let shared = signal.timeout(interval: .seconds(1), context: .custom(vt), error: { SignalTimeoutError(info: $0) }).multicast()
        let first = Recorder(shared)
        input.send(value: "a")
        input.send(value: "b")
        first.cancel()
        let second = Recorder(shared)
        input.send(value: "c")
        vt.advance(by: .seconds(2))
        #expect(second.values == ["c"])
        let info = (second.ends.last?.otherError as? SignalTimeoutError<String>)?.info
        #expect(info == TimeoutInfo(seen: 1, lastValue: "c"), "a new activation counts afresh")
    }

    @Test(arguments: variants) func aFallbackCanUseTheInfo(_ v: DeliveryVariant) {
        // RxJS's `timeout({ each, with: (info) => … })`: catchError reads the info.
        let vt = VirtualTimeContext()
        let (input, signal) = Signal<String>.create(delivery: v)
        let rec = Recorder(signal.timeout(interval: .seconds(1), context: .custom(vt), error: { SignalTimeoutError(info: $0) })
            .catchError { error in
                guard let t = error as? SignalTimeoutError<String> else { return Signal<String>.failing(error, delivery: v) }
                return Signal.just("after \(t.info.lastValue ?? "-") (\(t.info.seen))", delivery: v)
            })
        input.send(value: "a")
        vt.advance(by: .seconds(5))
        #expect(rec.values == ["a", "after a (1)"])
        #expect(rec.end == .complete)
        withExtendedLifetime(input) {}
    }
}
