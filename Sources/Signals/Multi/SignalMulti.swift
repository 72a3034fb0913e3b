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

    @inlinable
    init(upstream: Signal<T>, cache: MultiCache<T>) {
        let node = SignalNode<T>(variant: upstream.delivery)
        let m = Multicaster<T>(node: node, cache: cache)
        multicaster = m
        node.output = { r in m.receive(r) }
        super.init(delivery: upstream.delivery, root: node) { sink in m.addBranch(sink) }
        if upstream.takeOutput() {
            node.addFeeder(FeederRecord(ChainFeeder(upstream: upstream, into: node) { n in { r in n.deliver(r) } }))
        } else {
            m.cache.end = .other(SignalBindError.duplicate)
        }
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

    @usableFromInline
    struct Branch {
        @usableFromInline let id: Int
        @usableFromInline let sink: SignalSink<T>
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
            for i in b.indices { b[i].sink(r) }
        }
    }

    @usableFromInline func addBranch(_ sink: @escaping SignalSink<T>) -> ChainAttachment {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let node = self.node
        node.perform { [self] in
            branches.append(Branch(id: id, sink: sink))
            for v in cache.values { sink(.success(v)) }
            if let e = cache.end { sink(.failure(e)) }
        }
        node.updateActivation { a in
            a.attachments += 1
            a.wanted = a.attachments > 0
        }
        return ChainAttachment { [self] _ in
            node.perform { [self] in
                if let i = branches.firstIndex(where: { $0.id == id }) { branches.remove(at: i) }
            }
            node.updateActivation { a in
                a.attachments -= 1
                a.wanted = a.attachments > 0
            }
        }
    }
}

extension Signal {
    /// Many outputs; each new branch first gets the latest value (if any).
    @inlinable
    public func continuous() -> SignalMulti<T> {
        SignalMulti(upstream: self, cache: MultiCache(values: []) { values, v in
            if values.isEmpty { values.append(v) } else { values[0] = v }
        })
    }

    /// Many outputs; each new branch first gets the latest value, `initialValue` until one
    /// arrives.
    @inlinable
    public func continuous(initialValue: T) -> SignalMulti<T> {
        SignalMulti(upstream: self, cache: MultiCache(values: [initialValue]) { values, v in
            values[0] = v
        })
    }

    /// Many outputs; each new branch first gets every value so far.
    @inlinable
    public func playback() -> SignalMulti<T> {
        SignalMulti(upstream: self, cache: MultiCache(values: []) { values, v in values.append(v) })
    }

    /// Many outputs; a new branch gets only values sent after it joined.
    @inlinable
    public func multicast() -> SignalMulti<T> {
        SignalMulti(upstream: self, cache: MultiCache(values: [], update: nil))
    }

    /// Many outputs with a cache of your own: `updater` edits the cached values for each new
    /// value (starting from `initials`), and new branches first get what it kept.
    @inlinable
    public func buffer(initials: [T] = [], updater: @escaping @Sendable (inout [T], T) -> Void) -> SignalMulti<T> {
        SignalMulti(upstream: self, cache: MultiCache(values: initials, update: updater))
    }
}
