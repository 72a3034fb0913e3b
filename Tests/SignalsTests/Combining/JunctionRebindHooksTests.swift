// CwlSignal's `testOn`: a junction over a cold source with activation hooks,
// bound a second time after the source ended, runs the source again and, once the end has
// passed, runs `onDeactivate` ("deactivate" last) — as the first binding did.

import Signals
import Synchronization
import Testing

private struct Timeout: Error, CustomStringConvertible {
    var description: String { "timeout" }
}

@Suite("Hooks on a re-bound junction")
struct JunctionRebindHooksTests {
    @Test(arguments: DeliveryVariant.allCases)
    func secondBindingRunsSourceAndDeactivates(variant: DeliveryVariant) {
        let results = Mutex<[String]>([])
        @Sendable func log(_ s: String) { results.withLock { $0.append(s) } }
        let j = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            for v in 0..<3 { input.send(value: v) }
            input.send(end: .other(Timeout()))
        }
        .onActivate { log("activate") }
        .onDeactivate { log("deactivate") }
        .onValue { log("\($0)") }
        .onEnd { log("end \($0)") }
        .junction()

        let expected = ["activate", "0", "Output 0", "1", "Output 1", "2", "Output 2",
                        "end other(timeout)", "Output end other(timeout)", "deactivate"]
        /// A fresh input and a subscription that logs what reaches it.
        func loggedInput() -> (SignalInput<Int>, SignalOutput<Int>) {
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let output = signal.subscribe { r in
                switch r {
                case .success(let v): log("Output \(v)")
                case .failure(let e): log("Output end \(e)")
                }
            }
            return (input, output)
        }
        let (i1, ep1) = loggedInput()
        _ = j.bind(to: i1)
        withExtendedLifetime(ep1) {}
        _ = j.disconnect()
        #expect(results.withLock { $0 } == expected)

        results.withLock { $0.removeAll() }
        let (i2, ep2) = loggedInput()
        // No disconnect this time: the end that passed must deactivate the chain by itself.
        _ = j.bind(to: i2)
        withExtendedLifetime(ep2) {}
        #expect(results.withLock { $0 } == expected)
        withExtendedLifetime(j) {}
    }
}
