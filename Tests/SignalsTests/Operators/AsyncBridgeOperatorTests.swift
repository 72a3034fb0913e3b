import Signals
import Testing

@Suite struct AsyncBridgeOperatorTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func valuesAsAsyncSequence(_ v: DeliveryVariant) async throws {
        var got: [Int] = []
        for try await x in Signal.just(1, 2, 3, delivery: v).values { got.append(x) }
        #expect(got == [1, 2, 3])

        var beforeError: [Int] = []
        await #expect(throws: TestError.boom) {
            for try await x in Signal.just(1, delivery: v).concat(Signal.failing(TestError.boom, delivery: v)).values {
                beforeError.append(x)
            }
        }
        #expect(beforeError == [1])

        // Values sent before iteration starts are buffered.
        let (input, signal) = Signal<Int>.create(delivery: v)
        let stream = signal.values
        input.send(value: 4)
        input.send(value: 5)
        input.complete()
        var later: [Int] = []
        for try await x in stream { later.append(x) }
        #expect(later == [4, 5])
    }

    @Test(arguments: variants) func leavingTheLoopCancelsTheSubscription(_ v: DeliveryVariant) async throws {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let ended = Collected<String>()
        do {
            let stream = signal.onDeactivate { ended.append("deactivated") }.values
            input.send(value: 1)
            input.send(value: 2)
            for try await x in stream where x == 1 { break }
        }
        // The stream and its iterator are gone: the stream terminates, which cancels the
        // subscription.
        #expect(ended.all == ["deactivated"])
        #expect(input.send(value: 3) != nil)
    }

    @Test(arguments: variants) func signalFromAsyncSequence(_ v: DeliveryVariant) async throws {
        let source = AsyncStream<Int> { c in
            for i in 1...3 { c.yield(i) }
            c.finish()
        }
        var got: [Int] = []
        for try await x in Signal(source, delivery: v).map({ $0 * 10 }).values { got.append(x) }
        #expect(got == [10, 20, 30])

        struct Failing: AsyncSequence, Sendable {
            struct Iterator: AsyncIteratorProtocol {
                var n = 0
                mutating func next() async throws -> Int? {
                    n += 1
                    if n > 2 { throw TestError.boom }
                    return n
                }
            }
            func makeAsyncIterator() -> Iterator { Iterator() }
        }
        var beforeError: [Int] = []
        await #expect(throws: TestError.boom) {
            for try await x in Signal.from(asyncSequence: Failing(), delivery: v).values { beforeError.append(x) }
        }
        #expect(beforeError == [1, 2])
    }

    @Test(arguments: variants) func deactivationCancelsTheIteratingTask(_ v: DeliveryVariant) async throws {
        // An endless sequence; `take(2)` ends the result, which deactivates the source stage and
        // cancels its task, which terminates the stream.
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in
            terminated.continuation.yield(())
            terminated.continuation.finish()
        }
        for i in 1...5 { continuation.yield(i) }
        var got: [Int] = []
        for try await x in Signal(stream, delivery: v).take(2).values { got.append(x) }
        #expect(got == [1, 2])
        var sawTermination = false
        for await _ in terminated.stream { sawTermination = true }
        #expect(sawTermination)

        // A second activation iterates afresh, from a new iterator.
        let shared = Signal(CountingSequence(), delivery: v).multicast()
        for _ in 0..<2 {
            var again: [Int] = []
            for try await x in shared.take(2).values { again.append(x) }
            #expect(again == [1, 2])
        }
    }
}

/// 1, 2, 3, … for ever; each iterator starts again from 1.
struct CountingSequence: AsyncSequence, Sendable {
    struct Iterator: AsyncIteratorProtocol {
        var n = 0
        mutating func next() async -> Int? {
            n += 1
            return n
        }
    }
    func makeAsyncIterator() -> Iterator { Iterator() }
}
