import Foundation
import Signals
import Synchronization
import Testing

/// The stage-built operators that change the graph or a lifetime while they run
/// (`delaySubscription(until:)`, the `timeout` forms, `throttle`, `window(boundary:)`,
/// `Signal.retry(whenErrors:_:)`, the duration forms of `groupBy`), at the depth and width a
/// user could build: 100,000 stages, keys or windows (20,000 in a debug build: see `depth`),
/// on a 512 KiB stack. Each stage connects inner signals from its processor (a trigger, an
/// attempt, a timer, a window), so activation, hand-over and release must stay within the
/// library's depth bounds and linear in the count.
@Suite(.tags(.startsThreads), .stackThreadOnly) struct DeepOperatorStageTests {
    /// The stages, keys or windows of each test: 100,000 in an optimized build (`swift test -c
    /// release`, `.ci/run`'s release-tests step), 20,000 in a debug build, where a stage of
    /// these operators costs about ten times as much (at 100,000 this suite alone took 96 s
    /// of a debug `swift test`, more than half of the whole run's processor time). 20,000 is
    /// still far past every bound (8 nested hand-overs or activation runs, 64 fused stages),
    /// and recursion per stage would need 20,000 debug frames of dozens of bytes each, more
    /// than a 512 KiB stack holds: a debug run shows the same absence of recursion, and the
    /// release run the full width. `SIGNALS_DEEP_STAGES` (a positive integer) sets another count.
    static let depth: Int = {
        if let text = ProcessInfo.processInfo.environment["SIGNALS_DEEP_STAGES"], let n = Int(text), n > 0 { return n }
        #if DEBUG
        return 20_000
        #else
        return 100_000
        #endif
    }()

    /// 100,000 `delaySubscription(until:)` stages, each with its own trigger that sends at
    /// once: subscribing connects the first stage's trigger, whose value connects the stage
    /// above, whose trigger connects the next one, and so on down to the input.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandDelayedSubscriptions(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            for _ in 0..<Self.depth { s = s.delaySubscription(until: Signal<Void>.just((), delivery: variant)) }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            #expect(input.send(value: 1) == nil)
            #expect(input.send(value: 2) == nil)
            #expect(seen.values == [1, 2])
            input.complete()
            #expect(seen.end == .complete)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }

    /// 100,000 `timeout(first:each:)` stages on a virtual clock: activation starts a timer in
    /// every stage and each value restarts every stage's timer; values cross the chain, the
    /// completion cancels every timer, and nothing is left scheduled.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandTimeouts(_ variant: DeliveryVariant) {
        onThread {
            let vt = VirtualTimeContext()
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            for k in 0..<Self.depth {
                s = k % 2 == 0
                    ? s.timeout(first: .seconds(10), each: .seconds(10), context: .custom(vt))
                    : s.timeout(firstBy: .seconds(10), each: .seconds(10), context: .custom(vt))
            }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            #expect(vt.pendingCount == Self.depth)
            #expect(input.send(value: 1) == nil)
            vt.advance(by: .seconds(5))
            #expect(input.send(value: 2) == nil)
            #expect(seen.values == [1, 2])
            #expect(seen.end == nil)
            #expect(vt.pendingCount == Self.depth)
            input.complete()
            #expect(seen.end == .complete)
            #expect(vt.pendingCount == 0)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }

    /// A timeout reaching the end of a 100,000-stage chain of `timeout(first:each:)`: every
    /// stage's timer falls due at the same instant, the innermost fires first (it was
    /// scheduled first) and its error crosses the rest, each of which cancels its own timer.
    @Test(arguments: DeliveryVariant.allCases)
    func timeoutFiringAtTheTopOfAHundredThousandTimeouts(_ variant: DeliveryVariant) {
        onThread {
            let vt = VirtualTimeContext()
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            for _ in 0..<Self.depth { s = s.timeout(first: .seconds(10), context: .custom(vt)) }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            vt.advance(by: .seconds(10))
            #expect(seen.end == .timeout)
            #expect(vt.pendingCount == 0)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }

    /// 100,000 `throttle(interval:leading:latest:)` stages (leading and latest): the first
    /// value crosses at once and opens a window in every stage; the second waits in the
    /// first stage until its window ends, then crosses the rest as their windows end at the
    /// same instant; the completion passes once nothing waits.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandThrottles(_ variant: DeliveryVariant) {
        onThread {
            let vt = VirtualTimeContext()
            let (input, s0) = Signal<Int>.create(delivery: variant)
            var s: Signal<Int> = s0
            for _ in 0..<Self.depth { s = s.throttle(interval: .seconds(1), leading: true, latest: true, context: .custom(vt)) }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            #expect(input.send(value: 1) == nil)
            #expect(input.send(value: 2) == nil)
            #expect(seen.values == [1])
            vt.advance(by: .seconds(1))
            #expect(seen.values == [1, 2])
            vt.advance(by: .seconds(1))
            input.complete()
            #expect(seen.end == .complete)
            #expect(vt.pendingCount == 0)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, output)) {}
        }
    }

    /// 100,000 `window(boundary:)` stages, each flattened by `flatMap { $0 }`, all split by
    /// branches of one boundary: a boundary value closes every stage's window and opens the
    /// next, so each `flatMap` releases one inner signal and subscribes another.
    @Test(arguments: DeliveryVariant.allCases)
    func chainOfAHundredThousandFlattenedWindows(_ variant: DeliveryVariant) {
        onThread {
            let (input, s0) = Signal<Int>.create(delivery: variant)
            let (boundaryInput, b) = Signal<Void>.create(delivery: variant)
            let boundary = b.multicast()
            var s: Signal<Int> = s0
            for _ in 0..<Self.depth { s = s.window(boundary: boundary).flatMap { $0 } }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = s.subscribe { seen.receive($0) }
            #expect(input.send(value: 1) == nil)
            #expect(boundaryInput.send(value: ()) == nil)
            #expect(input.send(value: 2) == nil)
            #expect(seen.values == [1, 2])
            input.complete()
            #expect(seen.end == .complete)
            output = nil
            s = Signal<Int>.just(0)
            withExtendedLifetime((input, boundaryInput, output)) {}
        }
    }

    /// `Signal.retry(whenErrors:_:)` nested 100,000 deep: each level's attempt is the level
    /// below, so subscribing the top starts every attempt down to the innermost, whose first
    /// attempt fails and is retried there; the retried attempt's values and completion cross
    /// every level.
    @Test(arguments: DeliveryVariant.allCases)
    func retryNestedAHundredThousandDeep(_ variant: DeliveryVariant) {
        onThread {
            let attempts = Mutex<[SignalInput<Int>]>([])
            // Level k's attempt makes level k − 1 by index (closures capturing one another
            // would nest 100,000 deep when freed, in the test rather than the library).
            let levels = Mutex<[@Sendable () -> Signal<Int>]>([])
            levels.withLock { $0.append {
                let (input, signal) = Signal<Int>.create(delivery: variant)
                attempts.withLock { $0.append(input) }
                return signal
            } }
            for k in 1...Self.depth {
                let make: @Sendable () -> Signal<Int> = {
                    Signal<Int>.retry(whenErrors: { $0.map { _ in () } }) { levels.withLock { $0[k - 1] }() }
                }
                levels.withLock { $0.append(make) }
            }
            let make = levels.withLock { $0[Self.depth] }
            let seen = Recorder<Int>()
            var output: SignalOutput<Int>? = make().subscribe { seen.receive($0) }
            #expect(attempts.withLock { $0.count } == 1)
            attempts.withLock { $0[0] }.send(end: .other(DepthTestError.failed))
            #expect(attempts.withLock { $0.count } == 2)
            let second = attempts.withLock { $0[1] }
            #expect(second.send(value: 1) == nil)
            #expect(second.send(value: 2) == nil)
            #expect(seen.values == [1, 2])
            second.complete()
            #expect(seen.end == .complete)
            output = nil
            withExtendedLifetime(output) {}
            levels.withLock { $0 = [] }
            attempts.withLock { $0 = [] }
        }
    }

    /// `groupBy(_:duration:)` with 100,000 keys, each group closed by its own branch of one
    /// closing signal: every group gets its value, one closing value completes all of them
    /// and releases their state, and a key seen again opens a fresh group.
    @Test(arguments: DeliveryVariant.allCases)
    func groupByWithAHundredThousandKeysAndDurations(_ variant: DeliveryVariant) {
        onThread {
            let (input, source) = Signal<Int>.create(delivery: variant)
            let (closeInput, c) = Signal<Void>.create(delivery: variant)
            let close = c.multicast()
            let groups = Mutex<[(key: Int, seen: Recorder<Int>, output: SignalOutput<Int>)]>([])
            let outer = Recorder<Int>()
            var output: SignalOutput<SignalGroup<Int, Int>>? = source.groupBy({ $0 }, duration: { _ in close }).subscribe { r in
                switch r {
                case .success(let g):
                    let seen = Recorder<Int>()
                    let o = g.signal.subscribe { seen.receive($0) }
                    groups.withLock { $0.append((g.key, seen, o)) }
                case .failure(let e): outer.receive(.failure(e))
                }
            }
            for k in 0..<Self.depth { #expect(input.send(value: k) == nil) }
            #expect(groups.withLock { $0.count } == Self.depth)
            #expect(closeInput.send(value: ()) == nil)
            let (count, allClosed, valuesRight) = groups.withLock { g in
                (g.count, g.allSatisfy { $0.seen.end == .complete },
                 g.enumerated().allSatisfy { i, e in e.key == i && e.seen.values == [i] })
            }
            #expect(count == Self.depth)
            #expect(allClosed)
            #expect(valuesRight)
            #expect(input.send(value: 7) == nil)
            let fresh = groups.withLock { $0.last.map { ($0.key, $0.seen.values) } }
            #expect(groups.withLock { $0.count } == Self.depth + 1)
            #expect(fresh?.0 == 7 && fresh?.1 == [7])
            input.complete()
            #expect(outer.end == .complete)
            output = nil
            groups.withLock { $0 = [] }
            withExtendedLifetime((input, closeInput, output)) {}
        }
    }

    /// `window(boundary:)` through 100,000 windows: each value lands in the window open when
    /// it is sent, each boundary value completes that window and opens the next.
    @Test(arguments: DeliveryVariant.allCases)
    func windowByBoundaryThroughAHundredThousandWindows(_ variant: DeliveryVariant) {
        onThread {
            let (input, source) = Signal<Int>.create(delivery: variant)
            let (boundaryInput, boundary) = Signal<Void>.create(delivery: variant)
            let windows = Mutex<[(seen: Recorder<Int>, output: SignalOutput<Int>)]>([])
            let outer = Recorder<Int>()
            var output: SignalOutput<Signal<Int>>? = source.window(boundary: boundary).subscribe { r in
                switch r {
                case .success(let w):
                    let seen = Recorder<Int>()
                    let o = w.subscribe { seen.receive($0) }
                    windows.withLock { $0.append((seen, o)) }
                case .failure(let e): outer.receive(.failure(e))
                }
            }
            for k in 0..<Self.depth {
                #expect(input.send(value: k) == nil)
                #expect(boundaryInput.send(value: ()) == nil)
            }
            input.complete()
            let (count, right) = windows.withLock { w in
                (w.count, w.prefix(Self.depth).enumerated().allSatisfy { i, e in e.seen.values == [i] && e.seen.end == .complete })
            }
            #expect(count == Self.depth + 1)
            #expect(right)
            #expect(windows.withLock { $0.last?.seen.values } == [])
            #expect(outer.end == .complete)
            output = nil
            windows.withLock { $0 = [] }
            withExtendedLifetime((input, boundaryInput, output)) {}
        }
    }
}

enum DepthTestError: Error { case failed }
