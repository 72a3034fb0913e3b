#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/combineLatestWith-spec.ts (packages/rxjs/test/ported/cold/operators/combine-latest-with.spec.ts), ported.
//
// Each case runs on both combineLatest forms that take two inputs: the instance
// `a.combineLatest(b) { … }` and `Signal.combineLatest([a, b])` (arrays, mapped).
// "should emit unique array instances with the default projection" compares by value (Swift
// arrays have no identity): the instance form combines into `[x, y]`.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

/// The two ways of writing RxJS's `a.combineLatestWith(b)` in Signals.
enum CombineLatestForm: String, CaseIterable, Sendable {
    /// `a.combineLatest(b) { … }` (and the three-input instance form).
    case instance
    /// `Signal.combineLatest([a, b])`, the array then mapped.
    case array

    func pair<T: Sendable, R: Sendable>(_ a: Signal<T>, _ b: Signal<T>, _ f: @escaping @Sendable (T, T) -> R) -> Signal<R> {
        switch self {
        case .instance: a.combineLatest(b, f)
        case .array: Signal.combineLatest([a, b]).map { f($0[0], $0[1]) }
        }
    }

    func triple<T: Sendable, R: Sendable>(_ a: Signal<T>, _ b: Signal<T>, _ c: Signal<T>, _ f: @escaping @Sendable (T, T, T) -> R) -> Signal<R> {
        switch self {
        case .instance: a.combineLatest(b, c, f)
        case .array: Signal.combineLatest([a, b, c]).map { f($0[0], $0[1], $0[2]) }
        }
    }
}

@Suite("combineLatest — rxjs spec/operators/combineLatestWith-spec.ts")
struct CombineLatestWithConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = CombineLatestForm.allCases

    @Test("should combine events from two cold observables", arguments: variants, forms) func shouldCombineEventsFromTwoColdObservables(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -a--b-----c-d-e-|")
            let e2 = m.cold(" --1--2-3-4---|   ")
            let expected =   "--A-BC-D-EF-G-H-|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: [
                "A": "a1", "B": "b1", "C": "b2", "D": "b3", "E": "b4", "F": "c4", "G": "d4", "H": "e4",
            ])
        }
    }

    @Test("should work with two nevers", arguments: variants, forms) func shouldWorkWithTwoNevers(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "^!"
            let e2 = m.cold(" -")
            let e2subs = "^!"
            let expected = "-"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with never and empty", arguments: variants, forms) func shouldWorkWithNeverAndEmpty(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.cold(" -")
            let e1subs = "^!"
            let e2 = m.cold(" |")
            let e2subs = "  (^!)"
            let expected = "-"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with empty and never", arguments: variants, forms) func shouldWorkWithEmptyAndNever(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs = "  (^!)"
            let e2 = m.cold(" -")
            let e2subs = "^!"
            let expected = "-"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with empty and empty", arguments: variants, forms) func shouldWorkWithEmptyAndEmpty(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.cold(" |")
            let e1subs = "  (^!)"
            let e2 = m.cold(" |")
            let e2subs = "  (^!)"
            let expected = "|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with hot-empty and hot-single", arguments: variants, forms) func shouldWorkWithHotEmptyAndHotSingle(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "r": 1 + 3]
            let e1 = m.hot("-a-^-|", values: values)
            let e1subs = "   ^-!"
            let e2 = m.hot("-b-^-c-|", values: values)
            let e2subs = "   ^---!"
            let expected = " ----|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with hot-single and hot-empty", arguments: variants, forms) func shouldWorkWithHotSingleAndHotEmpty(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
            let e1 = m.hot("-a-^-|", values: values)
            let e1subs = "   ^-!"
            let e2 = m.hot("-b-^-c-|", values: values)
            let e2subs = "   ^---!"
            let expected = " ----|"
            let result = form.pair(e2.signal, e1.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with hot-single and never", arguments: variants, forms) func shouldWorkWithHotSingleAndNever(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1]
            let e1 = m.hot("-a-^-|", values: values)
            let e1subs = "   ^-!"
            let e2 = m.hot("------", values: values) // never
            let e2subs = "^--!"
            let expected = " ---" // never
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: "^--!").toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with never and hot-single", arguments: variants, forms) func shouldWorkWithNeverAndHotSingle(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let values: [Character: Int] = ["a": 1, "b": 2]
            let e1 = m.hot("--------", values: values) // never
            let e1subs = "^----!"
            let e2 = m.hot("-a-^-b-|", values: values)
            let e2subs = "   ^---!"
            let expected = " -----" // never
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: "^----!").toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with hot and hot", arguments: variants, forms) func shouldWorkWithHotAndHot(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--|", values: ["a": "a", "b": "b", "c": "c"])
            let e1subs = "     ^--------!"
            let e2 = m.hot("---e-^---f--g--|", values: ["e": "e", "f": "f", "g": "g"])
            let e2subs = "     ^---------!"
            let expected = "   ----x-yz--|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["x": "bf", "y": "cf", "z": "cg"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with empty and error", arguments: variants, forms) func shouldWorkWithEmptyAndError(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ----------|") // empty
            let e1subs = "  ^-----!"
            let e2 = m.hot("  ------#", error: MarbleError("shazbot!")) // error
            let e2subs = "  ^-----!"
            let expected = "------#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("shazbot!"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with error and empty", arguments: variants, forms) func shouldWorkWithErrorAndEmpty(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--^---#", error: MarbleError("too bad, honk")) // error
            let e1subs = "  ^---!"
            let e2 = m.hot("--^--------|") // empty
            let e2subs = "  ^---!"
            let expected = "----#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("too bad, honk"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with hot and throw", arguments: variants, forms) func shouldWorkWithHotAndThrow(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("-a-^--b--c--|", values: ["a": 1, "b": 2, "c": 3])
            let e1subs = "   ^-!"
            let e2 = m.hot("---^-#", values: [Character: Int](), error: MarbleError("bazinga"))
            let e2subs = "   ^-!"
            let expected = " --#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("bazinga"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with throw and hot", arguments: variants, forms) func shouldWorkWithThrowAndHot(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^-#", values: [Character: Int](), error: MarbleError("bazinga"))
            let e1subs = "   ^-!"
            let e2 = m.hot("-a-^--b--c--|", values: ["a": 1, "b": 2, "c": 3])
            let e2subs = "   ^-!"
            let expected = " --#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("bazinga"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with throw and throw", arguments: variants, forms) func shouldWorkWithThrowAndThrow(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^----#", error: MarbleError("jenga"))
            let e1subs = "   ^-!"
            let e2 = m.hot("---^-#", error: MarbleError("bazinga"))
            let e2subs = "   ^-!"
            let expected = " --#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("bazinga"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with error and throw", arguments: variants, forms) func shouldWorkWithErrorAndThrow(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("-a-^--b--#", values: ["a": 1, "b": 2], error: MarbleError("wokka wokka"))
            let e1subs = "   ^-!"
            let e2 = m.hot("---^-#", values: [Character: Int](), error: MarbleError("flurp"))
            let e2subs = "   ^-!"
            let expected = " --#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("flurp"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with throw and error", arguments: variants, forms) func shouldWorkWithThrowAndError(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^-#", values: [Character: Int](), error: MarbleError("flurp"))
            let e1subs = "   ^-!"
            let e2 = m.hot("-a-^--b--#", values: ["a": 1, "b": 2], error: MarbleError("wokka wokka"))
            let e2subs = "   ^-!"
            let expected = " --#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("flurp"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with never and throw", arguments: variants, forms) func shouldWorkWithNeverAndThrow(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^-----------")
            let e1subs = "   ^-----!"
            let e2 = m.hot("---^-----#", error: MarbleError("wokka wokka"))
            let e2subs = "   ^-----!"
            let expected = " ------#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("wokka wokka"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with throw and never", arguments: variants, forms) func shouldWorkWithThrowAndNever(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^----#", error: MarbleError("wokka wokka"))
            let e1subs = "   ^----!"
            let e2 = m.hot("---^-----------")
            let e2subs = "   ^----!"
            let expected = " -----#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("wokka wokka"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with some and throw", arguments: variants, forms) func shouldWorkWithSomeAndThrow(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("   ---^----a---b--|", values: ["a": 1, "b": 2])
            let e1subs = "      ^--!"
            let e2 = m.hot("   ---^--#", values: [Character: Int](), error: MarbleError("wokka wokka"))
            let e2subs = "      ^--!"
            let expected = "    ---#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["a": 1, "b": 2], error: MarbleError("wokka wokka"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should work with throw and some", arguments: variants, forms) func shouldWorkWithThrowAndSome(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("---^--#", values: [Character: Int](), error: MarbleError("wokka wokka"))
            let e1subs = "   ^--!"
            let e2 = m.hot("---^----a---b--|", values: ["a": 1, "b": 2])
            let e2subs = "   ^--!"
            let expected = " ---#"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["a": 1, "b": 2], error: MarbleError("wokka wokka"))
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle throw after complete left", arguments: variants, forms) func shouldHandleThrowAfterCompleteLeft(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let left = m.hot(" --a--^--b---|", values: ["a": 1, "b": 2])
            let leftSubs = "      ^------!"
            let right = m.hot("-----^--------#", values: [Character: Int](), error: MarbleError("bad things"))
            let rightSubs = "     ^--------!"
            let expected = "      ---------#"
            let result = form.pair(left.signal, right.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("bad things"))
            m.expectSubscriptions(left.subscriptions).toBe(leftSubs)
            m.expectSubscriptions(right.subscriptions).toBe(rightSubs)
        }
    }

    @Test("should handle throw after complete right", arguments: variants, forms) func shouldHandleThrowAfterCompleteRight(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let left = m.hot("  -----^--------#", values: [Character: Int](), error: MarbleError("bad things"))
            let leftSubs = "       ^--------!"
            let right = m.hot(" --a--^--b---|", values: ["a": 1, "b": 2])
            let rightSubs = "      ^------!"
            let expected = "       ---------#"
            let result = form.pair(left.signal, right.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("bad things"))
            m.expectSubscriptions(left.subscriptions).toBe(leftSubs)
            m.expectSubscriptions(right.subscriptions).toBe(rightSubs)
        }
    }

    @Test("should handle interleaved with tail", arguments: variants, forms) func shouldHandleInterleavedWithTail(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("-a--^--b---c---|", values: ["a": "a", "b": "b", "c": "c"])
            let e1subs = "    ^----------!"
            let e2 = m.hot("--d-^----e---f--|", values: ["d": "d", "e": "e", "f": "f"])
            let e2subs = "    ^-----------!"
            let expected = "  -----x-y-z--|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["x": "be", "y": "ce", "z": "cf"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle two consecutive hot observables", arguments: variants, forms) func shouldHandleTwoConsecutiveHotObservables(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c--|", values: ["a": "a", "b": "b", "c": "c"])
            let e1subs = "     ^--------!"
            let e2 = m.hot("-----^----------d--e--f--|", values: ["d": "d", "e": "e", "f": "f"])
            let e2subs = "     ^-------------------!"
            let expected = "   -----------x--y--z--|"
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["x": "cd", "y": "ce", "z": "cf"])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should handle two consecutive hot observables with error left", arguments: variants, forms) func shouldHandleTwoConsecutiveHotObservablesWithErrorLeft(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let left = m.hot(" --a--^--b--c--#", values: ["a": "a", "b": "b", "c": "c"], error: MarbleError("jenga"))
            let leftSubs = "      ^--------!"
            let right = m.hot("-----^----------d--e--f--|", values: ["d": "d", "e": "e", "f": "f"])
            let rightSubs = "     ^--------!"
            let expected = "      ---------#"
            let result = form.pair(left.signal, right.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, error: MarbleError("jenga"))
            m.expectSubscriptions(left.subscriptions).toBe(leftSubs)
            m.expectSubscriptions(right.subscriptions).toBe(rightSubs)
        }
    }

    @Test("should handle two consecutive hot observables with error right", arguments: variants, forms) func shouldHandleTwoConsecutiveHotObservablesWithErrorRight(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let left = m.hot(" --a--^--b--c--|", values: ["a": "a", "b": "b", "c": "c"])
            let leftSubs = "      ^--------!"
            let right = m.hot("-----^----------d--e--f--#", values: ["d": "d", "e": "e", "f": "f"], error: MarbleError("dun dun dun"))
            let rightSubs = "     ^-------------------!"
            let expected = "      -----------x--y--z--#"
            let result = form.pair(left.signal, right.signal) { $0 + $1 }
            m.expectSignal(result).toBe(expected, values: ["x": "cd", "y": "ce", "z": "cf"], error: MarbleError("dun dun dun"))
            m.expectSubscriptions(left.subscriptions).toBe(leftSubs)
            m.expectSubscriptions(right.subscriptions).toBe(rightSubs)
        }
    }

    @Test("should allow unsubscribing early and explicitly", arguments: variants, forms) func shouldAllowUnsubscribingEarlyAndExplicitly(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c---d-| ")
            let e1subs = "     ^--------!    "
            let e2 = m.hot("---e-^---f--g---h-|")
            let e2subs = "     ^--------!    "
            let expected = "   ----x-yz--    "
            let unsub = "      ---------!    "
            let values: [Character: String] = ["x": "bf", "y": "cf", "z": "cg"]
            let result = form.pair(e1.signal, e2.signal) { $0 + $1 }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should not break unsubscription chains when unsubscribed explicitly", arguments: variants, forms) func shouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("--a--^--b--c---d-| ")
            let e1subs = "     ^--------!    "
            let e2 = m.hot("---e-^---f--g---h-|")
            let e2subs = "     ^--------!    "
            let expected = "   ----x-yz--    "
            let unsub = "      ---------!    "
            let values: [Character: String] = ["x": "bf", "y": "cf", "z": "cg"]
            let result = form.pair(e1.signal.flatMap { Signal.just($0, delivery: variant) }, e2.signal) { $0 + $1 }
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(result, unsubscription: unsub).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
        }
    }

    @Test("should emit unique array instances with the default projection", arguments: variants, forms) func shouldEmitUniqueArrayInstancesWithTheDefaultProjection(_ variant: DeliveryVariant, _ form: CombineLatestForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("  -a--b--|")
            let e2 = m.hot("  --1--2-|")
            let expected =   "-------(c|)"
            let result = form.pair(e1.signal, e2.signal) { [$0, $1] }.distinct().count()
            m.expectSignal(result).toBe(expected, values: ["c": 3])
        }
    }
}

#endif
