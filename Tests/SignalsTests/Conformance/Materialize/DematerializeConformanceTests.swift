#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/dematerialize-spec.ts, ported.

// RxJS's notifications are Signals' `Result<T, SignalEnd>`: `createNext(v)` is `.success(v)`,
// `createComplete()` is `.failure(.complete)`, `createError(e)` is `.failure(.other(e))`.

@Suite("dematerialize — rxjs spec/operators/dematerialize-spec.ts")
struct DematerializeConformanceTests {
    static let variants = DeliveryVariant.allCases
    typealias Note = Result<String, SignalEnd>
    static let none = [Character: Note]()

    @Test("should dematerialize an Observable", arguments: variants) func shouldDematerializeAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: String] = ["a": "{x}", "b": "{y}", "c": "{z}", "d": "|"]
            let e1 = m.hot("  --a--b--c--d-|", values: values)
            let e1subs =   "  ^----------!  "
            let expected =   "--x--y--z--|  "
            let result = e1.signal
                .map { x -> Note in x == "|" ? .failure(.complete) : .success(x.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")) }
                .dematerialize()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize a happy stream", arguments: variants) func shouldDematerializeAHappyStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Note] = ["a": .success("w"), "b": .success("x"), "c": .success("y"), "d": .failure(.complete)]
            let e1 = m.hot("  --a--b--c--d--|", values: values)
            let e1subs =   "  ^----------!   "
            let expected =   "--w--x--y--|   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize a sad stream", arguments: variants) func shouldDematerializeASadStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let values: [Character: Note] = ["a": .success("w"), "b": .success("x"), "c": .success("y"), "d": .failure(.other(MarbleError("error")))]
            let e1 = m.hot("  --a--b--c--d--|", values: values)
            let e1subs =   "  ^----------!   "
            let expected =   "--w--x--y--#   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize stream does not completes", arguments: variants) func shouldDematerializeStreamDoesNotCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("------", values: Self.none)
            let e1subs =   "^-----!"
            let expected =   "                           -"
            m.expectSignal(e1.signal.dematerialize(), unsubscription: "^-----!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize stream never completes", arguments: variants) func shouldDematerializeStreamNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("-", values: Self.none)
            let e1subs =   "^!"
            let expected =   "                            -"
            m.expectSignal(e1.signal.dematerialize(), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize stream does not emit", arguments: variants) func shouldDematerializeStreamDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("----|", values: Self.none)
            let e1subs =   "                             ^---!"
            let expected =   "                           ----|"
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize empty stream", arguments: variants) func shouldDematerializeEmptyStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("|   ", values: Self.none)
            let e1subs =   "                              (^!)"
            let expected =   "                            |   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize stream throws", arguments: variants) func shouldDematerializeStreamThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  (x|)", values: ["x": Note.failure(.other(MarbleError("error")))])
            let e1subs =   "  (^!)"
            let expected =   "#   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected, error: MarbleError("error"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            // "c" and "d" (RxJS: undefined) come after the unsubscription.
            let values: [Character: Note] = ["a": .success("w"), "b": .success("x"), "c": .success("?"), "d": .success("?")]
            let e1 = m.hot("  --a--b--c--d--|", values: values)
            let e1subs =   "  ^------!       "
            let expected =   "--w--x--       "
            let unsub =   "   -------!       "
            let result = e1.signal.dematerialize()
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            // "c" and "d" (RxJS: undefined) come after the unsubscription.
            let values: [Character: Note] = ["a": .success("w"), "b": .success("x"), "c": .success("?"), "d": .success("?")]
            let e1 = m.hot("  --a--b--c--d--|", values: values)
            let e1subs =   "  ^------!       "
            let expected =   "--w--x--       "
            let unsub =   "   -------!       "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.dematerialize().flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize and completes when stream completes with complete notification", arguments: variants) func shouldDematerializeAndCompletesWhenStreamCompletesWithCompleteNotification(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----(a|)", values: ["a": Note.failure(.complete)])
            let e1subs =   "  ^---!   "
            let expected =   "----|   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should dematerialize and completes when stream emits complete notification", arguments: variants) func shouldDematerializeAndCompletesWhenStreamEmitsCompleteNotification(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a--|", values: ["a": Note.failure(.complete)])
            let e1subs =   "  ^---!   "
            let expected =   "----|   "
            m.expectSignal(e1.signal.dematerialize()).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should work with materialize", arguments: variants) func shouldWorkWithMaterialize(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----a--b---c---d---e----f--|")
            let e1subs =   "  ^--------------------------!"
            let expected =   "----a--b---c---d---e----f--|"
            let result = e1.signal.materialize().dematerialize()
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
