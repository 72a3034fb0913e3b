#if DEBUG && !SIGNALS_SKIP_CONFORMANCE  // Virtual-time specs: one result in every build; compiled in debug builds only (docs/bench-guide.md, "In CI").
import Signals
import Synchronization
import Testing

// RxJS spec/operators/groupBy-spec.ts (packages/rxjs/test/ported/cold/operators/group-by.spec.ts), ported.
//
// A group's signal is checked as RxJS's TestScheduler checks an emitted observable
// (`expectInnerSignals`, Kit/InnerSignalExpectation.swift: subscribed as it arrives, frames
// from its arrival). RxJS's cases that subscribe to groups by hand at chosen frames (the
// `config` cases and the late subscriptions) run on `GroupRun` below, which records the same
// `frame kind value` events RxJS's do. Values are RxJS's own padded strings; the key is
// `toLowerCase().trim()`.
//
// Not ported (JavaScript only): none.
// RxJS's element selector is `groupBy(_:element:)`, its duration selector
// `groupBy(_:duration:)` or `groupBy(_:element:duration:)`; the group RxJS hands the duration
// selector is the `SignalGroup` the duration closure gets, and `group.pipe(skip(n))` is
// `$0.signal.skip(n)`. A group opened again for a key after its duration closed the last one
// is `"key 1"` (its occurrence) in a `GroupRun`'s plans and groups.
//
// Not written (a form Signals lacks): none.

@Suite("groupBy — rxjs spec/operators/groupBy-spec.ts")
struct GroupByConformanceTests {
    static let variants = DeliveryVariant.allCases

    static let values: [Character: String] = [
        "a": "  foo",
        "b": " FoO ",
        "c": "baR  ",
        "d": "foO ",
        "e": " Baz   ",
        "f": "  qux ",
        "g": "   bar",
        "h": " BAR  ",
        "i": "FOO ",
        "j": "baz  ",
        "k": " bAZ ",
        "l": "    fOo    ",
    ]

    /// RxJS's `reverseString`, the element selector of its cases.
    static func reversed(_ value: String) -> String { String(value.reversed()) }

    static let reversedValues: [Character: String] = values.mapValues(reversed)

    /// RxJS's `val.toLowerCase().trim()`.
    static func key(_ value: String) -> String {
        let lower = value.lowercased()
        return String(lower.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    @Test("should group numbers by odd/even", arguments: variants) func shouldGroupNumbersByOddEven(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let e1 = m.hot("  --1---2---3---4---5---|")
            let expected = "--x---y---------------|"
            let x = m.cold("  1-------3-------5---|")
            let y = m.cold("  2-------4-------|")
            let expectedValues: [Character: ColdMarbles<String>] = ["x": x, "y": y]
            let source = e1.signal.groupBy { Int($0)! % 2 }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues)
        }
    }

    @Test("should handle an empty Observable", arguments: variants) func shouldHandleAnEmptyObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let e1 = m.cold(" |   ")
            let e1subs = "  (^!)"
            let expected = "|   "
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a never Observable", arguments: variants) func shouldHandleANeverObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let e1 = m.cold(" -")
            let e1subs = "^!"
            let expected = "-"
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source, unsubscription: "^!").toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle a just-throw Observable", arguments: variants) func shouldHandleAJustThrowObservable(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let e1 = m.cold("  #  ")
            let e1subs = "  (^!)"
            let expected = "#   "
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: [:])
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should handle an Observable with a single value", arguments: variants) func shouldHandleAnObservableWithASingleValue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values: [Character: String] = ["a": "  foo"]
            let e1 = m.hot("  ^--a--|", values: values)
            let e1subs = "  ^-----!"
            let expected = "---g--|"
            let g = m.cold("     a--|", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["g": g]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector", arguments: variants) func shouldGroupValuesWithAKeySelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --w---x---y-z-------------|"
            let w = m.cold("         a-b---d---------i-----l-|", values: values)
            let x = m.cold("             c-------g-h---------|", values: values)
            let y = m.cold("                 e---------j-k---|", values: values)
            let z = m.cold("                   f-------------|", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w, "x": x, "y": y, "z": z]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should emit GroupObservables", arguments: variants) func shouldEmitGroupObservables(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values: [Character: String] = [
                "a": "  foo",
                "b": " FoO ",
            ]
            let e1 = m.hot("-1--2--^-a-b----|", values: values)
            let e1subs = "       ^--------!"
            let expected = "     --g------|"
            let expectedValues: [Character: String] = ["g": "foo"]
            let source = e1.signal.groupBy { Self.key($0) }
                .map { group in
                    #expect(group.key == "foo")
                    return group.key
                }
            m.expectSignal(source).toBe(expected, values: expectedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector, assert GroupSubject key", arguments: variants) func shouldGroupValuesWithAKeySelectorAssertGroupSubjectKey(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --w---x---y-z-------------|"
            let expectedValues: [Character: String] = ["w": "foo", "x": "bar", "y": "baz", "z": "qux"]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.key }
            m.expectSignal(source).toBe(expected, values: expectedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector, but outer throws", arguments: variants) func shouldGroupValuesWithAKeySelectorButOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --w---x---y-z-------------#"
            let expectedValues: [Character: String] = ["w": "foo", "x": "bar", "y": "baz", "z": "qux"]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.key }
            m.expectSignal(source).toBe(expected, values: expectedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector, inners propagate error from outer", arguments: variants) func shouldGroupValuesWithAKeySelectorInnersPropagateErrorFromOuter(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --w---x---y-z-------------#"
            let w = m.cold("         a-b---d---------i-----l-#", values: values)
            let x = m.cold("             c-------g-h---------#", values: values)
            let y = m.cold("                 e---------j-k---#", values: values)
            let z = m.cold("                   f-------------#", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w, "x": x, "y": y, "z": z]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow outer to be unsubscribed early", arguments: variants) func shouldAllowOuterToBeUnsubscribedEarly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let unsub = "        -----------!               "
            let e1subs = "       ^----------!               "
            let expected = "     --w---x---y-               "
            let expectedValues: [Character: String] = ["w": "foo", "x": "bar", "y": "baz"]
            let source = e1.signal.groupBy { Self.key($0) }.map { $0.key }
            m.expectSignal(source, unsubscription: unsub).toBe(expected, values: expectedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should unsubscribe from the source when the outer and inner subscriptions are disposed", arguments: variants) func shouldUnsubscribeFromTheSourceWhenTheOuterAndInnerSubscriptionsAreDisposed(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-!                        "
            let expected = "     --(a|)                     "
            let source = e1.signal.groupBy { Self.key($0) }
                .take(1)
                .flatMap { group in group.signal.take(1) }
            m.expectSignal(source).toBe(expected, values: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should not break unsubscription chain when unsubscribed explicitly", arguments: variants) func shouldNotBreakUnsubscriptionChainWhenUnsubscribedExplicitly(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^----------!               "
            let expected = "     --w---x---y-               "
            let unsub = "        -----------!               "
            let expectedValues: [Character: String] = ["w": "foo", "x": "bar", "y": "baz"]
            let source = e1.signal.flatMap { Signal.just($0, delivery: variant) }
                .groupBy { Self.key($0) }
                .flatMap { group in Signal.just(group.key, delivery: variant) }
            m.expectSignal(source, unsubscription: unsub).toBe(expected, values: expectedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector which eventually throws", arguments: variants) func shouldGroupValuesWithAKeySelectorWhichEventuallyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------!"
            let expected = "     --w---x---y-z-------#"
            let w = m.cold("         a-b---d---------i-#", values: values)
            let x = m.cold("             c-------g-h---#", values: values)
            let y = m.cold("                 e---------#", values: values)
            let z = m.cold("                   f-------#", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w, "x": x, "y": y, "z": z]
            let invoked = Mutex(0)
            let source = e1.signal.groupBy { (val: String) throws -> String in
                let n = invoked.withLock { i in
                    i += 1
                    return i
                }
                if n == 10 {
                    throw MarbleError("error")
                }
                return Self.key(val)
            }.map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should group values with a keySelector and elementSelector, but elementSelector throws", arguments: variants) func shouldGroupValuesWithAKeySelectorAndElementSelectorButElementSelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let reversedValues = Self.reversedValues
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------!"
            let expected = "     --w---x---y-z-------#"
            let w = m.cold("         a-b---d---------i-#", values: reversedValues)
            let x = m.cold("             c-------g-h---#", values: reversedValues)
            let y = m.cold("                 e---------#", values: reversedValues)
            let z = m.cold("                   f-------#", values: reversedValues)
            let expectedValues: [Character: ColdMarbles<String>] = ["w": w, "x": x, "y": y, "z": z]
            let invoked = Mutex(0)
            let source = e1.signal.groupBy({ Self.key($0) }, element: { (val: String) throws -> String in
                let n = invoked.withLock { i in
                    i += 1
                    return i
                }
                if n == 10 {
                    throw MarbleError("error")
                }
                return Self.reversed(val)
            }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: reversedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow the outer to be unsubscribed early but inners continue", arguments: variants) func shouldAllowTheOuterToBeUnsubscribedEarlyButInnersContinue(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
                marbleTest(variant) { m in
                    let values = Self.values
                    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
                    let unsub = "         ---------!                "
                    let expected = "      --w---x---                "
                    let w = m.cold("        a-b---d---------i-----l-| ", values: values)
                    let x = m.cold("            c-------g-h---------| ", values: values)
                    let expectedValues: [Character: ColdMarbles<String>] = ["w": w, "x": x]
                    let source = e1.signal.groupBy { Self.key($0) }.map { $0.signal }
                    m.expectInnerSignals(source, unsubscription: unsub).toBe(expected, values: expectedValues, innerValues: values)
                }
        }
    }

    @Test("should allow an inner to be unsubscribed early but other inners continue", arguments: variants) func shouldAllowAnInnerToBeUnsubscribedEarlyButOtherInnersContinue(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^-------------------------!", key: Self.key, plans: [
                "foo": (subscribe: 2, abort: 9),
                "bar": (subscribe: 6, abort: nil),
                "baz": (subscribe: 10, abort: nil),
                "qux": (subscribe: 12, abort: nil),
            ])
            run.expect(outer: ["2 N foo", "6 N bar", "10 N baz", "12 N qux", "26 C"], groups: [
                "foo": ["2 N a", "4 N b", "8 N d"],
                "bar": ["6 N c", "14 N g", "16 N h", "26 C"],
                "baz": ["10 N e", "20 N j", "22 N k", "26 C"],
                "qux": ["12 N f", "26 C"],
            ])
        }
    }

    @Test("should allow inners to be unsubscribed early at different times", arguments: variants) func shouldAllowInnersToBeUnsubscribedEarlyAtDifferentTimes(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^-------------------------!", key: Self.key, plans: [
                "foo": (subscribe: 2, abort: 9),
                "bar": (subscribe: 6, abort: 12),
                "baz": (subscribe: 10, abort: 16),
                "qux": (subscribe: 12, abort: 19),
            ])
            run.expect(outer: ["2 N foo", "6 N bar", "10 N baz", "12 N qux", "26 C"], groups: [
                "foo": ["2 N a", "4 N b", "8 N d"],
                "bar": ["6 N c"],
                "baz": ["10 N e"],
                "qux": ["12 N f"],
            ])
        }
    }

    @Test("should allow subscribing late to an inner Observable, outer completes", arguments: variants) func shouldAllowSubscribingLateToAnInnerObservableOuterCompletes(_ variant: DeliveryVariant) {
            marbleTest(variant) { m in
                let values: [Character: String] = [
                    "a": "  foo",
                    "b": " FoO ",
                    "d": "foO ",
                    "i": "FOO ",
                    "l": "    fOo    ",
                ]
                // The group opens at frame 2 and is subscribed 26 frames later, after the source has ended.
                let run = GroupRun(m, source: m.hot("--a-b---d---------i-----l-|", values: values), sourceSubscription: "^-------------------------!", key: Self.key, plans: [
                    "foo": (subscribe: 28, abort: nil),
                ])
                run.expect(groups: ["foo": ["28 C"]])
            }
    }

    @Test("should allow subscribing late to an inner Observable, outer throws", arguments: variants) func shouldAllowSubscribingLateToAnInnerObservableOuterThrows(_ variant: DeliveryVariant) {
            marbleTest(variant) { m in
                let values: [Character: String] = [
                    "a": "  foo",
                    "b": " FoO ",
                    "d": "foO ",
                    "i": "FOO ",
                    "l": "    fOo    ",
                ]
                // The group opens at frame 2 and is subscribed 26 frames later, after the source has ended.
                let run = GroupRun(m, source: m.hot("--a-b---d---------i-----l-#", values: values), sourceSubscription: "^-------------------------!", key: Self.key, plans: [
                    "foo": (subscribe: 28, abort: nil),
                ])
                run.expect(groups: ["foo": ["28 E error"]])
            }
    }

    @Test("should allow subscribing late to inner, unsubscribe outer early", arguments: variants) func shouldAllowSubscribingLateToInnerUnsubscribeOuterEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .expectation) {
            marbleTest(variant) { m in
    
                let values: [Character: String] = [
                    "a": "  foo",
                    "b": " FoO ",
                    "d": "foO ",
                    "i": "FOO ",
                    "l": "    fOo    ",
                ]
                // The group opens at frame 2 and is subscribed 12 frames later, after the outer
                // subscription was cancelled at frame 12; it is cancelled at frame 27.
                let run = GroupRun(m, source: m.hot("--a-b---d---------i-----l-#", values: values), sourceSubscription: "^-----------!", key: Self.key, outerAbort: 12, plans: [
                    "foo": (subscribe: 14, abort: 27),
                ])
                run.expect(outer: ["2 N foo"], groups: ["foo": []])
            }
        }
    }

    @Test("should allow using a keySelector, elementSelector, and durationSelector", arguments: variants) func shouldAllowUsingAKeySelectorElementSelectorAndDurationSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let reversedValues = Self.reversedValues
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --v---w---x-y-----z-------|"
            let v = m.cold("       a-b---(d|)                 ", values: reversedValues)
            let w = m.cold("             c-------g-(h|)       ", values: reversedValues)
            let x = m.cold("                  e---------j-(k|)", values: reversedValues)
            let y = m.cold("                   f-------------|", values: reversedValues)
            let z = m.cold("                         i-----l-|", values: reversedValues)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y, "z": z]
            let source = e1.signal.groupBy({ Self.key($0) }, element: { Self.reversed($0) }, duration: { $0.signal.skip(2) })
                .map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: reversedValues)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow using a keySelector, elementSelector, and durationSelector that throws", arguments: variants) func shouldAllowUsingAKeySelectorElementSelectorAndDurationSelectorThatThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let reversedValues = Self.reversedValues
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let expected = "     --v---w---x-y-----z-------|"
            let v = m.cold("         a-b---(d#)               ", values: reversedValues)
            let w = m.cold("             c-------g-(h#)       ", values: reversedValues)
            let x = m.cold("                 e---------j-(k#) ", values: reversedValues)
            let y = m.cold("                   f-------------|", values: reversedValues)
            let z = m.cold("                         i-----l-|", values: reversedValues)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y, "z": z]
            // The duration signal fails (a throwing `map` inside it): its group fails, the rest goes on.
            let source = e1.signal.groupBy({ Self.key($0) }, element: { Self.reversed($0) }, duration: { group in
                group.signal.skip(2).map { (_: String) throws -> String in throw MarbleError("error") }
            }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: reversedValues)
        }
    }

    @Test("should allow using a keySelector and a durationSelector, outer throws", arguments: variants) func shouldAllowUsingAKeySelectorAndADurationSelectorOuterThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#", values: values)
            let e1subs = "       ^-------------------------!"
            let expected = "     --v---w---x-y-----z-------#"
            let v = m.cold("         a-b---(d|)               ", values: values)
            let w = m.cold("             c-------g-(h|)       ", values: values)
            let x = m.cold("                 e---------j-(k|) ", values: values)
            let y = m.cold("                   f-------------#", values: values)
            let z = m.cold("                         i-----l-#", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y, "z": z]
            let source = e1.signal.groupBy({ Self.key($0) }, duration: { $0.signal.skip(2) }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow using a durationSelector, and outer unsubscribed early", arguments: variants) func shouldAllowUsingADurationSelectorAndOuterUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .innerSignals) {
            marbleTest(variant) { m in
                let values = Self.values
                let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
                let unsub = "        -----------!               "
                let expected = "     --v---w---x-               "
                let v = m.cold("         a-b---(d|)               ", values: values)
                let w = m.cold("             c-------g-(h|)       ", values: values)
                let x = m.cold("                 e---------j-(k|) ", values: values)
                let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x]
                let source = e1.signal.groupBy({ Self.key($0) }, duration: { $0.signal.skip(2) }).map { $0.signal }
                m.expectInnerSignals(source, unsubscription: unsub).toBe(expected, values: expectedValues, innerValues: values)
            }
        }
    }

    @Test("should allow using a durationSelector, outer and all inners unsubscribed early", arguments: variants) func shouldAllowUsingADurationSelectorOuterAndAllInnersUnsubscribedEarly(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .expectation) {
            marbleTest(variant) { m in
                // The outer subscription and every group's are cancelled at frame 11.
                let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^----------!", key: Self.key,
                                   grouping: { $0.groupBy({ Self.key($0) }, duration: { $0.signal.skip(2) }) }, outerAbort: 11, plans: [
                    "foo": (subscribe: 2, abort: 11),
                    "bar": (subscribe: 6, abort: 11),
                    "baz": (subscribe: 10, abort: 11),
                ])
                run.expect(outer: ["2 N foo", "6 N bar", "10 N baz"], groups: [
                    "foo": ["2 N a", "4 N b", "8 N d", "8 C"],
                    "bar": ["6 N c"],
                    "baz": ["10 N e"],
                ])
            }
        }
    }

    @Test("should dispose a durationSelector after closing the group", arguments: variants) func shouldDisposeADurationSelectorAfterClosingTheGroup(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in
            let obs = m.hot(" -0-1--------2-| ")
            let unsubs = [
                "              -^--!",
                "              ---^--!",
                "              ------------^-!",
            ]
            let dur = "     ---s"
            let durations = [m.cold(dur), m.cold(dur), m.cold(dur)]
            // RxJS subscribes and checks only the durations' subscriptions (its `sub` diagram
            // gives the frame they are checked at, not a subscription of `obs`); the outer
            // signal is subscribed here through `expectSignal`, so its keys are checked too.
            let source = obs.signal.groupBy({ $0 }, duration: { durations[Int($0.key)!].signal }).map(\.key)
            m.expectSignal(source).toBe("-0-1--------2-|")
            for (d, u) in zip(durations, unsubs) {
                m.expectSubscriptions(d.subscriptions).toBe(u)
            }
        }
    }

    @Test("should allow using a durationSelector, but keySelector throws", arguments: variants) func shouldAllowUsingADurationSelectorButKeySelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------!      "
            let expected = "     --v---w---x-y-----z-#      "
            let v = m.cold("         a-b---(d|)               ", values: values)
            let w = m.cold("             c-------g-(h|)       ", values: values)
            let x = m.cold("                 e---------#      ", values: values)
            let y = m.cold("                   f-------#      ", values: values)
            let z = m.cold("                         i-#      ", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y, "z": z]
            let invoked = Mutex(0)
            let source = e1.signal.groupBy({ (val: String) throws -> String in
                let n = invoked.withLock { i in
                    i += 1
                    return i
                }
                if n == 10 {
                    throw MarbleError("error")
                }
                return Self.key(val)
            }, element: { $0 }, duration: { $0.signal.skip(2) }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow using a durationSelector, but elementSelector throws", arguments: variants) func shouldAllowUsingADurationSelectorButElementSelectorThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-------------------!      "
            let expected = "     --v---w---x-y-----z-#      "
            let v = m.cold("         a-b---(d|)               ", values: values)
            let w = m.cold("             c-------g-(h|)       ", values: values)
            let x = m.cold("                 e---------#      ", values: values)
            let y = m.cold("                   f-------#      ", values: values)
            let z = m.cold("                         i-#      ", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y, "z": z]
            let invoked = Mutex(0)
            let source = e1.signal.groupBy({ Self.key($0) }, element: { (val: String) throws -> String in
                let n = invoked.withLock { i in
                    i += 1
                    return i
                }
                if n == 10 {
                    throw MarbleError("error")
                }
                return val
            }, duration: { $0.signal.skip(2) }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow using a durationSelector which eventually throws", arguments: variants) func shouldAllowUsingADurationSelectorWhichEventuallyThrows(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values = Self.values
            let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|", values: values)
            let e1subs = "       ^-----------!              "
            let expected = "  --v---w---x-(y#)              "
            let v = m.cold("         a-b---(d|)               ", values: values)
            let w = m.cold("             c-----#              ", values: values)
            let x = m.cold("                 e-#              ", values: values)
            let y = m.cold("                   #              ", values: values)
            let expectedValues: [Character: ColdMarbles<String>] = ["v": v, "w": w, "x": x, "y": y]
            let invoked = Mutex(0)
            let source = e1.signal.groupBy({ Self.key($0) }, element: { $0 }, duration: { (group: SignalGroup<String, String>) throws -> Signal<String> in
                let n = invoked.withLock { i in
                    i += 1
                    return i
                }
                if n == 4 {
                    throw MarbleError("error")
                }
                return group.signal.skip(2)
            }).map { $0.signal }
            m.expectInnerSignals(source).toBe(expected, values: expectedValues, innerValues: values)
            m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
        }
    }

    @Test("should allow an inner to be unsubscribed early but other inners continue, with durationSelector", arguments: variants) func shouldAllowAnInnerToBeUnsubscribedEarlyButOtherInnersContinueWithDurationSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            // RxJS's legacy form with a reversing element selector; the events name the source's tokens.
            let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^-------------------------!", key: Self.key,
                               grouping: { $0.groupBy({ Self.key($0) }, element: { Self.reversed($0) }, duration: { $0.signal.skip(2) }) },
                               token: { GroupRun.token(of: Self.reversed($0)) }, plans: [
                "foo": (subscribe: 2, abort: 7),
                "bar": (subscribe: 6, abort: nil),
                "baz": (subscribe: 10, abort: nil),
                "qux": (subscribe: 12, abort: nil),
                "foo 1": (subscribe: 18, abort: nil),
            ])
            run.expect(outer: ["2 N foo", "6 N bar", "10 N baz", "12 N qux", "18 N foo", "26 C"], groups: [
                "foo": ["2 N a", "4 N b"],
                "bar": ["6 N c", "14 N g", "16 N h", "16 C"],
                "baz": ["10 N e", "20 N j", "22 N k", "22 C"],
                "qux": ["12 N f", "26 C"],
                "foo 1": ["18 N i", "24 N l", "26 C"],
            ])
        }
    }

    @Test("should allow inners to be unsubscribed early at different times, with durationSelector", arguments: variants) func shouldAllowInnersToBeUnsubscribedEarlyAtDifferentTimesWithDurationSelector(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            // RxJS's legacy form with an identity element selector.
            let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^-------------------------!", key: Self.key,
                               grouping: { $0.groupBy({ Self.key($0) }, element: { $0 }, duration: { $0.signal.skip(2) }) }, plans: [
                "foo": (subscribe: 2, abort: 7),
                "bar": (subscribe: 6, abort: 9),
                "baz": (subscribe: 10, abort: 21),
                "qux": (subscribe: 12, abort: 16),
                "foo 1": (subscribe: 18, abort: 22),
            ])
            run.expect(outer: ["2 N foo", "6 N bar", "10 N baz", "12 N qux", "18 N foo", "26 C"], groups: [
                "foo": ["2 N a", "4 N b"],
                "bar": ["6 N c"],
                "baz": ["10 N e", "20 N j"],
                "qux": ["12 N f"],
                "foo 1": ["18 N i"],
            ])
        }
    }

    @Test("should return inners that when subscribed late exhibit hot behavior", arguments: variants) func shouldReturnInnersThatWhenSubscribedLateExhibitHotBehavior(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            // RxJS's identity element selector (its legacy form) is no selector.
            let run = GroupRun(m, source: m.hot("--a-b-c-d-e-f-g-h-i-j-k-l-|", values: Self.values), sourceSubscription: "^-------------------------!", key: Self.key, plans: [
                "foo": (subscribe: 3, abort: nil),
                "bar": (subscribe: 9, abort: nil),
                "baz": (subscribe: 19, abort: nil),
                "qux": (subscribe: 30, abort: nil),
            ])
            run.expect(outer: ["2 N foo", "6 N bar", "10 N baz", "12 N qux", "26 C"], groups: [
                "foo": ["4 N b", "8 N d", "18 N i", "24 N l", "26 C"],
                "bar": ["14 N g", "16 N h", "26 C"],
                "baz": ["20 N j", "22 N k", "26 C"],
                "qux": ["30 C"],
            ])
        }
    }

    @Test("should return inner group that when subscribed late emits complete()", arguments: variants) func shouldReturnInnerGroupThatWhenSubscribedLateEmitsComplete(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values: [Character: String] = ["a": "  foo", "b": " FoO ", "d": "foO ", "i": "FOO ", "l": "    fOo    "]
            // The duration (`skip(7)`) never closes the group; it is subscribed at frame 32, after the source has ended.
            let run = GroupRun(m, source: m.hot("--a-b---d---------i-----l-|", values: values), sourceSubscription: "^-------------------------!", key: Self.key,
                               grouping: { $0.groupBy({ Self.key($0) }, element: { $0 }, duration: { $0.signal.skip(7) }) }, plans: [
                "foo": (subscribe: 32, abort: nil),
            ])
            run.expect(outer: ["2 N foo", "26 C"], groups: ["foo": ["32 C"]])
        }
    }

    @Test("should return inner group that when subscribed late emits error()", arguments: variants) func shouldReturnInnerGroupThatWhenSubscribedLateEmitsError(_ variant: DeliveryVariant) {
        marbleTest(variant) { m in

            let values: [Character: String] = ["a": "  foo", "b": " FoO ", "d": "foO ", "i": "FOO ", "l": "    fOo    "]
            // The duration (`skip(7)`) never closes the group; it is subscribed at frame 32, after the source has failed.
            let run = GroupRun(m, source: m.hot("--a-b---d---------i-----l-#", values: values), sourceSubscription: "^-------------------------!", key: Self.key,
                               grouping: { $0.groupBy({ Self.key($0) }, element: { $0 }, duration: { $0.signal.skip(7) }) }, plans: [
                "foo": (subscribe: 32, abort: nil),
            ])
            run.expect(outer: ["2 N foo", "26 E error"], groups: ["foo": ["32 E error"]])
        }
    }

    @Test("should not error for late subscribed inners if outer is unsubscribed before inners are subscribed", arguments: variants) func shouldNotErrorForLateSubscribedInnersIfOuterIsUnsubscribedBeforeInnersAreSubscribed(_ variant: DeliveryVariant) {
        withKnownDifference(.tornDownFromOutput, shownBy: .expectation) {
            marbleTest(variant) { m in
    
                // Each group is subscribed 1,000 frames after it opens, long after the outer
                // subscription was cancelled at frame 19; everything is cancelled at frame 1020.
                let run = GroupRun(m, source: m.hot("-----^----a----b-----a------b----a----b---#"), sourceSubscription: nil, key: { $0 }, outerAbort: 19, plans: [
                    "a": (subscribe: 1005, abort: 1020),
                    "b": (subscribe: 1010, abort: 1020),
                ])
                run.expect(outerKeys: ["a", "b"], groups: ["a": [], "b": []])
            }
        }
    }
}

/// RxJS's hand-written group cases: subscribes to `source.groupBy(key)` (or to `grouping(source)`)
/// at frame 0, to each group at its planned frame (cancelling it at its planned abort frame),
/// cancels the outer subscription at `outerAbort`, and records every event as
/// `"frame N token"`, `"frame C"`, `"frame E message"` (a `.cancelled` end is
/// `"frame cancelled"`). A group's plan and events are under its key, or `"key n"` for the
/// n-th group opened again with that key (RxJS's `occurrence`).
final class GroupRun: @unchecked Sendable {
    typealias Plan = (subscribe: Int, abort: Int?)
    private struct State {
        var outer: [String] = []
        var outerKeys: [String] = []
        var groups: [String: [String]] = [:]
        var occurrences: [String: Int] = [:]
        var lifetimes: [any Lifetime] = []
    }
    private let test: MarbleTest
    private final class Box: Sendable {
        let state = Mutex(State())
    }
    private let box = Box()
    private let sourceLocation: SourceLocation

    init(
        _ m: MarbleTest, source: HotMarbles<String>, sourceSubscription: String?, key: @escaping @Sendable (String) -> String,
        grouping: (@Sendable (Signal<String>) -> Signal<SignalGroup<String, String>>)? = nil,
        token: (@Sendable (String) -> String)? = nil,
        outerAbort: Int? = nil, plans: [String: Plan], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.test = m
        self.sourceLocation = sourceLocation
        let clock = m.clock
        let groups = grouping?(source.signal) ?? source.signal.groupBy(key)
        let token = token ?? { GroupRun.token(of: $0) }
        let box = self.box
        let frame = { @Sendable in MarbleTest.frame(of: clock.now()) }
        let describe = { @Sendable (r: Result<String, SignalEnd>) -> String in
            switch r {
            case .success(let v): "\(frame()) N \(v)"
            case .failure(.complete): "\(frame()) C"
            case .failure(.cancelled): "\(frame()) cancelled"
            case .failure(.other(let e)): "\(frame()) E \(e)"
            }
        }
        let start = clock.schedule(after: .zero) {
            let outer = groups.subscribe { r in
                switch r {
                case .success(let group):
                    let name = box.state.withLock { s -> String in
                        let occurrence = s.occurrences[group.key, default: 0]
                        s.occurrences[group.key] = occurrence + 1
                        let name = occurrence == 0 ? group.key : "\(group.key) \(occurrence)"
                        s.outer.append("\(frame()) N \(group.key)")
                        s.outerKeys.append(group.key)
                        s.groups[name] = []
                        return name
                    }
                    guard let plan = plans[name] else {
                        Issue.record("no plan for the group \(name)", sourceLocation: sourceLocation)
                        return
                    }
                    let subscribe: @Sendable () -> Void = {
                        let output = group.signal.subscribe { r in
                            box.state.withLock { $0.groups[name, default: []].append(describe(r.map { token($0) })) }
                        }
                        var kept: [any Lifetime] = [output]
                        if let abort = plan.abort {
                            kept.append(clock.schedule(after: .milliseconds(abort - frame())) { output.cancel() })
                        }
                        box.state.withLock { $0.lifetimes.append(contentsOf: kept) }
                    }
                    if plan.subscribe == frame() {
                        subscribe()
                    } else {
                        let l = clock.schedule(after: .milliseconds(plan.subscribe - frame()), subscribe)
                        box.state.withLock { $0.lifetimes.append(l) }
                    }
                case .failure:
                    box.state.withLock { $0.outer.append(describe(r.map { _ in "" })) }
                }
            }
            var kept: [any Lifetime] = [outer]
            if let outerAbort {
                kept.append(clock.schedule(after: .milliseconds(outerAbort)) { outer.cancel() })
            }
            box.state.withLock { $0.lifetimes.append(contentsOf: kept) }
        }
        box.state.withLock { $0.lifetimes.append(start) }
        if let sourceSubscription {
            m.expectSubscriptions(source.subscriptions).toBe(sourceSubscription, sourceLocation: sourceLocation)
        }
        m.addCheck(self)
    }

    /// RxJS's `outputTokens`: the marble character of each of the spec's values.
    static func token(of value: String) -> String {
        GroupByConformanceTests.values.first { $0.value == value }.map { String($0.key) } ?? value
    }

    private var expected: (outer: [String]?, outerKeys: [String]?, groups: [String: [String]], location: SourceLocation)?

    /// The outer events (or only the keys of the groups, in order) and each group's events.
    func expect(outer: [String]? = nil, outerKeys: [String]? = nil, groups: [String: [String]], sourceLocation: SourceLocation = #_sourceLocation) {
        expected = (outer, outerKeys, groups, sourceLocation)
    }
}

extension GroupRun: MarbleCheck {
    func stop() {
        let lifetimes = box.state.withLock { s -> [any Lifetime] in
            defer { s.lifetimes = [] }
            return s.lifetimes
        }
        for l in lifetimes { l.cancel() }
    }

    func evaluate() {
        guard let expected else {
            Issue.record("GroupRun without expect", sourceLocation: sourceLocation)
            return
        }
        let s = box.state.withLock { ($0.outer, $0.outerKeys, $0.groups) }
        if let outer = expected.outer {
            #expect(s.0 == outer, "the outer events", sourceLocation: expected.location)
        }
        if let keys = expected.outerKeys {
            #expect(s.1 == keys, "the group keys", sourceLocation: expected.location)
        }
        #expect(s.2 == expected.groups, "each group's events", sourceLocation: expected.location)
    }
}

#endif
