#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/skipWhile-spec.ts, ported.

// Not ported (JavaScript only):
// - "should skip all elements with a truthy predicate", "should not skip any elements with a
//   falsy predicate": JavaScript truthiness.
// - "should be possible to skip using the element's index", "should skip using index with
//   source unsubscribes early", "should not break unsubscription chains when result is
//   unsubscribed explicitly": the predicate's `index` argument.
// Not written (a form Signals lacks): none.

@Suite("skipWhile — rxjs spec/operators/skipWhile-spec.ts")
struct SkipWhileConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should skip all elements until predicate is false", arguments: variants) func shouldSkipAllElementsUntilPredicateIsFalse(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-^2--3--4--5--6--|")
            let sourceSubs =   "   ^---------------!"
            let expected =   "     -------4--5--6--|"
            let predicate: @Sendable (String) -> Bool = { Int($0)! < 4 }
            let result = source.signal.skipWhile(predicate)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should skip all elements with a true predicate", arguments: variants) func shouldSkipAllElementsWithATruePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-^2--3--4--5--6--|")
            let sourceSubs =   "   ^---------------!"
            let expected =   "     ----------------|"
            let result = source.signal.skipWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should not skip any element with a false predicate", arguments: variants) func shouldNotSkipAnyElementWithAFalsePredicate(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("-1-^2--3--4--5--6--|")
            let sourceSubs =   "   ^---------------!"
            let expected =   "     -2--3--4--5--6--|"
            let result = source.signal.skipWhile { _ in false }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should skip elements on hot source", arguments: variants) func shouldSkipElementsOnHotSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--1--2-^-3--4--5--6--7--8--")
            let sourceSubs =   "^-------------------!"
            let expected =   "         --------5--6--7--8--"
            let predicate: @Sendable (String) -> Bool = { Int($0)! < 5 }
            let result = source.signal.skipWhile(predicate)
            m.expectSignal(result, unsubscription: "^-------------------!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should skip using value with source throws", arguments: variants) func shouldSkipUsingValueWithSourceThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b-^-c--d--e--f--g--h--#")
            let sourceSubs =   "       ^-------------------!"
            let expected =   "         -----d--e--f--g--h--#"
            let predicate: @Sendable (String) -> Bool = { $0 != "d" }
            let result = source.signal.skipWhile(predicate)
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }

    @Test("should invoke predicate while its false and never again", arguments: variants) func shouldInvokePredicateWhileItsFalseAndNeverAgain(_ variant: DeliveryVariant) {
        let invoked = Collected<String>()
        marbleTest(variant) { m in
            let source = m.hot("--a--b-^-c--d--e--f--g--h--|")
            let sourceSubs =   "       ^-------------------!"
            let expected =   "         --------e--f--g--h--|"
            let predicate: @Sendable (String) -> Bool = { invoked.append($0); return $0 != "e" }
            m.expectSignal(source.signal.skipWhile(predicate)).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
        #expect(invoked.all.count == 3)
    }

    @Test("should handle Observable.empty", arguments: variants) func shouldHandleObservableEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("|   ")
            let subs =   "       (^!)"
            let expected =   "   |   "
            let result = source.signal.skipWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle Observable.never", arguments: variants) func shouldHandleObservableNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("-")
            let subs =   "^!"
            let expected =   "   -"
            let result = source.signal.skipWhile { _ in true }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle Observable.throw", arguments: variants) func shouldHandleObservableThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.cold("#   ")
            let subs =   "       (^!)"
            let expected =   "   #   "
            let result = source.signal.skipWhile { _ in true }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(source.subscriptions).toBe(subs)
        }
    }

    @Test("should handle predicate that throws", arguments: variants) func shouldHandlePredicateThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("--a--b-^-c--d--e--f--g--h--|")
            let sourceSubs =   "       ^-------!            "
            let expected =   "         --------#            "
            let predicate = { @Sendable (v: String) throws -> Bool in
                if v == "e" { throw MarbleError("nom d'une pipe !") }
                return v != "f"
            }
            let result = source.signal.skipWhile(predicate)
            m.expectSignal(result).toBe(expected, error: MarbleError("nom d'une pipe !"))
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
        }
    }
}

#endif
