// The scenarios from the articles about reactive programming that the README points to, as
// runnable tests. Each builds a small piece of app code from the library's operators, then
// drives it the way an app would. Time runs on a `VirtualTimeContext`, so nothing sleeps and
// every step is deterministic; the one real background thread (scenario 1) is joined before
// its effect is checked.

import Dispatch
import Signals
import Synchronization
import Testing

// MARK: - 1. A button whose enabled state follows a logged-in flag and a selection

/// A stand-in for a UI control (only touched on the "main" context).
final class ArticleButton: Sendable {
    let enabled = Mutex(false)
    var isEnabled: Bool { enabled.withLock { $0 } }
}

/// View-model: the button is enabled while the user is logged in and something is selected.
final class ArticleSelectionViewModel: Sendable {
    let loggedIn: SignalInput<Bool>
    let selection: SignalInput<Int?>
    let buttonEnabled: SignalMulti<Bool>

    init(delivery: DeliveryVariant) {
        let (loggedInInput, loggedIn) = Signal<Bool>.create(delivery: delivery) { $0.continuous(initialValue: false) }
        let (selectionInput, selection) = Signal<Int?>.create(delivery: delivery) { $0.continuous(initialValue: nil) }
        self.loggedIn = loggedInInput
        self.selection = selectionInput
        buttonEnabled = loggedIn.combineLatest(selection) { $0 && $1 != nil }
            .distinctUntilChanged()
            .continuous()
    }
}

// MARK: - 2. A thread-safe key-value store

/// Every change goes through one signal, so writes from any thread are serialized by the
/// delivery path; readers see snapshots. No lock in the store itself.
final class ArticleKeyValueStore: Sendable {
    enum Change: Sendable {
        case set(String, String)
        case remove(String)
    }

    let changes: SignalInput<Change>
    /// The current contents; a new subscriber gets the latest snapshot first.
    let contents: SignalMulti<[String: String]>
    let keepAlive: SignalOutput<[String: String]>

    init(delivery: DeliveryVariant) {
        (changes, contents) = Signal<Change>.create(delivery: delivery) { changes in
            changes.scan(initialValue: [String: String]()) { dictionary, change in
                var d = dictionary
                switch change {
                case .set(let k, let v): d[k] = v
                case .remove(let k): d[k] = nil
                }
                return d
            }.continuous(initialValue: [:])
        }
        // The store is live for its whole life, subscribers or not.
        keepAlive = contents.subscribeValues { _ in }
    }

    func set(_ value: String, for key: String) { changes.send(value: .set(key, value)) }
    func remove(_ key: String) { changes.send(value: .remove(key)) }

    /// A snapshot of the contents right now.
    var snapshot: [String: String] { contents.capture().values.last ?? [:] }
}

// MARK: - 3. A service whose `connect(timeout:)` keeps only the latest attempt

struct ArticleConnection: Sendable, Equatable {
    let host: String
}

enum ArticleConnectionState: Sendable, Equatable {
    case connecting(String)
    case connected(ArticleConnection)
    case failed(String)
}

/// A fake network: dials wait until the test answers them.
final class ArticleFakeNetwork: Sendable {
    let pending = Mutex<[String: SignalInput<ArticleConnection>]>([:])
    let dialed = Collected<String>()
    let delivery: DeliveryVariant
    init(delivery: DeliveryVariant) { self.delivery = delivery }

    func dial(_ host: String) -> Signal<ArticleConnection> {
        Signal<ArticleConnection>.generate(delivery: delivery) { [self] input in
            if let input {
                dialed.append(host)
                pending.withLock { $0[host] = input }
            }
        }
    }

    /// Answers a dial; returns whether anyone was still listening.
    @discardableResult
    func accept(_ host: String) -> Bool {
        guard let input = pending.withLock({ $0.removeValue(forKey: host) }) else { return false }
        return input.send(value: ArticleConnection(host: host)) == nil
    }
}

final class ArticleConnectionService: Sendable {
    struct Request: Sendable {
        let host: String
        let timeout: Duration
    }

    let requests: SignalInput<Request>
    /// The state of the latest attempt; a new `connect` abandons the previous attempt.
    let state: SignalMulti<ArticleConnectionState>

    init(network: ArticleFakeNetwork, context: Exec, delivery: DeliveryVariant) {
        (requests, state) = Signal<Request>.create(delivery: delivery) { requests in
            requests.flatMapLatest { request in
                network.dial(request.host)
                    .first()
                    .timeout(interval: request.timeout, resetOnValue: false, context: context)
                    .materialize()
                    .compactMap { result -> ArticleConnectionState? in
                        switch result {
                        case .success(let connection): return .connected(connection)
                        case .failure(.complete): return nil
                        case .failure(let end): return .failed("\(end)")
                        }
                    }
                    .startWith(.connecting(request.host))
            }.continuous()
        }
    }

    func connect(to host: String, timeout: Duration) {
        requests.send(value: Request(host: host, timeout: timeout))
    }
}

// MARK: - 4. Live search

/// Debounce typing by 0.3 s, ignore queries shorter than 4 characters (and repeats), and keep
/// only the latest request.
func makeLiveSearch(
    queries: Signal<String>,
    context: Exec,
    search: @escaping @Sendable (String) -> Signal<[String]>
) -> Signal<[String]> {
    queries
        .debounce(interval: .milliseconds(300), context: context)
        .filter { $0.count >= 4 }
        .distinctUntilChanged()
        .flatMapLatest(search)
}

/// A fake search backend that answers after a fixed virtual latency.
final class ArticleFakeSearchBackend: Sendable {
    let requests = Collected<String>()
    let context: Exec
    let latency: Duration
    let delivery: DeliveryVariant
    init(context: Exec, latency: Duration, delivery: DeliveryVariant) {
        self.context = context
        self.latency = latency
        self.delivery = delivery
    }

    func search(_ query: String) -> Signal<[String]> {
        requests.append(query)
        return Signal.timer(interval: latency, value: ["\(query) 1", "\(query) 2"], context: context, delivery: delivery)
    }
}

// MARK: - 5. The polling loader

enum ArticleLoadError: Error, Equatable {
    case network
    case unauthorized
}

enum ArticleLoadEvent: Sendable, Equatable {
    case loaded(Int)
    case slow
    case failed(String)
}

/// A fake backend whose requests wait until the test answers them.
final class ArticleFakeBackend: Sendable {
    let pending = Mutex<[SignalInput<Int>]>([])
    let requestCount = Atomic<Int>(0)
    let delivery: DeliveryVariant
    init(delivery: DeliveryVariant) { self.delivery = delivery }

    var requests: Int { requestCount.load(ordering: .relaxed) }

    func fetch() -> Signal<Int> {
        Signal<Int>.generate(delivery: delivery) { [self] input in
            guard let input else { return }
            requestCount.add(1, ordering: .relaxed)
            pending.withLock { $0.append(input) }
        }
    }

    /// Answers every request in flight.
    func respond(_ result: Result<Int, ArticleLoadError>) {
        let inputs = pending.withLock { p -> [SignalInput<Int>] in
            defer { p = [] }
            return p
        }
        for input in inputs {
            switch result {
            case .success(let v):
                input.send(value: v)
                input.complete()
            case .failure(let e):
                input.send(end: .other(e))
            }
        }
    }
}

/// Loads on start and on every manual refresh; retries network errors a few times (1 s apart);
/// polls again a minute after each success; says `.slow` when a load takes more than 5 s;
/// stops polling after an unrecoverable error until the next refresh. `events` is shared:
/// however many subscribers, one request is in flight.
final class ArticlePollingLoader: Sendable {
    let refresh: SignalInput<Void>
    let events: SignalMulti<ArticleLoadEvent>

    init(backend: ArticleFakeBackend, context: Exec, delivery: DeliveryVariant,
         retries: Int = 3, period: Duration = .seconds(60), slowAfter: Duration = .seconds(5)) {
        // One load: the request with retries, plus `.slow` if it takes too long.
        @Sendable func load() -> Signal<ArticleLoadEvent> {
            let response = Signal<Int>.retry(when: { error, n in
                guard error as? ArticleLoadError == .network, n <= retries else { return nil }
                return Signal<Void>.timer(interval: .seconds(1), context: context, delivery: delivery)
            }) { backend.fetch() }.multicast()
            let slow = Signal.timer(interval: slowAfter, value: ArticleLoadEvent.slow, context: context, delivery: delivery)
                .takeUntil(response)
            return response.map { ArticleLoadEvent.loaded($0) }.merge(with: slow)
        }
        // Load, then (only after it succeeded) wait a period and go again.
        @Sendable func poll() -> Signal<ArticleLoadEvent> {
            load().materialize().flatMap { result -> Signal<ArticleLoadEvent> in
                switch result {
                case .success(let event):
                    return .just(event, delivery: delivery)
                case .failure(.complete):
                    return Signal<Void>.timer(interval: period, context: context, delivery: delivery).flatMap { poll() }
                case .failure(.other(let error)):
                    return .failing(error, delivery: delivery)
                case .failure(.cancelled):
                    return .empty(delivery: delivery)
                }
            }
        }
        (refresh, events) = Signal<Void>.create(delivery: delivery) { refreshes in
            refreshes.startWith(()).flatMapLatest { _ in
                poll().catchError { error in .just(.failed("\(error)"), delivery: delivery) }
            }.continuous()
        }
    }
}

// MARK: - The tests

@Suite struct ArticleScenarioTests {
    static let variants = DeliveryVariant.allCases

    @Test(.tags(.startsThreads), arguments: variants) func buttonFollowsLoginAndSelection(_ v: DeliveryVariant) {
        let main = VirtualTimeContext()  // plays the main thread
        let model = ArticleSelectionViewModel(delivery: v)
        let button = ArticleButton()
        let binding = model.buttonEnabled.subscribeValues(context: .custom(main)) { enabled in
            button.enabled.withLock { $0 = enabled }
        }
        main.runUntilIdle()
        #expect(!button.isEnabled)

        model.selection.send(value: 3)
        main.runUntilIdle()
        #expect(!button.isEnabled, "selected, but not logged in")

        // The login flag changes on a background thread; the button updates on "main".
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            model.loggedIn.send(value: true)
            done.signal()
        }
        done.wait()
        #expect(!button.isEnabled, "not until the main context runs")
        main.runUntilIdle()
        #expect(button.isEnabled)

        model.selection.send(value: nil)
        main.runUntilIdle()
        #expect(!button.isEnabled)
        withExtendedLifetime(binding) {}
    }

    @Test(.tags(.startsThreads), arguments: variants) func keyValueStoreSerializesConcurrentWriters(_ v: DeliveryVariant) {
        let store = ArticleKeyValueStore(delivery: v)
        let sizes = Collected<Int>()
        let observer = store.contents.subscribeValues { sizes.append($0.count) }
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for i in 0..<250 { store.set("\(writer)-\(i)", for: "k\(writer)-\(i)") }
        }
        let snapshot = store.snapshot
        #expect(snapshot.count == 1000)
        #expect(snapshot["k2-17"] == "2-17")
        #expect(sizes.all == Array(0...1000), "each write was applied exactly once, one at a time")
        store.remove("k2-17")
        #expect(store.snapshot["k2-17"] == nil)
        #expect(store.snapshot.count == 999)
        withExtendedLifetime(observer) {}
    }

    @Test(arguments: variants) func connectKeepsOnlyTheLatestAttempt(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let network = ArticleFakeNetwork(delivery: v)
        let service = ArticleConnectionService(network: network, context: .custom(vt), delivery: v)
        let states = Recorder(service.state)

        service.connect(to: "a", timeout: .seconds(5))
        vt.advance(by: .seconds(2))
        service.connect(to: "b", timeout: .seconds(5))
        vt.advance(by: .seconds(4))  // past a's deadline: a was abandoned, so no timeout
        #expect(states.values == [.connecting("a"), .connecting("b")])
        #expect(!network.accept("a"), "the abandoned dial has no listener")
        #expect(network.accept("b"))
        #expect(states.values.last == .connected(ArticleConnection(host: "b")))
        vt.advance(by: .seconds(10))
        #expect(states.values.count == 3, "a finished attempt's timer is gone")

        service.connect(to: "c", timeout: .seconds(1))
        vt.advance(by: .seconds(1))
        #expect(states.values.suffix(2) == [.connecting("c"), .failed("\(SignalEnd.other(SignalOperatorError.timeout))")])
        #expect(states.end == nil, "a failed attempt does not end the service's state")
        #expect(network.dialed.all == ["a", "b", "c"])
    }

    @Test(arguments: variants) func liveSearch(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let backend = ArticleFakeSearchBackend(context: .custom(vt), latency: .seconds(1), delivery: v)
        let (typing, queries) = Signal<String>.create(delivery: v)
        let results = Recorder(makeLiveSearch(queries: queries, context: .custom(vt)) { backend.search($0) })

        func type(_ text: String, thenWait ms: Int64) {
            typing.send(value: text)
            vt.advance(by: .milliseconds(ms))
        }
        type("abc", thenWait: 500)  // too short: no request
        #expect(backend.requests.all == [])
        type("s", thenWait: 100)
        type("sw", thenWait: 100)
        type("swi", thenWait: 100)
        type("swif", thenWait: 100)
        type("swift", thenWait: 300)  // 0.3 s of quiet: one request
        #expect(backend.requests.all == ["swift"])
        type("swiftu", thenWait: 100)
        type("swiftui", thenWait: 300)  // a new request replaces the one in flight
        #expect(backend.requests.all == ["swift", "swiftui"])
        vt.advance(by: .seconds(2))
        #expect(results.values == [["swiftui 1", "swiftui 2"]], "the first request's answer was dropped")
        type("swiftu", thenWait: 50)
        type("swiftui", thenWait: 300)  // same query again: no new request
        #expect(backend.requests.all == ["swift", "swiftui"])
    }

    @Test(arguments: variants) func pollingLoader(_ v: DeliveryVariant) {
        let vt = VirtualTimeContext()
        let backend = ArticleFakeBackend(delivery: v)
        let loader = ArticlePollingLoader(backend: backend, context: .custom(vt), delivery: v)

        // Two subscribers share one request.
        let first = Recorder(loader.events)
        let second = Recorder(loader.events)
        #expect(backend.requests == 1)

        vt.advance(by: .seconds(5))
        #expect(first.values == [.slow], "taking longer than expected")
        backend.respond(.success(1))
        #expect(first.values == [.slow, .loaded(1)])
        #expect(second.values == first.values)

        // The next poll comes a minute after the success.
        vt.advance(by: .seconds(59))
        #expect(backend.requests == 1)
        vt.advance(by: .seconds(1))
        #expect(backend.requests == 2)
        // A network error is retried after a second; a quick answer is not slow.
        backend.respond(.failure(.network))
        #expect(backend.requests == 2)
        vt.advance(by: .seconds(1))
        #expect(backend.requests == 3)
        backend.respond(.success(2))
        #expect(first.values == [.slow, .loaded(1), .loaded(2)])

        // An unrecoverable error stops polling until a manual refresh.
        vt.advance(by: .seconds(60))
        #expect(backend.requests == 4)
        backend.respond(.failure(.unauthorized))
        #expect(first.values.last == .failed("\(ArticleLoadError.unauthorized)"))
        vt.advance(by: .seconds(600))
        #expect(backend.requests == 4)
        loader.refresh.send(value: ())
        #expect(backend.requests == 5)
        backend.respond(.success(3))
        #expect(first.values.last == .loaded(3))

        // Network errors are retried three times, then reported; polling stops.
        vt.advance(by: .seconds(60))
        for _ in 0..<3 {
            backend.respond(.failure(.network))
            vt.advance(by: .seconds(1))
        }
        #expect(backend.requests == 9)
        backend.respond(.failure(.network))
        #expect(first.values.last == .failed("\(ArticleLoadError.network)"))
        vt.advance(by: .seconds(600))
        #expect(backend.requests == 9)
        #expect(second.values == first.values)
        #expect(first.end == nil)
    }
}
