import Signals
import Testing

/// CwlSignal's channel builders, on both variants.
@Suite struct ChannelPortTests {
    @Test(arguments: DeliveryVariant.allCases) func channelComposesAndSubscribes(_ v: DeliveryVariant) {
        let seen = Collected<String>()
        let (input, output) = Signal<Int>.channel(delivery: v)
            .map { $0 * 2 }
            .filter { $0 != 4 }
            .next { $0.map { "v\($0)" } }
            .subscribeValues { seen.append($0) }
        for x in [1, 2, 3] { input.send(value: x) }
        #expect(seen.all == ["v2", "v6"])
        output.cancel()
        #expect(input.send(value: 4) == .inactive)
    }

    @Test(arguments: DeliveryVariant.allCases) func channelEndsAndMultis(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.channel(delivery: v).continuous().tuple
        input.send(value: 5)
        #expect(Recorder(multi).values == [5])
        _ = Signal<Int>.channel(delivery: v).playback().multicast().tuple

        let results = Collected<String>()
        let whileInput = Signal<Int>.channel(delivery: v).subscribeWhile { r in
            results.append(r.value.map { "\($0)" } ?? "end")
            return r.value != 2
        }
        whileInput.send(value: 1)
        whileInput.send(value: 2)
        #expect(whileInput.send(value: 3) == .inactive)
        let untilEnd = Signal<Int>.channel(delivery: v).subscribeUntilEnd { r in results.append(r.value.map { "u\($0)" } ?? "end") }
        untilEnd.send(value: 7)
        untilEnd.complete()
        #expect(results.all == ["1", "2", "u7", "end"])
    }

    @Test(arguments: DeliveryVariant.allCases) func mergedChannel(_ v: DeliveryVariant) {
        let seen = Collected<Int>()
        let (merged, out2) = Signal<Int>.mergedChannel(delivery: v).subscribeValues { seen.append($0) }
        let (a, sa) = Signal<Int>.create(delivery: v)
        merged.add(sa)
        a.send(value: 3)
        merged.send(value: 4)
        #expect(seen.all == [3, 4])
        withExtendedLifetime(out2) {}
    }
}
