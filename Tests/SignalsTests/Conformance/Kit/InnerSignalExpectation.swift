import Signals
import Synchronization
import Testing

// # Marble tests of signals of signals (windows, groups)
//
// RxJS's TestScheduler materializes an observable that an expected observable emits: it
// subscribes to it at the frame it is emitted and records its events relative to that frame,
// and the expected diagram's value is a `cold(…)` diagram of what the inner one should send.
// `m.expectInnerSignals(result).toBe(expected, values: ["x": x, …])` does the same for a
// `Signal<Signal<T>>`, with `x = m.cold("   ---a---(b|)")` (leading spaces only align it).
//
// Each inner signal is subscribed inside the handler that receives it, as Signals' windows and
// groups require (a value sent to one with no subscriber is dropped). At the unsubscription
// frame (`!`) the outer output is cancelled and the outer recording stops; the inner ones go on
// until the clock stops, as RxJS's `materializeInnerObservable` subscribes each inner
// observable on its own. In Signals the graph that feeds them is gone with the outer output,
// so they end there with `.cancelled` (a known difference: `.tornDownFromOutput`), where
// RxJS's inner subjects fall silent or, for groupBy's groups, go on.

/// An inner signal's events, frames counted from the frame it was delivered.
struct InnerDiagram<T: Sendable & Equatable>: Sendable, Equatable {
    var records: [MarbleRecord<T>]
}

extension MarbleTest {
    /// Subscribes to a signal of signals at the `^` of `unsubscription` (frame 0 without one),
    /// and to each inner signal as it arrives; `toBe` states what should arrive.
    func expectInnerSignals<T: Sendable & Equatable>(
        _ signal: Signal<Signal<T>>, unsubscription: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> InnerSignalExpectation<T> {
        var window = MarbleSubscription(subscribed: 0, unsubscribed: nil)
        if let unsubscription {
            do { window = try MarbleParser.parseSubscription(unsubscription) } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        let expectation = InnerSignalExpectation<T>(test: self, signal: signal, window: window)
        addCheck(expectation)
        return expectation
    }
}

/// `expectInnerSignals(…)`'s result: call `toBe` on it.
final class InnerSignalExpectation<T: Sendable & Equatable>: MarbleCheck, @unchecked Sendable {
    private let test: MarbleTest
    private struct Recording {
        /// The outer signal's events; a value is the index of its inner signal in `inner`.
        var outer: [MarbleRecord<Int>] = []
        /// Each inner signal's events, relative to the frame it arrived.
        var inner: [[MarbleRecord<T>]] = []
        var innerOutputs: [SignalOutput<T>] = []
        /// The outer signal is recorded until the unsubscription frame.
        var open = true
        /// The inner signals are recorded until the clock stops.
        var innersOpen = true
    }
    private final class Box: Sendable {
        let state = Mutex(Recording())
    }
    private let box = Box()
    // Touched only on the test's thread (the clock runs everything on it).
    private var output: SignalOutput<Signal<T>>?
    private var subscription: (any Lifetime)?
    private var unsubscription: (any Lifetime)?
    private var expected: (marbles: String, values: [Character: InnerDiagram<T>], innerValues: [Character: T], records: [MarbleRecord<InnerDiagram<T>>], location: SourceLocation)?

    init(test: MarbleTest, signal: Signal<Signal<T>>, window: MarbleSubscription) {
        self.test = test
        let clock = test.clock
        let box = self.box
        subscription = clock.schedule(after: .milliseconds(window.subscribed)) { [self] in
            output = signal.subscribe { result in
                let frame = MarbleTest.frame(of: clock.now())
                switch result {
                case .success(let inner):
                    let index = box.state.withLock { r -> Int? in
                        guard r.open else { return nil }
                        r.inner.append([])
                        r.outer.append(MarbleRecord(frame: frame, event: .value(r.inner.count - 1)))
                        return r.inner.count - 1
                    }
                    guard let index else { return }
                    // Subscribed here, in the handler that delivers it, so nothing sent into it is lost.
                    let innerOutput = inner.subscribe { r in
                        let at = MarbleTest.frame(of: clock.now()) - frame
                        let event: MarbleEvent<T> = switch r {
                        case .success(let v): .value(v)
                        case .failure(let e): .end(End(e))
                        }
                        box.state.withLock { rec in
                            if rec.innersOpen { rec.inner[index].append(MarbleRecord(frame: at, event: event)) }
                        }
                    }
                    box.state.withLock { $0.innerOutputs.append(innerOutput) }
                case .failure(let e):
                    box.state.withLock { r in
                        if r.open { r.outer.append(MarbleRecord(frame: frame, event: .end(End(e)))) }
                    }
                }
            }
        }
        if let u = window.unsubscribed {
            unsubscription = clock.schedule(after: .milliseconds(u)) { [self] in
                box.state.withLock { $0.open = false }
                output?.cancel()
            }
        }
    }

    /// What the signal should deliver: `marbles` for the outer signal, each value character
    /// standing for the cold diagram of what that inner signal should send (frames from its
    /// arrival).
    ///
    /// - Parameters:
    ///   - marbles: the expected outer diagram.
    ///   - values: the inner diagram of each value character.
    ///   - innerValues: draws inner values in a mismatch message (String values may be left out).
    ///   - error: what the outer `#` stands for.
    func toBe(
        _ marbles: String, values: [Character: ColdMarbles<T>], innerValues: [Character: T] = [:],
        error: any Error = MarbleError(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let diagrams = values.mapValues { InnerDiagram(records: $0.records) }
        let records = test.parse(marbles, values: diagrams, error: error, hot: false, sourceLocation: sourceLocation)
        expected = (marbles, diagrams, innerValues, records, sourceLocation)
    }

    func stop() {
        let outputs = box.state.withLock { r -> [SignalOutput<T>] in
            r.open = false
            r.innersOpen = false
            defer { r.innerOutputs = [] }
            return r.innerOutputs
        }
        output?.cancel()
        output = nil
        for o in outputs { o.cancel() }
        subscription = nil
        unsubscription = nil
    }

    func evaluate() {
        guard let expected else {
            Issue.record("expectInnerSignals without toBe", sourceLocation: test.sourceLocation)
            return
        }
        let (outer, inner) = box.state.withLock { ($0.outer, $0.inner) }
        let actual: [MarbleRecord<InnerDiagram<T>>] = outer.map { r in
            switch r.event {
            case .value(let i): MarbleRecord(frame: r.frame, event: .value(InnerDiagram(records: inner[i])))
            case .end(let e): MarbleRecord(frame: r.frame, event: .end(e))
            }
        }
        if actual == expected.records { return }
        let e = MarbleDrawing.draw(expected.records, values: expected.values)
        let a = MarbleDrawing.draw(actual, values: expected.values)
        var message = """
            the signal of signals differs
              expected: \(e.diagram)
              actual:   \(a.diagram)\(a.exact ? "" : "   (a group overlaps a later frame: see the events)")
            """
        for key in expected.values.keys.sorted() {
            let d = MarbleDrawing.draw(expected.values[key]!.records, values: expected.innerValues)
            message += "\n  expected \(key): \(d.diagram)"
        }
        for (i, r) in outer.enumerated() {
            guard case .value(let index) = r.event else { continue }
            let d = MarbleDrawing.draw(inner[index], values: expected.innerValues)
            message += "\n  actual inner \(i) (frame \(r.frame)): \(d.diagram)   [\(MarbleDrawing.list(inner[index]))]"
        }
        message += "\n  as written: \"\(expected.marbles)\""
        Issue.record(Comment(rawValue: message), sourceLocation: expected.location)
    }
}
