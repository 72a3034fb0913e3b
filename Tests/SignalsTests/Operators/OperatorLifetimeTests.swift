import Dispatch
import Signals
import Synchronization
import Testing

/// Something whose release the tests can observe.
final class Canary: Sendable {
    let released: Flagged
    init(_ released: Flagged) { self.released = released }
    deinit { released.set() }
}

final class Flagged: Sendable {
    let flag = Atomic<Bool>(false)
    init() {}
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// Operators built on a private side signal must not keep their graph alive once it is
/// cancelled and released (no reference cycle through timers, inner subscriptions or the side
/// input), and must stay serialized when values arrive from several threads.
@Suite struct OperatorLifetimeTests {
    static let variants = DeliveryVariant.allCases

    typealias Op = @Sendable (Signal<Int>, Canary, VirtualTimeContext, DeliveryVariant) -> Signal<Int>

    static let operators: [(String, Op)] = [
        ("flatMap", { s, c, _, v in s.flatMap { n in withExtendedLifetime(c) { Signal.just(n, delivery: v) } } }),
        ("flatMapLatest", { s, c, _, _ in s.flatMapLatest { _ in withExtendedLifetime(c) { Signal<Int>.never() } } }),
        ("concatMap", { s, c, _, _ in s.concatMap { _ in withExtendedLifetime(c) { Signal<Int>.never() } } }),
        ("debounce", { s, c, vt, _ in s.debounce(interval: .seconds(1), context: .custom(vt)).onValue { _ in withExtendedLifetime(c) {} } }),
        ("delay", { s, c, vt, _ in s.delay(interval: .seconds(1), context: .custom(vt)).onValue { _ in withExtendedLifetime(c) {} } }),
        ("timeout", { s, c, vt, _ in s.timeout(interval: .seconds(1), context: .custom(vt)).onValue { _ in withExtendedLifetime(c) {} } }),
        ("bufferTimeSpan", { s, c, vt, _ in s.buffer(timeSpan: .seconds(1), context: .custom(vt)).map { b in withExtendedLifetime(c) { b.count } } }),
        ("catchError", { s, c, _, _ in s.catchError { _ in withExtendedLifetime(c) { Signal<Int>.never() } } }),
        ("startWith", { s, c, _, _ in s.startWith(0).onValue { _ in withExtendedLifetime(c) {} } }),
        ("retry", { _, c, _, _ in Signal<Int>.retry(count: 1) { withExtendedLifetime(c) { Signal<Int>.never() } } }),
        ("interval", { _, c, vt, _ in Signal<Int>.interval(.seconds(1), context: .custom(vt)).onValue { _ in withExtendedLifetime(c) {} } }),
    ]

    @Test(arguments: variants) func cancelledGraphsAreReleased(_ v: DeliveryVariant) {
        for (name, op) in Self.operators {
            let released = Flagged()
            let vt = VirtualTimeContext()
            do {
                let (input, signal) = Signal<Int>.create(delivery: v)
                let output = op(signal, Canary(released), vt, v).subscribe { _ in }
                input.send(value: 1)
                vt.advance(by: .milliseconds(500))
                input.send(value: 2)
                output.cancel()
            }
            vt.runAll()
            #expect(released.isSet, "\(name): the graph was not released")
            #expect(vt.pendingCount == 0, "\(name): a timer outlived its graph")
        }
    }

    @Test(.tags(.startsThreads), arguments: variants) func stageOperatorsStaySerializedUnderConcurrentSenders(_ v: DeliveryVariant) {
        // Two threads send into one input while each value spawns an inner signal that sends
        // from a third thread; the flatMap processor must see every result exactly once.
        let (input, signal) = Signal<Int>.create(delivery: v)
        let innerQueue = DispatchQueue(label: "inner")
        let sum = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let output = signal.flatMap { n in
            Signal<Int>.generate(delivery: v) { inner in
                guard let inner else { return }
                innerQueue.async {
                    inner.send(value: n)
                    inner.complete()
                }
            }
        }.subscribe { r in
            switch r {
            case .success(let n):
                sum.add(n, ordering: .relaxed)
                count.add(1, ordering: .relaxed)
            case .failure:
                finished.signal()
            }
        }
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            for i in 1...perThread { input.send(value: t * perThread + i) }
        }
        input.complete()
        finished.wait()
        let n = 2 * perThread
        #expect(count.load(ordering: .relaxed) == n)
        #expect(sum.load(ordering: .relaxed) == n * (n + 1) / 2)
        withExtendedLifetime(output) {}
    }

    @Test(.tags(.startsThreads), arguments: variants) func flatMapLatestCancelsInnersThatSendFromOtherThreads(_ v: DeliveryVariant) {
        // Each inner signal keeps sending from its own queue while the outer signal replaces it
        // from this thread: cancelling an inner signal in the middle of its deliveries must
        // neither deadlock nor let an old inner's values through after the last switch.
        let (input, signal) = Signal<Int>.create(delivery: v)
        let last = Atomic<Int>(-1)
        let done = DispatchSemaphore(value: 0)
        let rounds = 200
        let output = signal.flatMapLatest { n in
            Signal<Int>.generate(delivery: v) { inner in
                guard let inner else { return }
                DispatchQueue.global().async {
                    for _ in 0..<20 where inner.send(value: n) == nil {}
                    if n == rounds - 1 { inner.complete() }
                }
            }
        }.subscribe { r in
            switch r {
            case .success(let n): last.store(n, ordering: .relaxed)
            case .failure: done.signal()
            }
        }
        for n in 0..<rounds { input.send(value: n) }
        input.complete()
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success, "deadlocked")
        #expect(last.load(ordering: .relaxed) == rounds - 1)
        withExtendedLifetime(output) {}
    }
}
