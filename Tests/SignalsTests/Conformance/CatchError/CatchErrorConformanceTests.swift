#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/catchError-spec.ts (packages/rxjs/test/ported/cold/operators/catch-error.spec.ts), ported.
//
// A throwing `map` is the overload on `throws`; `ColdObservable.from([…])` is
// `Signal.from(_:delivery:)`.
//
// Not ported (JavaScript only):
// - "should unsubscribe from a caught cold caught interop observable when unsubscribed
//   explicitly": a JavaScript Proxy posing as a foreign library's observable.
// - "should catch errors throw from within the constructor": an exception thrown by the
//   subscribe function of `new Observable` (a `generate` closure does not throw).
// Not written (a form Signals lacks): none.
//
// `catchError((err, caught) => …)` re-subscribes the source by returning `caught`; a Signals
// signal has one output, so the source is re-run by a factory: `return caught` is
// `Signal.retry(when:_:)` (a trigger that fires at once), a throw from the handler is a throw
// from its `shouldRetry`, and `{ source }` is the factory. `catchError`'s doc comment says why
// there is no `caught` argument.

@Suite("catchError — rxjs spec/operators/catchError-spec.ts")
struct CatchErrorConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should catch error and replace with a cold Observable", arguments: variants) func shouldCatchErrorAndReplaceWithAColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#       ")
            let e2 = m.cold("         -1-2-3-|")
            let expected =   "--a--b---1-2-3-|"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result).toBe(expected)
        }
    }

    @Test("should catch error and replace it with Observable.of()", arguments: variants) func shouldCatchErrorAndReplaceItWithObservableOf(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c--------|")
            let subs =   "    ^-------!"
            let expected =   "--a--b--(XYZ|)"
            let result = e1.signal.map { n throws -> String in
                if n == "c" { throw MarbleError("bad") }
                return n
            }.catchError { _ in Signal.from(["X", "Y", "Z"], delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should catch error and replace it with a cold Observable", arguments: variants) func shouldCatchErrorAndReplaceItWithAColdObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#          ")
            let e1subs =   "  ^-------!          "
            let e2 = m.cold("         1-2-3-4-5-|")
            let e2subs =   "  --------^---------!"
            let expected =   "--a--b--1-2-3-4-5-|"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should allow unsubscribing explicitly and early", arguments: variants) func shouldAllowUnsubscribingExplicitlyAndEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --1-2-3-4-5-6---#")
            let e1subs =   "  ^------!         "
            let expected =   "--1-2-3-         "
            let unsub =   "   -------!         "
            let result = e1.signal.catchError { _ in Signal.from(["X", "Y", "Z"], delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --1-2-3-4-5-6---#")
            let e1subs =   "  ^------!         "
            let expected =   "--1-2-3-         "
            let unsub =   "   -------!         "
            let result = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .catchError { _ in Signal.from(["X", "Y", "Z"], delivery: variant) }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should unsubscribe from a caught hot caught observable when unsubscribed explicitly", arguments: variants) func shouldUnsubscribeFromACaughtHotCaughtObservableWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -1-2-3-#          ")
            let e1subs =   "  ^------!          "
            let e2 = m.hot("  ---3-4-5-6-7-8-9-|")
            let e2subs =   "  -------^----!     "
            let expected =   "-1-2-3-5-6-7-     "
            let unsub =   "   ------------!     "
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should unsubscribe from a caught cold caught observable when unsubscribed explicitly", arguments: variants) func shouldUnsubscribeFromACaughtColdCaughtObservableWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -1-2-3-#          ")
            let e1subs =   "  ^------!          "
            let e2 = m.cold("        5-6-7-8-9-|")
            let e2subs =   "  -------^----!     "
            let expected =   "-1-2-3-5-6-7-     "
            let unsub =   "   ------------!     "
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result, unsubscription: unsub).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should catch error and replace it with a hot Observable", arguments: variants) func shouldCatchErrorAndReplaceItWithAHotObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#          ")
            let e1subs =   "  ^-------!          "
            let e2 = m.hot("  1-2-3-4-5-6-7-8-9-|")
            let e2subs =   "  --------^---------!"
            let expected =   "--a--b--5-6-7-8-9-|"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should catch and allow the cold observable to be repeated with the third (caught) argument", arguments: variants) func shouldCatchAndAllowTheColdObservableToBeRepeatedWithTheThirdCaughtArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold("--a--b--c--------|       ")
            let subs = [
                "               ^-------!                ",
                "              --------^-------!         ",
                "              ----------------^-------! ",
            ]
            let expected = "--a--b----a--b----a--b--#"
            let result = Signal.retry(when: { (_: any Error, retry: Int) throws -> Signal<Void>? in
                if retry == 3 { throw MarbleError("done") }
                return Signal<Void>.just((), delivery: variant)
            }) {
                e1.signal.map { n throws -> String in
                    if n == "c" { throw MarbleError("bad") }
                    return n
                }
            }
            m.expectSignal(result).toBe(expected, error: MarbleError("done"))
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should catch and allow the hot observable to proceed with the third (caught) argument", arguments: variants) func shouldCatchAndAllowTheHotObservableToProceedWithTheThirdCaughtArgument(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--c----d---|")
            let subs = [
                "               ^-------!         ",
                "              --------^--------! ",
            ]
            let expected = "--a--b-------d---|"
            let result = Signal.retry(when: { (_: any Error, retry: Int) throws -> Signal<Void>? in
                if retry == 3 { throw MarbleError("done") }
                return Signal<Void>.just((), delivery: variant)
            }) {
                e1.signal.map { n throws -> String in
                    if n == "c" { throw MarbleError("bad") }
                    return n
                }
            }
            m.expectSignal(result).toBe(expected, error: MarbleError("done"))
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should catch and replace a Observable.throw() as the source", arguments: variants) func shouldCatchAndReplaceAObservableThrowAsTheSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" #")
            let subs =   "    (^!)"
            let expected =   "(abc|)"
            let result = e1.signal.catchError { _ in Signal.from(["a", "b", "c"], delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should mirror the source if it does not raise errors", arguments: variants) func shouldMirrorTheSourceIfItDoesNotRaiseErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.cold(" --a--b--c--|")
            let subs =   "    ^----------!"
            let expected =   "--a--b--c--|"
            let result = e1.signal.catchError { _ in Signal.from(["x", "y", "z"], delivery: variant) }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(subs)
        }
    }

    @Test("should complete if you return Observable.empty()", arguments: variants) func shouldCompleteIfYouReturnObservableEmpty(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let e2 = m.cold("         |")
            let e2subs =   "  --------(^!)"
            let expected =   "--a--b--|"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should raise error if you return Observable.throw()", arguments: variants) func shouldRaiseErrorIfYouReturnObservableThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let e2 = m.cold("         #")
            let e2subs =   "  --------(^!)"
            let expected =   "--a--b--#"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should never terminate if you return NEVER", arguments: variants) func shouldNeverTerminateIfYouReturnNEVER(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let e1 = m.hot("  --a--b--#")
            let e1subs =   "  ^-------!"
            let e2 = m.cold("         -")
            let e2subs =   "--------^!"
            let expected =   "--a--b---"
            let result = e1.signal.catchError { _ in e2.signal }
            m.expectSignal(result, unsubscription: "^--------!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

}

#endif
