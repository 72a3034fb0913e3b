import Foundation
import Signals
import Synchronization

// Scenarios for sends that must be delivered or refused, never accepted and lost, where an
// end meets a re-activation: a `generate` input's send racing its end, a stale end behind a
// `hop(to:)` against the cancel and subscribe that re-activate it, and a send into a merge's
// other source after the end has reached the subscriber past the depth bound.

/// A `generate` source and the holder of its current input (nil while inactive). The input
/// replaced is released after the lock: releasing an input sends `.cancelled`, which can come
/// back to this closure.
func acceptedSendsGenerateSource(_ variant: DeliveryVariant) -> (Signal<Int>, StressLock<SignalInput<Int>?>) {
    let holder = StressLock<SignalInput<Int>?>(nil)
    let signal = Signal<Int>.generate(delivery: variant) { i in
        let old = holder.withLock { h -> SignalInput<Int>? in defer { h = i }; return h }
        withExtendedLifetime(old) {}
    }
    return (signal, holder)
}

/// Rounds of: one thread sends 0, 1, 2, … into a `generate` source's input until a send is
/// refused, another calls `complete()` on the same input. The last accepted value (and every
/// one before it) must reach the subscriber before the end.
package struct GenerateSendEndRaceScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "generate-send-end-race", "rounds: a generate input's sends racing its own complete(); every accepted value before the end",
        acceptable: "every accepted value delivered before the end")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(8, it.operations / 4)
        var findings: [StressFinding] = []
        for round in 0..<rounds where findings.isEmpty {
            let (signal, holder) = acceptedSendsGenerateSource(it.variant)
            let got = StressLock<(values: [Int], ended: Bool, afterEnd: Int)>(([], false, 0))
            let output = signal.subscribe { r in
                got.withLock { g in
                    if g.ended { g.afterEnd += 1 }
                    switch r {
                    case .success(let v): g.values.append(v)
                    case .failure: g.ended = true
                    }
                }
            }
            guard let input = holder.withLock({ $0 }) else { return [.forbidden("generate not activated by subscribe")] }
            let lastAccepted = Atomic<Int>(-1)
            let endAt = it.random.below(400)
            it.runActors(2) { a, rng in
                if a == 1 {
                    stressSpin(endAt)
                    input.complete()
                    return
                }
                var v = 0
                while input.send(value: v) == nil {
                    lastAccepted.store(v, ordering: .relaxed)
                    v += 1
                    rng.perturb()
                }
            }
            let last = lastAccepted.load(ordering: .relaxed)
            let g = got.withLock { $0 }
            if last >= 0 && g.values.last != last || g.values != Array(0..<g.values.count) {
                findings.append(.forbidden(
                    "accepted value lost at the end",
                    "round \(round): last accepted \(last), delivered \(g.values.suffix(3)) (\(g.values.count) values), ended \(g.ended)"))
            }
            if !g.ended || g.afterEnd > 0 { findings.append(.forbidden("end not once and last", "round \(round): ended \(g.ended), \(g.afterEnd) after it")) }
            output.cancel()
        }
        return findings
    }
}

/// `generate` → `onEnd { sleep }` → `hop(to:)` (`.global`, a serial queue, `.syncQueue()` in
/// turn): one thread sends an error into the source's input; while the end is held in the
/// end handler, another cancels and subscribes again and sends into the new activation's
/// input. The new subscription must get that value: the old end must not close the hop
/// node's re-activation.
package struct HopReactivationAfterEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "hop-reactivation-after-end", "an end held in onEnd above a hop(to:) while another thread cancels, subscribes again and sends",
        acceptable: "the new activation delivers what it accepted")

    struct Failure: Error {}

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(2, it.operations / 50)
        let queue = DispatchQueue(label: "stress.hop-reactivation")
        var findings: [StressFinding] = []
        for round in 0..<rounds where findings.isEmpty {
            let context: Exec = [.global, .queue(queue), .syncQueue()][(it.index + round) % 3]
            let hold = UInt32(1_000 + it.random.below(3_000))
            let (source, holder) = acceptedSendsGenerateSource(it.variant)
            let signal = source
            .onEnd { _ in usleep(hold) }
            .hop(to: context)
            let first = signal.subscribe { _ in }
            guard let oldInput = holder.withLock({ $0 }) else { return [.forbidden("generate not activated by subscribe")] }
            let received = StressLock<[Int]>([])
            let second = StressLock<SignalOutput<Int>?>(nil)
            let accepted = Atomic<Bool>(false)
            let gap = it.random.below(2) == 0 ? UInt32(hold / 2) : 0
            it.runActors(2) { a, _ in
                if a == 0 {
                    oldInput.send(end: .other(Failure()))
                    return
                }
                usleep(gap)
                first.cancel()
                let out = signal.subscribe { r in if case .success(let v) = r { received.withLock { $0.append(v) } } }
                second.withLock { $0 = out }
                if let fresh = holder.withLock({ $0 }) {
                    accepted.store(fresh.send(value: 42) == nil, ordering: .relaxed)
                }
            }
            let deadline = Date().addingTimeInterval(2)
            while accepted.load(ordering: .relaxed) && received.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
            if accepted.load(ordering: .relaxed) && received.withLock({ $0 }) != [42] {
                findings.append(.forbidden(
                    "accepted value lost after re-activation",
                    "round \(round), context \(context): the new activation's input accepted 42, the new subscriber got \(received.withLock { $0 })"))
            }
            second.withLock { $0?.cancel(); $0 = nil }
        }
        return findings
    }
}

/// X → 20 multicasts → `merge(Y)` → 20 multicasts: three threads send into X and Y, one of
/// them sends an error into X; a thread that carried the end to the subscriber (its handler
/// saw the end on that thread) then sends into Y, which must be refused.
package struct DeepMergeRefusalAfterEndScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "deep-merge-refusal-after-end", "past the depth bound: after the end reached the subscriber, the merge's other source refuses",
        acceptable: "sends after the end refused", minimumThreads: 3)

    struct Failure: Error {}

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 20)
        var findings: [StressFinding] = []
        for round in 0..<rounds where findings.isEmpty {
            let (x, xs) = Signal<Int>.create(delivery: it.variant)
            let (y, ys) = Signal<Int>.create(delivery: it.variant)
            var s: Signal<Int> = xs
            for _ in 0..<20 { s = s.multicast() }
            s = s.merge(with: ys)
            for _ in 0..<20 { s = s.multicast() }
            let endThread = Atomic<UInt>(0)
            let output = s.subscribe { r in
                if case .failure = r { endThread.store(stressThreadToken(), ordering: .releasing) }
            }
            let late = StressLock<[String]>([])
            let errorAt = it.random.below(40)
            it.runActors(max(3, it.threads)) { a, rng in
                for v in 0..<60 {
                    if a == 0 && v == errorAt { x.send(end: .other(Failure())) }
                    let into = (v + a) % 2 == 0 ? x : y
                    let carried = endThread.load(ordering: .acquiring) == stressThreadToken()
                    let accepted = into.send(value: v) == nil
                    if carried && accepted && into === y {
                        late.withLock { $0.append("thread \(a): value \(v) into Y") }
                    }
                    rng.perturb()
                }
            }
            if let seen = late.withLock({ $0.first }) {
                findings.append(.forbidden("send accepted after the end reached the subscriber", "round \(round): \(seen)"))
            }
            output.cancel()
        }
        return findings
    }
}

/// Several threads cancel one output at once while a sender sends; the first whose cancel
/// returns subscribes again at once (the others find the new subscription and cancel that in
/// turn). A subscribe right after `cancel()` returned must be accepted, however many cancels
/// of the same output ran together (the second cancels wait for the first one's detach), and
/// no handler call may begin after its own `cancel()` returned.
package struct CancelStormScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "cancel-storm", "threads cancel one output together while a sender sends; the first back subscribes again at once",
        acceptable: "every subscribe accepted, nothing after cancel", minimumThreads: 3)

    final class Subscription: @unchecked Sendable {
        // Unchecked: `output` is set once before the subscription is published.
        var output: SignalOutput<Int>?
        let cancelReturned = Atomic<Bool>(false)
        let late = Atomic<Int>(0)
        let refused = Atomic<Bool>(false)
        /// Taken by the thread that subscribes again in its place.
        let replaced = Atomic<Bool>(false)
        let index: Int
        init(index: Int) { self.index = index }
    }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let (input, signal) = Signal<Int>.create(delivery: it.variant)
        let all = StressLock<[Subscription]>([])
        @Sendable func subscribe() -> Subscription {
            let index = all.withLock { $0.count }
            let s = Subscription(index: index)
            s.output = signal.subscribe { r in
                if s.cancelReturned.load(ordering: .acquiring) { s.late.add(1, ordering: .relaxed) }
                if case .failure(.other(let e)) = r, e is SignalBindError { s.refused.store(true, ordering: .relaxed) }
            }
            all.withLock { $0.append(s) }
            return s
        }
        let current = StressLock<Subscription>(subscribe())
        let rounds = max(16, it.operations / 4)
        let done = Atomic<Bool>(false)
        it.runActors(max(3, it.threads)) { a, rng in
            if a == 0 {
                var v = 0
                while !done.load(ordering: .relaxed) {
                    _ = input.send(value: v)
                    v += 1
                    rng.perturb()
                }
                return
            }
            for r in 0..<rounds {
                let s = current.withLock { $0 }
                s.output?.cancel()
                s.cancelReturned.store(true, ordering: .releasing)
                // The first back from cancelling this one subscribes again, at once.
                if s.replaced.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
                    let next = subscribe()
                    current.withLock { $0 = next }
                }
                rng.perturb()
                if r & 7 == 0 { it.progress(a, r) }
            }
            done.store(true, ordering: .relaxed)
        }
        current.withLock { $0.output?.cancel() }
        let subs = all.withLock { $0 }
        var findings: [StressFinding] = []
        if let s = subs.first(where: { $0.refused.load(ordering: .relaxed) }) {
            findings.append(.forbidden("subscribe after cancel() refused", "subscription \(s.index) of \(subs.count) got a bind error"))
        }
        let late = subs.reduce(0) { $0 + $1.late.load(ordering: .relaxed) }
        if late > 0 { findings.append(.forbidden("handler entered after cancel() returned", "\(late) calls")) }
        for s in subs { s.output = nil }
        return findings
    }
}
