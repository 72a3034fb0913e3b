import Synchronization

/// A signal with many outputs. Every transform or subscription on it makes a new branch.
///
/// Activation follows CwlSignal: the caching multis (`continuous()`, `continuous(initialValue:)`,
/// `playback()`, `buffer(initials:updater:)`) are active from the moment they are made, with
/// no branch, so values sent before anyone subscribes are cached; they stay active until the
/// multi is released (the multi and every signal derived from it, and every branch), which
/// deactivates what feeds them. `multicast()`, `continuousWhileActive()` and
/// `playbackWhileActive()` are lazy: active with their first branch, deactivated when the last
/// one goes (the WhileActive caches start empty again on the next activation).
///
/// What a new branch receives first depends on how it was made: `continuous()` sends the
/// latest value (only the end, once the stream has ended), `playback()` every value so far,
/// `multicast()` nothing, `buffer` whatever its updater kept. These cached values reach the
/// new branch synchronously (when it is attached from outside a delivery), before any live
/// value, and exactly once. After the upstream's end, the forms that keep it (all but the
/// WhileActive ones) give it to every later branch without activating the upstream again.
public final class SignalMulti<T: Sendable>: Signal<T>, @unchecked Sendable {
    @usableFromInline let multicaster: Multicaster<T>
    /// Keeps an eager multi active while this multi, or any signal derived from it, exists
    /// (nil for the lazy forms).
    @usableFromInline let hold: MultiHold<T>?

    @usableFromInline
    init(delivery: DeliveryVariant, node: SignalNode<T>, multicaster: Multicaster<T>, hold: MultiHold<T>?,
         attachBranch: @escaping @Sendable (SignalSink<T>) -> ChainAttachment) {
        self.multicaster = multicaster
        self.hold = hold
        // Behind a gate: each branch's `open` flag, checked right before each call into the
        // branch's chain and cleared first thing by `removeBranch`.
        super.init(delivery: delivery, root: node, attachesBehindGate: true, attachChain: attachBranch)
    }

    /// Builds the multi node over `upstream`. Written as an inlinable factory rather than an
    /// initializer so the per-value closures it makes are specialized in the client module.
    @inlinable
    static func make(upstream: Signal<T>, cache: MultiCache<T>, eager: Bool) -> SignalMulti<T> {
        var cache = cache
        let node = SignalNode<T>(variant: upstream.delivery)
        // The upstream's output is held by the feeder's record: free again once the multi's
        // node is gone.
        let record = FeederRecord(ChainFeeder(upstream: upstream, into: node) { n in SignalSink(forwardingInto: n) })
        let taken = upstream.takeOutput(for: record)
        if !taken { cache.end = .other(SignalBindError.duplicate) }
        let m = Multicaster<T>(node: node, cache: cache)
        node.output = SignalSink(value: { m.receive(value: $0) }, end: { m.receive(end: $0) })
        if taken { node.addFeeder(record) }
        guard eager else {
            return SignalMulti(delivery: upstream.delivery, node: node, multicaster: m, hold: nil) { sink in m.addBranch(sink) }
        }
        // Eager: active now, with no branch. The hold is captured by the branch-attaching
        // closure too, so signals derived from this multi keep it active; nothing inside the
        // running graph refers to it, so releasing the last of them deactivates the upstream.
        let hold = MultiHold(m)
        m.updateActivation()
        return SignalMulti(delivery: upstream.delivery, node: node, multicaster: m, hold: hold) { sink in
            withExtendedLifetime(hold) { m.addBranch(sink) }
        }
    }

    /// A `SignalMulti` has as many outputs as asked for.
    @usableFromInline
    override func takeOutput() -> Bool { true }

    @usableFromInline
    override func takeOutput(by hold: OutputHold) -> Bool { true }
}

/// What a multi node remembers for new branches.
@usableFromInline
struct MultiCache<T: Sendable>: Sendable {
    @usableFromInline var values: [T]
    @usableFromInline var end: SignalEnd?
    @usableFromInline let update: (@Sendable (inout [T], T) -> Void)?

    /// `continuous`: the latest value is dropped when the end arrives (a late branch gets
    /// only the end).
    @usableFromInline var dropsValuesOnEnd = false
    /// The WhileActive forms: the cache starts from `initial` again on every activation.
    @usableFromInline var resetsOnActivation = false
    /// `customActivation`: edits the cached values and end when the end arrives (run once, on
    /// the end path only).
    @usableFromInline var endUpdate: (@Sendable (inout [T], inout SignalEnd?) -> Void)?
    /// `cacheUntilActive`: values are cached only while no branch is attached, and the cache
    /// is emptied once it has been replayed to a new branch (the end is kept).
    @usableFromInline var cachesOnlyWhileUnattached = false
    /// `continuousWhileActive(discardOnDeactivate: false)`: an eager multi that is active
    /// only while it has branches until it has cached a value, and from then on stays active
    /// (keeping its latest value) while it is held, like `continuous()`.
    @usableFromInline var staysActiveOnceCached = false

    @usableFromInline init(values: [T], update: (@Sendable (inout [T], T) -> Void)?) {
        self.values = values
        self.update = update
    }

    @inlinable func with(dropsValuesOnEnd: Bool = false, resetsOnActivation: Bool = false) -> MultiCache<T> {
        var c = self
        c.dropsValuesOnEnd = dropsValuesOnEnd
        c.resetsOnActivation = resetsOnActivation
        return c
    }
}

/// The fan-out behind a `SignalMulti`: branches live in an array touched only by the holder of
/// the node (deliveries, and branch changes, which run in line with them), so a delivery
/// walks the array without a lock or a copy.
@usableFromInline
final class Multicaster<T: Sendable>: @unchecked Sendable {
    @usableFromInline unowned(unsafe) let node: SignalNode<T>
    @exclusivity(unchecked) @usableFromInline var branches: ContiguousArray<Branch> = []
    @exclusivity(unchecked) @usableFromInline var cache: MultiCache<T>
    @usableFromInline let nextID = Atomic<Int>(0)
    /// Branches attached; only the 0↔1 transitions touch the node's activation state.
    @usableFromInline let branchCount = Atomic<Int>(0)
    /// Whether an eager multi is still held (by the `SignalMulti` or a signal derived from it).
    @usableFromInline let held = Atomic<Bool>(false)
    /// The cache as made, for the WhileActive forms' reset.
    @usableFromInline let initialCache: MultiCache<T>
    /// `MultiCache.staysActiveOnceCached`, readable from any thread.
    @usableFromInline let staysActiveOnceCached: Bool
    /// Whether such a multi has cached a value (set once, by the holder).
    @usableFromInline let hasCached = Atomic<Bool>(false)
    /// Set (once, by the holder) when the upstream's end arrives at a form that keeps it for
    /// later branches (every form but the WhileActive caches, which start afresh). A branch
    /// that joins after it gets the kept end and no longer activates the upstream: an ended
    /// upstream activated again would run its activation work (a `generate` closure, an
    /// `onActivate`) for values this multi could only drop.
    @usableFromInline let upstreamEnded = Atomic<Bool>(false)

    /// Branches, retained by hand: entries are trivial values, so walking the array retains
    /// nothing per delivery.
    @usableFromInline typealias Branch = Unmanaged<MultiBranch<T>>

    deinit {
        for b in branches { b.release() }
    }

    @usableFromInline init(node: SignalNode<T>, cache: MultiCache<T>) {
        self.node = node
        self.cache = cache
        self.initialCache = cache
        self.staysActiveOnceCached = cache.staysActiveOnceCached
    }

    @inlinable
    func receive(value v: T) {
        if cache.end != nil { return }
        // The forms without a cache (`multicast`) pay nothing more here: the caching forms'
        // work is out of line.
        if let update = cache.update, cacheValue(v, update) { return }
        branches.withUnsafeBufferPointer { b in
            for i in b.indices { b[i]._withUnsafeGuaranteedRef { $0.deliverIfOpen(value: v) } }
        }
    }

    /// `cacheUntilActive`: delivers the value to the open branches, or caches it when none
    /// is open. A branch being removed is closed before the holder takes it out of `branches`:
    /// a value that finds it closed is cached for the next branch, not lost; one that finds
    /// it open is delivered (its cancel waits for that delivery).
    @inlinable
    func deliverOrCache(_ v: T, _ update: @Sendable (inout [T], T) -> Void) {
        var delivered = false
        for b in branches {
            b._withUnsafeGuaranteedRef { branch in
                if branch.open.load(ordering: .acquiring) {
                    branch.sink.value(v)
                    delivered = true
                }
            }
        }
        if !delivered { update(&cache.values, v) }
    }

    /// Updates the cache with a value (the caching forms only). Returns true when the value
    /// has been dealt with completely (`cacheUntilActive`: delivered or cached).
    @inlinable @inline(never)
    func cacheValue(_ v: T, _ update: @Sendable (inout [T], T) -> Void) -> Bool {
        if cache.cachesOnlyWhileUnattached {
            deliverOrCache(v, update)
            return true
        }
        update(&cache.values, v)
        if staysActiveOnceCached && !hasCached.load(ordering: .relaxed) {
            hasCached.store(true, ordering: .releasing)
        }
        return false
    }

    @inlinable
    func receive(end e: SignalEnd) {
        if cache.end != nil { return }
        cache.end = e
        if !cache.resetsOnActivation { upstreamEnded.store(true, ordering: .releasing) }
        if cache.dropsValuesOnEnd { cache.values = [] }
        if let endUpdate = cache.endUpdate { endUpdate(&cache.values, &cache.end) }
        branches.withUnsafeBufferPointer { b in
            for i in b.indices { b[i]._withUnsafeGuaranteedRef { $0.deliverIfOpen(end: e) } }
        }
    }

    /// Makes the node's wanted activation match the branch count as it is now (so whichever of
    /// two racing 0↔1 transitions applies last leaves the right state). Branches keep the
    /// upstream active only until it has ended for good (`upstreamEnded`); an eager multi's
    /// hold keeps it as before, until the multi is released.
    @usableFromInline func updateActivation() {
        node.updateActivation { [self] a in
            let held = held.load(ordering: .acquiring)
                && (!staysActiveOnceCached || hasCached.load(ordering: .acquiring))
            a.wanted = held || (branchCount.load(ordering: .acquiring) > 0
                && !upstreamEnded.load(ordering: .acquiring))
        }
    }

    @inlinable func addBranch(_ sink: SignalSink<T>) -> ChainAttachment {
        // The removal is a closure made here, in specialized code: an overridden method of a
        // generic class would run unspecialized.
        let branch = MultiBranch(sink: sink) { [self] branch in removeBranch(branch) }
        func add() {
            // A WhileActive cache starts afresh with each activation: nothing from before the
            // last deactivation is replayed.
            if branches.isEmpty && cache.resetsOnActivation {
                // The upstream's end of an earlier activation closed the node's queue to
                // values; the next activation's upstream must get through, or its sends
                // would be accepted upstream and refused here, delivered to no one.
                if cache.end != nil && initialCache.end == nil { node.reopenQueue() }
                cache = initialCache
            }
            branches.append(.passRetained(branch))
            // Through the branch (which holds the sink), so no copy of the sink is captured here.
            // Marked as an activation replay, so a capture below takes these as its
            // activation values (ActivationReplay.swift).
            if !cache.values.isEmpty || cache.end != nil {
                ActivationReplay.replaying {
                    for v in cache.values { branch.sink.value(v) }
                    if let e = cache.end { branch.sink.end(e) }
                }
                // Replayed once: the values go with this branch (released here, by the
                // holder, outside every lock).
                if cache.cachesOnlyWhileUnattached { cache.values = [] }
            }
        }
        if !node.performIfIdle(add) { node.perform { add() } }
        if branchCount.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            // The activation may run a source that sends without end (behind `take`, say):
            // whoever attaches this branch gets it first, so it can detach it from inside.
            DepthBounds.attachmentMade(branch)
            updateActivation()
        }
        return branch
    }

    /// Closes the branch first (nothing reaches its chain from then on, even values queued
    /// before), so the guarantee holds even when `perform` cannot wait for the holder (from
    /// inside a delivery on this node, or where waiting could deadlock).
    @inlinable func removeBranch(_ branch: MultiBranch<T>) {
        branch.open.store(false, ordering: .releasing)
        func remove() {
            // Searched from both ends at once: branches mostly leave in the order they came
            // (a chain's stages ending from the source down) or in the reverse one (a
            // subscribe-and-cancel next to standing branches), and each is then found in one
            // step, where a search from the front made releasing n branches O(n²).
            let target = Unmanaged.passUnretained(branch).toOpaque()
            var low = branches.startIndex
            var high = branches.endIndex
            while low < high {
                high -= 1
                if branches[high].toOpaque() == target { return branches.remove(at: high).release() }
                if branches[low].toOpaque() == target { return branches.remove(at: low).release() }
                low += 1
            }
        }
        if !node.performIfIdle(remove) { node.perform { remove() } }
        if branchCount.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 {
            updateActivation()
        }
    }
}

/// Keeps an eager multi active: made with the multi, released with the last signal that can
/// still make a branch of it, at which point the multi deactivates unless branches remain
/// (then with the last of them).
@usableFromInline
final class MultiHold<T: Sendable>: @unchecked Sendable {
    @usableFromInline let multicaster: Multicaster<T>
    /// Strong: the multicaster's reference to its node is unowned.
    @usableFromInline let node: SignalNode<T>

    @usableFromInline init(_ multicaster: Multicaster<T>) {
        self.multicaster = multicaster
        self.node = multicaster.node
        multicaster.held.store(true, ordering: .releasing)
    }

    deinit {
        multicaster.held.store(false, ordering: .releasing)
        multicaster.updateActivation()
    }
}

/// One branch of a multi node: its sink, and the attachment that removes it. One object for
/// both, since branches come and go often.
@usableFromInline
final class MultiBranch<T: Sendable>: ChainAttachment, @unchecked Sendable {
    @usableFromInline let sink: SignalSink<T>
    /// Removes this branch from its multi node. It holds the node strongly (a branch keeps its
    /// graph alive); the cycle through `branches` is broken when the branch is removed.
    @usableFromInline let remove: @Sendable (MultiBranch<T>) -> Void
    /// Cleared when the branch is detached; the multicaster skips closed branches.
    @usableFromInline let open = Atomic<Bool>(true)

    /// Delivers a value to the branch's chain unless the branch was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(value: T) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.value(value) }
    }

    /// Delivers the end to the branch's chain unless the branch was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(end: SignalEnd) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.end(end) }
    }

    @inlinable init(sink: SignalSink<T>, remove: @escaping @Sendable (MultiBranch<T>) -> Void) {
        self.sink = sink
        self.remove = remove
        super.init()
    }

    @usableFromInline override func performDetach(_ end: SignalEnd?) {
        remove(self)
    }
}

extension Signal {
    /// Many outputs; each new branch first gets the latest value (if any), or only the end
    /// once the stream has ended. Active at once: values sent before any branch are cached.
    ///
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func continuous() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: []) { values, v in
            if values.isEmpty { values.append(v) } else { values[0] = v }
        }.with(dropsValuesOnEnd: true), eager: true)
    }

    /// Many outputs; each new branch first gets the latest value, `initialValue` until one
    /// arrives (only the end, once the stream has ended). Active at once.
    ///
    /// - Parameter initialValue: the value a branch gets until the first value arrives.
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func continuous(initialValue: T) -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: [initialValue]) { values, v in
            values[0] = v
        }.with(dropsValuesOnEnd: true), eager: true)
    }

    /// Like `continuous()`, but lazy: active only while it has branches, and the latest value
    /// is forgotten when the last branch leaves (CwlSignal's `continuousWhileActive()`).
    ///
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func continuousWhileActive() -> SignalMulti<T> {
        continuousWhileActive(discardOnDeactivate: true)
    }

    /// Like `continuous()`, but activated by its first branch (CwlSignal's
    /// `continuousWhileActive(discardOnDeactivate:)`). The first branch gets no cached value,
    /// later ones the latest value (only the end, once the stream has ended).
    ///
    /// With `discardOnDeactivate` true, the multi deactivates when its last branch leaves and
    /// forgets the latest value: the next branch starts it afresh. With false, once a value has
    /// been cached the multi stays active without branches (as `continuous()` does), keeping
    /// the latest value for later branches, until the multi and every signal derived from it
    /// are released (then it deactivates with its last branch). Before the first value it
    /// deactivates with its last branch, as the discarding form does.
    ///
    /// Concurrent branches, and branches added or cancelled from inside a handler, follow
    /// `SignalMulti`'s rules: each new branch gets the cached value once, before any live value.
    ///
    /// - Parameter discardOnDeactivate: whether the latest value is forgotten (and the
    ///   upstream deactivated) when the last branch leaves.
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func continuousWhileActive(discardOnDeactivate: Bool) -> SignalMulti<T> {
        let cache = MultiCache<T>(values: []) { values, v in
            if values.isEmpty { values.append(v) } else { values[0] = v }
        }
        if discardOnDeactivate {
            return SignalMulti.make(upstream: self, cache: cache.with(dropsValuesOnEnd: true, resetsOnActivation: true), eager: false)
        }
        var keeping = cache.with(dropsValuesOnEnd: true)
        keeping.staysActiveOnceCached = true
        return SignalMulti.make(upstream: self, cache: keeping, eager: true)
    }

    /// Many outputs; each new branch first gets every value so far. Active at once.
    ///
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func playback() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: []) { values, v in values.append(v) }, eager: true)
    }

    /// Like `playback()`, but lazy: active only while it has branches, and the values are
    /// forgotten when the last branch leaves.
    ///
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func playbackWhileActive() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: []) { values, v in values.append(v) }
            .with(resetsOnActivation: true), eager: false)
    }

    /// Many outputs; a new branch gets only values sent after it joined. Lazy: active only
    /// while it has branches.
    ///
    /// Once the upstream has ended, the multi keeps that end: a branch that joins later gets
    /// it at once and nothing else, and the ended upstream is not activated again for it
    /// (RxJS's `share({ resetOnError: false, resetOnComplete: false })`; the WhileActive forms
    /// start their upstream afresh instead).
    ///
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func multicast() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: [], update: nil), eager: false)
    }

    /// Many outputs with a cache of your own: `updater` edits the cached values for each new
    /// value (starting from `initials`), and new branches first get what it kept. Active at
    /// once.
    ///
    /// - Parameters:
    ///   - initials: the values kept before any value arrives.
    ///   - updater: updates the kept values with each new value.
    /// - Returns: the multi; it takes this signal's single output.
    @inlinable
    public func buffer(initials: [T] = [], updater: @escaping @Sendable (inout [T], T) -> Void) -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: initials, update: updater), eager: true)
    }
}
