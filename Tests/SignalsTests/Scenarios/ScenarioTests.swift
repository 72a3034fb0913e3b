import Dispatch
import Signals
import Testing

// MARK: Scenario 2: a key-value store

/// A command to the store.
enum StoreCommand: Sendable {
    case set(String, Int)
    case remove(String)
}

/// A thread-safe key-value store whose state lives in `map(initialState:)` and is exposed as a
/// `continuous` `SignalMulti<[String: Int]>`. The store keeps its own subscription so the
/// state stays active (the state of `map(initialState:)` lives for one activation).
final class KeyValueStore: Sendable {
    let commands: SignalInput<StoreCommand>
    let state: SignalMulti<[String: Int]>
    private let keepAlive: SignalOutput<[String: Int]>

    init(delivery: DeliveryVariant) {
        (commands, state) = Signal<StoreCommand>.create(delivery: delivery) {
            $0.map(initialState: [String: Int]()) { (contents: inout [String: Int], command: StoreCommand) in
                switch command {
                case .set(let key, let value): contents[key] = value
                case .remove(let key): contents[key] = nil
                }
                return contents
            }.continuous(initialValue: [:])
        }
        keepAlive = state.subscribeValues { _ in }
    }

    @discardableResult func set(_ key: String, _ value: Int) -> SignalSendError? { commands.send(value: .set(key, value)) }
    @discardableResult func remove(_ key: String) -> SignalSendError? { commands.send(value: .remove(key)) }

    /// The current contents, read synchronously from the continuous signal's cache.
    var snapshot: [String: Int]? { state.capture().values.last }

    deinit { keepAlive.cancel() }
}

// MARK: Scenario 3: a connect request with a timeout

/// A timer signal (test double on virtual time): one value after `delay` from activation,
/// then complete; cancelled on deactivation.
func virtualTimer(after delay: Duration, on virtual: VirtualTimeContext, delivery: DeliveryVariant,
                  log: Shared<[String]>) -> Signal<Void> {
    let pending = Shared<(any Lifetime)?>(nil)
    return Signal<Void>.generate(delivery: delivery) { input in
        if let input {
            log.update { $0.append("timer started") }
            pending.value = Exec.custom(virtual).schedule(after: delay) {
                input.send(value: ())
                input.complete()
            }
        } else {
            log.update { $0.append("timer stopped") }
            pending.value?.cancel()
            pending.value = nil
        }
    }
}

/// The connect request: the response, or `CoreError.timeout` if the timer fires first.
func connectWithTimeout(_ response: Signal<String>, timer: Signal<Void>) -> Signal<String> {
    response.combine(timer) { (either: EitherResult2<String, Void>, next: SignalNext<String>) in
        switch either {
        case .result1(.success(let reply)):
            next.send(value: reply)
            next.complete()
        case .result1(.failure(let end)):
            next.send(end: end)
        case .result2(.success):
            next.send(end: .other(CoreError.timeout))
        case .result2(.failure):
            break
        }
    }
}

/// The three app scenarios of the reactive-programming articles.
@Suite struct ScenarioTests {
    /// Scenario 1: a button's enabled state is `combineLatest` of a logged-in flag and a
    /// selection: nothing until both are known, then every change; a late observer (a second
    /// button binding) gets the current state at once.
    @Test(arguments: DeliveryVariant.allCases)
    func buttonEnabledFromLoginAndSelection(_ variant: DeliveryVariant) {
        let (loggedIn, loginSignal) = Signal<Bool>.create(delivery: variant)
        let (selection, selectionSignal) = Signal<Int?>.create(delivery: variant)
        let enabled = loginSignal.combineLatest(selectionSignal) { isLoggedIn, selected in
            isLoggedIn && selected != nil
        }.continuous()
        let (button, out) = enabled.collect()
        loggedIn.send(value: false)
        #expect(button.events == [])
        selection.send(value: nil)
        #expect(button.events == [.value(false)])
        loggedIn.send(value: true)
        selection.send(value: 3)
        selection.send(value: 4)
        loggedIn.send(value: false)
        selection.send(value: nil)
        loggedIn.send(value: true)
        selection.send(value: 7)
        #expect(button.events == [false, false, true, true, false, false, false, true].map { .value($0) })
        let (lateButton, lateOut) = enabled.collect()
        #expect(lateButton.events == [.value(true)])
        loggedIn.send(value: false)
        #expect(lateButton.events == [.value(true), .value(false)])
        #expect(button.events.last == .value(false))
        out.cancel()
        lateOut.cancel()
    }

    /// Scenario 2: the store applies commands in order; a new subscriber gets the current
    /// contents synchronously, exactly once, then every change.
    @Test(arguments: DeliveryVariant.allCases)
    func keyValueStoreSequential(_ variant: DeliveryVariant) {
        let store = KeyValueStore(delivery: variant)
        #expect(store.snapshot == [:])
        #expect(store.set("a", 1) == nil)
        #expect(store.set("b", 2) == nil)
        store.set("a", 3)
        store.remove("b")
        let (c, out) = store.state.collect()
        #expect(c.events == [.value(["a": 3])])
        store.set("c", 4)
        #expect(c.events == [.value(["a": 3]), .value(["a": 3, "c": 4])])
        #expect(store.snapshot == ["a": 3, "c": 4])
        out.cancel()
    }

    /// Scenario 2 under load: four threads write distinct keys at once; every write lands, an
    /// observer sees one snapshot per write, each with exactly one more key, never concurrently.
    @Test(.tags(.startsThreads), arguments: DeliveryVariant.allCases)
    func keyValueStoreIsThreadSafe(_ variant: DeliveryVariant) {
        let store = KeyValueStore(delivery: variant)
        let (observer, out) = store.state.collect()
        let threads = 4
        let perThread = 500
        let refused = Counter()
        #expect(runThreads(threads) { t in
            for i in 0..<perThread where store.set("t\(t)-\(i)", t * 10_000 + i) != nil { refused.add() }
        })
        #expect(refused.value == 0)
        let snapshots = observer.values
        #expect(snapshots.map(\.count) == Array(0...(threads * perThread)))
        var expected: [String: Int] = [:]
        for t in 0..<threads { for i in 0..<perThread { expected["t\(t)-\(i)"] = t * 10_000 + i } }
        #expect(snapshots.last == expected)
        #expect(store.snapshot == expected)
        #expect(observer.overlaps == 0)
        out.cancel()
    }

    /// Scenario 3, reply first: the reply and completion are delivered and the timer is
    /// stopped (its scheduled work removed).
    @Test(arguments: DeliveryVariant.allCases)
    func connectSucceedsBeforeTimeout(_ variant: DeliveryVariant) {
        let virtual = VirtualTimeContext()
        let log = Shared<[String]>([])
        let (response, responseSignal) = Signal<String>.create(delivery: variant)
        let (c, out) = connectWithTimeout(responseSignal, timer: virtualTimer(after: .seconds(5), on: virtual, delivery: variant, log: log)).collect()
        #expect(log.value == ["timer started"])
        #expect(virtual.pendingCount == 1)
        virtual.advance(by: .seconds(4))
        #expect(c.events == [])
        #expect(response.send(value: "connected") == nil)
        #expect(c.events == [.value("connected"), .complete])
        #expect(log.value == ["timer started", "timer stopped"])
        #expect(virtual.pendingCount == 0)
        virtual.advance(by: .seconds(10))
        #expect(c.events == [.value("connected"), .complete])
        #expect(response.send(value: "late") != nil)
        out.cancel()
    }

    /// Scenario 3, timer first: the request fails with the timeout error; a reply after that
    /// is refused and never delivered.
    @Test(arguments: DeliveryVariant.allCases)
    func connectTimesOut(_ variant: DeliveryVariant) {
        let virtual = VirtualTimeContext()
        let log = Shared<[String]>([])
        let (response, responseSignal) = Signal<String>.create(delivery: variant)
        let (c, out) = connectWithTimeout(responseSignal, timer: virtualTimer(after: .seconds(5), on: virtual, delivery: variant, log: log)).collect()
        virtual.advance(by: .milliseconds(4_999))
        #expect(c.events == [])
        virtual.advance(by: .milliseconds(1))
        #expect(c.events == [.timeout])
        #expect(response.send(value: "too late") != nil)
        #expect(c.events == [.timeout])
        #expect(log.value == ["timer started", "timer stopped"])
        #expect(virtual.pendingCount == 0)
        out.cancel()
    }

    /// Scenario 3, the request fails before the timeout: its error is passed on and the timer
    /// stops.
    @Test(arguments: DeliveryVariant.allCases)
    func connectFailsBeforeTimeout(_ variant: DeliveryVariant) {
        let virtual = VirtualTimeContext()
        let log = Shared<[String]>([])
        let (response, responseSignal) = Signal<String>.create(delivery: variant)
        let (c, out) = connectWithTimeout(responseSignal, timer: virtualTimer(after: .seconds(5), on: virtual, delivery: variant, log: log)).collect()
        virtual.advance(by: .seconds(1))
        response.send(end: .other(CoreError.boom))
        #expect(c.events == [.boom])
        #expect(log.value == ["timer started", "timer stopped"])
        virtual.advance(by: .seconds(10))
        #expect(c.events == [.boom])
        out.cancel()
    }
}
