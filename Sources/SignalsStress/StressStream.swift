import Signals

// The skeleton most scenarios repeat: a few senders of `StressMsg` values, one recorder that
// watches the subscriber, the graph's objects tracked for leaks, then the arbiter's check of
// what the recorder saw against what the senders were told. A scenario keeps only what is its
// own: the graph it builds, what the extra actor does and the policy it judges by.

/// Senders and the recorder that watches their values arrive.
///
/// Each sender may send `operations` values; the recorder has room for all of them and a few
/// ends. Built once per iteration, before any actor runs; the senders are written by their own
/// actor only and read by the arbiter after `runActors` returned.
package struct StressStream: Sendable {
    /// The iteration the stream belongs to (its variant, ledger and progress report).
    package let iteration: StressIteration
    /// Values each sender may send.
    package let operations: Int
    /// Sender `i` has id `i` (the `sender` field of its values).
    package let senders: [StressSender]
    /// The recorder the subscriber feeds.
    package let recorder: StressRecorder

    /// `count` senders of `operations` values each (the iteration's count by default), stamped
    /// by `clock` where given, and a recorder with room for all their values plus `spare`.
    package init(_ iteration: StressIteration, senders count: Int, operations: Int? = nil,
                clock: StressClock? = nil, spare: Int = 4) {
        let n = operations ?? iteration.operations
        self.iteration = iteration
        self.operations = n
        senders = (0..<max(0, count)).map { StressSender(id: $0, capacity: n, clock: clock) }
        recorder = StressRecorder(capacity: max(0, count) * n + spare, perturber: iteration.shared)
    }

    /// Actor `actor` sends its sender's `operations` values through `send`, one after another,
    /// perturbing between sends and reporting progress (`StressSender.sendAll`).
    package func sendAll(_ actor: Int, random: inout StressRandom, _ send: (StressMsg) -> SignalSendError?) {
        senders[actor].sendAll(operations, actor: actor, of: iteration, ledger: iteration.ledger, random: &random, send)
    }

    /// Subscribes the recorder to `signal` (the handler holds a counted token) and tracks the
    /// output as `name`.
    package func subscribe(_ signal: Signal<StressMsg>, as name: String = "output", context: Exec = .direct) -> SignalOutput<StressMsg> {
        let output = signal.stressSubscribe(recorder, ledger: iteration.ledger, context: context)
        iteration.track(output, name)
        return output
    }

    /// Ends `input` after the senders finished (a refused `complete()` is a setup failure) and
    /// waits for the recorder to see the end.
    package func complete(_ input: SignalInput<StressMsg>, timeoutSeconds: Double? = nil) -> [StressFinding] {
        var findings: [StressFinding] = []
        if let e = input.complete() { findings.append(.forbidden(StressCheck.setupFailed, "complete() returned \(e)")) }
        let recorder = self.recorder
        iteration.waitUntil("the end", timeoutSeconds: timeoutSeconds) { recorder.endCount > 0 }
        return findings
    }

    /// The arbiter: what the recorder saw against what the senders were told, judged by
    /// `policy` and reported as `who` (`stressCheckStream`).
    package func check(_ who: String, _ policy: StressStreamPolicy) -> [StressFinding] {
        stressCheckStream(who, recorder, senders: senders, policy: policy)
    }
}

extension StressIteration {
    /// A `Signal<StressMsg>` input and signal on this iteration's variant, both tracked (the
    /// signal only where `signalName` is not nil).
    package func makeInput(_ inputName: String = "input", signal signalName: String? = "signal")
        -> (input: SignalInput<StressMsg>, signal: Signal<StressMsg>) {
        let (input, signal) = Signal<StressMsg>.create(delivery: variant)
        track(input, inputName)
        if let signalName { track(signal, signalName) }
        return (input, signal)
    }

    /// The plain sending loop of the scenarios that send bare numbers: `send(v)` for `v` in
    /// `0..<count`, perturbing between sends and reporting progress as actor `actor`.
    package func sendNumbers(_ count: Int, actor: Int, random: inout StressRandom, _ send: (Int) -> Void) {
        for v in 0..<count {
            send(v)
            random.perturb()
            if v & 31 == 0 { progress(actor, v) }
        }
    }
}
