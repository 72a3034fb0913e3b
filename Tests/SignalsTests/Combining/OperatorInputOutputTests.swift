import Signals
import Testing

/// An operator that takes its inputs' single outputs (`merge`, `combine`/`combineLatest`,
/// the multis) holds them only while its node exists: refused because one input is taken, it
/// gives back the others (the library loses nothing on misuse); released unused, it frees them
/// all. CwlSignal: the inputs' handlers go with the operator's processor.
@Suite struct OperatorInputOutputTests {
    /// `merge` with a taken input is `.duplicate`, and its other inputs stay free.
    @Test(arguments: DeliveryVariant.allCases)
    func refusedMergeGivesBackItsOtherInputs(_ variant: DeliveryVariant) {
        let (a, sigA) = Signal<Int>.create(delivery: variant)
        let (b, sigB) = Signal<Int>.create(delivery: variant)
        let (takenInput, taken) = Signal<Int>.create(delivery: variant)
        let (_, takenOut) = taken.collect()
        let (refused, refusedOut) = sigA.merge(with: sigB, taken).collect()
        #expect(refused.events == [.error("duplicate")])
        let (c, out) = sigA.merge(with: sigB).collect()
        #expect(a.send(value: 1) == nil)
        #expect(b.send(value: 2) == nil)
        #expect(c.events == [.value(1), .value(2)], "the inputs before the taken one are still usable")
        out.cancel(); refusedOut.cancel(); takenOut.cancel()
        withExtendedLifetime(takenInput) {}
    }

    /// `combineLatest` with its second input taken is `.duplicate`, and its first is free.
    @Test(arguments: DeliveryVariant.allCases)
    func refusedCombineGivesBackItsFirstInput(_ variant: DeliveryVariant) {
        let (a, sigA) = Signal<Int>.create(delivery: variant)
        let (takenInput, taken) = Signal<String>.create(delivery: variant)
        let (_, takenOut) = taken.collect()
        defer { withExtendedLifetime(takenInput) {} }
        let (refused, refusedOut) = sigA.combineLatest(taken) { "\($0)\($1)" }.collect()
        #expect(refused.events == [.error("duplicate")])
        let (c, out) = sigA.collect()
        #expect(a.send(value: 1) == nil)
        #expect(c.events == [.value(1)])
        out.cancel(); refusedOut.cancel(); takenOut.cancel()
    }

    /// A combined signal or a multi released without a subscriber frees its inputs.
    @Test(arguments: DeliveryVariant.allCases)
    func releasedOperatorFreesItsInputs(_ variant: DeliveryVariant) {
        let (a, sigA) = Signal<Int>.create(delivery: variant)
        let (b, sigB) = Signal<Int>.create(delivery: variant)
        defer { withExtendedLifetime(b) {} }
        do { _ = sigA.combineLatest(sigB) { $0 + $1 } }
        do { _ = sigA.merge(with: sigB) }
        do { _ = sigA.multicast() }
        let (c, out) = sigA.collect()
        #expect(a.send(value: 1) == nil)
        #expect(c.events == [.value(1)])
        out.cancel()
    }
}
