#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/takeWhile-spec.ts, ported.

// Not ported (JavaScript only):
// - "should take all elements with truthy predicate", "should skip all elements with falsy
//   predicate": JavaScript truthiness (the predicate returns `{}` / `null`).
// - "should pass element index to predicate": the predicate's `index` argument.
// Not written (a form Signals lacks): none.

@Suite("takeWhile — rxjs spec/operators/takeWhile-spec.ts")
struct TakeWhileConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should take all elements until predicate is false", arguments: variants) func shouldTakeAllElementsUntilPredicateIsFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1-^2--3--4--5--6--|")
            let e1subs =   "   ^------!         "
            let expected =   " -2--3--|         "
            let result = e1.signal.takeWhile { Int($0)! < 4 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take all elements with predicate returns true", arguments: variants) func shouldTakeAllElementsWithPredicateReturnsTrue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-------------!"
            let expected =   "  --b--c--d--e--|"
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should skip all elements with predicate returns false", arguments: variants) func shouldSkipAllElementsWithPredicateReturnsFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-!            "
            let expected =   "  --|            "
            let result = e1.signal.takeWhile { _ in false }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take all elements until predicate return false", arguments: variants) func shouldTakeAllElementsUntilPredicateReturnFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-------!      "
            let expected =   "  --b--c--|      "
            let predicate: @Sendable (String) -> Bool = { $0 != "d" }
            let result = e1.signal.takeWhile(predicate)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take elements with predicate when source does not complete", arguments: variants) func shouldTakeElementsWithPredicateWhenSourceDoesNotComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--")
            let e1subs =   "^-------------!"
            let expected =   "  --b--c--d--e--"
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result, unsubscription: "^-------------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not complete when source never completes", arguments: variants) func shouldNotCompleteWhenSourceNeverCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs =   "^!"
            let expected =   "-"
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source does not emit", arguments: variants) func shouldCompleteWhenSourceDoesNotEmit(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^------------|")
            let e1subs =   "    ^------------!"
            let expected =   "  -------------|"
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete when source is empty", arguments: variants) func shouldCompleteWhenSourceIsEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs =   "  (^!)"
            let expected =   "|   "
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source raises error", arguments: variants) func shouldRaiseErrorWhenSourceRaisesError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--#")
            let e1subs =   "    ^-------------!"
            let expected =   "  --b--c--d--e--#"
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error when source throws", arguments: variants) func shouldRaiseErrorWhenSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs =   "  (^!)"
            let expected =   "#   "
            let result = e1.signal.takeWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should invoke predicate until return false", arguments: variants) func shouldInvokePredicateUntilReturnFalse(_ variant: DeliveryVariant) {
        let invoked = Collected<String>()
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-------!      "
            let expected =   "  --b--c--|      "
            let predicate: @Sendable (String) -> Bool = { invoked.append($0); return $0 != "d" }
            m.expectSignal(e1.signal.takeWhile(predicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
        #expect(invoked.all.count == 3)
    }

    @Test("should take elements until unsubscribed", arguments: variants) func shouldTakeElementsUntilUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let unsub =   "     -----!         "
            let e1subs =   "    ^----!         "
            let expected =   "  --b---         "
            let predicate: @Sendable (String) -> Bool = { $0 != "d" }
            let result = e1.signal.takeWhile(predicate)
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let unsub =   "     -----!         "
            let e1subs =   "    ^----!         "
            let expected =   "  --b---         "
            let predicate: @Sendable (String) -> Bool = { $0 != "d" }
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }.takeWhile(predicate).flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should raise error if predicate throws", arguments: variants) func shouldRaiseErrorIfPredicateThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-!            "
            let expected =   "  --#            "
            let predicate = { @Sendable (_: String) throws -> Bool in throw MarbleError("error") }
            let result = e1.signal.takeWhile(predicate)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should take all elements up to and including the element that made the predicate return false", arguments: variants) func shouldTakeAllElementsUpToAndIncludingTheElementThatMadeThePredicateReturnFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a-^-b--c--d--e--|")
            let e1subs =   "    ^-------!      "
            let expected =   "  --b--c--(d|)   "
            let result = e1.signal.takeWhile(inclusive: true) { $0 != "d" }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
