import Signals
import Synchronization
import Testing

// RxJS's connectable operators (`publish`, `publishBehavior`, `publishReplay`, `publishLast`,
// `multicast(subject)`) wait for `connect()`; a `SignalMulti` has no connect step: it is
// active while it has a branch (`multicast()`, the WhileActive forms) or from the moment it is
// made (`continuous()`, `playback()`, `buffer(initials:updater:)`). A connection is therefore a
// branch of the multi that delivers nowhere: subscribing it is `connect()`, cancelling it is
// `connection.unsubscribe()`.

extension MarbleTest {
    /// RxJS's `connectable.connect()`: subscribes a branch of `multi` that ignores what it gets,
    /// at the `^` of `window` (now, in the test body, when it is frame 0, so it comes before the
    /// subscriptions `expectSignal` makes at frame 0, as `connect()` in an RxJS test body does),
    /// and cancels it at the `!` (at the end of the test without one): `schedule(() =>
    /// connection.unsubscribe(), n)`.
    ///
    /// - Parameters:
    ///   - multi: the multi to connect.
    ///   - window: a subscription diagram (`"^"` by default: connected at frame 0, never cancelled).
    func connect<T: Sendable>(_ multi: SignalMulti<T>, _ window: String = "^", sourceLocation: SourceLocation = #_sourceLocation) {
        var parsed = MarbleSubscription(subscribed: 0, unsubscribed: nil)
        do { parsed = try MarbleParser.parseSubscription(window) } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        addCheck(MarbleConnection(test: self, multi: multi, window: parsed))
    }
}

/// One connection made by `MarbleTest.connect`: a silent branch held from its `^` to its `!`.
final class MarbleConnection<T: Sendable>: MarbleCheck, @unchecked Sendable {
    // Touched only on the test's thread (the body and the clock's work run there).
    private var output: SignalOutput<T>?
    private var scheduled: [any Lifetime] = []

    init(test: MarbleTest, multi: SignalMulti<T>, window: MarbleSubscription) {
        let clock = test.clock
        if window.subscribed == 0 {
            output = multi.subscribe { _ in }
        } else {
            scheduled.append(clock.schedule(after: .milliseconds(window.subscribed)) { [self] in
                output = multi.subscribe { _ in }
            })
        }
        if let u = window.unsubscribed {
            scheduled.append(clock.schedule(after: .milliseconds(u)) { [self] in
                output?.cancel()
                output = nil
            })
        }
    }

    func stop() {
        output?.cancel()
        output = nil
        scheduled = []
    }

    func evaluate() {}
}
