#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/zipWith-spec.ts (packages/rxjs/test/ported/cold/operators/zip-with.spec.ts), ported.
//
// Each case runs on both zip forms: the instance `a.zip(b)` / `a.zip(b, c)` and
// `Signal.zip([a, b])`. A row is compared as the array of its values' descriptions (a tuple
// is not Equatable, and the array form needs one element type): RxJS's `['1', 4]` is
// `["1", "4"]`. RxJS's iterables (an array, a generator) are `Signal.from(_:)`, a source that
// sends its elements and completes as it is activated, as RxJS reads an iterable.
//
// Not ported (JavaScript only): none.
// Not written (a form Signals lacks): none.

/// The two ways of writing RxJS's `a.zipWith(b)` in Signals; each row is the array of its
/// values' descriptions.
enum ZipForm: String, CaseIterable, Sendable {
    /// `a.zip(b)`, `a.zip(b, c)`: tuples.
    case instance
    /// `Signal.zip([a, b])`: arrays (each input mapped to its descriptions first).
    case array

    func pair<A: Sendable, B: Sendable>(_ a: Signal<A>, _ b: Signal<B>) -> Signal<[String]> {
        switch self {
        case .instance: a.zip(b).map { ["\($0.0)", "\($0.1)"] }
        case .array: Signal.zip([a.map { "\($0)" }, b.map { "\($0)" }])
        }
    }

    func triple<A: Sendable, B: Sendable, C: Sendable>(_ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>) -> Signal<[String]> {
        switch self {
        case .instance: a.zip(b, c).map { ["\($0.0)", "\($0.1)", "\($0.2)"] }
        case .array: Signal.zip([a.map { "\($0)" }, b.map { "\($0)" }, c.map { "\($0)" }])
        }
    }
}

@Suite("zip — rxjs spec/operators/zipWith-spec.ts")
struct ZipWithConformanceTests {
    static let variants = DeliveryVariant.allCases
    static let forms = ZipForm.allCases

    @Test("should combine a source with a second", arguments: variants, forms) func shouldCombineASourceWithASecond(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ---1---2---3-----")
            let asubs = "^-----------------!"
            let b = m.hot("   --4--5--6--7--8--")
            let bsubs = "^-----------------!"
            let expected = "---x---y---z-----"
            m.expectSignal(form.pair(a.signal, b.signal), unsubscription: "^-----------------!").toBe(expected, values: ["x": ["1", "4"], "y": ["2", "5"], "z": ["3", "6"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should end once one observable completes and its buffer is empty", arguments: variants, forms) func shouldEndOnceOneObservableCompletesAndItsBufferIsEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b--c--|               ")
            let e1subs = "  ^-----------!               "
            let e2 = m.hot("  ------d----e----f--------|  ")
            let e2subs = "  ^-----------------!         "
            let e3 = m.hot("  --------h----i----j---------") // doesn't complete
            let e3subs = "  ^-----------------!         "
            let expected = "--------x----y----(z|)      " // e1 complete and buffer empty
            let values: [Character: [String]] = [
                "x": ["a", "d", "h"],
                "y": ["b", "e", "i"],
                "z": ["c", "f", "j"],
            ]
            m.expectSignal(form.triple(e1.signal, e2.signal, e3.signal)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should end once one observable nexts and zips value from completed other observable whose buffer is empty", arguments: variants, forms) func shouldEndOnceOneObservableNextsAndZipsValueFromCompletedOtherObservableWhoseBufferIsEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let e1 = m.hot("  ---a--b--c--|             ")
            let e1subs = "  ^-----------!             "
            let e2 = m.hot("  ------d----e----f|        ")
            let e2subs = "  ^----------------!        "
            let e3 = m.hot("  --------h----i----j-------") // doesn't complete
            let e3subs = "  ^-----------------!       "
            let expected = "--------x----y----(z|)    " // e2 buffer empty and signaled complete
            let values: [Character: [String]] = [
                "x": ["a", "d", "h"],
                "y": ["b", "e", "i"],
                "z": ["c", "f", "j"],
            ]
            m.expectSignal(form.triple(e1.signal, e2.signal, e3.signal)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
            m.expectSubscriptions(e2.subscriptions).toBe(e2subs)
            m.expectSubscriptions(e3.subscriptions).toBe(e3subs)
        }
    }

    @Test("should zip them with values", arguments: variants, forms) func shouldZipThemWithValues(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            // RxJS's generator yielding 0 to 3: a synchronous sequence.
            let myIterator = Signal.from(0..<4, delivery: variant)
            let e1 = m.hot("  ---a---b---c---d---|")
            let e1subs = "  ^--------------!"
            let expected = "---w---x---y---(z|)"
            let values: [Character: [String]] = [
                "w": ["a", "0"],
                "x": ["b", "1"],
                "y": ["c", "2"],
                "z": ["d", "3"],
            ]
            m.expectSignal(form.pair(e1.signal, myIterator)).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should complete instantly for an empty iterable", arguments: variants, forms) func shouldCompleteInstantlyForAnEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -")
            let asubs = "   (^!)"
            let expected = "|"
            let b = Signal<Int>.from([], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with empty observable and empty iterable", arguments: variants, forms) func shouldWorkWithEmptyObservableAndEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let expected = "|"
            let b = Signal<Int>.from([], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with empty observable and non-empty iterable", arguments: variants, forms) func shouldWorkWithEmptyObservableAndNonEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let expected = "|"
            let b = Signal.from([1], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should complete instantly with non-empty observable and empty iterable", arguments: variants, forms) func shouldCompleteInstantlyWithNonEmptyObservableAndEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ---^----a--|")
            let asubs = "      (^!)"
            let b = Signal<Int>.from([], delivery: variant)
            let expected = "   |"
            m.expectSignal(form.pair(a.signal, b)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with never observable and non-empty iterable", arguments: variants, forms) func shouldWorkWithNeverObservableAndNonEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -")
            let asubs = "^!"
            let expected = "-"
            let b = Signal.from([1], delivery: variant)
            m.expectSignal(form.pair(a.signal, b), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with non-empty observable and non-empty iterable", arguments: variants, forms) func shouldWorkWithNonEmptyObservableAndNonEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---^----1--|")
            let asubs = "   ^----!   "
            let expected = "-----(x|)"
            let b = Signal.from([2], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected, values: ["x": ["1", "2"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with observable which raises error and non-empty iterable", arguments: variants, forms) func shouldWorkWithObservableWhichRaisesErrorAndNonEmptyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---^----#")
            let asubs = "   ^----!"
            let expected = "-----#"
            let b = Signal.from([1], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with non-empty many observable and non-empty many iterable", arguments: variants, forms) func shouldWorkWithNonEmptyManyObservableAndNonEmptyManyIterable(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---^--1--2--3--|")
            let asubs = "   ^--------!   "
            let expected = "---x--y--(z|)"
            let b = Signal.from([4, 5, 6], delivery: variant)
            m.expectSignal(form.pair(a.signal, b)).toBe(expected, values: ["x": ["1", "4"], "y": ["2", "5"], "z": ["3", "6"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
        }
    }

    @Test("should work with n-ary symmetric", arguments: variants, forms) func shouldWorkWithNArySymmetric(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---1-^-1----4----|")
            let asubs = "     ^---------!  "
            let b = m.hot("---1-^--2--5----| ")
            let bsubs = "     ^---------!  "
            let c = m.hot("---1-^---3---6-|  ")
            let expected = "  ----x---y-|  "
            m.expectSignal(form.triple(a.signal, b.signal, c.signal)).toBe(expected, values: ["x": ["1", "2", "3"], "y": ["4", "5", "6"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with right completes first", arguments: variants, forms) func shouldWorkWithRightCompletesFirst(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("---1-^-2-----|")
            let asubs = "     ^-----!"
            let b = m.hot("---1-^--3--|")
            let bsubs = "     ^-----!"
            let expected = "  ---x--|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected, values: ["x": ["2", "3"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with two nevers", arguments: variants, forms) func shouldWorkWithTwoNevers(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -")
            let asubs = "^!"
            let b = m.cold("  -")
            let bsubs = "^!"
            let expected = "-"
            m.expectSignal(form.pair(a.signal, b.signal), unsubscription: "^!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with never and empty", arguments: variants, forms) func shouldWorkWithNeverAndEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -")
            let asubs = "   (^!)"
            let b = m.cold("  |")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with empty and never", arguments: variants, forms) func shouldWorkWithEmptyAndNever(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let b = m.cold("  -")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with empty and empty", arguments: variants, forms) func shouldWorkWithEmptyAndEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let b = m.cold("  |")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with empty and non-empty", arguments: variants, forms) func shouldWorkWithEmptyAndNonEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let b = m.hot("   ---1--|")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with non-empty and empty", arguments: variants, forms) func shouldWorkWithNonEmptyAndEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ---1--|")
            let asubs = "   (^!)"
            let b = m.cold("  |")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with never and non-empty", arguments: variants, forms) func shouldWorkWithNeverAndNonEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -")
            let asubs = "^------!"
            let b = m.hot("   ---1--|")
            let bsubs = "   ^-----!"
            let expected = "-"
            m.expectSignal(form.pair(a.signal, b.signal), unsubscription: "^------!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with non-empty and never", arguments: variants, forms) func shouldWorkWithNonEmptyAndNever(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ---1--|")
            let asubs = "   ^-----!"
            let b = m.cold("  -")
            let bsubs = "^------!"
            let expected = "-"
            m.expectSignal(form.pair(a.signal, b.signal), unsubscription: "^------!").toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with empty and error", arguments: variants, forms) func shouldWorkWithEmptyAndError(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  |")
            let asubs = "   (^!)"
            let b = m.hot("   ------#", error: MarbleError("too bad"))
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with error and empty", arguments: variants, forms) func shouldWorkWithErrorAndEmpty(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ------#", error: MarbleError("too bad"))
            let asubs = "   (^!)"
            let b = m.cold("  |")
            let bsubs = "   (^!)"
            let expected = "|"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with error", arguments: variants, forms) func shouldWorkWithError(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ----------|")
            let asubs = "   ^-----!    "
            let b = m.hot("   ------#    ")
            let bsubs = "   ^-----!    "
            let expected = "------#    "
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with never and error", arguments: variants, forms) func shouldWorkWithNeverAndError(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  -------")
            let asubs = "   ^-----!"
            let b = m.hot("   ------#")
            let bsubs = "   ^-----!"
            let expected = "------#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with error and never", arguments: variants, forms) func shouldWorkWithErrorAndNever(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ------#")
            let asubs = "   ^-----!"
            let b = m.cold("  -------")
            let bsubs = "   ^-----!"
            let expected = "------#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with error and error", arguments: variants, forms) func shouldWorkWithErrorAndError(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ------#", error: MarbleError("too bad"))
            let asubs = "   ^-----!"
            let b = m.hot("   ----------#", error: MarbleError("too bad 2"))
            let bsubs = "   ^-----!"
            let expected = "------#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected, error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with two sources that eventually raise errors", arguments: variants, forms) func shouldWorkWithTwoSourcesThatEventuallyRaiseErrors(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   --w-----#----", values: ["w": 1], error: MarbleError("too bad"))
            let asubs = "   ^-------!"
            let b = m.hot("   -----z-----#-", values: ["z": 2], error: MarbleError("too bad 2"))
            let bsubs = "   ^-------!"
            let expected = "-----x--#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected, values: ["x": ["1", "2"]], error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with two sources that eventually raise errors (swapped)", arguments: variants, forms) func shouldWorkWithTwoSourcesThatEventuallyRaiseErrorsSwapped(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   -----z-----#-", values: ["z": 2], error: MarbleError("too bad 2"))
            let asubs = "   ^-------!"
            let b = m.hot("   --w-----#----", values: ["w": 1], error: MarbleError("too bad"))
            let bsubs = "   ^-------!"
            let expected = "-----x--#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected, values: ["x": ["2", "1"]], error: MarbleError("too bad"))
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should work with error and some", arguments: variants, forms) func shouldWorkWithErrorAndSome(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.cold("  #")
            let asubs = "   (^!)"
            let b = m.hot("   --1--2--3--")
            let bsubs = "   (^!)"
            let expected = "#"
            m.expectSignal(form.pair(a.signal, b.signal)).toBe(expected)
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants, forms) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant, _ form: ZipForm) {
        marbleTest(variant) { m in
            let a = m.hot("   ---1---2---3---|")
            let unsub = "   ---------!"
            let asubs = "   ^--------!"
            let b = m.hot("   --4--5--6--7--8--|")
            let bsubs = "   ^--------!"
            let expected = "---x---y--"
            let r = form.pair(a.signal.flatMap { Signal.just($0, delivery: variant) }, b.signal)
                .flatMap { Signal.just($0, delivery: variant) }
            m.expectSignal(r, unsubscription: unsub).toBe(expected, values: ["x": ["1", "4"], "y": ["2", "5"]])
            m.expectSubscriptions(a.subscriptions).toBe(asubs)
            m.expectSubscriptions(b.subscriptions).toBe(bsubs)
        }
    }
}

#endif
