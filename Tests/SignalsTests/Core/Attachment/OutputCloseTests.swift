// `cancel()` and the release of a `SignalOutput` return at once, without the terminal's lock,
// once the chain's detach has finished (`OutputTerminal.close`: the finished detach leaves its
// state word at `detachDone`). Until then they wait for the thread running that detach, so
// nothing runs after they return and the signal is free for a new subscriber.

import Dispatch
import Foundation
import Signals
import Synchronization
import Testing

@Suite(.serialized) struct OutputCloseTests {
    /// A second `cancel()`, on another thread, while the first one's detach is still running (an
    /// `onDeactivate` blocked inside it) returns only once that detach has finished.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func secondCancelWaitsForTheFirstCancelsDetach(_ variant: DeliveryVariant) {
        let inDetach = DispatchSemaphore(value: 0)
        let letDetachFinish = DispatchSemaphore(value: 0)
        let detachFinished = Atomic<Bool>(false)
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let output = signal
            .onDeactivate {
                inDetach.signal()
                letDetachFinish.wait()
                detachFinished.store(true, ordering: .releasing)
            }
            .subscribeValues { _ in }

        let firstReturned = DispatchSemaphore(value: 0)
        Thread { output.cancel(); firstReturned.signal() }.start()
        // Bounded waits: a defect fails the test instead of hanging it.
        let patience = DispatchTime.now() + .seconds(20)
        guard inDetach.wait(timeout: patience) == .success else {
            Issue.record("the first cancel never reached its detach")
            return
        }

        let secondSawFinished = Atomic<Bool>(false)
        let secondReturned = DispatchSemaphore(value: 0)
        Thread {
            output.cancel()
            secondSawFinished.store(detachFinished.load(ordering: .acquiring), ordering: .releasing)
            secondReturned.signal()
        }.start()
        // Still inside the first detach: the second cancel must not have returned.
        let returnedInsideTheDetach = secondReturned.wait(timeout: .now() + .milliseconds(200)) == .success
        #expect(!returnedInsideTheDetach)
        letDetachFinish.signal()
        if !returnedInsideTheDetach { #expect(secondReturned.wait(timeout: patience) == .success) }
        #expect(firstReturned.wait(timeout: patience) == .success)
        let sawFinished = secondSawFinished.load(ordering: .acquiring)
        #expect(sawFinished)
        #expect(output.isClosed)
        withExtendedLifetime(input) {}
    }

    /// Cancelled, cancelled again and released: the handler and its captures are freed, and
    /// the signal takes a new subscriber, which gets the next value.
    @Test(arguments: DeliveryVariant.allCases)
    func releaseAfterCancelFreesTheHandlerAndTheSignal(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let output = signal.subscribeValues { _ in t.touch() }
            #expect(input.send(value: 1) == nil)
            output.cancel()
            #expect(output.isClosed)
            output.cancel()
        }
        #expect(counter.freed == 1)
        let received = Mutex<[Int]>([])
        let again = signal.subscribeValues { v in received.withLock { $0.append(v) } }
        #expect(input.send(value: 2) == nil)
        #expect(received.withLock { $0 } == [2])
        again.cancel()
    }

    /// The end's detach ran on another thread and has finished: `cancel()` and the release
    /// return, the handler is freed, and the signal is free for a new subscriber (which gets
    /// the end, not `.duplicate`).
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func cancelAfterAnEndDetachedOnAnotherThread(_ variant: DeliveryVariant) {
        let counter = DeinitCounter()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        do {
            let t = counter.token()
            let output = signal.subscribeValues { _ in t.touch() }
            let ended = DispatchSemaphore(value: 0)
            Thread { input.complete(); ended.signal() }.start()
            ended.wait()
            #expect(output.isClosed)
            output.cancel()
        }
        #expect(counter.freed == 1)
        let events = Mutex<[Ev<Int>]>([])
        let again = signal.subscribe { r in events.withLock { $0.append(Ev(r)) } }
        #expect(!events.withLock { $0 }.contains(Ev<Int>.duplicate))
        again.cancel()
    }
}
