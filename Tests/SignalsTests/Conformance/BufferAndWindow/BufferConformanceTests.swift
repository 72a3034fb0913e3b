#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/buffer-spec.ts (packages/rxjs/test/ported/cold/operators/buffer.spec.ts), ported.
//
// RxJS's `buffer({ delay: () => b, emitEmpty: true, … })` is `buffer(boundary: b)`; `EMPTY`
// and `NEVER` are `Signal.empty`/`Signal.never`; a `ColdObservable` that errors as it is
// subscribed is `Signal.preclosed(end:)`. The second of two cases with the same name has
// " (second case)" after it.
//
// The "should be equivalent" cases compare two signals on one clock (RxJS's `toEqual`,
// `expectSignal(a).toEqual(b)`): `buffer(boundary: b)` against `window(boundary: b)` with each
// window collected whole (`w[buffer]({ emitEmpty: true })`, with no notifier, is `toArray()`;
// `mergeMap` is `flatMap`).
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

@Suite("buffer(boundary:) — rxjs spec/operators/buffer-spec.ts")
struct BufferConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should emit buffers that close and reopen", arguments: variants) func shouldEmitBuffersThatCloseAndReopen(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = m.hot("   -a-b-c-d-e-f-g-h-i-|")
                let b = m.hot("   -----B-----B-----B-|")
                let expected = "-----x-----y-----z-(F|)"
                let expectedValues: [Character: [String]] = [
                    "x": ["a", "b", "c"],
                    "y": ["d", "e", "f"],
                    "z": ["g", "h", "i"],
                    "F": [],
                ]
                m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues)
            }
        }
    }

    @Test("should emit a final buffer if the closingNotifier is already complete", arguments: variants) func shouldEmitAFinalBufferIfTheClosingNotifierIsAlreadyComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("   -a-b-c-d-e-f-g-h-i-|")
            let b = m.hot("   -----B-----B--|")
            let expected = "-----x-----y-------(F|)"
            let expectedValues: [Character: [String]] = [
                "x": ["a", "b", "c"],
                "y": ["d", "e", "f"],
                "F": ["g", "h", "i"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues)
        }
    }

    @Test("should emit all buffered values if the source completes before the closingNotifier does", arguments: variants) func shouldEmitAllBufferedValuesIfTheSourceCompletesBeforeTheClosingNotifierDoes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = m.hot("---^---a---b---c---d---e--f----|")
            let sourceSubs = "   ^---------------------------!"
            let closer = m.hot("---^-------------B----------------")
            let closerSubs = "   ^---------------------------!"
            let expected = "     --------------x-------------(F|)"
            let result = source.signal.buffer(boundary: closer.signal)
            let expectedValues: [Character: [String]] = [
                "x": ["a", "b", "c"],
                "F": ["d", "e", "f"],
            ]
            m.expectSignal(result).toBe(expected, values: expectedValues)
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubs)
            m.expectSubscriptions(closer.subscriptions).toBe(closerSubs)
        }
    }

    @Test("should work with empty and empty selector", arguments: variants) func shouldWorkWithEmptyAndEmptySelector(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = Signal<String>.empty(delivery: variant)
                let b = Signal<String>.empty(delivery: variant)
                let expected = "(F|)"
                m.expectSignal(a.buffer(boundary: b)).toBe(expected, values: ["F": []])
            }
        }
    }

    @Test("should work with empty and non-empty selector", arguments: variants) func shouldWorkWithEmptyAndNonEmptySelector(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = Signal<String>.empty(delivery: variant)
                let b = m.hot("-----a-----")
                let expected = "(F|)"
                m.expectSignal(a.buffer(boundary: b.signal)).toBe(expected, values: ["F": []])
            }
        }
    }

    @Test("should work with non-empty and empty selector", arguments: variants) func shouldWorkWithNonEmptyAndEmptySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let b = Signal<String>.empty(delivery: variant)
            let expected = "     --------------------------------(F|)"
            m.expectSignal(a.signal.buffer(boundary: b)).toBe(expected, values: [
                "F": ["3", "4", "5", "6", "7", "8", "9", "0"],
            ])
        }
    }

    @Test("should work with never and never selector", arguments: variants) func shouldWorkWithNeverAndNeverSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = Signal<String>.never(delivery: variant)
            let b = Signal<String>.never(delivery: variant)
            let expected = "-"
            m.expectSignal(a.buffer(boundary: b), unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should work with never and empty selector", arguments: variants) func shouldWorkWithNeverAndEmptySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = Signal<String>.never(delivery: variant)
            let b = Signal<String>.empty(delivery: variant)
            let expected = "-"
            m.expectSignal(a.buffer(boundary: b), unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should work with empty and never selector", arguments: variants) func shouldWorkWithEmptyAndNeverSelector(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = Signal<String>.empty(delivery: variant)
                let b = Signal<String>.never(delivery: variant)
                let expected = "(F|)"
                m.expectSignal(a.buffer(boundary: b)).toBe(expected, values: ["F": []])
            }
        }
    }

    @Test("should work with non-empty and throw selector", arguments: variants) func shouldWorkWithNonEmptyAndThrowSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("---^--a--")
            // RxJS's ColdObservable that errors as it is subscribed.
            let b = Signal<String>.preclosed(end: .other(MarbleError("too bad")), delivery: variant)
            let expected = "#"
            m.expectSignal(a.signal.buffer(boundary: b)).toBe(expected, error: MarbleError("too bad"))
        }
    }

    @Test("should work with throw and non-empty selector", arguments: variants) func shouldWorkWithThrowAndNonEmptySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = Signal<String>.preclosed(end: .other(MarbleError("too bad")), delivery: variant)
            let b = m.hot("---^--a--")
            let expected = "#"
            m.expectSignal(a.buffer(boundary: b.signal)).toBe(expected, error: MarbleError("too bad"))
        }
    }

    @Test("should work with error", arguments: variants) func shouldWorkWithError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("---^-------#", error: MarbleError("too bad"))
            let b = m.hot("---^--------")
            let expected = "--------#"
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, error: MarbleError("too bad"))
        }
    }

    @Test("should work with error and non-empty selector", arguments: variants) func shouldWorkWithErrorAndNonEmptySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("---^-------#", error: MarbleError("too bad"))
            let b = m.hot("---^---a----")
            let expected = "----a---#"
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: ["a": []], error: MarbleError("too bad"))
        }
    }

    @Test("should work with selector", arguments: variants) func shouldWorkWithSelector(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
                let b = m.hot("--------^--a-------b---cd---------e---f---|")
                let expected = "     ---a-------b---cd---------e---f-(F|)"
                let expectedValues: [Character: [String]] = [
                    "a": ["3"],
                    "b": ["4", "5"],
                    "c": ["6"],
                    "d": [],
                    "e": ["7", "8", "9"],
                    "f": ["0"],
                    "F": [],
                ]
                m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues)
            }
        }
    }

    @Test("should work with selector completed", arguments: variants) func shouldWorkWithSelectorCompleted(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let subs = "         ^-------------------------------!"
            let b = m.hot("--------^--a-------b---cd|               ")
            let expected = "     ---a-------b---cd---------------(F|)"
            let expectedValues: [Character: [String]] = [
                "a": ["3"],
                "b": ["4", "5"],
                "c": ["6"],
                "d": [],
                "F": ["7", "8", "9", "0"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues)
            m.expectSubscriptions(a.subscriptions).toBe(subs)
        }
    }

    @Test("should allow unsubscribing the result Observable early", arguments: variants) func shouldAllowUnsubscribingTheResultObservableEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let unsub = "        --------------!                  "
            let subs = "         ^-------------!                  "
            let b = m.hot("--------^--a-------b---cd|               ")
            let expected = "     ---a-------b---                  "
            let expectedValues: [Character: [String]] = [
                "a": ["3"],
                "b": ["4", "5"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal), unsubscription: unsub).toBe(expected, values: expectedValues)
            m.expectSubscriptions(a.subscriptions).toBe(subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let subs = "         ^-------------!                  "
            let b = m.hot("--------^--a-------b---cd|               ")
            let expected = "     ---a-------b---                  "
            let unsub = "        --------------!                  "
            let expectedValues: [Character: [String]] = [
                "a": ["3"],
                "b": ["4", "5"],
            ]
            let result = a.signal.flatMap { Signal.just($0, delivery: variant) }
                .buffer(boundary: b.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: expectedValues)
            m.expectSubscriptions(a.subscriptions).toBe(subs)
        }
    }

    @Test("should work with non-empty and selector error", arguments: variants) func shouldWorkWithNonEmptyAndSelectorError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            // RxJS's values give only "3" (a number); "1" and "2" come before the subscription.
            let a = m.hot("--1--2--^--3-----#", values: ["1": 1, "2": 2, "3": 3], error: MarbleError("too bad"))
            let subs = "         ^--------!"
            let b = m.hot("--------^--a--b---")
            let expected = "     ---a--b--#"
            let expectedValues: [Character: [Int]] = [
                "a": [3],
                "b": [],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues, error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(subs)
        }
    }

    @Test("should work with non-empty and empty selector error", arguments: variants) func shouldWorkWithNonEmptyAndEmptySelectorError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let b = m.hot("--------^----------------#", error: MarbleError("too bad"))
            let expected = "     -----------------#"
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, error: MarbleError("too bad"))
        }
    }

    @Test("should work with non-empty and selector error (second case)", arguments: variants) func shouldWorkWithNonEmptyAndSelectorErrorSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let obj: [Character: Bool] = ["a": true, "b": true, "c": true]
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let subs = "         ^----------------!"
            let b = m.hot("--------^--a-------b---c-#", values: obj, error: MarbleError("too bad"))
            let expected = "     ---a-------b---c-#"
            let expectedValues: [Character: [String]] = [
                "a": ["3"],
                "b": ["4", "5"],
                "c": ["6"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal)).toBe(expected, values: expectedValues, error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(subs)
        }
    }

    @Test("should unsubscribe notifier when source unsubscribed", arguments: variants) func shouldUnsubscribeNotifierWhenSourceUnsubscribed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|")
            let unsub = "        --------------!                  "
            let subs = "         ^-------------!                  "
            let b = m.hot("--------^--a-------b---cd|               ")
            let bsubs = "        ^-------------!                  "
            let expected = "     ---a-------b---                  "
            let expectedValues: [Character: [String]] = [
                "a": ["3"],
                "b": ["4", "5"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal), unsubscription: unsub).toBe(expected, values: expectedValues)
            m.expectSubscriptions(a.subscriptions).toBe(subs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should unsubscribe notifier when source unsubscribed (second case)", arguments: variants) func shouldUnsubscribeNotifierWhenSourceUnsubscribedSecondCase(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let a = m.hot("   -a-b-c-d-e-f-g-h-i-|")
            let b = m.hot("   -----1-----2-----3-|")
            let bsubs = "   ^----!"
            let expected = "-----(x|)"
            let expectedValues: [Character: [String]] = [
                "x": ["a", "b", "c"],
            ]
            m.expectSignal(a.signal.buffer(boundary: b.signal).take(1)).toBe(expected, values: expectedValues)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    /// `a.buffer(boundary: b)` against `a.window(boundary: b)` with each window collected
    /// whole: the RxJS spec's two routes to the same buffers.
    static func expectEquivalent(_ m: MarbleTest, source: String, notifier: String) {
        let a = m.hot(source)
        let b = m.hot(notifier)
        m.expectSignal(a.signal.buffer(boundary: b.signal)).toEqual(
            a.signal.window(boundary: b.signal).flatMap { $0.toArray() }
        )
    }

    @Test("should be equivalent for case 0", arguments: variants) func shouldBeEquivalentForCase0(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = "   -a-b-c-d-e-f-g-h-i-|"
                let notifier = " -----B-----B-----B-|"
                Self.expectEquivalent(m, source: source, notifier: notifier)
            }
        }
    }

    @Test("should be equivalent for case 1", arguments: variants) func shouldBeEquivalentForCase1(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = "   -a-b-c-d-e-f-g-h-i-|"
            let notifier = " -----B-----B--|     "
            Self.expectEquivalent(m, source: source, notifier: notifier)
        }
    }

    @Test("should be equivalent for case 2", arguments: variants) func shouldBeEquivalentForCase2(_ variant: DeliveryVariant) {
        withKnownDifference(.bufferEmitsOnlyNonEmptyAtEnd, shownBy: .diagram) {
            marbleTest(variant) { m in
                let source = "   -a-b-c-d-e---------|"
                let notifier = " -----B-----B-----B-|"
                Self.expectEquivalent(m, source: source, notifier: notifier)
            }
        }
    }

    @Test("should be equivalent for case 3", arguments: variants) func shouldBeEquivalentForCase3(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let source = "   -a-b-c-d-e-f-g-h-i-|"
            let notifier = " -------------------|"
            Self.expectEquivalent(m, source: source, notifier: notifier)
        }
    }
}

#endif
