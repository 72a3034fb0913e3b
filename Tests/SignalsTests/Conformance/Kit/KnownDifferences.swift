import Testing

// # Known differences
//
// Every reason a conformance case is kept as a known issue, one name per reason, and the
// check each case's known issue is allowed to come from. A case states both:
//
//     withKnownDifference(.tornDownFromOutput, shownBy: .subscriptions) { marbleTest(variant) { … } }
//
// The issue is expected only from the named checks (`MarbleCheckKind`), so a difference in the
// subscription log no longer hides the value diagram's check: a diagram that differs too is a
// failure. Add a reason here (its text says what Signals does, where that is documented, and
// what RxJS does), never at the case.

/// The check of the marble kit an issue comes from, told by the first words of its message.
enum MarbleCheckKind: String, Sendable, CaseIterable {
    /// `expectSignal(…).toBe(…)` / `toEqual(…)`: "the signal's diagram differs…".
    case diagram = "the signal's diagram differs"
    /// `expectSubscriptions(…).toBe(…)`: "the subscriptions differ…".
    case subscriptions = "the subscriptions differ"
    /// `expectInnerSignals(…).toBe(…)`: "the signal of signals differs…".
    case innerSignals = "the signal of signals differs"
    /// An `#expect` in the case itself.
    case expectation = "#expect"

    /// Whether `issue` comes from this check.
    func matches(_ issue: Issue) -> Bool {
        switch self {
        case .expectation:
            if case .expectationFailed = issue.kind { return true }
            return false
        default:
            return issue.comments.contains { $0.rawValue.hasPrefix(rawValue) }
        }
    }
}

/// Why a case differs from RxJS: Signals decides otherwise on purpose ("difference: …"), or a
/// defect not yet fixed ("defect: …").
struct KnownDifference: Sendable {
    let reason: String
}

/// Runs `body`, a case that differs from RxJS for `differences`, expecting the difference to
/// be recorded by the checks named in `shownBy` and only there: an issue from another check
/// fails the test. Not intermittent: once the issue no longer occurs the test fails ("Known
/// issue was not recorded"), which forces the marker's removal. Where a case differs on one
/// variant or form only, pass `when:`.
func withKnownDifference(
    _ differences: KnownDifference..., shownBy check: MarbleCheckKind, _ moreChecks: MarbleCheckKind...,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void, when precondition: () -> Bool = { true }
) rethrows {
    let comment = Comment(rawValue: differences.map(\.reason).joined(separator: "; "))
    let checks = [check] + moreChecks
    try withKnownIssue(comment, sourceLocation: sourceLocation, body, when: precondition, matching: { issue in
        checks.contains { $0.matches(issue) }
    })
}

extension KnownDifference {
    // MARK: Lifetimes and connections

    /// Teardown goes from the output upstream.
    static let tornDownFromOutput = KnownDifference(reason: "difference: a Signals graph is torn down from its output (docs/operators.md, Conformance): a source is released when an end reaches the subscriber, not when the operator ends the result, and cancelling the outer subscription releases the operator, which ends every open group or window with `.cancelled` (at once for one subscribed later); RxJS unsubscribes a source as soon as the operator ends, lets released windows fall silent and keeps the groups still subscribed going")

    /// An operator keeps its inputs for its whole life.
    static let inputsHeldUntilEnd = KnownDifference(reason: "difference: an operator holds its inputs through its node for its whole life (docs/operators.md, Conformance), so race keeps every competitor, and skipUntil its trigger, connected until the result ends; RxJS unsubscribes the losers, or the trigger, as soon as it decides")

    /// concat's later signal.
    static let concatConnectsEagerly = KnownDifference(reason: "difference: concat connects the later signal when the result activates (eager, CwlSignal's rule; README, \"Where Signals differs\"): a cold later signal runs early and its values are buffered until its turn, so its subscription, and what it sends, start early; RxJS subscribes it only when the first completes")

    /// Timers of an operator.
    static let timersStartAfterSource = KnownDifference(reason: "difference: an operator starts its timers when it activates, after its source is connected (docs/operators.md, Conformance), so at a shared frame a cold source's value comes before a window opens or closes (b misses the window of 8, c reaches the one of 0); RxJS's windowTime starts its timers before it subscribes the source")

    // MARK: Multis (share, publish, connectables)

    /// A `SignalMulti` has no connect step.
    static let noConnectStep = KnownDifference(reason: "difference: a `SignalMulti` has no connect step: `multicast()` is activated by its first branch (docs/operators.md, \"left out\"); RxJS's connectable waits for `connect()`")

    /// A `SignalMulti` deactivates with its last branch.
    static let deactivatesWithLastBranch = KnownDifference(reason: "difference: a `SignalMulti` deactivates with its last branch, so cancelling the connection leaves the source connected while other branches remain (docs/operators.md, \"left out\"); RxJS's `connection.unsubscribe()` disconnects every subscriber")

    /// The caching multis are active while held.
    static let cachingMultiActiveWhileHeld = KnownDifference(reason: "difference: the caching multis (`continuous`, `playback`, `buffer(initials:updater:)`) are active from the moment they are made until released (SignalMulti's doc comment), so the source is connected at once and stays connected while the multi is held; RxJS connects on `connect()` (with `refCount()`, on the first subscriber) and disconnects on `connection.unsubscribe()` (with the last subscriber)")

    /// A multi keeps its upstream's end.
    static let multiKeepsEnd = KnownDifference(reason: "difference: a multi keeps its upstream's end and gives it, after any cached values, to every later branch without activating the upstream again (SignalMulti's doc comment), so a retry, a repeat or a late branch gets the end at once; RxJS's `share()`, `shareReplay` and `multicast(subjectFactory).refCount()` make a new subject and subscribe the source again")

    /// `continuousWhileActive()` after its end.
    static let continuousWhileActiveRestarts = KnownDifference(reason: "difference: `continuousWhileActive()` starts afresh on every activation, after the end too, and drops its latest value when the end arrives (a late branch gets only the end: SignalMulti's doc comment); RxJS's `shareReplay({ refCount: true })` keeps a completed subject and replays it")

    /// A loop through the graph.
    static let loopRefused = KnownDifference(reason: "difference: a connection that would close a loop in the graph is refused with SignalBindError.loop, through `deferred` too (docs/guarantees.md), so the multi's own branch inside `withLatestFrom` ends the result with that error as it is connected, before the source is connected, which it then never is; RxJS lets the re-entrant subscription through")

    // MARK: Ends and empty results

    /// first, last and elementAt without their value.
    static let completesWithoutValue = KnownDifference(reason: "difference: first, last and elementAt complete without a value when the source ends before the value they wait for (their doc comments; Combine's first(where:) does the same); RxJS fails with EmptyError or ArgumentOutOfRangeError")

    /// buffer(boundary:) at completion.
    static let bufferEmitsOnlyNonEmptyAtEnd = KnownDifference(reason: "difference: at completion buffer(boundary:) emits the values left only if there are some (its doc comment); RxJS (emitEmpty) emits the last array even when it is empty")

    /// delay(interval:) and the end.
    static let delayDelaysCompletion = KnownDifference(reason: "difference: `delay(interval:)` delays the completion like a value (docs/operators.md, \"Semantics worth knowing\"); RxJS's `delay` completes as soon as no delayed value is waiting")

    /// takeLast(0).
    static let takeLastZeroWaitsForEnd = KnownDifference(reason: "difference: takeLast(0) subscribes and ends when, and as, the source ends (RxSwift's rule), not on subscription (RxJS's EMPTY); where the two disagree the operator keeps its rule (doc comment; docs/operators.md, Counts and durations)")

    // MARK: Closing and duration signals

    /// The signal of windows ends the result.
    static let windowsEndEndsResult = KnownDifference(reason: "difference: buffer(windows:) and window(windows:) end when the signal of windows ends, emitting the open arrays or closing the open windows (their doc comments); RxJS's bufferToggle and windowToggle ignore the openings' completion and end with the source")

    /// Any end of a closing or duration signal acts.
    static let anyEndCloses = KnownDifference(reason: "difference: a closing or duration signal acts when it sends a value or ends, whatever the end (the doc comments of buffer(windows:), window(windows:) and delay(offset:); CwlSignal's rule): the array is emitted, the window closed, the value released; RxJS acts on a value only: a completion leaves the window open (delayWhen drops the value), an error fails the result")

    /// window(count:skip:)'s windows.
    static let windowOpensAtValues = KnownDifference(reason: "difference: a window opens at a value, the first and then every skip-th (window(count:skip:)'s doc comment, CwlSignal's rule), so none is delivered on subscription or after the last one closes; RxJS opens one on subscription and a new one as each skip-th value passes")

    /// concatMap's transform.
    static let concatMapProjectsAtArrival = KnownDifference(reason: "difference: `transform` runs when a value arrives (doc comment of `concatMap(_:)` and its throwing form), so a throw for a value still waiting its turn ends the result at once; RxJS projects a waiting value only when its turn comes")

    // MARK: Retry and repeat triggers

    /// A retry trigger that ends.
    static let retryTriggerEndPassesError = KnownDifference(reason: "difference: a trigger of `Signal.retry(when:_:)` that ends without a value passes the source's error on (doc comment); RxJS, and `Signal.retry(whenErrors:_:)`, complete when the notifier completes and fail with the notifier's error")

    /// One retry trigger per error.
    static let retryTriggerPerError = KnownDifference(reason: "difference: `Signal.retry(when:_:)` subscribes a trigger after each error and releases it at its first value (doc comment), so the notifier's later values and end go unseen; RxJS, and `Signal.retry(whenErrors:_:)`, keep one notifier subscribed from the first error on, and its end ends the result")

    /// One repeat trigger per completion.
    static let repeatTriggerPerCompletion = KnownDifference(reason: "difference: `Signal.repeat(when:_:)` subscribes a trigger after each completion and releases it at its first value (doc comment), so the notifier is subscribed once per repetition; RxJS, and `Signal.repeat(whenCompletions:_:)`, keep one notifier subscribed from the first completion on")
}
