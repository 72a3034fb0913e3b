import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock-free delivery path.
///
/// **Claim word.** `0` is idle; otherwise it holds the holder's thread token, whose lowest bit
/// says "elements were queued since the holder last looked". An uncontended send is one CAS to
/// claim, the delivery, and one CAS to release. A sender that finds the node held pushes its
/// element and at most sets the low bit, so a busy holder is told once per drain round, not
/// once per element. Bit 2 (`closedFlag`) is set for good when an end is accepted: the
/// value fast path (a CAS from `0`) then always fails and values go to `push`, which refuses
/// them.
///
/// **End and enqueue are one decision.** An end sets `closedFlag` in the claim word, then
/// takes its slot with a CAS on `tail` that also sets `tailClosed`; a value's slot CAS expects
/// `tailClosed` clear. So a value is either before the end in the queue (delivered before it)
/// or refused (its `send` returns `.disconnected`); a value that won the fast path before the
/// flag was set is delivered by its own thread before the holder reaches the end.
///
/// **Queue.** A multi-producer, single-consumer queue of fixed-size blocks (`QueueBlock`):
/// producers claim a slot by CAS on `tail`, write it and publish it by storing its position
/// in the slot's stamp; the holder reads from `head`, which only it touches. Blocks are
/// recycled through a one-block spare, so steady-state traffic allocates nothing.
///
/// **Ordering trap.** When the holder finds a slot claimed but not yet written, it waits for it
/// rather than leaving: the tail says the element exists, and leaving would let that sender's
/// next element take the fast path and overtake it. Leaving the slot *and the claim* to its
/// producer instead (the holder marks the slot, the producer publishes with an exchange and
/// adopts the node if it finds the mark) keeps the order and removes the wait, but every
/// queued element then pays a read-modify-write where a plain store suffices
/// (docs/design/queue-and-placement.md, "Designs measured and not kept").
///
/// **Stamps, not flags.** Each slot carries its own publication stamp (its position + 1) on the
/// same cache line as its element, so a published element costs the holder one line, and
/// producers publishing neighbouring slots do not all write one shared line of flags. Positions
/// only grow, so a recycled block's old stamps never match a new position: nothing is reset,
/// and the holder never writes a line that producers publish on (docs/design/many-core-senders.md,
/// "Where the time went").
@usableFromInline package final class LockFreeDeliveryQueue<Element>: DeliveryQueue, @unchecked Sendable {
    // Unchecked Sendable: elements move between threads only through published slots.

    /// Keeps the claim word off the line of the object's header and of whatever the allocator
    /// placed before this object: allocations are only 16-byte aligned, so without it the
    /// claim word's line could hold the end of a neighbouring allocation, written by another
    /// thread, in some launches and not in others.
    @usableFromInline let _padLead: (UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0)

    /// The claim word, on a cache line of its own.
    @usableFromInline let claim = Atomic<UInt>(0)
    @usableFromInline let _padClaim: (UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0)

    /// Producers' side: the next position to claim and the block it falls in.
    @usableFromInline let tail = Atomic<Int>(0)
    @usableFromInline let tailBlock: Atomic<UInt>
    @usableFromInline let _padTail: (UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0)

    /// One recycled block, so a queue in steady state never allocates. On a line of its own:
    /// it changes once per block, and must not invalidate the producers' `tail` line.
    @usableFromInline let spare = Atomic<UInt>(0)
    @usableFromInline let _padSpare: (UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0)

    /// Holder's side: touched only by the thread that holds the claim (ownership passes with
    /// acquire/release on `claim`), so plain storage without exclusivity checks.
    @exclusivity(unchecked) @usableFromInline var head: Int = 0
    @exclusivity(unchecked) @usableFromInline var headBlock: QueueBlock<Element>
    /// The holder's last reading of `tail` (without the closed bit): positions below it are
    /// known to exist, so the holder reads `tail`, the line every producer writes, once per
    /// batch instead of once per element. Never ahead of `tail`, so it is valid for any holder.
    @exclusivity(unchecked) @usableFromInline var knownTail: Int = 0
    /// Values the holder sent to its own node (a re-entrant send from a handler), kept here
    /// instead of in the shared queue, and delivered before it. Used only while the shared
    /// queue is empty, so each sender's order holds: everything here was sent before anything
    /// the same thread puts in the shared queue afterwards. Holder-only, like `head`; grows by
    /// doubling, so it allocates per depth of nesting, never per value.
    @exclusivity(unchecked) @usableFromInline var own = HolderFIFO<Element>()
    /// Set by `skipNextCaughtUpWatch()`: the next catch-up leaves at once. Holder-only.
    @exclusivity(unchecked) @usableFromInline var skipsNextWatch = false
    /// Keeps the holder's fields off the line of whatever the allocator places after this
    /// object (see `_padLead`).
    @usableFromInline let _padTrail: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)

    @usableFromInline package init() {
        let first = QueueBlock<Element>.allocate()
        headBlock = first
        tailBlock = Atomic(first.address)
    }

    deinit {
        own.destroy()
        // Nobody else can reach the queue now: destroy what is left and free the blocks.
        let end = tail.load(ordering: .acquiring) & ~Self.tailClosed
        var block = headBlock
        var position = head
        while position < end {
            let offset = position & QueueBlock<Element>.positionMask
            if offset == QueueBlock<Element>.capacity { position &+= 1; continue }
            if block.stamp(offset).pointee.load(ordering: .acquiring) == QueueBlock<Element>.stamp(for: position) {
                block.slot(offset).deinitialize(count: 1)
            }
            if offset == QueueBlock<Element>.capacity - 1 {
                let next = block.next.pointee.load(ordering: .acquiring)
                block.deallocate()
                if next == 0 { return }
                block = QueueBlock(address: next)
                position &+= 2
            } else {
                position &+= 1
            }
        }
        block.deallocate()
        let s = spare.load(ordering: .acquiring)
        if s != 0 { QueueBlock<Element>(address: s).deallocate() }
    }

    // MARK: DeliveryQueue

    @inlinable
    package func claimOrEnqueue(_ element: @autoclosure () -> Element) -> ClaimOutcome {
        claimOrEnqueue(.control, element()).unsafelyUnwrapped
    }

    @inlinable @inline(__always)
    package func claimOrEnqueue(_ kind: QueueElementKind, _ element: @autoclosure () -> Element) -> ClaimOutcome? {
        let token = currentThreadToken()
        SchedulePoint.here(.claim)
        if kind == .end {
            // Closes the fast path before the end takes its slot (see the type's comment).
            claim.bitwiseOr(Self.closedFlag, ordering: .sequentiallyConsistent)
        } else {
            // The load first: a CAS that fails still takes the line exclusive, which a busy
            // holder then has to take back.
            let word = claim.load(ordering: .relaxed)
            if word == 0 {
                if claim.compareExchange(expected: 0, desired: token, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                    return .claimed
                }
            } else if kind == .value && word & ~3 == token && head >= tail.load(ordering: .sequentiallyConsistent) {
                // A re-entrant send while the shared queue is empty and the node open (the
                // comparison keeps the closed flag, bit 2; a closed `tail` compares as
                // non-empty): no CAS, no announce; the holder's drain takes it before the
                // shared queue.
                own.append(element())
                return .enqueued
            }
        }
        guard push(element(), kind: kind) else { return nil }
        return announce(token) ? .enqueuedAndClaimed : .enqueued
    }

    @inlinable
    package func tryClaim() -> Bool {
        SchedulePoint.here(.claim)
        return claim.compareExchange(
            expected: 0, desired: currentThreadToken(), successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged
    }

    @inlinable
    package func enqueueAndClaimIfIdle(_ element: consuming Element) -> Bool {
        enqueueAndClaimIfIdle(.control, element).unsafelyUnwrapped
    }

    @inlinable
    package func enqueueAndClaimIfIdle(_ kind: QueueElementKind, _ element: consuming Element) -> Bool? {
        if kind == .end { claim.bitwiseOr(Self.closedFlag, ordering: .sequentiallyConsistent) }
        guard push(element, kind: kind) else { return nil }
        return announce(currentThreadToken())
    }

    @inlinable
    package func nextOrRelease() -> Element? {
        if _slowPath(own.count != 0) { return own.removeFirst() }
        if let e = pop() { return e }
        // Caught up (`pop` already watched the next slot for a while): go through the claim
        // word. No second wait here: polling `tail` would take the line every producer CASes
        // (docs/design/queue-and-placement.md).
        var word = claim.load(ordering: .relaxed)
        while true {
            if word & 1 == 0 {
                // Released to idle, keeping the closed flag: an ended node stays closed.
                SchedulePoint.here(.release)
                let (released, now) = claim.compareExchange(
                    expected: word, desired: word & Self.closedFlag, ordering: .sequentiallyConsistent)
                if released {
                    DeliveryGapHook.here(.released)
                    SchedulePoint.here(.released)
                    return nil
                }
                word = now
            } else {
                // Clear the flag with a read-modify-write (a full barrier), then look again: a
                // sender that saw the flag set before this point pushed before it, so the pop
                // below sees its element.
                // (An AND, not a store: an end may set the closed flag at any moment.)
                word = claim.bitwiseAnd(~1, ordering: .sequentiallyConsistent).newValue
                if let e = pop() { return e }
            }
        }
    }

    @inlinable @inline(__always)
    package func releaseIfIdle() -> Bool {
        // A re-entrant send during the delivery went to `own`, which the flag does not cover.
        if _slowPath(own.count != 0) { return false }
        // After `.claimed`, the word is this thread's token, plus the flag if anything was
        // pushed since: no flag means nothing is queued (a push always ends by setting the flag
        // or by claiming an idle node), so one CAS releases. (After an end set the closed flag
        // the CAS fails and the caller drains, which releases keeping the flag.)
        SchedulePoint.here(.release)
        return claim.compareExchange(
            expected: currentThreadToken(), desired: 0, ordering: .sequentiallyConsistent
        ).exchanged
    }

    @usableFromInline package func adoptClaim() {
        let token = currentThreadToken()
        SchedulePoint.here(.claim)
        var word = claim.load(ordering: .relaxed)
        while true {
            let (done, now) = claim.compareExchange(
                expected: word, desired: token | (word & (1 | Self.closedFlag)), ordering: .acquiringAndReleasing)
            if done { return }
            word = now
        }
    }

    @usableFromInline package var holderToken: UInt { claim.load(ordering: .acquiring) & ~7 }

    @inlinable @inline(__always)
    package func skipNextCaughtUpWatch() { skipsNextWatch = true }

    @usableFromInline package var isHeldByCurrentThread: Bool {
        claim.load(ordering: .relaxed) & ~7 == currentThreadToken()
    }

    @usableFromInline package func offerHandoff() -> Bool {
        let token = currentThreadToken()
        // Nothing in the shared queue: no other thread is sending (a lone re-entrant sender's
        // values are in `own`), so there is nobody to hand over to.
        if head >= tail.load(ordering: .sequentiallyConsistent) & ~Self.tailClosed { return false }
        // Set the offer bit (the word holds this thread's token and maybe the waiting flag).
        // Its read-modify-write publishes this holder's consumer state to whoever takes over.
        claim.bitwiseOr(2, ordering: .sequentiallyConsistent)
        DeliveryGapHook.here(.handoffOffered)
        // A point, not a wait: the offer is withdrawn if nobody takes it, so a controlled
        // thread must not be counted as waiting for another (with every other sender
        // finished, the scheduler would call that a deadlock).
        SchedulePoint.here(.handOver)
        // A busy sender arrives within tens of nanoseconds; a short busy wait keeps the cost of
        // an offer nobody takes (a lone re-entrant sender) to a fraction of a nanosecond per
        // drained element.
        for _ in 0..<128 where claim.load(ordering: .acquiring) & ~7 != token { return true }
        // Others are sending but none came: on a loaded machine they may be preempted. Give
        // them the processor a few times before withdrawing (rare: once per 1,024 drained
        // elements, and only while other threads send).
        for _ in 0..<handoffYields {
            WaitCounters.noteYield()
            sched_yield()
            if claim.load(ordering: .acquiring) & ~7 != token { return true }
        }
        // Withdraw the offer, unless a sender took the claim meanwhile.
        var word = claim.load(ordering: .acquiring)
        while true {
            if word & ~7 != token { return true }
            let (withdrawn, now) = claim.compareExchange(
                expected: word, desired: word & ~2, ordering: .sequentiallyConsistent)
            if withdrawn { return false }
            word = now
        }
    }

    // MARK: Claim word

    /// Claim word bit: an end was accepted; the node never again goes back to `0` (idle and
    /// open), so the value fast path fails for good.
    @inlinable static var closedFlag: UInt { 4 }

    @usableFromInline package func reopen() {
        // Clear `tailClosed` first (a value then queues, and claims the node if idle, even
        // while the claim word still says closed), then the claim word's flag. A producer
        // installing the next block rewrites `tail` with its own closed bit: wait until it has.
        var position = tail.load(ordering: .acquiring)
        var spins = 0
        while position & Self.tailClosed != 0 {
            if position & QueueBlock<Element>.positionMask == QueueBlock<Element>.capacity {
                spins = spinWait(spins)
                position = tail.load(ordering: .acquiring)
                continue
            }
            let (done, now) = tail.compareExchange(
                expected: position, desired: position & ~Self.tailClosed, ordering: .sequentiallyConsistent)
            if done { break }
            position = now
        }
        claim.bitwiseAnd(~Self.closedFlag, ordering: .sequentiallyConsistent)
    }
    /// `tail` bit: an end took a slot; no value may take one after it. Far above any position.
    @inlinable static var tailClosed: Int { 1 << 62 }

    /// After a push: tells the holder there is more, or claims the node if it went idle.
    /// Returns true if the caller now holds the node.
    @inlinable
    func announce(_ token: UInt) -> Bool {
        SchedulePoint.here(.announce)
        var word = claim.load(ordering: .sequentiallyConsistent)
        while true {
            if word & ~Self.closedFlag == 0 {
                // Idle (maybe closed to values): claim it, keeping the closed flag.
                let (claimed, now) = claim.compareExchange(
                    expected: word, desired: token | word, successOrdering: .acquiring, failureOrdering: .sequentiallyConsistent)
                if claimed { return true }
                word = now
            } else if word & 2 != 0 {
                // The holder offers its claim (`offerHandoff`): take it, waiting flag and all;
                // the element just pushed is in the queue this thread now drains.
                let (took, now) = claim.compareExchange(
                    expected: word, desired: token | (word & (1 | Self.closedFlag)), ordering: .sequentiallyConsistent)
                if took { return true }
                word = now
            } else if word & 1 != 0 {
                return false
            } else {
                let (flagged, now) = claim.compareExchange(
                    expected: word, desired: word | 1, successOrdering: .sequentiallyConsistent, failureOrdering: .sequentiallyConsistent)
                if flagged { return false }
                word = now
            }
        }
    }

    // MARK: Block queue

    /// Takes a slot for `element` and publishes it; false (nothing queued) if `kind` is
    /// `.value` and the queue is closed. An `.end` closes it in the same CAS that takes its slot.
    @inlinable
    func push(_ element: consuming Element, kind: QueueElementKind) -> Bool {
        typealias Block = QueueBlock<Element>
        var position = tail.load(ordering: .acquiring)
        var spins = 0
        let closing = kind == .end ? Self.tailClosed : 0
        while true {
            if kind == .value && position & Self.tailClosed != 0 { return false }
            let offset = position & Block.positionMask
            if offset == Block.capacity {
                // Another producer is installing the next block.
                spins = spinWait(spins)
                position = tail.load(ordering: .acquiring)
                continue
            }
            let block = Block(address: tailBlock.load(ordering: .acquiring))
            SchedulePoint.here(.enqueue)
            let (won, now) = tail.compareExchange(
                expected: position, desired: (position &+ 1) | closing, ordering: .sequentiallyConsistent)
            if won {
                if offset == Block.capacity - 1 {
                    // This producer took the last slot: it installs the next block before it
                    // publishes its element, so the holder finds `next` set once it reaches here.
                    // (Other producers wait for this store, so the closed bit cannot change
                    // in between.) The block is taken only now, by the one winner: taken before
                    // the CAS, every producer racing for the last slot took one, and all but
                    // one were freed again: 0.047 allocations per value at 16 threads, where
                    // one block per 127 values is the most a growing backlog needs.
                    let prepared = takeBlock()
                    tailBlock.store(prepared, ordering: .releasing)
                    tail.store((position &+ 2) | closing, ordering: .sequentiallyConsistent)
                    block.next.pointee.store(prepared, ordering: .releasing)
                }
                block.slot(offset).initialize(to: element)
                SchedulePoint.here(.publish)
                block.stamp(offset).pointee.store(Block.stamp(for: position), ordering: .releasing)
                return true
            }
            position = now
        }
    }

    @inlinable
    func pop() -> Element? {
        typealias Block = QueueBlock<Element>
        let position = head
        let offset = position & Block.positionMask
        let block = headBlock
        let stamp = block.stamp(offset)
        let published = Block.stamp(for: position)
        // The slot's own stamp first: this position's stamp means published (a recycled block's
        // stamps are all of lower positions), so the holder takes it without reading `tail`.
        // Reading `tail` per element would pull the line every producer CASes back to the
        // holder's core once per element: each producer's next CAS would then wait for a
        // cache-line transfer.
        if stamp.pointee.load(ordering: .acquiring) != published {
            if position >= knownTail {
                // Caught up. Watch this slot for a while before reading `tail`: while others
                // send, its producer is usually tens of nanoseconds away, and reading `tail`
                // (then the claim word's read-modify-write in `nextOrRelease`) takes the two
                // lines every producer writes, once per element. Bounded, then the usual exit
                // (docs/design/many-core-senders.md, "Three changes"). Not after a graph
                // change, though (`skipNextCaughtUpWatch()`).
                if _fastPath(!skipsNextWatch) {
                    var looks = 0
                    while looks < caughtUpLooks {
                        if stamp.pointee.load(ordering: .acquiring) == published { return pop() }
                        looks &+= 1
                    }
                }
                skipsNextWatch = false
                knownTail = tail.load(ordering: .sequentiallyConsistent) & ~Self.tailClosed
                if position >= knownTail { return nil }
            }
            // Claimed but not yet written: wait for it (see the type's comment).
            var spins = 0
            repeat { spins = spinWait(spins) } while stamp.pointee.load(ordering: .acquiring) != published
        }
        let element = block.slot(offset).move()
        if offset == Block.capacity - 1 {
            var next = block.next.pointee.load(ordering: .acquiring)
            var spins = 0
            while next == 0 {
                spins = spinWait(spins)
                next = block.next.pointee.load(ordering: .acquiring)
            }
            // Every slot of the block was published and taken: nobody else touches it now.
            // (`giveBack` publishes this reset to the producer that takes the block next.)
            block.next.pointee.store(0, ordering: .relaxed)
            headBlock = Block(address: next)
            head = position &+ 2
            giveBack(block.address)
        } else {
            head = position &+ 1
        }
        return element
    }

    @inlinable
    func takeBlock() -> UInt {
        let s = spare.exchange(0, ordering: .acquiring)
        if s != 0 { return s }
        return QueueBlock<Element>.allocate().address
    }

    @inlinable
    func giveBack(_ address: UInt) {
        let old = spare.exchange(address, ordering: .acquiringAndReleasing)
        if old != 0 { QueueBlock<Element>(address: old).deallocate() }
    }
}

/// A growable ring buffer touched only by a node's holder (`LockFreeDeliveryQueue.own`).
@usableFromInline
struct HolderFIFO<Element> {
    @usableFromInline var storage: UnsafeMutablePointer<Element>?
    @usableFromInline var capacity = 0
    @usableFromInline var first = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable @inline(__always)
    mutating func append(_ element: consuming Element) {
        if _slowPath(count == capacity) { grow() }
        (storage.unsafelyUnwrapped + ((first &+ count) & (capacity &- 1))).initialize(to: element)
        count &+= 1
    }

    @inlinable @inline(__always)
    mutating func removeFirst() -> Element {
        let e = (storage.unsafelyUnwrapped + first).move()
        first = (first &+ 1) & (capacity &- 1)
        count &-= 1
        return e
    }

    @usableFromInline mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        for i in 0..<count { (fresh + i).moveInitialize(from: storage.unsafelyUnwrapped + ((first + i) & (capacity - 1)), count: 1) }
        storage?.deallocate()
        storage = fresh
        capacity = newCapacity
        first = 0
    }

    @usableFromInline mutating func destroy() {
        while count != 0 { _ = removeFirst() }
        storage?.deallocate()
        storage = nil
    }
}

/// How many times a holder that caught up with the producers looks at the next slot before it
/// reads `tail` and goes through the claim word to leave (`LockFreeDeliveryQueue.pop()`): about
/// a microsecond of plain loads of one line, once per catch-up, never per element.
@inlinable var caughtUpLooks: Int { 1_024 }

/// How many times a holder whose handoff offer was not taken at once yields the processor
/// before withdrawing it (`DeliveryQueue.offerHandoff()`).
@inlinable var handoffYields: Int { 4 }


/// Spins briefly, then yields the processor: used only where another thread is known to be in
/// the middle of a few instructions (publishing a slot or installing a block).
@inlinable
func spinWait(_ spins: Int) -> Int {
    // A controlled thread lets the thread it waits for run (it cannot run beside it).
    if SchedulePoint.waitingTurn(.spinWait) { return spins &+ 1 }
    if spins < 64 {
        // A plain busy step, no `pause`: that stretches the spin a holder wastes when the
        // producer it waits for shares its core (docs/design/queue-and-placement.md).
        return spins &+ 1
    }
    WaitCounters.noteYield()
    sched_yield()
    return spins &+ 1
}

/// One block of the lock-free queue, in a single raw allocation: the `next` link on a cache
/// line of its own, then `capacity` slots of `slotStride` bytes, each
/// `[stamp: Atomic<Int>][element]`.
///
/// Positions count `capacity + 1` per block: the extra value marks "the next block is being
/// installed", so producers never need a second counter.
@usableFromInline
package struct QueueBlock<Element> {
    @usableFromInline static var capacity: Int { 127 }
    @usableFromInline static var positionMask: Int { 127 }

    /// The element's offset in its slot, after the stamp.
    @usableFromInline package static var elementOffset: Int {
        max(MemoryLayout<Atomic<Int>>.stride, MemoryLayout<Element>.alignment)
    }
    /// A slot's size: a power of two up to a cache line, so no slot straddles two lines and a
    /// stamp is always on its element's line; whole lines beyond that. (A power of two at
    /// least `raw`, which is at least the element's alignment, is a multiple of it.)
    @usableFromInline package static var slotStride: Int {
        let raw = elementOffset + MemoryLayout<Element>.size
        if raw <= 64 {
            var stride = 16
            while stride < raw { stride <<= 1 }
            return stride
        }
        let unit = max(64, MemoryLayout<Element>.alignment)
        return (raw + unit - 1) / unit * unit
    }
    /// A block's alignment: a cache line, or the element's if larger.
    @usableFromInline static var alignment: Int { max(MemoryLayout<Element>.alignment, 64) }
    /// The `next` link has the first line to itself (one alignment unit): the holder reads it
    /// once per block and the producer that installs the next block writes it, neither per
    /// element.
    @usableFromInline package static var slotsOffset: Int { alignment }
    @usableFromInline static var byteCount: Int { slotsOffset + capacity * slotStride }

    /// The stamp that says the slot of `position` is published (the closed bit ignored); never
    /// 0, the stamp of a slot never written.
    @inlinable @inline(__always)
    static func stamp(for position: Int) -> Int {
        (position & ~LockFreeDeliveryQueue<Element>.tailClosed) &+ 1
    }

    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(address: UInt) {
        base = UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped
    }

    @inlinable var address: UInt { UInt(bitPattern: base) }

    @inlinable var next: UnsafeMutablePointer<Atomic<UInt>> {
        base.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    @inlinable func stamp(_ i: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (base + Self.slotsOffset + i &* Self.slotStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    @inlinable func slot(_ i: Int) -> UnsafeMutablePointer<Element> {
        (base + Self.slotsOffset + i &* Self.slotStride + Self.elementOffset).assumingMemoryBound(to: Element.self)
    }

    @usableFromInline static func allocate() -> QueueBlock {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
        raw.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        for i in 0..<capacity {
            let slot = raw + slotsOffset + i * slotStride
            slot.bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
            _ = (slot + elementOffset).bindMemory(to: Element.self, capacity: 1)
        }
        return QueueBlock(address: UInt(bitPattern: raw))
    }

    @usableFromInline func deallocate() {
        base.deallocate()
    }
}

