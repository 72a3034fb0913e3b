// The deterministic part of the rebind-ordering race: values that an activation of a `generate` source
// queued before its own end must be delivered. The holder's generation check compared the
// whole status word, so once `complete()` had moved the status to "ended", every value of the
// same activation still in the queue was dropped and only the end arrived (in the ported
// `testAsynchronousJoinAndDetach`: a chain that completed with no value).

import Signals
import Testing

struct GenerateEndOrderTests {
    /// Values 1 and 2 and the end are sent re-entrantly from the handler of value 0, so they
    /// are queued behind the delivery in progress; the end's status change comes before the
    /// holder reaches the two values. Before the fix (both variants): `[0, complete]`.
    @Test(arguments: DeliveryVariant.allCases)
    func valuesQueuedBeforeTheirActivationsEndAreDelivered(_ variant: DeliveryVariant) {
        let stored = Shared<SignalInput<Int>?>(nil)
        let signal = Signal<Int>.generate(delivery: variant) { input in
            stored.update { $0 = input }
            input?.send(value: 0)
        }
        let seen = Shared<[String]>([])
        let out = signal.subscribe { r in
            switch r {
            case .success(let v): seen.update { $0.append("\(v)") }
            case .failure(let e): seen.update { $0.append(e.isComplete ? "complete" : "\(e)") }
            }
            if case .success(0) = r, let input = stored.value {
                input.send(value: 1)
                input.send(value: 2)
                input.complete()
            }
        }
        #expect(seen.value == ["0", "1", "2", "complete"])
        out.cancel()
        withExtendedLifetime(stored) {}
    }
}
