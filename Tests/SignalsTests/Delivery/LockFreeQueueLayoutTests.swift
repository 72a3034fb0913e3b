import Signals
import Dispatch
import Synchronization
import Testing

/// Counts live instances, so a test can see that the queue destroys what it still holds.
private final class Tracked: @unchecked Sendable {
    static let live = Atomic<Int>(0)
    let value: Int
    init(_ value: Int) { self.value = value; Self.live.add(1, ordering: .relaxed) }
    deinit { Self.live.subtract(1, ordering: .relaxed) }
}

/// An element larger than a cache line, so its slot spans several lines.
private struct Wide: Equatable {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    init(_ v: Int) { words = (v, v &+ 1, v &+ 2, v &+ 3, v &+ 4, v &+ 5, v &+ 6, v &+ 7, v &+ 8) }
    static func == (a: Wide, b: Wide) -> Bool { a.words.0 == b.words.0 && a.words.8 == b.words.8 }
}

/// The lock-free queue's slot layout (docs/design/many-core-senders.md): each slot carries its publication stamp on
/// its element's line, and blocks are recycled without resetting anything. These run the
/// queue directly, one thread holding it, across many block boundaries and recycled blocks,
/// for elements of several sizes and alignments.
@Suite(.timeLimit(.minutes(1))) struct LockFreeQueueLayoutTests {
    /// Fills the queue with `count` elements while this thread holds it, then drains it: every
    /// element comes back once, in order.
    private func roundTrip<E: Equatable>(_ make: (Int) -> E, count: Int, rounds: Int = 3) {
        let q = LockFreeDeliveryQueue<E>()
        for round in 0..<rounds {
            #expect(q.tryClaim())
            for i in 0..<count {
                #expect(q.enqueueAndClaimIfIdle(.value, make(round &* count &+ i)) == false)
            }
            var i = 0
            while let e = q.nextOrRelease() {
                #expect(e == make(round &* count &+ i))
                i += 1
            }
            #expect(i == count)
        }
    }

    @Test func slotsHoldEveryElementSizeInOrder() {
        // Several blocks per round (127 slots each), rounds that reuse recycled blocks.
        roundTrip({ UInt8(truncatingIfNeeded: $0) }, count: 1_000)
        roundTrip({ $0 }, count: 1_000)
        roundTrip({ Wide($0) }, count: 600)
        roundTrip({ SIMD4<Double>(Double($0), 1, 2, 3) }, count: 600)
        roundTrip({ Optional($0) }, count: 1_000)
    }

    @Test func slotLayoutKeepsEachStampOnItsElementsLine() {
        func check<E>(_: E.Type) {
            let stride = QueueBlock<E>.slotStride
            let offset = QueueBlock<E>.elementOffset
            #expect(offset >= MemoryLayout<Atomic<Int>>.size)
            #expect(offset % MemoryLayout<E>.alignment == 0)
            #expect(stride >= offset + MemoryLayout<E>.size)
            #expect(stride % MemoryLayout<E>.alignment == 0)
            #expect(QueueBlock<E>.slotsOffset % 64 == 0)
            // A slot never straddles a line boundary unless it needs several whole lines.
            if stride <= 64 { #expect(64 % stride == 0) } else { #expect(stride % 64 == 0) }
        }
        check(UInt8.self)
        check(Int.self)
        check(Wide.self)
        check(SIMD4<Double>.self)
        check(Result<Int, SignalEnd>.self)
        check(SIMD64<UInt8>.self)
    }

    @Test func stampsOfARecycledBlockNeverMatchNewPositions() {
        // Rounds of 200 (a block and a half): from the third block on, producers take the
        // recycled spare, so rounds end with `head` inside a reused block, on slots whose old
        // stamps (of lower positions) must read as unpublished. A flag that said only
        // "published", never reset, would hand back stale elements here.
        let q = LockFreeDeliveryQueue<Int>()
        var next = 0
        for _ in 0..<8 {
            #expect(q.tryClaim())
            for _ in 0..<200 { _ = q.enqueueAndClaimIfIdle(.value, next); next += 1 }
            var seen = 0
            // At most one too many: a stale element shows as a count of 201.
            while seen <= 200, let e = q.nextOrRelease() { #expect(e == next - 200 + seen); seen += 1 }
            #expect(seen == 200)
        }
    }

    @Test func deinitDestroysElementsNotTaken() {
        let before = Tracked.live.load(ordering: .relaxed)
        do {
            let q = LockFreeDeliveryQueue<Tracked>()
            #expect(q.tryClaim())
            for i in 0..<300 { _ = q.enqueueAndClaimIfIdle(.value, Tracked(i)) }
            // Take a few (crossing into the second block), leave the rest to the queue's deinit.
            for i in 0..<150 { #expect(q.nextOrRelease()?.value == i) }
        }
        #expect(Tracked.live.load(ordering: .relaxed) == before)
    }

    /// A holder told to skip its next catch-up watch (after a graph change) leaves through the
    /// usual exit: whatever producers publish meanwhile is still delivered, once and in each
    /// producer's order, by this holder or by the producer that finds the queue idle.
    @Test(.tags(.startsThreads)) func skippingTheCatchUpWatchLosesNothing() {
        let q = LockFreeDeliveryQueue<Int>()
        let delivered = Mutex<[Int]>([])
        let perProducer = 20_000
        /// Drains as the holder, skipping the watch before every catch-up. Each element is
        /// recorded while this thread still holds the queue (the claim goes with the
        /// `nextOrRelease` that returns nil), so the record is in delivery order: a batch
        /// appended after the release could land behind the next holder's.
        @Sendable func drain() {
            while true {
                q.skipNextCaughtUpWatch()
                guard let e = q.nextOrRelease() else { break }
                delivered.withLock { $0.append(e) }
            }
        }
        let done = DispatchGroup()
        for p in 0..<2 {
            done.enter()
            DispatchQueue.global().async {
                for i in 0..<perProducer where q.enqueueAndClaimIfIdle(.value, p * perProducer + i) == true {
                    drain()
                }
                done.leave()
            }
        }
        done.wait()
        let all = delivered.withLock { $0 }
        #expect(all.count == 2 * perProducer)
        for p in 0..<2 {
            let mine = all.filter { $0 / perProducer == p }
            #expect(mine == Array(p * perProducer..<(p + 1) * perProducer))
        }
        // Idle again: nothing is left claimed.
        #expect(q.tryClaim())
    }
}
