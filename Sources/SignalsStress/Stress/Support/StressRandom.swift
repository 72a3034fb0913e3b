import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Seeded perturbation: the random streams that decide where actors and handlers yield or spin,
// so a failing iteration replays the same perturbation schedule from its seed.

/// SplitMix64 finalizer: spreads a seed and a counter into an unrelated 64-bit value.
@inline(__always)
package func stressMix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

private let spinSink = Atomic<Int>(0)

/// Busy-waits for about `n` short steps (a relaxed load each, which the optimizer keeps).
@inline(never)
package func stressSpin(_ n: Int) {
    var x = 0
    for _ in 0..<n { x &+= spinSink.load(ordering: .relaxed) }
    if x == 42 { spinSink.store(0, ordering: .relaxed) }
}

/// A seeded random stream owned by one thread (an actor or the coordinator).
///
/// `perturb()` is called at the points where a race may hide: most calls do nothing, some
/// yield the processor, some spin briefly. The sequence depends only on the seed, so a failing
/// iteration replays the same perturbation schedule (the scheduler's own choices still vary).
package struct StressRandom: Sendable {
    var state: UInt64

    /// A stream for `seed`.
    package init(seed: UInt64) { state = stressMix(seed) }

    /// The next 64 random bits.
    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return stressMix(state)
    }

    /// A random integer in `0..<n` (`n` > 0).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// Keeps a subscription (or a binding) for a random while: up to a few yields and a spin
    /// of up to 4,000 steps, so senders get to deliver through it.
    package mutating func hold() {
        for _ in 0..<below(4) { sched_yield() }
        stressSpin(below(4_000))
    }

    /// Yields (1 in 32), spins up to 255 steps (3 in 32), or does nothing.
    @inline(__always)
    package mutating func perturb() { stressPerturb(next()) }
}

@inline(__always)
func stressPerturb(_ r: UInt64) {
    switch r & 31 {
    case 0: sched_yield()
    case 1, 2, 3: stressSpin(Int((r >> 8) & 255))
    default: break
    }
}

/// A seeded random stream that any thread may draw from (handlers run on whatever thread
/// delivers). A relaxed counter picks the draw, so it adds no synchronization.
package final class StressSharedRandom: Sendable {
    let seed: UInt64
    let counter = Atomic<UInt64>(0)

    /// A shared stream for `seed`.
    package init(seed: UInt64) { self.seed = seed }

    /// Perturbs the calling thread, like `StressRandom.perturb()`.
    @inline(__always)
    package func perturb() {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        stressPerturb(stressMix(seed ^ (n &* 0xD6E8_FEB8_6659_FD93)))
    }
}
