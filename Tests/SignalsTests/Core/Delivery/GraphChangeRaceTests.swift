import Dispatch
import Foundation
import Signals
import Synchronization
import Testing

/// Graph changes that used to leave stale state behind: `bind` racing `disconnect`, a refused
/// capture bind, `generate` callbacks on a concurrent context.
@Suite struct GraphChangeRaceTests {
    /// `bind` racing `disconnect` must not leave a topology edge behind: afterwards, binding
    /// the other way round is no loop (it used to be `.loop` for ever).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func bindRacingDisconnectLeavesNoStaleEdge(_ variant: DeliveryVariant) {
        let (inA, sigA) = Signal<Int>.create(delivery: variant)
        let (inB, sigB) = Signal<Int>.create(delivery: variant)
        let j = sigA.junction()
        let stop = Flag()
        let disconnector = startThread {
            while !stop.isSet { _ = j.disconnect() }
        }
        let binder = startThread {
            for _ in 0..<10_000 { _ = j.bind(to: inB) }
            stop.set()
        }
        #expect(binder.finished())
        #expect(disconnector.finished())
        _ = j.disconnect()
        // A feeds B no more, so B may feed A.
        let jB = sigB.junction()
        #expect(jB.bind(to: inA) == nil)
        _ = jB.disconnect()
    }

    /// A refused capture bind changes nothing: released, the capture deactivates its upstream
    /// (which used to stay active for ever, holding every value sent).
    @Test(arguments: DeliveryVariant.allCases)
    func refusedCaptureBindLeavesUpstreamInactiveAfterRelease(_ variant: DeliveryVariant) {
        let (inA, a) = Signal<Int>.create(delivery: variant)
        do {
            let c = a.map { $0 }.capture()
            #expect(inA.send(value: 1) == nil)  // a capture is active at once
            switch c.bind(to: inA) {
            case .failure(let e): #expect(e == .loop)
            case .success: Issue.record("a capture of A bound into A's own input")
            }
        }
        #expect(inA.send(value: 2) == .inactive)
    }

    /// `generate(context: .global)`: 3,000 subscribe/cancel cycles give callbacks that never
    /// overlap and alternate input, nil, input, nil. Every other cycle stays subscribed until
    /// its input callback has run, so callbacks also run while their activation is current
    /// (what a loaded machine does to the tight cycles at random).
    ///
    /// The closure keeps each input until the next callback, as `generate`'s doc asks: a current
    /// input released sends `.cancelled`, which ends the stream, and the multi keeps that end,
    /// so a closure that dropped its input got no activation after the first that outlived
    /// its callback (this test, written that way, hung under the whole release suite).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func generateCallbacksOnGlobalNeverOverlapAndAlternate(_ variant: DeliveryVariant) {
        let inside = Atomic<Bool>(false)
        let overlaps = Counter()
        let calls = Shared<[Bool]>([])
        let held = Shared<SignalInput<Int>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let cycles = 3_000
        let signal = Signal<Int>.generate(context: .global, delivery: variant) { input in
            if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add() }
            // A little work inside, so that callbacks run concurrently would overlap visibly.
            var spin = 0
            for i in 0..<2_000 { spin &+= i }
            withExtendedLifetime(spin) {}
            let n = calls.update { c -> Int in
                c.append(input != nil)
                return c.count
            }
            // The previous input is released here, outside the lock, after its deactivation.
            let previous = held.update { h -> SignalInput<Int>? in
                let p = h
                h = input
                return p
            }
            withExtendedLifetime(previous) {}
            inside.store(false, ordering: .releasing)
            if n == cycles * 2 { done.signal() }
        }
        let m = signal.multicast()
        for cycle in 0..<cycles {
            let out = m.subscribe { _ in }
            if cycle % 2 == 1 {
                let deadline = Date().addingTimeInterval(30)
                while calls.value.count < 2 * cycle + 1 && Date() < deadline { usleep(20) }
            }
            out.cancel()
        }
        // Generous: the callbacks run on `.global`, shared with Swift concurrency's pool,
        // which the suite's long tests keep busy on a 2-core machine.
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(overlaps.value == 0)
        let seq = calls.value
        let alternates = seq.indices.allSatisfy { seq[$0] == ($0 % 2 == 0) }
        #expect(alternates)
    }
}
