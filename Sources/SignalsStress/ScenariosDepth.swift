// Stress scenario for graphs deeper than the nesting bound of activation and node-to-node
// delivery (`DepthBounds` in the library: past 32 nested levels on a thread, the next is
// deferred to the outermost one on that thread, which runs the deferred work in order).
//
// - `deep-chain`: a chain of 100 `multicast()` nodes (a `map` between every second pair)
//   while T−1 threads send numbered values and one thread subscribes to its end and cancels,
//   again and again, each time activating and deactivating every node. Arbiter: each sender's
//   values arrive in the order sent, once, carrying every map; nothing reaches a cancelled
//   subscription after `cancel()` returned; once the actors are done, a subscription gets
//   the next value at once (every node was re-activated) and the input is inactive after it
//   is cancelled (every node was deactivated).

import Signals
import Synchronization

/// A chain of nodes deeper than the nesting bound, subscribed, sent through and cancelled
/// from several threads at once.
package struct DeepChainScenario: LabelledStressScenario {
    package init() {}
    package let label = StressScenarioLabel("deep-chain", "T−1 threads send through 100 chained multicast nodes while one subscribes to the end and cancels, activating and deactivating every node", acceptable: "every sender's order, nothing after cancel, fully (de)activated")

    static let depth = 100
    /// Maps in the chain: one per two nodes, each adding `1 << 40`.
    static var maps: Int { depth / 2 }
    static func encode(actor: Int, seq: Int) -> Int { actor << 24 | seq }

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
                        let (sender, seq) = (raw >> 24, raw & 0xFF_FFFF)
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
                    _ = input.send(value: Self.encode(actor: actor, seq: seq))
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
