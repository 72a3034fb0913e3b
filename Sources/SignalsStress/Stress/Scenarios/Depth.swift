import Foundation
import Signals
import Synchronization

// Stress scenarios for graphs deeper than the nesting bound of activation and node-to-node
// delivery (`DepthBounds` in the library: past 8 nested hand-overs on a thread, the next is
// queued in the node it targets, which that thread drains from its outermost hand-over;
// past 8 nested activation runs, the next is deferred to the outermost one).
//
// - `deep-chain`: a chain of 100 `multicast()` nodes (a `map` between every second pair)
//   while T−1 threads send numbered values and one thread subscribes to its end and cancels,
//   again and again, each time activating and deactivating every node. Arbiter: each sender's
//   values arrive in the order sent, once, carrying every map; nothing reaches a cancelled
//   subscription after `cancel()` returned; once the actors are done, a subscription gets
//   the next value at once (every node was re-activated) and the input is inactive after it
//   is cancelled (every node was deactivated).
// - `deep-merge-order`: a merge with 12 `multicast()` nodes below it, fed by a multi (whose
//   second branch keeps the holder busy after each hand-over) and by a direct input, with
//   threads sending into both and one thread ending the merge late. Arbiter: each sender's
//   accepted values arrive exactly once, in the order sent, before the end (a hand-over past
//   the bound deferred to the sending thread's outermost frame let another thread's values,
//   or the end, overtake it).
// - `deep-take-refusal`: a merge + `take(k)` with 12 `multicast()` nodes below it, fed by a
//   multi and by a direct input, with threads sending through the multi. Its second branch,
//   on the thread that carried take's end through the stage after it, sends into the direct
//   input: that send must be refused (the take has ended and, as in a shallow graph, the graph
//   above it has stopped); take's k values arrive, then the end, once.
// - `deep-merge-refusal-after-end`: a merge between two runs of 20 `multicast()` nodes, an
//   error sent into one side; a thread that carried the end to the subscriber then sends into
//   the other side, which must be refused (accepted and dropped, the value would be lost).

/// A chain of nodes deeper than the nesting bound, subscribed, sent through and cancelled
/// from several threads at once.
package struct DeepChainScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("deep-chain", "T−1 threads send through 100 chained multicast nodes while one subscribes to the end and cancels, activating and deactivating every node", acceptable: "every sender's order, nothing after cancel, fully (de)activated")

    static let depth = 100
    /// Maps in the chain: one per two nodes, each adding `1 << 40`, above every stamp of the
    /// senders (`StressStamp.encoded`), so a value that missed a map is told from one that
    /// crossed them all.
    static var maps: Int { depth / 2 }

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(64, it.operations)
        let actors = max(3, it.threads)
        let (input, source) = Signal<Int>.create(delivery: it.variant)
        var chain: Signal<Int> = source
        for k in 0..<Self.depth {
            chain = k % 2 == 0 ? chain.map { $0 &+ (1 << 40) }.multicast() : chain.multicast()
        }
        let end: Signal<Int> = chain
        let expectedOffset = Self.maps << 40
        let violations = StressLock<[String]>([])
        @Sendable func note(_ s: String) { violations.withLock { if $0.count < 4 { $0.append(s) } } }
        let late = StressCounter(0)

        it.runActors(actors) { actor, rng in
            if actor == actors - 1 {
                // The subscriber: each subscription checks what it sees, then is cancelled.
                for round in 0..<max(4, n / 16) {
                    let cancelled = Atomic<Bool>(false)
                    let last = StressLock<[Int: Int]>([:])
                    let output = end.subscribeValues { v in
                        if cancelled.load(ordering: .acquiring) { _ = late.next() }
                        let raw = v &- expectedOffset
                        let stamp = StressStamp(encoded: raw)
                        let (sender, seq) = (stamp.sender, stamp.seq)
                        guard raw >= 0, sender < actors - 1 else {
                            note("value \(v) did not cross every map (\(Self.maps) expected)")
                            return
                        }
                        last.withLock { l in
                            if let before = l[sender], seq <= before {
                                note("sender \(sender): \(seq) after \(before)")
                            }
                            l[sender] = seq
                        }
                    }
                    rng.perturb()
                    output.cancel()
                    cancelled.store(true, ordering: .releasing)
                    if round & 7 == 0 { it.progress(actor, round) }
                }
            } else {
                for seq in 0..<n {
                    _ = input.send(value: StressStamp(sender: actor, seq: seq).encoded)
                    rng.perturb()
                    if seq & 31 == 0 { it.progress(actor, seq) }
                }
            }
        }

        // Quiet now: a subscription activates every node (the next value gets through), its
        // cancel deactivates every node (the input is inactive again).
        let got = StressLock<[Int]>([])
        let final = end.subscribeValues { v in got.withLock { $0.append(v) } }
        let sent = input.send(value: 7)
        final.cancel()
        let after = input.send(value: 8)
        var findings: [StressFinding] = []
        if sent != nil || got.withLock({ $0 }) != [7 &+ expectedOffset] {
            findings.append(.forbidden("a subscription after the race did not activate the whole chain",
                                       "send \(String(describing: sent)), received \(got.withLock { $0 })"))
        }
        if after != .inactive {
            findings.append(.forbidden("cancelling the last subscription did not deactivate the whole chain",
                                       "send after cancel: \(String(describing: after))"))
        }
        let l = late.value.load(ordering: .relaxed)
        if l > 0 { findings.append(.forbidden("a cancelled subscription ran after cancel() returned", "\(l) calls")) }
        let v = violations.withLock { $0 }
        if !v.isEmpty { findings.append(.forbidden("a sender's values arrived out of order or without every stage", v.joined(separator: "; "))) }
        withExtendedLifetime((input, end)) {}
        return findings
    }
}

/// The error that ends `deep-merge-order`'s merge (an error ends a merge at once).
struct DeepMergeStop: Error {}

/// A merge past the hand-over bound, fed from two sides by several threads, ended late.
package struct DeepMergeOrderScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("deep-merge-order", "threads send into a merge (one side through a multi with a busy second branch) with 12 multicasts below it, and one ends it", acceptable: "every accepted value once, in sender order, before the end")

    static let below = 12

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(64, it.operations)
        let senders = max(2, it.threads)
        let (aIn, a) = Signal<Int>.create(delivery: it.variant)
        let (bIn, b) = Signal<Int>.create(delivery: it.variant)
        let m = a.multicast()
        var x: Signal<Int> = m.map { $0 }.merge(with: b)
        for _ in 0..<Self.below { x = x.multicast() }
        let received = StressLock<[Int]>([])
        let ends = StressCounter(0)
        let afterEnd = StressCounter(0)
        let ended = Atomic<Bool>(false)
        let output = x.subscribe { r in
            switch r {
            case .success(let v):
                if ended.load(ordering: .acquiring) { _ = afterEnd.next() }
                received.withLock { $0.append(v) }
            case .failure:
                ended.store(true, ordering: .releasing)
                _ = ends.next()
            }
        }
        // Keeps the multi's holder busy after each hand-over into the merge: the window in
        // which another thread takes the merge.
        let busy = m.subscribeValues { v in
            var spin = v & 63
            while spin > 0 { spin -= 1; stressPerturb(UInt64(spin)) }
        }
        let accepted = StressLock<[Int: [Int]]>([:])

        it.runActors(senders + 1) { actor, rng in
            if actor == senders {
                // The ender: late, while the senders may still be sending.
                for k in 0..<(n / 2) where k & 15 == 0 { rng.perturb(); it.progress(actor, k) }
                _ = bIn.send(end: .other(DeepMergeStop()))
                return
            }
            var mine: [Int] = []
            for seq in 0..<n {
                let v = StressStamp(sender: actor, seq: seq).encoded
                let input = actor & 1 == 0 ? aIn : bIn
                if input.send(value: v) == nil { mine.append(v) }
                rng.perturb()
                if seq & 31 == 0 { it.progress(actor, seq) }
            }
            accepted.withLock { $0[actor] = mine }
        }

        var findings: [StressFinding] = []
        let got = received.withLock { $0 }
        var bySender: [Int: [Int]] = [:]
        for v in got { bySender[StressStamp(encoded: v).sender, default: []].append(v) }
        let sent = accepted.withLock { $0 }
        var problems: [String] = []
        for (actor, values) in sent.sorted(by: { $0.key < $1.key }) {
            let seen = bySender[actor] ?? []
            // A value accepted before the end arrives, once and in order: what arrived is the
            // accepted sequence up to some point (values accepted by the merge's b input before
            // its end), never with gaps or out of order.
            if seen.count > values.count || Array(values.prefix(seen.count)) != seen {
                problems.append("sender \(actor): received \(seen.count) of \(values.count) accepted, not their prefix in order (first difference at \(zip(seen, values).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(seen.count, values.count)))")
            }
            if actor & 1 == 1 && seen.count != values.count {
                // A b-side send that returned nil was accepted by the merge's node before its
                // end: it must arrive.
                problems.append("sender \(actor) (b side): \(values.count) accepted, \(seen.count) delivered")
            }
        }
        if !problems.isEmpty { findings.append(.forbidden("a sender's accepted values were lost, repeated or reordered past the depth bound", problems.prefix(4).joined(separator: "; "))) }
        let e = ends.value.load(ordering: .relaxed)
        if e != 1 { findings.append(.forbidden("the end arrived \(e) times", "expected once")) }
        let late = afterEnd.value.load(ordering: .relaxed)
        if late > 0 { findings.append(.forbidden("values arrived after the end", "\(late) values")) }
        withExtendedLifetime((output, busy, aIn, bIn)) {}
        return findings
    }
}

/// A `take` past the hand-over bound whose end is delivered late: its thread carries the end
/// into the nodes below, past the bound, then runs another branch.
package struct DeepTakeRefusalScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("deep-take-refusal", "threads send through a multi, and one into the other source, of a merge + take(k) with 12 multicasts below it; the multi's second branch sends into the merge's other source once the end has passed", acceptable: "a send after the end has passed is refused; the end once, last")

    static let below = 12

    package func run(_ it: StressIteration) -> [StressFinding] {
        let n = max(64, it.operations)
        // At least two through the multi, and one more into the merge's other source.
        let senders = max(2, it.threads - 1)
        let k = max(8, n / 2)
        let (aIn, a) = Signal<Int>.create(delivery: it.variant)
        let (bIn, b) = Signal<Int>.create(delivery: it.variant)
        let m = a.multicast()
        // The thread that ran take's end through the stage after it (0 until then).
        let endCarrier = Atomic<UInt>(0)
        var x: Signal<Int> = m.map { $0 }.merge(with: b).take(k).onEnd { _ in
            endCarrier.store(stressThreadToken(), ordering: .releasing)
        }
        for _ in 0..<Self.below { x = x.multicast() }
        let received = StressCounter(0)
        let ends = StressCounter(0)
        let afterEnd = StressCounter(0)
        let ended = Atomic<Bool>(false)
        let output = x.subscribe { r in
            switch r {
            case .success:
                if ended.load(ordering: .acquiring) { _ = afterEnd.next() }
                _ = received.next()
            case .failure:
                ended.store(true, ordering: .releasing)
                _ = ends.next()
            }
        }
        // The multi's second branch runs after its first has handed the value down through
        // the merge and the take. On the thread that carried take's end there, that delivery
        // has returned: as in a shallow graph, the graph above the take has stopped, so a send
        // into the merge's other source must be refused (past the bound it was once accepted
        // and then dropped by the ended take, the end's delivery still deferred).
        let acceptedAfterEnd = StressCounter(0)
        let checks = StressCounter(0)
        let busy = m.subscribeValues { _ in
            guard endCarrier.load(ordering: .acquiring) == stressThreadToken() else { return }
            _ = checks.next()
            if bIn.send(value: -1) == nil { _ = acceptedAfterEnd.next() }
        }

        // Every actor but the last sends through the multi; the last sends into the merge's
        // other source. When that one carries the end, the merge stops the multi's branch
        // first: the removal, finding the multi idle, delivers there what the others queued
        // meanwhile, on this thread, so the second branch's check runs inside the deactivation,
        // before the merge has stopped its other source (once accepted there and dropped, in a
        // shallow graph too: every source now refuses before any is detached).
        it.runActors(senders + 1) { actor, rng in
            let direct = actor == senders
            for seq in 0..<n {
                let v = StressStamp(sender: actor, seq: seq).encoded
                if direct { _ = bIn.send(value: v) } else { _ = aIn.send(value: v) }
                rng.perturb()
                if seq & 31 == 0 { it.progress(actor, seq) }
            }
        }

        var findings: [StressFinding] = []
        let accepted = acceptedAfterEnd.value.load(ordering: .relaxed)
        if accepted > 0 {
            findings.append(.forbidden("a send after take's end had passed (on the thread that carried it) was accepted, and the ended take dropped it",
                                       "\(accepted) of \(checks.value.load(ordering: .relaxed)) such sends returned nil"))
        }
        let e = ends.value.load(ordering: .relaxed)
        let r = received.value.load(ordering: .relaxed)
        // Every sender sends n values, at least 3n in all, and k ≤ n/2: the take always ends.
        if e != 1 { findings.append(.forbidden("the end arrived \(e) times", "expected once")) }
        if r != k { findings.append(.forbidden("take(\(k)) delivered \(r) values", "expected \(k)")) }
        let late = afterEnd.value.load(ordering: .relaxed)
        if late > 0 { findings.append(.forbidden("values arrived after the end", "\(late) values")) }
        withExtendedLifetime((output, busy, aIn, bIn)) {}
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
