#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Testing

// RxJS spec/operators/sequenceEqual-spec.ts, ported.

// RxJS's `sequenceEqual(compareTo, comparator)` is `sequenceEqual(_:by:)`.

@Suite("sequenceEqual — rxjs spec/operators/sequenceEqual-spec.ts")
struct SequenceEqualConformanceTests {
    static let variants = DeliveryVariant.allCases

    @Test("should return true for two equal sequences", arguments: variants) func shouldReturnTrueForTwoEqualSequences(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d--e--f--g--|       ")
            let s1subs =   "     ^--------------------!       "
            let s2 = m.hot("-----^-----b--c--d-e-f------g-|   ")
            let s2subs =   "     ^------------------------!   "
            let expected =   "   -------------------------(T|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return false for two sync observables that are unequal in length", arguments: variants) func shouldReturnFalseForTwoSyncObservablesThatAreUnequalInLength(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" (abcdefg|)")
            let s2 = m.cold(" (abc|)    ")
            let expected =   "(F|)      "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
        }
    }

    @Test("should return true for two sync observables that match", arguments: variants) func shouldReturnTrueForTwoSyncObservablesThatMatch(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" (abcdefg|)")
            let s2 = m.cold(" (abcdefg|)")
            let expected =   "(T|)      "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
        }
    }

    @Test("should return true for two observables that match when the last one emits and completes in the same frame", arguments: variants) func shouldReturnTrueForTwoObservablesThatMatchWhenTheLastOneEmitsAndCompletesInTheSameFrame(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d--e--f--g--|       ")
            let s1subs =   "     ^--------------------!       "
            let s2 = m.hot("-----^--b--c--d--e--f--g------|   ")
            let s2subs =   "     ^------------------------!   "
            let expected =   "   -------------------------(T|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return true for two observables that match when the last one emits and completes in the same frame (second case)", arguments: variants) func shouldReturnTrueForTwoObservablesThatMatchWhenTheLastOneEmitsAndCompletesInTheSameFrame2(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d--e--f--g--|       ")
            let s1subs =   "     ^--------------------!       "
            let s2 = m.hot("-----^--b--c--d--e--f---------(g|)")
            let s2subs =   "     ^------------------------!   "
            let expected =   "   -------------------------(T|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should error with an errored source", arguments: variants) func shouldErrorWithAnErroredSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b---c---#  ")
            let s2 = m.hot("--a--^--b---c-----|")
            let expected =   "   -----------#  "
            let sub =   "        ^----------!  "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(sub)
            m.expectSubscriptions(s2.subscriptions).toBe(sub)
        }
    }

    @Test("should error with an errored compareTo", arguments: variants) func shouldErrorWithAnErroredCompareTo(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b---c-----|")
            let s2 = m.hot("--a--^--b---c---#  ")
            let expected =   "   -----------#  "
            let sub =   "        ^----------!  "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(sub)
            m.expectSubscriptions(s2.subscriptions).toBe(sub)
        }
    }

    @Test("should error if the source is a throw", arguments: variants) func shouldErrorIfTheSourceIsAThrow(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let s1 = m.cold(" #            ")
            let s2 = m.cold(" ---a--b--c--|")
            let expected =   "#            "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected)
        }
    }

    @Test("should never return if source is a never", arguments: variants) func shouldNeverReturnIfSourceIsANever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let s1 = m.cold(" ------------")
            let s2 = m.cold(" --a--b--c--|")
            let expected =   "------------"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source, unsubscription: "^-----------!").toBe(expected)
        }
    }

    @Test("should never return if compareTo is a never", arguments: variants) func shouldNeverReturnIfCompareToIsANever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let s1 = m.cold(" --a--b--c--|")
            let s2 = m.cold(" ------------")
            let expected =   "------------"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source, unsubscription: "^-----------!").toBe(expected)
        }
    }

    @Test("should return false if source is empty and compareTo is not", arguments: variants) func shouldReturnFalseIfSourceIsEmptyAndCompareToIsNot(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" |            ")
            let s1subs =   "  (^!)          "
            let s2 = m.cold(" ------a------")
            let s2subs =   "  ^-----!      "
            let expected =   "------(F|)   "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return false if compareTo is empty and source is not", arguments: variants) func shouldReturnFalseIfCompareToIsEmptyAndSourceIsNot(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" ------a------")
            let s2 = m.cold(" |            ")
            let expected =   "------(F|)   "
            let s1subs =   "  ^-----!      "
            let s2subs =   "  (^!)         "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return never if compareTo is empty and source is never", arguments: variants) func shouldReturnNeverIfCompareToIsEmptyAndSourceIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let s1 = m.cold(" -")
            let s2 = m.cold(" |")
            let expected =   "-"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source, unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should return never if source is empty and compareTo is never", arguments: variants) func shouldReturnNeverIfSourceIsEmptyAndCompareToIsNever(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let s1 = m.cold(" |")
            let s2 = m.cold(" -")
            let expected =   "-"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source, unsubscription: "^!").toBe(expected)
        }
    }

    @Test("should return false for two unequal sequences, compareTo finishing last", arguments: variants) func shouldReturnFalseForTwoUnequalSequencesCompareToFinishingLast(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d--e--f--g--|    ")
            let s1subs =   "     ^--------------------!    "
            let s2 = m.hot("-----^-----b--c--d-e-f------z-|")
            let s2subs =   "     ^----------------------!   "
            let expected =   "   -----------------------(F|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return false for two unequal sequences, early wrong value from source", arguments: variants) func shouldReturnFalseForTwoUnequalSequencesEarlyWrongValueFromSource(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c---x-----------|")
            let s1subs =   "     ^---------!            "
            let s2 = m.hot("-----^--b--c--d--e--f--|    ")
            let s2subs =   "     ^---------!            "
            let expected =   "   ----------(F|)         "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return false when the source emits an extra value after the compareTo completes", arguments: variants) func shouldReturnFalseWhenTheSourceEmitsAnExtraValueAfterTheCompareToCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d--e--f--g--h--|")
            let s1subs =   "     ^-----------!            "
            let s2 = m.hot("-----^--b--c--d-|             ")
            let s2subs =   "     ^----------!             "
            let expected =   "   ------------(F|)         "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return false when the compareTo emits an extra value after the source completes", arguments: variants) func shouldReturnFalseWhenTheCompareToEmitsAnExtraValueAfterTheSourceCompletes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b--c--d-|             ")
            let s1subs =   "     ^----------!             "
            let s2 = m.hot("-----^--b--c--d--e--f--g--h--|")
            let s2subs =   "     ^-----------!            "
            let expected =   "   ------------(F|)         "
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should return true for two empty observables", arguments: variants) func shouldReturnTrueForTwoEmptyObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" |   ")
            let s2 = m.cold(" |   ")
            let expected =   "(T|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
        }
    }

    @Test("should return false for an empty observable and an observable that emits", arguments: variants) func shouldReturnFalseForAnEmptyObservableAndAnObservableThatEmits(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.cold(" |      ")
            let s2 = m.cold(" ---a--|")
            let expected =   "---(F|)"
            let source = s1.signal.sequenceEqual(s2.signal)
            m.expectSignal(source).toBe(expected, values: booleans)
        }
    }

    @Test("should return compare hot and cold observables", arguments: variants) func shouldReturnCompareHotAndColdObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("---a--^---b---c---d---e---f---g---h---i---j---|   ")
            let s2 = m.cold("     ----b---c-|                                 ")
            let s2subs =   "      ^---------!                                 "
            let expected1 =   "   ------------(F|)                            "
            let s3 = m.cold("                        -f---g---h---i---j---|   ")
            let test2subs =   "   -------------------^                        "
            let expected2 =   "   ----------------------------------------(T|)"
            let s3subs =   "      -------------------^--------------------!   "
            let test1 = s1.signal.sequenceEqual(s2.signal)
            let test2 = s1.signal.sequenceEqual(s3.signal)
            m.expectSignal(test1).toBe(expected1, values: booleans)
            m.expectSignal(test2, unsubscription: test2subs).toBe(expected2, values: booleans)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
            m.expectSubscriptions(s3.subscriptions).toBe(s3subs)
        }
    }

    /// RxJS's values are objects compared by their `value` field; here a string's part before
    /// "/" plays that field.
    static let objects: [Character: String] = [
        "b": "bees knees", "c": "carpy dumb", "d": "derp",
        "x": "bees knees/lol", "y": "carpy dumb/doo", "z": "derp/dancin, yeah",
    ]

    static func field(_ s: String) -> Substring { s.split(separator: "/").first ?? "" }

    @Test("should error if the comparator function errors", arguments: variants) func shouldErrorIfTheComparatorFunctionErrors(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b-----c------d--|      ", values: Self.objects)
            let s1subs =   "     ^------------!            "
            let s2 = m.hot("-----^--------x---y---z-------|", values: Self.objects)
            let s2subs =   "     ^------------!            "
            let expected =   "   -------------#            "
            let calls = Collected<Int>()
            let source = s1.signal.sequenceEqual(s2.signal) { (a: String, b: String) throws -> Bool in
                calls.append(1)
                if calls.all.count == 2 { throw MarbleError("shazbot") }
                return Self.field(a) == Self.field(b)
            }
            m.expectSignal(source).toBe(expected, values: booleans, error: MarbleError("shazbot"))
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }

    @Test("should use the provided comparator function", arguments: variants) func shouldUseTheProvidedComparatorFunction(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let booleans: [Character: Bool] = ["T": true, "F": false]
            let s1 = m.hot("--a--^--b-----c------d--|         ", values: Self.objects)
            let s1subs =   "     ^------------------!         "
            let s2 = m.hot("-----^--------x---y---z-------|   ", values: Self.objects)
            let s2subs =   "     ^------------------------!   "
            let expected =   "   -------------------------(T|)"
            let source = s1.signal.sequenceEqual(s2.signal) { Self.field($0) == Self.field($1) }
            m.expectSignal(source).toBe(expected, values: booleans)
            m.expectSubscriptions(s1.subscriptions).toBe(s1subs)
            m.expectSubscriptions(s2.subscriptions).toBe(s2subs)
        }
    }
}

#endif
