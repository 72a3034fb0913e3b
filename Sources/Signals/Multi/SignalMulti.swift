import Synchronization

/// A signal with many outputs. Every transform or subscription on it makes a new branch.
///
/// Its node is activated by its first branch and deactivated when the last one goes. What a
/// new branch receives first depends on how it was made: `continuous()` sends the latest
/// value, `playback()` every value so far, `multicast()` nothing, `buffer` whatever its
/// updater kept. These cached values reach the new branch synchronously (when it is attached
/// from outside a delivery), before any live value, and exactly once.
public final class SignalMulti<T: Sendable>: Signal<T>, @unchecked Sendable {
    @usableFromInline let multicaster: Multicaster<T>

    @usableFromInline
    init(delivery: DeliveryVariant, node: SignalNode<T>, multicaster: Multicaster<T>,
         attachBranch: @escaping @Sendable (SignalSink<T>) -> ChainAttachment) {
        self.multicaster = multicaster
        super.init(delivery: delivery, root: node, attachChain: attachBranch)
    }

    /// Builds the multi node over `upstream`. Written as an inlinable factory rather than an
    /// initializer so the per-value closures it makes are specialized in the client module.
    @inlinable
    static func make(upstream: Signal<T>, cache: MultiCache<T>) -> SignalMulti<T> {
        let node = SignalNode<T>(variant: upstream.delivery)
        let m = Multicaster<T>(node: node, cache: cache)
        node.output = SignalSink { r in m.receive(r) }
        if upstream.takeOutput() {
            node.addFeeder(FeederRecord(ChainFeeder(upstream: upstream, into: node) { n in SignalSink { r in n.deliver(r) } }))
        } else {
            m.cache.end = .other(SignalBindError.duplicate)
        }
        return SignalMulti(delivery: upstream.delivery, node: node, multicaster: m) { sink in m.addBranch(sink) }
    }

    /// A `SignalMulti` has as many outputs as asked for.
    @usableFromInline
    override func takeOutput() -> Bool { true }
}

/// What a multi node remembers for new branches.
@usableFromInline
struct MultiCache<T: Sendable>: Sendable {
    @usableFromInline var values: [T]
    @usableFromInline var end: SignalEnd?
    @usableFromInline let update: (@Sendable (inout [T], T) -> Void)?

    @usableFromInline init(values: [T], update: (@Sendable (inout [T], T) -> Void)?) {
        self.values = values
        self.update = update
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

    /// Branches, retained by hand: entries are trivial values, so walking the array retains
    /// nothing per delivery.
    @usableFromInline typealias Branch = Unmanaged<MultiBranch<T>>

    deinit {
        for b in branches { b.release() }
    }

    @usableFromInline init(node: SignalNode<T>, cache: MultiCache<T>) {
        self.node = node
        self.cache = cache
    }

    @inlinable
    func receive(_ r: Result<T, SignalEnd>) {
        if cache.end != nil { return }
        switch r {
        case .success(let v):
            if let update = cache.update { update(&cache.values, v) }
        case .failure(let e):
            cache.end = e
        }
        branches.withUnsafeBufferPointer { b in
            for i in b.indices { b[i]._withUnsafeGuaranteedRef { $0.deliverIfOpen(r) } }
        }
    }

    /// Makes the node's wanted activation match the branch count as it is now (so whichever of
    /// two racing 0↔1 transitions applies last leaves the right state).
    @usableFromInline func updateActivation() {
        node.updateActivation { [self] a in a.wanted = branchCount.load(ordering: .acquiring) > 0 }
    }

    @inlinable func addBranch(_ sink: SignalSink<T>) -> ChainAttachment {
        // The removal is a closure made here, in specialized code: an overridden method of a
        // generic class would run unspecialized.
        let branch = MultiBranch(sink: sink) { [self] branch in removeBranch(branch) }
        func add() {
            branches.append(.passRetained(branch))
            for v in cache.values { sink(.success(v)) }
            if let e = cache.end { sink(.failure(e)) }
        }
        if !node.performIfIdle(add) { node.perform { add() } }
        if branchCount.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            updateActivation()
        }
        return branch
    }

    /// Closes the branch first (nothing reaches its chain from then on, even values queued
    /// before), so the guarantee holds even when `perform` cannot wait for the holder (from
    /// inside a delivery on this node, or where waiting could deadlock: issue 10 item 1).
    @inlinable func removeBranch(_ branch: MultiBranch<T>) {
        branch.open.store(false, ordering: .releasing)
        func remove() {
            let target = Unmanaged.passUnretained(branch).toOpaque()
            if let i = branches.firstIndex(where: { $0.toOpaque() == target }) {
                branches.remove(at: i).release()
            }
        }
        if !node.performIfIdle(remove) { node.perform { remove() } }
        if branchCount.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 {
            updateActivation()
        }
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

    /// Delivers `result` to the branch's chain unless the branch was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(_ result: Result<T, SignalEnd>) {
        if _fastPath(open.load(ordering: .relaxed)) { sink(result) }
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
    /// Many outputs; each new branch first gets the latest value (if any).
    @inlinable
    public func continuous() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: []) { values, v in
            if values.isEmpty { values.append(v) } else { values[0] = v }
        })
    }

    /// Many outputs; each new branch first gets the latest value, `initialValue` until one
    /// arrives.
    @inlinable
    public func continuous(initialValue: T) -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: [initialValue]) { values, v in
            values[0] = v
        })
    }

    /// Many outputs; each new branch first gets every value so far.
    @inlinable
    public func playback() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: []) { values, v in values.append(v) })
    }

    /// Many outputs; a new branch gets only values sent after it joined.
    @inlinable
    public func multicast() -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: [], update: nil))
    }

    /// Many outputs with a cache of your own: `updater` edits the cached values for each new
    /// value (starting from `initials`), and new branches first get what it kept.
    @inlinable
    public func buffer(initials: [T] = [], updater: @escaping @Sendable (inout [T], T) -> Void) -> SignalMulti<T> {
        SignalMulti.make(upstream: self, cache: MultiCache(values: initials, update: updater))
    }
}
