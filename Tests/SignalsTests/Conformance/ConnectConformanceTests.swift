#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/connect-spec.ts (packages/rxjs/test/ported/cold/operators/connect.spec.ts), ported.
//
// `connect(selector)` shares the source within the selector, per subscription: a multi made
// per subscription (`Signal.deferred`) and given to the selector (docs/operators.md,
// "Conformance"). The default connector (a Subject) is `multicast()`; a BehaviorSubject
// connector is `continuous(initialValue:)`. `merge([a, b])` is `a.merge(with: b)`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("multicast() (connect) — rxjs spec/operators/connect-spec.ts")
struct ConnectConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should connect a source through a selector function", arguments: variants) func shouldConnectASourceThroughASelectorFunction(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("---a----b-----c---|")
                let d = m.time("        ---|")
                let expected = "     ---a--a-b--b--c--c|"
                let context = m.context
                let result = Signal<String>.deferred {
                    let shared = source.signal.multicast()
                    return shared.delay(interval: d, context: context).merge(with: shared)
                }
                m.expectSignal(result).toBe(expected)
            }
        }
    }

    @Test("should connect a source through a selector function and use the provided connector", arguments: variants) func shouldConnectASourceThroughASelectorFunctionAndUseTheProvidedConnector(_ variant: DeliveryVariant) {
        withKnownDifference(.delayDelaysCompletion, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = m.cold("--------a---------b---------c-----|")
                let d = m.time("             ---|")
                let expected = "     S--S----a--a------b--b------c--c--|"
                let context = m.context
                let result = Signal<String>.deferred {
                    let shared = source.signal.continuous(initialValue: "S")
                    return shared.delay(interval: d, context: context).merge(with: shared)
                }
                m.expectSignal(result).toBe(expected)
            }
        }
    }
}

#endif
