import Dispatch
import Signals
import Synchronization
import Testing

/// The tour of `Signals.docc/GettingStarted.md`, checked. Each test repeats one of its snippets
/// (with `print` replaced by a recorder) and expects what the article says it prints, which is what
/// CwlSignal's article (`../shared/seeds/002_…`) says.
///
/// Three examples check the article's activation rules: caching multis and captures are
/// active at once, and a signal can be subscribed again once its output is gone.
@Suite("README tour")
final class ReadmeTourTests {
    /// What the tour's `print` writes, and its `lifetimes` array (a fresh suite instance
    /// runs each test case, so neither is shared between them).
    let out = Collected<String>()
    var lifetimes: [any Lifetime] = []

    @Test(arguments: DeliveryVariant.allCases)
    func aOneWayChannel(variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        lifetimes += signal.subscribeValues { [out] value in out.append("\(value)") }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(out.all == ["1", "2", "3"])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func instantaneousValues(variant: DeliveryVariant) {
        let (input, output) = Signal<Int>.create(delivery: variant)
        #expect(input.send(value: 1) == .inactive)
        #expect(input.send(value: 2) == .inactive)
        lifetimes += output.subscribeValues { [out] value in out.append("\(value)") }
        #expect(input.send(value: 3) == nil)
        #expect(out.all == ["3"])
    }

    /// The first three lines of the tour's continuous and capture examples: a continuous
    /// multi, then 1 and 2 sent before anything subscribes.
    func continuousAfterOneAndTwo(_ variant: DeliveryVariant) -> (SignalInput<Int>, SignalMulti<Int>) {
        let (input, output) = Signal<Int>.create(delivery: variant) { signal in signal.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        return (input, output)
    }

    @Test(arguments: DeliveryVariant.allCases)
    func continuousValues(variant: DeliveryVariant) {
        let (input, output) = continuousAfterOneAndTwo(variant)
        lifetimes += output.subscribeValues { [out] value in out.append("\(value)") }
        input.send(value: 3)
        #expect(out.all == ["2", "3"])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func capturingActivationValues(variant: DeliveryVariant) {
        let (input, output) = continuousAfterOneAndTwo(variant)
        let capture = output.capture()
        out.append("Activation values: \(capture.values)")
        input.send(value: 3)
        input.send(value: 4)
        lifetimes += capture.subscribeValues { [out] value in out.append("Regular value: \(value)") }
        #expect(out.all == ["Activation values: [2]", "Regular value: 3", "Regular value: 4"])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func lazyGeneration(variant: DeliveryVariant) {
        let output = Signal<Int>.generate(delivery: variant) { input in
            guard let input else { return }
            input.send(value: 1)
            input.send(value: 2)
            input.send(value: 3)
        }
        lifetimes += output.subscribeValues { [out] value in out.append("\(value)") }
        #expect(out.all == ["1", "2", "3"])
    }

    @Test(arguments: DeliveryVariant.allCases)
    func subscribeAgainAfterTheOutputIsGone(variant: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: variant)
        var first: SignalOutput<Int>? = signal.subscribeValues { [out] in out.append("first \($0)") }
        input.send(value: 1)
        first = nil                                   // the output is gone…
        let again = signal.subscribeValues { [out] in out.append("again \($0)") }   // …so this is allowed
        input.send(value: 2)
        #expect(out.all == ["first 1", "again 2"])
        withExtendedLifetime((first, again)) {}
    }
}
