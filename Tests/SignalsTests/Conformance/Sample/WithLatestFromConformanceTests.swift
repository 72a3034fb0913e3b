#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/withLatestFrom-spec.ts (packages/rxjs/test/ported/cold/operators/with-latest-from.spec.ts), ported.
//
// Signals' `withLatestFrom` takes one other signal; RxJS's `withLatestFrom([e2, e3])` is
// `withLatestFrom(e2.combineLatest(e3) { [$0, $1] })` (`latest(_:_:)` below): the pair has a
// value once both have sent one and keeps it after either completes, as RxJS's other inputs do.
// RxJS's default projection (an array) is `{ [$0] + $1 }`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("withLatestFrom — rxjs spec/operators/withLatestFrom-spec.ts")
struct WithLatestFromConformanceTests {
    static let variants = DeliveryVariant.allCases

    /// The latest values of `a` and `b` together, once both have sent one.
    static func latest(_ a: Signal<String>, _ b: Signal<String>) -> Signal<[String]> {
        a.combineLatest(b) { [$0, $1] }
    }

    @Test("should combine events from cold observables", arguments: variants) func shouldCombineEventsFromColdObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold(" --1--2-3-4---|   ")
            let e2subs = "  ^------------!   "
            let e1 = m.cold(" -a--b-----c-d-e-|")
            let e1subs = "  ^---------------!"
            let expected = "----B-----C-D-E-|"
            let result = e1.signal.withLatestFrom(e2.signal) { a, b in String(a) + String(b) }
            m.expectSignal(result).toBe(expected, values: ["B": "b1", "C": "c4", "D": "d4", "E": "e4"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should merge the value with the latest values from the other observables into arrays", arguments: variants) func shouldMergeTheValueWithTheLatestValuesFromTheOtherObservablesIntoArrays(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h------|")
            let e2subs = "       ^-------------!   "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^-------------!   "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^-------------!   "
            let expected = "     ----x---y---z-|   "
            let values: [Character: [String]] = [
                "x": ["b", "f", "j"],
                "y": ["c", "g", "k"],
                "z": ["d", "h", "l"],
            ]
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should merge the value with the latest values from the other observables into arrays and a project argument", arguments: variants) func shouldMergeTheValueWithTheLatestValuesFromTheOtherObservablesIntoArraysAndAProjectArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h------|")
            let e2subs = "       ^-------------!   "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^-------------!   "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^-------------!   "
            let expected = "     ----x---y---z-|   "
            let values: [Character: String] = [
                "x": "bfj",
                "y": "cgk",
                "z": "dhl",
            ]
            let project = { @Sendable (a: String, b: String, c: String) in a + b + c }
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { project($0, $1[0], $1[1]) }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h------|")
            let e2subs = "       ^----------!      "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^----------!      "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^----------!      "
            let expected = "     ----x---y---      "
            let unsub = "        -----------!      "
            let values: [Character: String] = [
                "x": "bfj",
                "y": "cgk",
                "z": "dhl",
            ]
            let project = { @Sendable (a: String, b: String, c: String) in a + b + c }
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { project($0, $1[0], $1[1]) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should not break unsubscription chains when result is unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenResultIsUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h------|")
            let e2subs = "       ^----------!      "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^----------!      "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^----------!      "
            let expected = "     ----x---y---      "
            let unsub = "        -----------!      "
            let values: [Character: String] = [
                "x": "bfj",
                "y": "cgk",
                "z": "dhl",
            ]
            let project = { @Sendable (a: String, b: String, c: String) in a + b + c }
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .withLatestFrom(Self.latest(e2.signal, e3.signal)) { project($0, $1[0], $1[1]) }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h----|")
            let e2subs = "       (^!)            "
            let e3 = m.hot("  --i--^-j---k---l----|")
            let e3subs = "       (^!)            "
            let e1 = m.cold("      |               ")
            let e1subs = "       (^!)            "
            let expected = "     |               " // empty
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("   --e--^-f---g---h----|  ")
            let e2subs = "        ^--------------!  "
            let e3 = m.hot("   --i--^-j---k---l----|  ")
            let e3subs = "        ^--------------!  "
            let e1 = m.cold("        -                ")
            let e1subs = "^-------------------!"
            let expected = "    --------------------" // never
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result, unsubscription: "^-------------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h----|")
            let e2subs = "       (^!)            "
            let e3 = m.hot("  --i--^-j---k---l----|")
            let e3subs = "       (^!)            "
            let e1 = m.cold("      #               ")
            let e1subs = "       (^!)            "
            let expected = "     #               " // throw
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle error", arguments: variants) func shouldHandleError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h----|")
            let e2subs = "       ^-------!       "
            let e3 = m.hot("  --i--^-j---k---l----|")
            let e3subs = "       ^-------!       "
            let e1 = m.hot("  --a--^---b---#       ", error: MarbleError("boo-hoo"))
            let e1subs = "       ^-------!       "
            let expected = "     ----x---#       " // throw
            let values: [Character: [String]] = [
                "x": ["b", "f", "j"],
            ]
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected, values: values, error: MarbleError("boo-hoo"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle error with project argument", arguments: variants) func shouldHandleErrorWithProjectArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.hot("  --e--^-f---g---h----|")
            let e2subs = "       ^-------!       "
            let e3 = m.hot("  --i--^-j---k---l----|")
            let e3subs = "       ^-------!       "
            let e1 = m.hot("  --a--^---b---#       ", error: MarbleError("boo-hoo"))
            let e1subs = "       ^-------!       "
            let expected = "     ----x---#       " // throw
            let values: [Character: String] = [
                "x": "bfj",
            ]
            let project = { @Sendable (a: String, b: String, c: String) in a + b + c }
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { project($0, $1[0], $1[1]) }
            m.expectSignal(result).toBe(expected, values: values, error: MarbleError("boo-hoo"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle merging with empty", arguments: variants) func shouldHandleMergingWithEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("      |                 ")
            let e2subs = "       (^!)              "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^-------------!   "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^-------------!   "
            let expected = "     --------------|   "
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should handle merging with never", arguments: variants) func shouldHandleMergingWithNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e2 = m.cold("      -                 ")
            let e2subs = "       ^-------------!   "
            let e3 = m.hot("  --i--^-j---k---l------|")
            let e3subs = "       ^-------------!   "
            let e1 = m.hot("  --a--^---b---c---d-|   ")
            let e1subs = "       ^-------------!   "
            let expected = "     --------------|   "
            let result = e1.signal.withLatestFrom(Self.latest(e2.signal, e3.signal)) { [$0] + $1 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }
}

#endif
