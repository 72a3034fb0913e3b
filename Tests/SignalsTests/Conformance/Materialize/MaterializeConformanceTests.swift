#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/materialize-spec.ts, ported.
//
// Signals' `materialize()` sends `Result<T, SignalEnd>`; `Notification` below is its
// Equatable picture (an error compared by its description), standing for RxJS's
// `Notification.createNext/createComplete/createError`.

@Suite("materialize — rxjs spec/operators/materialize-spec.ts")
struct MaterializeConformanceTests {
    static let variants = DeliveryVariant.allCases

    typealias Notification = MarbleEvent<String>

    static func notification(_ r: Result<String, SignalEnd>) -> Notification {
        switch r {
        case .success(let v): .value(v)
        case .failure(let e): .end(End(e))
        }
    }

    static func next(_ v: String) -> Notification { .value(v) }
    static let complete = Notification.end(.complete)
    static func error(_ e: any Error) -> Notification { .end(End(.other(e))) }

    @Test("should materialize an Observable", arguments: variants) func shouldMaterializeAnObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --x--y--z--|   ")
            let e1subs =   "  ^----------!   "
            let expected =   "--a--b--c--(d|)"
            let values: [Character: String] = ["a": "{x}", "b": "{y}", "c": "{z}", "d": "|"]
            let result = e1.signal.materialize().map { r -> String in
                switch r {
                case .success(let v): "{" + v + "}"
                case .failure: "|"
                }
            }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize a happy stream", arguments: variants) func shouldMaterializeAHappyStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|   ")
            let e1subs =   "  ^----------!   "
            let expected =   "--w--x--y--(z|)"
            let expectedValue: [Character: Notification] = ["w": Self.next("a"), "x": Self.next("b"), "y": Self.next("c"), "z": Self.complete]
            m.expectSignal(e1.signal.materialize().map(Self.notification)).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize a sad stream", arguments: variants) func shouldMaterializeASadStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--#   ")
            let e1subs =   "  ^----------!   "
            let expected =   "--w--x--y--(z|)"
            let expectedValue: [Character: Notification] = [
                "w": Self.next("a"), "x": Self.next("b"), "y": Self.next("c"), "z": Self.error(MarbleError("error")),
            ]
            m.expectSignal(e1.signal.materialize().map(Self.notification)).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "--w--x-     "
            let unsub =   "   ------!     "
            let expectedValue: [Character: Notification] = ["w": Self.next("a"), "x": Self.next("b")]
            m.expectSignal(e1.signal.materialize().map(Self.notification), unsubscription: unsub).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--|")
            let e1subs =   "  ^-----!     "
            let expected =   "--w--x-     "
            let unsub =   "   ------!     "
            let expectedValue: [Character: Notification] = ["w": Self.next("a"), "x": Self.next("b")]
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .materialize()
                .map(Self.notification)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: expectedValue)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize stream that does not complete", arguments: variants) func shouldMaterializeStreamThatDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.materialize().map(Self.notification), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize stream that does not emit", arguments: variants) func shouldMaterializeStreamThatDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----|   ")
            let e1subs =   "  ^---!   "
            let expected =   "----(x|)"
            m.expectSignal(e1.signal.materialize().map(Self.notification)).toBe(expected, values: ["x": Self.complete])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize empty stream", arguments: variants) func shouldMaterializeEmptyStream(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            m.expectSignal(e1.signal.materialize().map(Self.notification)).toBe(expected, values: ["x": Self.complete])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should materialize stream that throws", arguments: variants) func shouldMaterializeStreamThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "(x|)"
            m.expectSignal(e1.signal.materialize().map(Self.notification)).toBe(expected, values: ["x": Self.error(MarbleError("error"))])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
