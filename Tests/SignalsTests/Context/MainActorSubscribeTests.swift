import Dispatch
import Foundation
import Signals
import Testing

// This target is compiled in Swift 6 language mode (swift-tools-version 6.1 makes it the
// default), so every closure below is checked for actor isolation and Sendable captures: a
// `@MainActor` class assigning its own properties from a handler compiles only because the
// `on: .main` overloads take a `@MainActor` handler. None of this file uses `assumeIsolated`.

/// A view model as an app writes it: main-actor isolated, plain stored properties, not
/// `Sendable` by hand.
@MainActor
final class CounterViewModel {
    var title = ""
    var received: [Int] = []
    var ended: SignalEnd?
    var onMainQueue = true
    var outputs: [any Lifetime] = []

    func watch(_ counts: Signal<Int>) {
        outputs.append(counts.subscribeValues(on: .main) { value in
            self.onMainQueue = self.onMainQueue && DispatchQueue.getSpecific(key: mainQueueMark) == true
            self.received.append(value)
        })
    }

    func watchResults(_ counts: Signal<Int>) {
        outputs.append(counts.subscribe(on: .main) { result in
            switch result {
            case .success(let v): self.received.append(v)
            case .failure(let end): self.ended = end
            }
        })
    }

    func showTitles(_ titles: Signal<String>) {
        outputs.append(titles.bind(to: self, \.title))
    }
}

/// Marks the main queue so a handler can tell it runs there. (On Linux, once the test runner
/// hands the main queue to Dispatch, a Dispatch thread drains it, not the process's first
/// thread, so `Thread.isMainThread` says nothing about the main actor.)
let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Waits (suspending, so the main actor keeps draining the main queue) until `done` holds or
/// 10 s pass. A liveness bound, not a timing assertion: the caller then checks the state.
@MainActor
func waitOnMain(_ done: @MainActor () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(10)
    while !done() && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

@Suite("Main-actor subscribing", .tags(.startsThreads))
@MainActor
struct MainActorSubscribeTests {
    /// A fresh model watching a fresh graph's values (`watch`) or results (`watchResults`).
    func watchedModel(_ variant: DeliveryVariant, results: Bool = false) -> (CounterViewModel, SignalInput<Int>) {
        let model = CounterViewModel()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        if results { model.watchResults(signal) } else { model.watch(signal) }
        return (model, input)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func viewModelAssignsItsOwnPropertiesFromAHandler(variant: DeliveryVariant) async {
        let (model, input) = watchedModel(variant)
        // Sent from a thread that is not the main thread; delivered on the main actor.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                for i in 1...100 { input.send(value: i) }
                done.resume()
            }
        }
        await waitOnMain { model.received.count == 100 }
        #expect(model.received == Array(1...100))
        #expect(model.onMainQueue)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func resultsHandlerSeesTheEnd(variant: DeliveryVariant) async {
        let (model, input) = watchedModel(variant, results: true)
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        await waitOnMain { model.ended != nil }
        #expect(model.received == [1, 2])
        #expect({ if case .complete? = model.ended { true } else { false } }())
    }

    @Test(arguments: DeliveryVariant.allCases)
    func bindAssignsAKeyPath(variant: DeliveryVariant) async {
        let model = CounterViewModel()
        let (input, signal) = Signal<String>.create(delivery: variant)
        model.showTitles(signal)
        input.send(value: "Signing in…")
        input.send(value: "Signed in")
        await waitOnMain { model.title == "Signed in" }
        #expect(model.title == "Signed in")
    }

    @Test(arguments: DeliveryVariant.allCases)
    func bindHoldsTheObjectWeakly(variant: DeliveryVariant) async {
        var model: CounterViewModel? = CounterViewModel()
        weak let weakModel = model
        let (input, signal) = Signal<String>.create(delivery: variant)
        // The output lives outside the model, so only the binding could keep it alive.
        let output = signal.bind(to: model!, \.title)
        model = nil
        #expect(weakModel == nil)
        // Values after the object is gone are dropped, and delivery goes on.
        #expect(input.send(value: "late") == nil)
        let (probe, probeInput) = watchedModel(variant)
        probeInput.send(value: 1)
        await waitOnMain { probe.received == [1] }
        #expect(probe.received == [1])
        withExtendedLifetime(output) {}
    }

    @Test(arguments: DeliveryVariant.allCases)
    func releasingTheOutputsStopsDelivery(variant: DeliveryVariant) async {
        let (model, input) = watchedModel(variant)
        input.send(value: 1)
        await waitOnMain { model.received == [1] }
        model.outputs.removeAll()
        #expect(input.send(value: 2) != nil)    // nothing is subscribed any more
        #expect(model.received == [1])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func captureThenSubscribeOnMain(variant: DeliveryVariant) async {
        let model = CounterViewModel()
        let (input, signal) = Signal<Int>.create(delivery: variant)
        let multi = signal.continuous(initialValue: 1)
        let capture = multi.capture()               // the current value, synchronously
        model.received = capture.values
        input.send(value: 2)                        // held until the capture is subscribed
        model.outputs.append(capture.subscribeValues(on: .main) { model.received.append($0) })
        input.send(value: 3)
        await waitOnMain { model.received.count == 3 }
        #expect(model.received == [1, 2, 3])
    }
}
