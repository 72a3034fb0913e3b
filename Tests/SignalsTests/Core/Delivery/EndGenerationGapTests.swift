#if DEBUG
import Signals
import Synchronization
import Testing

/// The end that marks the send the gap hook acts on (other tests' ends pass untouched).
struct GapMarker: Error {}

/// A stale end of a `generate` source must not close the queue a rebind reopened, nor reach
/// the new binding's chain. The window between the end's status change and its delivery is
/// a few instructions wide, so luck does not find it: `EndDeliveryGap` runs a disconnect and
/// a new bind exactly there (debug builds: release builds have no hooks to install).
/// Serialized: the hook is global.
@Suite(.serialized) struct EndGenerationGapTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func staleEndDoesNotCloseTheReopenedQueue(_ v: DeliveryVariant) {
        let source = KeptInputSource(v)
        let junction = source.signal.junction()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (c, out) = signal.collect()
        #expect(junction.bind(to: input) == nil)
        guard let old = source.input else {
            Issue.record("the source was not activated")
            return
        }
        #expect(old.send(value: 1) == nil)
        let rebound = Shared<Bool?>(nil)
        EndDeliveryGap.install { end in
            guard case .other(let e) = end, e is GapMarker else { return }
            EndDeliveryGap.install(nil)
            _ = junction.disconnect()
            rebound.value = junction.bind(to: input) == nil
        }
        defer { EndDeliveryGap.install(nil) }
        #expect(old.send(end: .other(GapMarker())) == nil)
        #expect(rebound.value == true, "the hook ran and the junction bound again")
        #expect(source.activations == 2)
        #expect(source.input?.send(value: 2) == nil, "the new activation's input is open")
        #expect(c.events == [.value(1), .value(2)])
        withExtendedLifetime((out, junction)) {}
    }
}
#endif
