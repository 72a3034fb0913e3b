#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/filter-spec.ts, ported.
//
// Not ported (JavaScript only):
// - "should filter in only prime numbers, predicate with index", "should filter in only prime
//   numbers, predicate with index, source unsubscribes early", "should filter in only prime
//   numbers, predicate with index, source throws": the predicate's `index` argument (Signals:
//   `enumerated()`).
// - "should support Boolean as a predicate": JavaScript truthiness (`filter(Boolean)`).
// - "should filter in only prime numbers, predicate with index and throws": the predicate's
//   `index` argument.
// Not written (a form Signals lacks): none.

@Suite("filter — rxjs spec/operators/filter-spec.ts")
struct FilterConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Sendable static func isOdd(_ x: String) -> Bool { Int(x)! % 2 == 1 }

    @Sendable static func isPrime(_ x: String) -> Bool {
        let i = Int(x)!
        if i <= 1 { return false }
        var j = 2
        while j * j <= i {
            if i % j == 0 { return false }
            j += 1
        }
        return true
    }

    @Test("should filter out even values", arguments: variants) func shouldFilterOutEvenValues(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --0--1--2--3--4--|")
            let e1subs = "    ^----------------!"
            let expected = "  -----1-----3-----|"
            m.expectSignal(e1.signal.filter(Self.isOdd)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter in only prime numbers", arguments: variants) func shouldFilterInOnlyPrimeNumbers(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       --3---5----7-------|"
            m.expectSignal(e1.signal.filter(Self.isPrime)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter with an always-true predicate", arguments: variants) func shouldFilterWithAnAlwaysTruePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       --3-4-5-6--7-8--9--|"
            m.expectSignal(e1.signal.filter { _ in true }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter with an always-false predicate", arguments: variants) func shouldFilterWithAnAlwaysFalsePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       -------------------|"
            m.expectSignal(e1.signal.filter { _ in false }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter in only prime numbers, source unsubscribes early", arguments: variants) func shouldFilterInOnlyPrimeNumbersSourceUnsubscribesEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^-----------!       "
            let expected = "       --3---5----7-       "
            let unsub = "          ------------!       "
            m.expectSignal(e1.signal.filter(Self.isPrime), unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter in only prime numbers, source throws", arguments: variants) func shouldFilterInOnlyPrimeNumbersSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--#")
            let e1subs = "         ^------------------!"
            let expected = "       --3---5----7-------#"
            m.expectSignal(e1.signal.filter(Self.isPrime)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should invoke predicate once for each checked value", arguments: variants) func shouldInvokePredicateOnceForEachCheckedValue(_ variant: DeliveryVariant) {
        let invoked = Collected<String>()
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       --3---5----7-------|"
            m.expectSignal(e1.signal.filter { invoked.append($0); return Self.isPrime($0) }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
        #expect(invoked.all.count == 7)
    }

    @Test("should compose with another filter to allow multiples of six", arguments: variants) func shouldComposeWithAnotherFilterToAllowMultiplesOfSix(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       --------6----------|"
            m.expectSignal(e1.signal.filter { Int($0)! % 2 == 0 }.filter { Int($0)! % 3 == 0 }).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be able to use closed-over predicates", arguments: variants) func shouldBeAbleToUseClosedOverPredicates(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       --------6----------|"
            struct Filterer {
                let filter1: @Sendable (String) -> Bool = { Int($0)! % 2 == 0 }
                let filter2: @Sendable (String) -> Bool = { Int($0)! % 3 == 0 }
            }
            let f = Filterer()
            m.expectSignal(e1.signal.filter(f.filter1).filter(f.filter2).filter(f.filter1)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should be able to use filter and map composed", arguments: variants) func shouldBeAbleToUseFilterAndMapComposed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^------------------!"
            let expected = "       ----a---b----c-----|"
            let result = e1.signal.filter { Int($0)! % 2 == 0 }.map { Int($0)! * Int($0)! }
            m.expectSignal(result).toBe(expected, values: ["a": 16, "b": 36, "c": 64])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should propagate errors from the source", arguments: variants) func shouldPropagateErrorsFromTheSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --0--1--2--3--4--#")
            let e1subs = "    ^----------------!"
            let expected = "  -----1-----3-----#"
            m.expectSignal(e1.signal.filter(Self.isOdd)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle empty", arguments: variants) func shouldHandleEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |   ")
            let e1subs = "    (^!)"
            let expected = "  |   "
            m.expectSignal(e1.signal.filter(Self.isOdd)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle never", arguments: variants) func shouldHandleNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "  ^!"
            let expected = "  -"
            m.expectSignal(e1.signal.filter(Self.isOdd), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle throw", arguments: variants) func shouldHandleThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #   ")
            let e1subs = "    (^!)"
            let expected = "  #   "
            m.expectSignal(e1.signal.filter(Self.isOdd)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs = "         ^-----------!       "
            let expected = "       --3---5----7-       "
            let unsub = "          ------------!       "
            let result = e1.signal
                .flatMap { Signal.just($0, delivery: variant) }
                .filter(Self.isPrime)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should filter in only prime numbers, but predicate throws", arguments: variants) func shouldFilterInOnlyPrimeNumbersButPredicateThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|")
            let e1subs =   "       ^-------!           "
            let expected =   "     --3---5-#           "
            let invoked = Mutex(0)
            let predicate = { @Sendable (x: String) throws -> Bool in
                if invoked.withLock({ $0 += 1; return $0 }) == 4 { throw MarbleError("error") }
                return Self.isPrime(x)
            }
            m.expectSignal(e1.signal.filter(predicate)).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }
}

#endif
