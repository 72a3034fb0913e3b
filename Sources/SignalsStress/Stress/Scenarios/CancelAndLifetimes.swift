import Dispatch
import Foundation
import Signals
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Scenarios for cancels and the end of a subscription's life: nothing may run after a
// `cancel()` returned, whether the cancel comes from inside a handler (of this graph or of
// another), from several threads at once, or from a self-retaining subscription that stops
// itself; and a handler that has stopped is freed (every handler here captures a `StressToken`,
// so one the library keeps alive shows up as a leak at the end of the iteration).

/// Cancels from inside deliveries: exactly "nothing after `cancel()` returns", also for a
/// branch cancelled by a handler running on another graph. Branches of a multicast,
/// subscriptions of captures and the targets of junctions are cancelled from inside handlers
/// while threads send. Catches a branch removal that no longer closes its gate first (a seeded
/// one-line bug that passed every other scenario).
package struct InnerCancelScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("inner-cancel", "handlers cancel multicast branches, capture subscriptions and junction targets of this and another graph while threads send", acceptable: "nothing after cancel")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations / 4)
        let (inA, a) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        let (inB, b) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        // Victims of three kinds on each graph: a plain branch (with a stage), a capture's
        // subscription, and the target of a junction bound to a fresh input.
        var junctions: [SignalJunction<Int>] = []
        func victims(on multi: SignalMulti<Int>) -> [StressCancelProbe] {
            (0..<n).map { i in
                let p = StressCancelProbe()
                switch i % 3 {
                case 0:
                    p.output = multi.map { v -> Int in p.called(); return v }.subscribeValues { _ in p.called() }
                case 1:
                    p.output = multi.capture().subscribeValues { _ in p.called() }
                default:
                    let (input, target) = Signal<Int>.create(delivery: it.variant)
                    p.output = target.subscribeValues { _ in p.called() }
                    let j = multi.junction()
                    _ = j.bind(to: input)
                    junctions.append(j)
                }
                return p
            }
        }
        let onA = victims(on: a), onB = victims(on: b)
        let nextA = StressCounter(0), nextB = StressCounter(0)
        // A's handler cancels victims on A (same graph, inside its own delivery) and on B
        // (across graphs); B's handler the other way round.
        let cancellerA = a.subscribeValues { v in
            let list = v & 1 == 0 ? onA : onB
            let next = v & 1 == 0 ? nextA : nextB
            let i = next.next()
            if i < n { list[i].cancel() }
        }
        let cancellerB = b.subscribeValues { v in
            let list = v & 1 == 0 ? onB : onA
            let next = v & 1 == 0 ? nextB : nextA
            let i = next.next()
            if i < n { list[i].cancel() }
        }
        it.runActors(max(2, it.threads)) { actor, rng in
            let input = actor % 2 == 0 ? inA : inB
            it.sendNumbers(2 * n, actor: actor, random: &rng) { _ = input.send(value: $0) }
        }
        withExtendedLifetime((cancellerA, cancellerB, junctions)) {}
        let late = (onA + onB).reduce(0) { $0 + $1.lateCalls.load(ordering: .relaxed) }
        if late > 0 {
            return [.forbidden("a cancelled branch, capture subscription or junction target ran after cancel() returned", "\(late) calls")]
        }
        return []
    }
}

/// Handlers on two multicasts cancel branches of each other while two threads
/// send into both. A cancel that waits for the other node's holder deadlocks (the watchdog
/// reports it); a cancelled branch must not be entered after its `cancel()` returned. The
/// library once deadlocked here: the scenario finds it if it comes back.
package struct CrossCancelScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("cross-cancel", "handlers on two multicasts cancel each other's branches while two threads send", acceptable: "no deadlock, nothing after cancel")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(8, it.operations)
        let (inA, a) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        let (inB, b) = Signal<Int>.create(delivery: it.variant) { $0.multicast() }
        func victims(on multi: SignalMulti<Int>) -> [StressCancelProbe] {
            (0..<n).map { _ in
                let p = StressCancelProbe()
                p.output = multi.map { v -> Int in p.called(); return v }.subscribeValues { _ in p.called() }
                return p
            }
        }
        let onA = victims(on: a), onB = victims(on: b)
        let nextA = Atomic<Int>(0), nextB = Atomic<Int>(0)
        let cancellerA = a.subscribeValues { _ in
            let i = nextB.add(1, ordering: .relaxed).newValue - 1
            if i < n { onB[i].cancel() }
        }
        let cancellerB = b.subscribeValues { _ in
            let i = nextA.add(1, ordering: .relaxed).newValue - 1
            if i < n { onA[i].cancel() }
        }
        it.runActors(max(2, it.threads)) { actor, rng in
            let input = actor % 2 == 0 ? inA : inB
            it.sendNumbers(n, actor: actor, random: &rng) { _ = input.send(value: $0) }
        }
        withExtendedLifetime((cancellerA, cancellerB)) {}
        let late = (onA + onB).reduce(0) { $0 + $1.lateCalls.load(ordering: .relaxed) }
        if late > 0 {
            return [.forbidden("closure of a cancelled branch entered after cancel() returned", "\(late) calls")]
        }
        return []
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

/// T threads, each round: a `subscribeValuesWhile` that stops after a random number of values,
/// a `subscribeUntilEnd` (alternately through `channel().subscribeUntilEnd`) ended by a racing
/// sender's `complete()`, and a `subscribeValuesWhile` over an endless `.direct` source
/// (`repeatCollection(count: .max)`) that stops inside `subscribe`.
///
/// Arbiter: a handler is never entered after it asked to stop, never concurrently with itself;
/// the values it gets are the sender's, in order, each once; the endless source stops (the
/// watchdog reports a deadlock otherwise); when a handler has stopped (or seen the end) and the
/// senders are done, the token it captured is freed while its signal is still alive.
package struct SelfRetainingReleaseScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel(
        "self-retaining-release", "subscribeWhile/UntilEnd stopping, ending and stopping inside subscribe, raced by senders",
        acceptable: "handler stopped, released, nothing after stop")

    package func run(_ it: StressIteration) -> [StressFinding] {
        let rounds = max(4, it.operations / 16)
        let findings = StressFindings()
        let ledger = it.ledger
        it.runActors(it.threads) { a, rng in
            for k in 0..<rounds {
                var found: [StressFinding] = []
                let who = "actor \(a) round \(k)"
                // 1. Stops after `limit` values while another thread sends.
                do {
                    let (input, signal) = Signal<Int>.create(delivery: it.variant)
                    let limit = 1 + Int(rng.next() % 8)
                    let seen = StressLock<[Int]>([])
                    let inside = Atomic<Bool>(false)
                    let afterStop = StressCounter(0)
                    let overlap = StressCounter(0)
                    let stopped = Atomic<Bool>(false)
                    let token = StressToken(ledger)
                    let watched = StressWeakToken(token)
                    signal.subscribeValuesWhile { [token] v in
                        withExtendedLifetime(token) {}
                        if inside.exchange(true, ordering: .acquiringAndReleasing) { _ = overlap.next() }
                        if stopped.load(ordering: .acquiring) { _ = afterStop.next() }
                        let n = seen.withLock { $0.append(v); return $0.count }
                        let goOn = n < limit
                        if !goOn { stopped.store(true, ordering: .releasing) }
                        inside.store(false, ordering: .releasing)
                        return goOn
                    }
                    _ = consume token
                    // Two senders: 0..<16 from another thread, 100..<116 from this one.
                    stressRace({ for v in 0..<16 { _ = input.send(value: v) } },
                               { for v in 100..<116 { _ = input.send(value: v) } })
                    let got = seen.withLock { $0 }
                    if afterStop.load > 0 { found.append(.forbidden(StressCheck.valueAfterEnd, "\(who): \(afterStop.load) values after the handler returned false")) }
                    if overlap.load > 0 { found.append(.forbidden(StressCheck.concurrentEntry, "\(who)")) }
                    let low = got.filter { $0 < 100 }
                    let high = got.filter { $0 >= 100 }
                    if got.count != limit || low != Array(0..<low.count) || high != Array(100..<(100 + high.count)) {
                        found.append(.forbidden(StressCheck.fifo, "\(who): got \(got), limit \(limit)"))
                    }
                    if watched.isAlive {
                        found.append(.forbidden(StressCheck.leak, "\(who): subscribeValuesWhile handler alive after it stopped (signal alive)"))
                    }
                    withExtendedLifetime((input, signal)) {}
                }
                // 2. Ended by a racing complete().
                do {
                    let token = StressToken(ledger)
                    let watched = StressWeakToken(token)
                    let ends = StressCounter(0)
                    let input: SignalInput<Int>
                    let keep: AnyObject
                    if k & 1 == 0 {
                        let (i, signal) = Signal<Int>.create(delivery: it.variant)
                        signal.subscribeUntilEnd { [token] r in withExtendedLifetime(token) {}; if r.end != nil { _ = ends.next() } }
                        input = i
                        keep = signal
                    } else {
                        input = Signal<Int>.channel(delivery: it.variant).subscribeUntilEnd { [token] r in
                            withExtendedLifetime(token) {}; if r.end != nil { _ = ends.next() }
                        }
                        keep = input
                    }
                    _ = consume token
                    stressRace({ for v in 0..<8 { _ = input.send(value: v) } }, { _ = input.complete() })
                    if ends.load != 1 { found.append(.forbidden(StressCheck.endMissing, "\(who): \(ends.load) ends")) }
                    if watched.isAlive {
                        found.append(.forbidden(StressCheck.leak, "\(who): subscribeUntilEnd handler alive after the end"))
                    }
                    withExtendedLifetime(keep) {}
                }
                // 3. An endless .direct source stopped inside subscribe.
                do {
                    let source = Signal<Int>.repeatCollection([1, 2, 3], count: .max, delivery: it.variant)
                    let count = StressCounter(0)
                    let limit = 1 + Int(rng.next() % 5)
                    source.subscribeValuesWhile { _ in count.next() + 1 < limit }
                    // subscribeValuesWhile returned: the endless source stopped.
                    if count.load != limit { found.append(.forbidden(StressCheck.valueAfterEnd, "\(who): endless source gave \(count.load), limit \(limit)")) }
                    let taken = StressLock<[Int]>([])
                    let o = source.take(limit).subscribeValues { v in taken.withLock { $0.append(v) } }
                    if taken.withLock({ $0.count }) != limit { found.append(.forbidden(StressCheck.lost, "\(who): take(\(limit)) gave \(taken.withLock { $0 })")) }
                    o.cancel()
                }
                if !found.isEmpty { findings.add(found) }
                it.progress(a, k)
                rng.perturb()
            }
        }
        return findings.all
    }
}

/// A weak reference to a token, to see whether a handler that captured it is still alive.
final class StressWeakToken: @unchecked Sendable {
    // Unchecked: written once, in init; the runtime's weak references are thread-safe.
    weak var token: StressToken?
    init(_ token: StressToken) { self.token = token }
    var isAlive: Bool { token != nil }
}

/// Runs `there` on another thread while this one runs `here`, and returns when both are done.
func stressRace(_ there: @escaping @Sendable () -> Void, _ here: () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        there()
        done.signal()
    }
    here()
    done.wait()
}
