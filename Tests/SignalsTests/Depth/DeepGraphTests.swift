import Foundation
import Signals
import Synchronization
import Testing

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it: a graph
/// whose building, activation, delivery or release recursed once per stage would overflow it.
func onThread(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}

/// Graphs far deeper and wider than any built elsewhere in the tests: every part of their life
/// (building, subscribing, sending through, releasing) runs in bounded stack, so each test runs
/// on a thread with a 512 KiB stack (a secondary thread's default on Apple platforms).
@Suite struct DeepGraphTests {
    /// A million fused stages, built and released without being subscribed: freeing each
    /// derived signal drops its hold on the one upstream, which frees that one, and so on.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingAMillionStageChainDoesNotRecurse(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s = s0.map { $0 }
            for _ in 1..<1_000_000 { s = s.map { $0 + 1 } }
            _ = s
            s = Signal<Int>.just(0)
            withExtendedLifetime(input) {}
        }
    }
}
