import Dispatch
import Signals
import Synchronization
import Testing

/// Races on a junction's `rebind()` and on a reconnector: a race inside the library never
/// reaches the downstream as an end.
@Suite(.tags(.startsThreads)) struct JunctionConcurrencyTests {
    static let variants = DeliveryVariant.allCases

    /// Two threads calling `rebind()` at once on a bound junction: the downstream stays open
    /// and the junction stays bound (values still flow).
    @Test(arguments: variants) func concurrentRebindsKeepTheDownstreamOpen(_ v: DeliveryVariant) {
        let source = KeptInputSource(v)
        let junction = source.signal.junction()
        let (input, signal) = Signal<Int>.create(delivery: v)
        let (c, out) = signal.collect()
        #expect(junction.bind(to: input) == nil)
        #expect(raceRounds(threads: 2, rounds: 3_000, between: { _ in c.ends.isEmpty }) { _, _ in junction.rebind() })
        #expect(c.ends.isEmpty, "ended with \(c.ends)")
        #expect(source.input?.send(value: 42) == nil)
        #expect(c.values.last == 42)
        withExtendedLifetime(out) {}
    }

    /// Two `disconnect()` calls racing a `reconnect()`: the next `reconnect()` connects, and
    /// only `cancel()` ends the downstream.
    @Test(arguments: variants) func reconnectorDisconnectsRacingReconnect(_ v: DeliveryVariant) {
        let source = KeptInputSource(v)
        let (reconnector, signal) = source.signal.reconnector()
        let (c, out) = signal.collect()
        var n = 0
        let finished = raceRounds(threads: 3, rounds: 5_000, between: { _ in
            reconnector.reconnect()
            n += 1
            return source.input?.send(value: n) == nil && c.ends.isEmpty
        }) { k, _ in if k == 0 { reconnector.reconnect() } else { reconnector.disconnect() } }
        #expect(finished)
        #expect(c.ends.isEmpty, "ended with \(c.ends)")
        #expect(c.values == Array(1...n))
        reconnector.cancel()
        #expect(c.events.last == .cancelled)
        withExtendedLifetime(out) {}
    }
}
