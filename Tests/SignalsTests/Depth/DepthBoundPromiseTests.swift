import Foundation
import Signals
import Synchronization
import Testing

/// The promises of docs/guarantees.md past the depth bound (`DepthBounds`: hand-overs nest at
/// most 8 deep on a thread, a fused run is at most 64 stages), each beside a shallow control:
/// every case must give the shallow graph's result at every depth. Each scripted case makes
/// the interleaving that broke a promise happen every time, with semaphores, not sleeps.
@Suite(.tags(.startsThreads)) struct DepthBoundPromiseTests {
    /// Nodes below the merge: a shallow control, past the bound (the 7th node below the merge
    /// is the first hand-over past it), far past it.
    static let depths = [3, 9, 13, 100, 100_000]

    /// A merge X with `below` `multicast()` nodes under it. Thread T's value -1 is handed down
    /// from X while thread S sends 100 (queued in X, which T holds) and then, once T has left X
    /// for a slow branch of the multi above X, 101 (S takes X itself). Each sender's order must
    /// hold: 100 before 101. Past the bound the hand-over of T's values was once deferred to
    /// T's outermost frame, behind the slow branch, and S's 101 went straight past them.
    @Test(arguments: DeliveryVariant.allCases, depths)
    func handOverPastTheBoundKeepsEachSendersOrder(_ variant: DeliveryVariant, below: Int) {
        onThread {
            let (aIn, a) = Signal<Int>.create(delivery: variant)
            let (bIn, b) = Signal<Int>.create(delivery: variant)
            let m = a.multicast()
            var x: Signal<Int> = m.map { $0 }.merge(with: b)
            var multis: [SignalMulti<Int>] = []
            for _ in 0..<below {
                let next = x.multicast()
                multis.append(next)
                x = next
            }
            let seen = Recorder<Int>()
            let out = x.subscribe(seen.handler)

            let send100 = DispatchSemaphore(value: 0), sent100 = DispatchSemaphore(value: 0)
            let send101 = DispatchSemaphore(value: 0), sent101 = DispatchSemaphore(value: 0)
            let refused = Atomic<Int>(0)
            // Inside T's hand-over of -1 below X (X held by T): S's 100 is queued in X.
            let hook = multis[1].subscribeValues { v in
                if v == -1 { send100.signal(); sent100.wait() }
            }
            // T has left X: S's 101 takes X.
            let slow = m.subscribeValues { v in
                if v == -1 { send101.signal(); _ = sent101.wait(timeout: .now() + 20) }
            }
            let s = Thread {
                send100.wait()
                if bIn.send(value: 100) != nil { refused.add(1, ordering: .relaxed) }
                sent100.signal()
                send101.wait()
                if bIn.send(value: 101) != nil { refused.add(1, ordering: .relaxed) }
                sent101.signal()
            }
            s.start()
            #expect(aIn.send(value: -1) == nil)
            seen.expectCount(3, within: 20)
            let refusedCount = refused.load(ordering: .relaxed)
            #expect(refusedCount == 0)
            let values = seen.values
            #expect(values.sorted() == [-1, 100, 101])
            #expect(values.firstIndex(of: 100)! < values.firstIndex(of: 101)!, "per-sender order: \(values)")
            #expect(seen.overlaps == 0)
            withExtendedLifetime((out, hook, slow, aIn, bIn, multis)) {}
        }
    }

    /// An accepted send is delivered before the end. Thread T's -1 is handed down from X, past
    /// the bound, and T then runs a slow branch of the multi above X; meanwhile the main
    /// thread ends X's other source. The subscriber must get -1, then the end: past the bound
    /// the end once went straight through and the deferred -1 was dropped behind it.
    @Test(arguments: DeliveryVariant.allCases, depths)
    func acceptedSendIsDeliveredBeforeAnEndPastTheBound(_ variant: DeliveryVariant, below: Int) {
        onThread {
            struct Stop: Error {}
            let (i1, s1) = Signal<Int>.create(delivery: variant)
            let (xIn, xSig) = Signal<Int>.create(delivery: variant)
            let m = s1.multicast()
            var x: Signal<Int> = m.map { $0 }.merge(with: xSig)
            for _ in 0..<below { x = x.multicast() }
            let seen = Recorder<Int>()
            let out = x.subscribe(seen.handler)
            let inSlow = DispatchSemaphore(value: 0), endSent = DispatchSemaphore(value: 0)
            let slow = m.subscribeValues { _ in
                inSlow.signal()
                // Bounded: a send(end:) that waits for this thread must not deadlock the test.
                _ = endSent.wait(timeout: .now() + 0.3)
            }
            let accepted = Atomic<Bool>(false)
            let returned = DispatchSemaphore(value: 0)
            let t = Thread {
                accepted.store(i1.send(value: -1) == nil, ordering: .relaxed)
                returned.signal()
            }
            t.start()
            inSlow.wait()
            _ = xIn.send(end: .other(Stop()))
            endSent.signal()
            seen.expectCount(2, within: 20)
            #expect(returned.wait(timeout: .now() + 20) == .success)
            let wasAccepted = accepted.load(ordering: .relaxed)
            #expect(wasAccepted)
            #expect(seen.values == [-1], "got \(seen.results.map { "\($0)" })")
            #expect(seen.ends.count == 1)
            withExtendedLifetime((out, slow, i1, xIn)) {}
        }
    }

    /// A send refused once the graph has ended, at any depth. Thread T's -1 passes a `take(1)`
    /// right after the merge X, which then ends; T hands both down, past the bound for the
    /// deep graphs, and runs a slow branch of the multi above X. Meanwhile the main thread
    /// sends 5 into X's other source: as in the shallow graph (where the end has reached the
    /// subscriber and the graph has stopped) the send must be refused, since nothing can
    /// deliver it. Past the bound it was once accepted (nil) and then dropped by the ended
    /// `take`: the graph above the deferred end kept running until T's outermost frame.
    @Test(arguments: DeliveryVariant.allCases, depths)
    func sendAfterAnEndPastTheBoundIsRefused(_ variant: DeliveryVariant, below: Int) {
        onThread {
            let (i1, s1) = Signal<Int>.create(delivery: variant)
            let (xIn, xSig) = Signal<Int>.create(delivery: variant)
            let m = s1.multicast()
            var x: Signal<Int> = m.map { $0 }.merge(with: xSig).take(1)
            for _ in 0..<below { x = x.multicast() }
            let seen = Recorder<Int>()
            let out = x.subscribe(seen.handler)
            let inSlow = DispatchSemaphore(value: 0), sent = DispatchSemaphore(value: 0)
            let slow = m.subscribeValues { _ in
                inSlow.signal()
                _ = sent.wait(timeout: .now() + 20)
            }
            let returned = DispatchSemaphore(value: 0)
            let t = Thread {
                _ = i1.send(value: -1)
                returned.signal()
            }
            t.start()
            inSlow.wait()
            let answer = xIn.send(value: 5)
            sent.signal()
            #expect(answer != nil, "accepted a value the ended take(1) drops")
            seen.expectCount(2, within: 20)
            #expect(returned.wait(timeout: .now() + 20) == .success)
            #expect(seen.values == [-1], "got \(seen.results.map { "\($0)" })")
            #expect(seen.ends.count == 1)
            withExtendedLifetime((out, slow, i1, xIn)) {}
        }
    }

    /// Cached values reach a new subscriber within `subscribe`, at any depth. Thread T2 holds
    /// a `continuous` multi (inside a handler delivering 1) while the main thread subscribes
    /// `multi.map` + `below` multicasts; a third thread's branch, attached just after, blocks
    /// in its replay. When `subscribe` returns the 1 must be there: its hand-over past the
    /// bound was once deferred to T2's outermost frame, behind the blocking replay.
    @Test(arguments: DeliveryVariant.allCases, [3, 9, 20, 100])
    func cachedValueArrivesWithinSubscribePastTheBound(_ variant: DeliveryVariant, below: Int) {
        onThread {
            let (input, source) = Signal<Int>.create(delivery: variant)
            let multi = source.continuous(initialValue: 0)
            let inHandler = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            let first = multi.subscribeValues { v in
                if v == 1 { inHandler.signal(); release.wait() }
            }
            let t2 = Thread { _ = input.send(value: 1) }
            t2.start()
            inHandler.wait()

            var deep: Signal<Int> = multi.map { $0 }
            for _ in 0..<below { deep = deep.multicast() }
            // The third branch's subscription is queued behind the main thread's, then T2 is
            // let go: it replays to the main thread's branch, then blocks in the third's.
            let third = Mutex<SignalOutput<Int>?>(nil)
            let helper = Thread {
                usleep(100_000)
                let u = Thread {
                    let out = multi.subscribeValues { v in if v == 1 { usleep(300_000) } }
                    third.withLock { $0 = out }
                }
                u.start()
                usleep(100_000)
                release.signal()
            }
            helper.start()
            let seen = Recorder<Int>()
            let out = deep.subscribe(seen.handler)
            #expect(seen.values == [1], "at return of subscribe: \(seen.values)")
            seen.expectCount(1, within: 20)
            usleep(400_000)
            #expect(seen.values == [1])
            third.withLock { $0 = nil }
            withExtendedLifetime((first, out, input)) {}
        }
    }

    /// After `cancel()` returns, the signal is free for a new subscriber, also when its end
    /// was being delivered (and its chain detached) on another thread: `from(asyncSequence:)`
    /// ends on its task's thread. Async, so that waiting leaves the cooperative pool to the
    /// iterating tasks.
    @Test(arguments: DeliveryVariant.allCases)
    func subscribeRightAfterCancelIsAccepted(_ variant: DeliveryVariant) async throws {
        let signal = Signal<Int>.from(asyncSequence: CountingSequence(limit: 3), delivery: variant)
        /// Waits, without blocking a thread of the pool, until `c` has an end (false after 600 s).
        /// (Yields rather than sleeps: the cancel must follow the end at once, while the
        /// end's thread may still be detaching. Bounded very generously: the iterating task
        /// needs a thread of the cooperative pool, which has one per core, and beside the
        /// whole suite on 2 cores the synchronous stress tests can hold both for minutes:
        /// in a release run beside two other builds, 120 s was not enough for round 0.)
        func ended(_ c: Recorder<Int>) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(600)
            while ContinuousClock.now < deadline {
                if !c.ends.isEmpty { return true }
                await Task.yield()
            }
            return false
        }
        for round in 0..<100 {
            let first = Recorder<Int>()
            let out = signal.subscribe(first.handler)
            guard try await ended(first) else {
                Issue.record("round \(round): the first subscription did not end: \(first.results.map { "\($0)" })")
                return
            }
            out.cancel()
            let next = Recorder<Int>()
            let again = signal.subscribe(next.handler)
            guard try await ended(next) else {
                Issue.record("round \(round): the second subscription did not end: \(next.results.map { "\($0)" })")
                return
            }
            #expect(next.values == [0, 1, 2], "round \(round): \(next.results.map { "\($0)" })")
            again.cancel()
        }
    }

    /// 0, 1, … `limit - 1`, afresh on every iteration.
    struct CountingSequence: AsyncSequence, Sendable {
        typealias Element = Int
        let limit: Int
        struct AsyncIterator: AsyncIteratorProtocol {
            var next = 0
            let limit: Int
            mutating func next() async -> Int? {
                guard next < limit else { return nil }
                defer { next += 1 }
                return next
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit) }
    }

    /// An endless `.direct` source behind `take`, with a node the library puts in between (the
    /// 65th fused stage's boundary node, a multi, a merge, a hop, a combine): `subscribe`
    /// returns once `take` has ended, as it does with no node in between.
    @Test(arguments: DeliveryVariant.allCases, EndlessSourceShape.allCases)
    func endlessSourceBehindTakeStops(_ variant: DeliveryVariant, shape: EndlessSourceShape) {
        let seen = Recorder<Int>()
        let returned = DispatchSemaphore(value: 0)
        let holder = Mutex<SignalOutput<Int>?>(nil)
        let thread = Thread {
            let out = shape.make(variant).take(3).subscribe(seen.handler)
            holder.withLock { $0 = out }
            returned.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        // A hang leaves a thread spinning for the rest of the run, but the test fails.
        #expect(returned.wait(timeout: .now() + 30) == .success, "subscribe did not return (\(shape))")
        seen.expectCount(4, within: 20)
        #expect(seen.values == [0, 1, 2])
        #expect(seen.ends.map { "\($0)" } == ["\(SignalEnd.complete)"])
        holder.withLock { $0 = nil }
    }

    /// The shapes of `endlessSourceBehindTakeStops`: an endless synchronous source, then
    /// something that puts a node of the library's own between it and `take`.
    enum EndlessSourceShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sixtyMaps, seventyMaps, aHundredThousandMaps, multicast, twoMulticasts, nineMulticasts,
             aHundredMulticasts, continuousWhileActive, mergeWithNever, hopToGlobal, combineLatest, zip,
             repeatCollection

        var testDescription: String { rawValue }

        func make(_ variant: DeliveryVariant) -> Signal<Int> {
            let source = Signal<Int>.from(0..., delivery: variant)
            func maps(_ n: Int) -> Signal<Int> {
                var s = source
                for _ in 0..<n { s = s.map { $0 } }
                return s
            }
            switch self {
            case .sixtyMaps: return maps(60)
            case .seventyMaps: return maps(70)
            case .aHundredThousandMaps: return maps(100_000)
            case .multicast: return source.multicast()
            case .twoMulticasts: return source.multicast().multicast()
            case .nineMulticasts, .aHundredMulticasts:
                var s: Signal<Int> = source
                for _ in 0..<(self == .nineMulticasts ? 9 : 100) { s = s.multicast() }
                return s
            case .continuousWhileActive: return source.continuousWhileActive()
            case .mergeWithNever: return source.merge(with: Signal<Int>.never(delivery: variant))
            case .hopToGlobal: return source.hop(to: .global)
            case .combineLatest: return Signal.combineLatest([source]).map { $0[0] }
            case .zip: return Signal.zip([source]).map { $0[0] }
            case .repeatCollection:
                return Signal<Int>.repeatCollection([0, 1, 2, 3], count: .max, delivery: variant)
            }
        }
    }
}
