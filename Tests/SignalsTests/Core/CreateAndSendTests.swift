import Signals
import Testing

/// `Signal.create`, `SignalInput.send(...)` and their return values, ends, and the single
/// output of a plain `Signal`.
@Suite struct CreateAndSendTests {
    /// Before anything subscribes, a send is refused with `.inactive` and the value is dropped
    /// (a later subscriber never sees it).
    @Test(arguments: DeliveryVariant.allCases)
    func sendBeforeSubscribeIsInactiveAndDropped(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        #expect(input.send(value: 1) == .inactive)
        #expect(input.send(result: .success(2)) == .inactive)
        let (c, out) = signal.collect()
        #expect(c.events == [])
        #expect(input.send(value: 3) == nil)
        #expect(c.events == [.value(3)])
        out.cancel()
    }

    /// Values sent while subscribed arrive synchronously (on `.direct`), exactly once, in order.
    @Test(arguments: DeliveryVariant.allCases)
    func valuesArriveSynchronouslyInOrder(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        for i in 0..<200 {
            #expect(input.send(value: i) == nil)
            #expect(c.count == i + 1)
        }
        #expect(c.events == (0..<200).map { .value($0) })
        out.cancel()
    }

    /// `complete()` delivers `.complete` once; afterwards every send and end is refused with
    /// `.disconnected` and nothing more reaches the handler; the output reports closed.
    @Test(arguments: DeliveryVariant.allCases)
    func completeEndsTheStream(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        #expect(input.send(value: 1) == nil)
        #expect(out.isClosed == false)
        #expect(input.complete() == nil)
        #expect(c.events == [.value(1), .complete])
        #expect(out.isClosed)
        #expect(input.send(value: 2) == .disconnected)
        #expect(input.send(result: .success(3)) == .disconnected)
        #expect(input.complete() == .disconnected)
        #expect(input.send(end: .other(CoreError.boom)) == .disconnected)
        input.cancel()
        #expect(c.events == [.value(1), .complete])
    }

    /// An error end reaches the handler as `.other(error)`; `send(result:)` carries values and ends.
    @Test(arguments: DeliveryVariant.allCases)
    func errorEndAndSendResult(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        #expect(input.send(result: .success(1)) == nil)
        #expect(input.send(result: .failure(.other(CoreError.boom))) == nil)
        #expect(input.send(result: .success(2)) == .disconnected)
        #expect(c.events == [.value(1), .boom])
        if case .failure(let e)? = c.results.last {
            #expect(e.otherError as? CoreError == .boom)
        } else {
            Issue.record("no end")
        }
        out.cancel()
    }

    /// An end sent while nothing is subscribed is refused as `.inactive` but kept: later sends
    /// are `.disconnected`, and the first subscriber receives the end at once.
    @Test(arguments: DeliveryVariant.allCases)
    func endSentWhileInactiveIsKeptForFirstSubscriber(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        #expect(input.complete() == .inactive)
        #expect(input.send(value: 1) == .disconnected)
        let (c, out) = signal.collect()
        #expect(c.events == [.complete])
        #expect(out.isClosed)
        #expect(input.send(value: 2) == .disconnected)
        #expect(c.events == [.complete])
    }

    /// Releasing the last reference to a `SignalInput` delivers `.cancelled`.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingInputSendsCancelled(_ variant: DeliveryVariant) {
        var (input, signal): (SignalInput<Int>?, Signal<Int>) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        #expect(input?.send(value: 1) == nil)
        input = nil
        #expect(c.events == [.value(1), .cancelled])
        #expect(out.isClosed)
    }

    /// An input released before anything subscribed leaves `.cancelled` for the first subscriber.
    @Test(arguments: DeliveryVariant.allCases)
    func releasingInputWhileInactiveCancelsFirstSubscriber(_ variant: DeliveryVariant) {
        var (input, signal): (SignalInput<Int>?, Signal<Int>) = Signal<Int>.create(delivery: variant)
        #expect(input != nil)
        input = nil
        let (c, out) = signal.collect()
        #expect(c.events == [.cancelled])
        out.cancel()
    }

    /// `SignalInput.cancel()` delivers `.cancelled`; later sends are `.disconnected`.
    @Test(arguments: DeliveryVariant.allCases)
    func cancellingInputSendsCancelled(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c, out) = signal.collect()
        #expect(input.send(value: 7) == nil)
        input.cancel()
        input.cancel()
        #expect(c.events == [.value(7), .cancelled])
        #expect(input.send(value: 8) == .disconnected)
        out.cancel()
    }

    /// Subscribing a plain `Signal` twice: the second handler gets
    /// `.failure(.other(SignalBindError.duplicate))` before `subscribe` returns, never connects,
    /// and the first subscription is unaffected.
    @Test(arguments: DeliveryVariant.allCases)
    func duplicateSubscribeFailsAtOnce(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let (c1, out1) = signal.collect()
        let (c2, out2) = signal.collect()
        #expect(c2.events == [.duplicate])
        if case .failure(.other(let e))? = c2.results.first {
            #expect(e as? SignalBindError == .duplicate)
        } else {
            Issue.record("second subscriber did not get .other(duplicate)")
        }
        #expect(out2.isClosed)
        #expect(input.send(value: 1) == nil)
        #expect(c1.events == [.value(1)])
        #expect(c2.events == [.duplicate])
        out1.cancel()
        out2.cancel()
    }

    /// Transforming a plain `Signal` takes its output too: subscribing it afterwards, or
    /// transforming it a second time, yields the duplicate error; the first chain still works.
    @Test(arguments: DeliveryVariant.allCases)
    func transformTakesTheSingleOutput(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let doubled = signal.map { $0 * 2 }
        let (cDirect, outDirect) = signal.collect()
        let (cSecondMap, outSecondMap) = signal.map { $0 * 3 }.collect()
        #expect(cDirect.events == [.duplicate])
        #expect(cSecondMap.events == [.duplicate])
        let (c, out) = doubled.collect()
        #expect(input.send(value: 5) == nil)
        #expect(c.events == [.value(10)])
        #expect(cDirect.events == [.duplicate])
        #expect(cSecondMap.events == [.duplicate])
        out.cancel()
        outDirect.cancel()
        outSecondMap.cancel()
    }

    /// `subscribeValues` gets the values only, never the end.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeValuesIgnoresTheEnd(_ variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let c = Recorder<Int>()
        let out = signal.subscribeValues(c.valueHandler)
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        #expect(c.events == [.value(1), .value(2)])
        #expect(out.isClosed)
    }

    /// `create(delivery:compose:)` returns the input and whatever `compose` made of the signal;
    /// the composed graph keeps the variant.
    @Test(arguments: DeliveryVariant.allCases)
    func createWithCompose(_ variant: DeliveryVariant) {
        let (input, composed) = Signal<Int>.create(delivery: variant) { $0.map { $0 + 100 } }
        #expect(composed.delivery == variant)
        let (c, out) = composed.collect()
        input.send(value: 1)
        #expect(c.events == [.value(101)])
        out.cancel()

        struct Failure: Error {}
        #expect(throws: Failure.self) {
            _ = try Signal<Int>.create(delivery: variant) { (_: Signal<Int>) throws -> Int in throw Failure() }
        }
    }

    /// Every derived signal inherits its graph's delivery variant.
    @Test(arguments: DeliveryVariant.allCases)
    func derivedSignalsInheritTheVariant(_ variant: DeliveryVariant) {
        let (_, signal) = Signal<Int>.create(delivery: variant)
        #expect(signal.delivery == variant)
        let mapped = signal.map { $0 }
        #expect(mapped.delivery == variant)
        let multi = mapped.continuous()
        #expect(multi.delivery == variant)
        #expect(multi.filter { _ in true }.delivery == variant)
        #expect(Signal<Int>.generate(delivery: variant) { _ in }.delivery == variant)
        #expect(Signal<Int>.createMergedInput(delivery: variant).signal.delivery == variant)
    }

    /// The small helpers on `SignalEnd` and `Result<_, SignalEnd>`.
    @Test func endAndResultHelpers() {
        #expect(SignalEnd.complete.isComplete)
        #expect(!SignalEnd.complete.isCancelled)
        #expect(SignalEnd.complete.otherError == nil)
        #expect(SignalEnd.cancelled.isCancelled)
        #expect(!SignalEnd.cancelled.isComplete)
        #expect(SignalEnd.other(CoreError.boom).otherError as? CoreError == .boom)
        #expect(!SignalEnd.other(CoreError.boom).isComplete)
        let v: Result<Int, SignalEnd> = .success(3)
        let e: Result<Int, SignalEnd> = .failure(.complete)
        #expect(v.value == 3)
        #expect(v.end == nil)
        #expect(e.value == nil)
        #expect(e.end?.isComplete == true)
        #expect(DeliveryVariant.allCases == [.lockFree, .mutex])
    }
}
