import Signals
import Synchronization
import Testing

// # Marble tests on the virtual clock
//
// RxJS's TestScheduler syntax ("run mode"), driving Signals graphs on a `VirtualTimeContext`.
// One frame is one virtual millisecond.
//
//   `-`            one frame
//   `a`, `1`, …    a value: looked up in `values:`, else the character itself (for String values)
//   `|`            complete
//   `#`            error: the `error:` argument (default `MarbleError("error")`, RxJS's "error")
//   `^`            the subscription point of a hot diagram (frame 0; earlier events are negative)
//   `!`            unsubscription, in subscription diagrams (`^---!`)
//   `(ab)`         events in one frame; the group takes as many frames as its characters,
//                  parentheses included (RxJS's rule): `(ab)-c` puts `c` at frame 5
//   `10ms`, `1s`   time progression, at the start or after whitespace, followed by whitespace
//   whitespace     ignored, so diagrams can be aligned
//
// ```swift
// @Test("should map multiple values", arguments: DeliveryVariant.allCases)
// func shouldMapMultipleValues(_ variant: DeliveryVariant) {
//     marbleTest(variant) { m in
//         let e1 = m.cold(" --1--2--3--|")
//         let e1subs =   "  ^----------!"
//         let expected =   "--x--y--z--|"
//         m.expectSignal(e1.signal.map { Int($0)! * 10 }).toBe(expected, values: ["x": 10, "y": 20, "z": 30])
//         m.expectSubscriptions(e1.subscriptions).toBe(e1subs)
//     }
// }
// ```
//
// `marbleTest` runs the body (which builds the graph and states expectations), then subscribes
// each expected signal at its subscription frame, runs the virtual clock until nothing is left
// (or `maxFrames`), cancels what is still subscribed and checks every expectation. A mismatch
// records an issue at the `toBe` line, with both diagrams drawn one above the other and both
// event lists.
//
// * `m.hot(marbles, values:, error:)` — a hot source: its events happen at their frames whether
//   or not anyone listens (an event before `^` reaches no one: a Signals input with nothing
//   attached drops it). Each read of `.signal` is a new branch of one `multicast()`, so a hot
//   can feed several operands; `.subscriptions` logs each branch's activation and end.
// * `m.cold(marbles, values:, error:)` — a cold source: each read of `.signal` is a new
//   `generate` signal, and every activation of it replays the diagram from its own activation
//   frame. Use it in `flatMap` closures: `{ _ in inner.signal }`. `.subscriptions` logs every
//   activation of every signal it made.
// * A subscription is logged from activation to the first of: the source's own end reaching
//   the branch, or deactivation — what RxJS logs as subscribe and unsubscribe. One still
//   active when the clock stops stays open (`^` with no `!`): the test's teardown is not logged.
// * `m.expectSignal(signal, unsubscription: "^---!").toBe(expected, values:, error:)`;
//   `m.expectSignal(a).toEqual(b)` (RxJS's `toEqual`): `b`, subscribed and unsubscribed at the
//   same frames, should deliver the same events at the same frames as `a`;
//   `m.expectSubscriptions(log).toBe("^--!", "--^-!")` (one diagram per subscription, in order).
// * `values: digits` reads the digits of a diagram as `Int`s.
// * `m.time("---|")` is RxJS's `time`: the `|`'s frame; `m.duration(_:)` turns frames into a
//   `Duration`; `m.context` is `.custom(m.clock)` for time operators.
//
// ## Porting an RxJS spec
//
// * One file per operator in `Tests/SignalsTests/Conformance/`, one `@Suite` named after the
//   operator and the spec file: `@Suite("map — rxjs spec/operators/map-spec.ts")`.
// * One `@Test("<the it(…) text>", arguments: DeliveryVariant.allCases)` per `it(…)`, its
//   function the same words in camelCase (raw identifiers, func `should …`, break Swift
//   Testing's macros on this toolchain). A spec that repeats a case name gets " (second
//   case, …)" on the repeat. Write the body in your own words, but keep every marble diagram
//   (sources, subscriptions, expected) exactly as the spec has it, and its values; pad after
//   `=` so the diagrams line up as they do in the spec.
// * RxJS's `ColdObservable.from([x])` (a synchronous source) is `Signal.just(x, delivery:
//   variant)`; `mergeMap` is `flatMap`.
// * Cases that test only JavaScript (thisArg, an `index` argument Signals lacks, a
//   synchronous JS subject re-entering, TypeScript typings) are not ported: list each by its
//   spec name, with the reason, in a comment at the top of the file. Anything else is ported.
// * A case where Signals chooses otherwise on purpose (documented in README.md or
//   docs/operators.md) stays, wrapped in `withKnownDifference(.reason, shownBy: .check) { … }`
//   (Kit/KnownDifferences.swift); never skip it silently. The reason is one of the registry
//   there (add it there, "difference: …", if none says it; a defect is "defect: …" until it is
//   fixed), and `shownBy:` names the checks the difference shows in (`.diagram`,
//   `.subscriptions`, `.innerSignals`, `.expectation`): an issue from any other check fails the
//   test, so a difference in a subscription log does not hide the value diagram. The marker is
//   not intermittent: once the issue no longer occurs, the test fails ("Known issue was not
//   recorded"; MarbleKitTests.mismatchPrintsBothDiagrams relies on the same rule), which forces
//   its removal. Where a case differs on one variant or form only, pass `when:`.
// * A throwing closure is the operator's overload on `throws` (`map { (x: String) throws ->
//   String in … }`: annotate the closure so the throwing form is picked); RxJS's seedless
//   `scan`/`reduce` are `scan(_:)`/`reduce(_:)`. A case that needs a form Signals still lacks
//   (an `index` argument, a subject selector) cannot be written: list it at the top of the
//   file under "Not written", with the form it needs.
// * Port what the spec checks and nothing it does not: an assertion RxJS does not make (a
//   source subscription it leaves unchecked, where Signals differs) keeps the case from ever
//   passing and hides its real assertions. A check the spec's own setup needs here (the outer
//   signal subscribed through `expectSignal` where RxJS calls `subscribe()`) is fine where
//   the spec's result implies it; say so in a comment.
// * Count the cases in the conformance table of docs/operators.md (alphabetical, one row per
//   operator).

/// `values:` for diagrams of `Int`s written as digits: "0" is 0, …, "9" is 9.
let digits: [Character: Int] = Dictionary(uniqueKeysWithValues: (0...9).map { (Character(String($0)), $0) })

/// Runs one marble test on a fresh virtual clock: `body` builds the graph and states the
/// expectations, then the clock runs and every expectation is checked.
///
/// - Parameters:
///   - variant: the delivery variant of every hot and cold source (and so of the graph).
///   - maxFrames: the last frame the clock runs to (repeating timers never leave its queue empty).
///   - body: builds the graph and calls `expectSignal`/`expectSubscriptions`.
func marbleTest(
    _ variant: DeliveryVariant, maxFrames: Int = 100_000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (MarbleTest) throws -> Void
) rethrows {
    let m = MarbleTest(variant, sourceLocation: sourceLocation)
    try body(m)
    m.flush(maxFrames: maxFrames)
}

/// The state of one marble test: its clock, sources and expectations.
final class MarbleTest: @unchecked Sendable {
    /// The virtual clock; frame `n` is `.milliseconds(n)` on it.
    let clock = VirtualTimeContext()
    /// The delivery variant of every source this test makes.
    let variant: DeliveryVariant
    let sourceLocation: SourceLocation

    // Touched only on the test's thread (the body and `flush`): the clock runs everything on it.
    private var hots: [any HotFeeding] = []
    private var checks: [any MarbleCheck] = []
    private var flushed = false

    init(_ variant: DeliveryVariant, sourceLocation: SourceLocation) {
        self.variant = variant
        self.sourceLocation = sourceLocation
    }

    /// `.custom(clock)`: the context for time operators in this test.
    var context: Exec { .custom(clock) }

    /// The current frame of the clock.
    var frame: Int { Self.frame(of: clock.now()) }

    /// `frames` frames as a `Duration` (one frame is one millisecond).
    func duration(_ frames: Int) -> Duration { .milliseconds(frames) }

    /// RxJS's `time("---|")`: the frame of the `|`, as a `Duration`.
    func time(_ marbles: String, sourceLocation: SourceLocation = #_sourceLocation) -> Duration {
        do {
            return .milliseconds(try MarbleParser.time(marbles))
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return .zero
        }
    }

    static func frame(of time: Duration) -> Int {
        let (seconds, attoseconds) = time.components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    // MARK: Sources

    /// A hot source of String values (each value character is itself).
    func hot(_ marbles: String, error: any Error = MarbleError(), sourceLocation: SourceLocation = #_sourceLocation) -> HotMarbles<String> {
        hot(marbles, values: [Character: String](), error: error, sourceLocation: sourceLocation)
    }

    /// A hot source: events at their frames, relative to `^` (or to the start without one).
    ///
    /// - Parameters:
    ///   - marbles: the diagram.
    ///   - values: the value of each value character (a String value may be left out).
    ///   - error: what `#` sends.
    func hot<T: Sendable>(
        _ marbles: String, values: [Character: T], error: any Error = MarbleError(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> HotMarbles<T> {
        let records = parse(marbles, values: values, error: error, hot: true, sourceLocation: sourceLocation)
        let hot = HotMarbles<T>(test: self, records: records, error: error)
        hots.append(hot)
        return hot
    }

    /// A cold source of String values (each value character is itself).
    func cold(_ marbles: String, error: any Error = MarbleError(), sourceLocation: SourceLocation = #_sourceLocation) -> ColdMarbles<String> {
        cold(marbles, values: [Character: String](), error: error, sourceLocation: sourceLocation)
    }

    /// A cold source: each activation of each of its signals replays the diagram from the
    /// activation's frame.
    func cold<T: Sendable>(
        _ marbles: String, values: [Character: T], error: any Error = MarbleError(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ColdMarbles<T> {
        let records = parse(marbles, values: values, error: error, hot: false, sourceLocation: sourceLocation)
        return ColdMarbles<T>(test: self, records: records, error: error)
    }

    func parse<T: Sendable>(
        _ marbles: String, values: [Character: T], error: any Error, hot: Bool, sourceLocation: SourceLocation
    ) -> [MarbleRecord<T>] {
        do {
            return try MarbleParser.parse(marbles, values: values, error: error, hot: hot)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    // MARK: Expectations

    /// Subscribes to `signal` at the `^` of `unsubscription` (frame 0 without one) and cancels
    /// the output at its `!` (never without one); `toBe` states what should arrive.
    func expectSignal<T: Sendable & Equatable>(
        _ signal: Signal<T>, unsubscription: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> SignalExpectation<T> {
        var window = MarbleSubscription(subscribed: 0, unsubscribed: nil)
        if let unsubscription {
            do { window = try MarbleParser.parseSubscription(unsubscription) } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        let expectation = SignalExpectation<T>(test: self, signal: signal, window: window)
        checks.append(expectation)
        return expectation
    }

    /// States the subscriptions `log` should hold once the test has run.
    func expectSubscriptions(_ log: SubscriptionLog) -> SubscriptionExpectation {
        let expectation = SubscriptionExpectation(log: log)
        checks.append(expectation)
        return expectation
    }

    /// Adds an expectation checked once the clock has stopped (the higher-order ones live in
    /// their own files).
    func addCheck(_ check: any MarbleCheck) {
        checks.append(check)
    }

    // MARK: Running

    /// What the test keeps until its clock has stopped: RxJS keeps a connectable held by a
    /// variable for the whole run, where the body's locals are gone before the clock starts.
    private var held: [Any] = []

    /// Keeps `object` (a caching multi, say) until the clock has stopped.
    func hold(_ object: Any) { held.append(object) }

    func flush(maxFrames: Int) {
        precondition(!flushed, "a marble test runs once")
        flushed = true
        // As in RxJS's TestScheduler: subscriptions were scheduled as they were stated; hot
        // events are scheduled now, so at a shared frame the subscription comes first. Events
        // before frame 0 happen now, in frame order (before anything is subscribed).
        let early = hots.enumerated().flatMap { (h, hot) in
            hot.frames.enumerated().filter { $0.element < 0 }.map { (frame: $0.element, hot: h, record: $0.offset) }
        }.sorted { ($0.frame, $0.hot, $0.record) < ($1.frame, $1.hot, $1.record) }
        for e in early { hots[e.hot].send(record: e.record) }
        for hot in hots { hot.scheduleFromZero() }
        clock.advance(to: .milliseconds(maxFrames))
        // What is still subscribed now stays open in the logs ('^' with no '!', as RxJS leaves
        // it): the teardown below is the test's, not the graph's.
        for check in checks { check.clockStopped() }
        for check in checks { check.stop() }
        for hot in hots { hot.stop() }
        held = []
        for check in checks { check.evaluate() }
    }
}

extension MarbleCheck {
    func clockStopped() {}
}

/// What `marbleTest` runs once the clock has stopped.
protocol MarbleCheck: AnyObject {
    /// The clock has run out; nothing has been torn down yet.
    func clockStopped()
    /// Stops recording and cancels what this check subscribed.
    func stop()
    /// Records an issue if what happened differs from what was expected.
    func evaluate()
}

protocol HotFeeding: AnyObject {
    var frames: [Int] { get }
    func send(record: Int)
    func scheduleFromZero()
    func stop()
}

// MARK: - Subscription logs

/// Every subscription of a hot or cold source: the frames it began and ended.
final class SubscriptionLog: Sendable {
    private let entries = Mutex<[MarbleSubscription]>([])

    init() {}

    /// What has been logged, in the order the subscriptions began.
    var subscriptions: [MarbleSubscription] { entries.withLock { $0 } }

    func open(at frame: Int) -> Int {
        entries.withLock { e in
            e.append(MarbleSubscription(subscribed: frame, unsubscribed: nil))
            return e.count - 1
        }
    }

    func close(_ index: Int, at frame: Int) {
        entries.withLock { e in
            if e[index].unsubscribed == nil { e[index].unsubscribed = frame }
        }
    }
}

/// Logs one activation at a time of one signal: open on activation, closed on the first of the
/// source's end and deactivation.
final class ActivationLogger: Sendable {
    let log: SubscriptionLog
    let clock: VirtualTimeContext
    private let current = Mutex<Int?>(nil)

    init(log: SubscriptionLog, clock: VirtualTimeContext) {
        self.log = log
        self.clock = clock
    }

    func activated() {
        let index = log.open(at: MarbleTest.frame(of: clock.now()))
        current.withLock { $0 = index }
    }

    func ended() {
        guard let index = current.withLock({ c -> Int? in defer { c = nil }; return c }) else { return }
        log.close(index, at: MarbleTest.frame(of: clock.now()))
    }
}

// MARK: - Hot

/// A hot source made by `MarbleTest.hot`.
final class HotMarbles<T: Sendable>: HotFeeding, @unchecked Sendable {
    /// Each subscription of a branch: activation to end or deactivation.
    let subscriptions = SubscriptionLog()
    let records: [MarbleRecord<T>]
    private let clock: VirtualTimeContext
    private let input: SignalInput<T>
    private let multi: SignalMulti<T>
    private var scheduled: [any Lifetime] = []

    init(test: MarbleTest, records: [MarbleRecord<T>], error: any Error) {
        self.records = records
        self.clock = test.clock
        let (input, signal) = Signal<T>.create(delivery: test.variant)
        self.input = input
        self.multi = signal.multicast()
    }

    /// A new branch of the hot source (a Signals signal has one output; a hot has many).
    var signal: Signal<T> {
        let logger = ActivationLogger(log: subscriptions, clock: clock)
        return multi
            .onActivate { logger.activated() }
            .onDeactivate { logger.ended() }
            .transform { result, next in
                // The source's end reaching this branch ends its subscription, as in RxJS.
                if case .failure = result { logger.ended() }
                next.send(result: result)
            }
    }

    var frames: [Int] { records.map(\.frame) }

    func send(record: Int) { send(records[record].event) }

    func scheduleFromZero() {
        scheduled = records.filter { $0.frame >= 0 }.map { r in
            let event = r.event
            return clock.schedule(after: .milliseconds(r.frame)) { [self] in send(event) }
        }
    }

    func stop() { scheduled = [] }

    private func send(_ event: MarbleEvent<T>) {
        switch event {
        case .value(let v): input.send(value: v)
        case .end(let e): input.send(end: e.signalEnd)
        }
    }
}

// MARK: - Cold

/// A cold source made by `MarbleTest.cold`: a factory of signals that replay the diagram.
final class ColdMarbles<T: Sendable>: Sendable {
    /// Every activation of every signal this source made.
    let subscriptions = SubscriptionLog()
    let records: [MarbleRecord<T>]
    let clock: VirtualTimeContext
    let variant: DeliveryVariant

    init(test: MarbleTest, records: [MarbleRecord<T>], error: any Error) {
        self.records = records
        self.clock = test.clock
        self.variant = test.variant
    }

    /// A new signal (each read makes one): every activation replays the diagram from its own
    /// frame; deactivation cancels what has not happened yet.
    var signal: Signal<T> {
        let logger = ActivationLogger(log: subscriptions, clock: clock)
        // The input is kept until deactivation: a released input would send `.cancelled`.
        let active = Mutex<(input: SignalInput<T>?, scheduled: [any Lifetime])>((nil, []))
        let records = self.records
        let clock = self.clock
        return Signal<T>.generate(delivery: variant) { input in
            guard let input else {
                let old = active.withLock { a in defer { a = (nil, []) }; return a }
                for l in old.scheduled { l.cancel() }
                logger.ended()
                withExtendedLifetime(old) {}
                return
            }
            logger.activated()
            // Relative frames: `schedule(after:)` counts from now, the activation frame.
            let lifetimes = records.map { r -> any Lifetime in
                let event = r.event
                return clock.schedule(after: .milliseconds(r.frame)) {
                    switch event {
                    case .value(let v):
                        input.send(value: v)
                    case .end(let e):
                        logger.ended()
                        input.send(end: e.signalEnd)
                    }
                }
            }
            active.withLock { $0 = (input, lifetimes) }
        }
    }
}

// MARK: - Expectations

/// `expectSignal(…)`'s result: call `toBe` on it.
final class SignalExpectation<T: Sendable & Equatable>: MarbleCheck, @unchecked Sendable {
    private let test: MarbleTest
    private let window: MarbleSubscription
    private final class Recording: Sendable {
        let state = Mutex<(records: [MarbleRecord<T>], open: Bool)>(([], true))
    }
    private let recorded = Recording()
    private var output: SignalOutput<T>?
    private var subscription: (any Lifetime)?
    private var unsubscription: (any Lifetime)?
    private var expected: (marbles: String, values: [Character: T], records: [MarbleRecord<T>], location: SourceLocation)?
    /// `toEqual`'s signal, recorded on the same subscription window (its output, its
    /// recording and its scheduled subscription and unsubscription).
    private var other: (output: SignalOutput<T>?, recorded: Recording, lifetimes: [any Lifetime], location: SourceLocation)?

    init(test: MarbleTest, signal: Signal<T>, window: MarbleSubscription) {
        self.test = test
        self.window = window
        let clock = test.clock
        let recorded = self.recorded
        subscription = clock.schedule(after: .milliseconds(window.subscribed)) { [self] in
            output = Self.record(signal, into: recorded, clock: clock)
        }
        if let u = window.unsubscribed {
            unsubscription = clock.schedule(after: .milliseconds(u)) { [self] in
                recorded.state.withLock { $0.open = false }
                output?.cancel()
            }
        }
    }

    private static func record(_ signal: Signal<T>, into recorded: Recording, clock: VirtualTimeContext) -> SignalOutput<T> {
        signal.subscribe { result in
            let frame = MarbleTest.frame(of: clock.now())
            let event: MarbleEvent<T> = switch result {
            case .success(let v): .value(v)
            case .failure(let e): .end(End(e))
            }
            recorded.state.withLock { r in
                if r.open { r.records.append(MarbleRecord(frame: frame, event: event)) }
            }
        }
    }

    /// What the signal should deliver, as a diagram (frames from 0, whatever the subscription
    /// frame, as in RxJS).
    ///
    /// - Parameters:
    ///   - marbles: the expected diagram.
    ///   - values: the value of each value character (String values may be left out).
    ///   - error: what `#` stands for (compared by `String(describing:)`).
    func toBe(
        _ marbles: String, values: [Character: T] = [:], error: any Error = MarbleError(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let records = test.parse(marbles, values: values, error: error, hot: false, sourceLocation: sourceLocation)
        expected = (marbles, values, records, sourceLocation)
    }

    /// RxJS's `expectObservable(a).toEqual(b)`: `other` should deliver what this signal
    /// delivers, event for event at the same frames. `other` is subscribed and unsubscribed at
    /// the same frames as this signal (just after it, as RxJS schedules it), on the same
    /// clock; a mismatch draws both diagrams.
    ///
    /// - Parameter other: the signal whose diagram is the expected one.
    func toEqual(_ other: Signal<T>, sourceLocation: SourceLocation = #_sourceLocation) {
        precondition(self.other == nil && expected == nil, "one toBe or toEqual per expectSignal")
        let clock = test.clock
        let recorded = Recording()
        var lifetimes: [any Lifetime] = []
        lifetimes.append(clock.schedule(after: .milliseconds(window.subscribed)) { [self] in
            self.other?.output = Self.record(other, into: recorded, clock: clock)
        })
        if let u = window.unsubscribed {
            lifetimes.append(clock.schedule(after: .milliseconds(u)) { [self] in
                recorded.state.withLock { $0.open = false }
                self.other?.output?.cancel()
            })
        }
        self.other = (nil, recorded, lifetimes, sourceLocation)
    }

    func stop() {
        recorded.state.withLock { $0.open = false }
        output?.cancel()
        output = nil
        subscription = nil
        unsubscription = nil
        if let o = other {
            o.recorded.state.withLock { $0.open = false }
            o.output?.cancel()
            other = (nil, o.recorded, [], o.location)
        }
    }

    func evaluate() {
        if let other {
            let actual = recorded.state.withLock { $0.records }
            let wanted = other.recorded.state.withLock { $0.records }
            if actual == wanted { return }
            let e = MarbleDrawing.draw(wanted, values: [:])
            let a = MarbleDrawing.draw(actual, values: [:])
            let message = """
                the signal's diagram differs from the other signal's (toEqual)
                  expected: \(e.diagram)\(e.exact ? "" : "   (a group overlaps a later frame: see the events)")
                  actual:   \(a.diagram)\(a.exact ? "" : "   (a group overlaps a later frame: see the events)")
                  expected events: \(MarbleDrawing.list(wanted))
                  actual events:   \(MarbleDrawing.list(actual))
                """
            Issue.record(Comment(rawValue: message), sourceLocation: other.location)
            return
        }
        guard let expected else {
            Issue.record("expectSignal without toBe or toEqual", sourceLocation: test.sourceLocation)
            return
        }
        let actual = recorded.state.withLock { $0.records }
        if actual == expected.records { return }
        let e = MarbleDrawing.draw(expected.records, values: expected.values)
        let a = MarbleDrawing.draw(actual, values: expected.values)
        var message = """
            the signal's diagram differs
              expected: \(e.diagram)
              actual:   \(a.diagram)\(a.exact ? "" : "   (a group overlaps a later frame: see the events)")
              expected events: \(MarbleDrawing.list(expected.records))
              actual events:   \(MarbleDrawing.list(actual))
            """
        message += "\n  as written: \"\(expected.marbles)\""
        Issue.record(Comment(rawValue: message), sourceLocation: expected.location)
    }
}

/// `expectSubscriptions(…)`'s result: call `toBe` on it.
final class SubscriptionExpectation: MarbleCheck {
    private let log: SubscriptionLog
    private var expected: (marbles: [String], subscriptions: [MarbleSubscription], location: SourceLocation)?
    /// The log as it was when the clock stopped, before the test tore its graphs down.
    private var atClockStop: [MarbleSubscription]?

    init(log: SubscriptionLog) {
        self.log = log
    }

    /// The subscriptions the log should hold, one diagram each, in the order they began (none:
    /// never subscribed).
    func toBe(_ marbles: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        toBe(marbles, sourceLocation: sourceLocation)
    }

    /// The subscriptions the log should hold, one diagram each, in the order they began. A
    /// diagram without `^` stands for no subscription and is left out, as in RxJS's rxTest
    /// (specs use one to mark where a source is not subscribed again).
    func toBe(_ marbles: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var parsed: [MarbleSubscription] = []
        for m in marbles where m.contains("^") {
            do { parsed.append(try MarbleParser.parseSubscription(m)) } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        expected = (marbles, parsed, sourceLocation)
    }

    func clockStopped() { atClockStop = log.subscriptions }

    func stop() {}

    func evaluate() {
        guard let expected else { return }
        let actual = atClockStop ?? log.subscriptions
        if actual == expected.subscriptions { return }
        let pad = "\n            "
        let message = """
            the subscriptions differ
              expected: \(expected.subscriptions.map(MarbleDrawing.draw).joined(separator: pad))
              actual:   \(actual.map(MarbleDrawing.draw).joined(separator: pad))
              expected frames: \(expected.subscriptions)
              actual frames:   \(actual)
            """
        Issue.record(Comment(rawValue: message), sourceLocation: expected.location)
    }
}

extension End {
    /// The `SignalEnd` this stands for (an error becomes a `MarbleError` with its description).
    var signalEnd: SignalEnd {
        switch self {
        case .complete: .complete
        case .cancelled: .cancelled
        case .error(let s): .other(MarbleError(s))
        }
    }
}
