import Synchronization

/// What every node shares regardless of its value type: its feeders, whether they should be
/// running, and the status word that inputs read.
///
/// Activation changes are serialized per node without holding a lock while feeders start or
/// stop (they run user code): callers edit the wanted state under the mutex and mark it dirty;
/// one thread at a time (the "runner") applies changes, outside the mutex, until nothing is
/// dirty. A request made while another thread runs is picked up by that runner.
@usableFromInline
class NodeBase: @unchecked Sendable {
    @usableFromInline
    struct Activation {
        var wanted = false
        var running = false
        var dirty = false
        var feeders: [FeederRecord] = []
        var removed: [FeederRecord] = []
        /// The `wanted` state of the last pass over every feeder, and the index from which
        /// `feeders` were appended since a pass began: while `wanted` is what was applied, a
        /// pass starts only those, so a node given n feeders one at a time (a merged input's
        /// sources, a junction's bindings) does O(n) work in all, not O(n²).
        var applied = false
        var firstUnapplied = 0

        /// Takes the feeder at `index` out of `feeders`, keeping `firstUnapplied` on the same
        /// record.
        mutating func takeFeeder(at index: Int) -> FeederRecord {
            if index < firstUnapplied { firstUnapplied -= 1 }
            return feeders.remove(at: index)
        }
        /// An end sent while nothing was attached: delivered to the next attachment.
        var recordedEnd: SignalEnd?
        var generation = 0
        /// The generation the running feeders were started for (the last pass that applied
        /// `wanted`). A node that starts a new generation on deactivation can be attached
        /// again before its old chain's detach has stopped its feeders (a junction's disconnect
        /// and bind racing its source's end): the generation moved on while the feeders stayed
        /// active with the old one, so the next pass stops and starts them again.
        var activeGeneration = 0
        /// The attachment of the chain being attached right now (`SignalNode.attach`), until
        /// that call returns. A detach-only object: holds no user code of its own beyond the
        /// chain it closes.
        var attachmentInProgress: ChainAttachment?
        /// The box of the chain attached last (`SignalNode.attach`), until its detach: a detach
        /// of an older chain that comes after a newer attach (a junction's disconnect racing
        /// its source's end, then a bind on the disconnecting thread) leaves the newer
        /// attachment's status and activation alone.
        var attachedBox: ObjectIdentifier?
        /// Run once the last feeder is removed: a released merged input's `.cancelled`, which
        /// waits for its sources (`SignalMergedInput.endOnRelease`).
        var afterLastFeeder: (@Sendable () -> Void)?
        /// The feeder whose `activate()` the runner is in now; nil once it returned or was
        /// abandoned (`abandonActivation`).
        var activating: FeederRecord?
        /// Set when an activation was abandoned: the next pass looks at every feeder again.
        var recheck = false
    }

    /// Detaches the chain being attached to this node right now, if any: called by a
    /// subscription whose chain ended (or was stopped) before its attachment was returned,
    /// such as a `take` behind a `.direct` source that sends without end inside the
    /// activation. The sources then see the node inactive (their sends are refused) and stop.
    /// Only the subscription that holds this node's output can get here while its own attach
    /// is in progress, so the attachment is always its own.
    @usableFromInline
    func detachAttachmentInProgress(endedWith end: SignalEnd?) {
        let attachment = activation.withLock { $0.attachmentInProgress.take() }
        attachment?.detach(endedWith: end)
    }

    @usableFromInline let activation = Mutex(Activation())

    /// How many activation passes have stopped this node's feeders. A chain that forwards
    /// into the node (`SignalSink(forwardingInto:)`) is connected under one count, and an end
    /// it forwards is queued only while that count is current (`forwardEnd(_:ofFeederEpoch:)`):
    /// the holder of a node above may have passed its own checks with an end of an earlier
    /// activation and be switched out before handing it on; meanwhile this node's feeder was
    /// stopped and started again for a new subscription, and the old end must not reach it.
    /// Written by the runner under `activation`'s lock, before it stops a feeder; read under
    /// that lock, or by the runner (which took its turn through that lock). Atomic, relaxed:
    /// the lock orders it, but runners take turns through a `Mutex` that ThreadSanitizer
    /// cannot see on Linux (as `FeederRecord.active`).
    @usableFromInline let feederEpoch = Atomic<Int>(0)

    /// Status word read by inputs on every send: `generation << 2 | state`.
    @usableFromInline let status = Atomic<Int>(NodeStatus.inactive)
    /// Set once a feeder names this node as its upstream (never cleared): until then
    /// nothing is downstream of the node, so a loop check asking whether it feeds a signal
    /// answers at once, which keeps building a chain of n junction bindings O(n), not O(n²).
    @usableFromInline let feedsANode = Atomic<Bool>(false)

    /// Marks this node as named by a feeder (`feedsANode`): called by every feeder that has an
    /// upstream node as it is made, before its record is shared, so a loop check that finds
    /// the feeder's edge finds the mark too (see `graphReaches`).
    @inlinable func markFeedsANode() {
        if !feedsANode.load(ordering: .relaxed) { feedsANode.store(true, ordering: .releasing) }
    }

    /// Whether deactivation starts a new generation (old inputs become disconnected, an end
    /// of the old activation is forgotten). True for `generate` nodes, whose inputs belong to
    /// one activation, and for derived nodes fed only by chains (`merge`, `combine` and what
    /// is built on it, `hop(to:)`): each activation re-attaches their sources, which report
    /// their own ends again, so a cold source behind them (`just`, `generate`) runs again on
    /// re-subscription, as it does behind fused stages (CwlSignal's activation rules). Nodes fed by an
    /// input (`create`, a merged input) and the multis keep their end: their input is closed
    /// for good.
    @usableFromInline let newGenerationOnDeactivate: Bool

    @usableFromInline init(newGenerationOnDeactivate: Bool) {
        self.newGenerationOnDeactivate = newGenerationOnDeactivate
    }

    deinit {
        // The feeders hold the graph upstream (their chains, the nodes those are rooted at):
        // released through the thread's pending releases, so a chain of nodes is freed one
        // node at a time instead of one node inside the other.
        PendingReleases.release {
            activation.withLock { a -> [AnyObject] in
                let all: [AnyObject] = a.feeders + a.removed
                a.feeders = []
                a.removed = []
                a.firstUnapplied = 0
                return all
            }
        }
    }

    /// A stage fused into this node's single output chain ended it: the sources stop now
    /// (`EndGuardedSink`), as they would once the subscription's detach reached this node.
    @usableFromInline
    func stopFeedersAfterStageEnd() {
        updateActivation { $0.wanted = false }
    }

    /// Edits the activation state, then applies it unless another thread is already applying.
    @usableFromInline
    func updateActivation(_ edit: (inout Activation) -> Void) {
        if editActivation(edit) { runActivation() }
    }

    /// The first half of `updateActivation`: edits the wanted state and returns true if the
    /// caller must now call `runActivation()` (outside any lock it holds).
    func editActivation(_ edit: (inout Activation) -> Void) -> Bool {
        var abandoned: FeederRecord?
        let runs = activation.withLock { a -> Bool in
            edit(&a)
            a.dirty = true
            if a.running {
                // The runner is inside a feeder's `activate()` that this change stops wanting:
                // it may never return by itself (an endless `.direct` source whose downstream
                // has just ended, on this thread or another), so it is abandoned now.
                // (A removal appends the record it removed: the last one is this edit's.)
                if let r = a.activating, !a.wanted || a.removed.last === r {
                    a.activating = nil
                    abandoned = r
                }
                return false
            }
            a.running = true
            return true
        }
        abandoned?.feeder.abandonActivation()
        return runs
    }

    /// The second half of `updateActivation`: applies changes until none is pending. Starting
    /// a feeder attaches it to the node above, whose own activation runs inside this one: past
    /// a bound, that nested run is deferred to the outermost run on this thread, which makes
    /// it before it returns (`DepthBounds`), so a chain of any length activates and
    /// deactivates in bounded stack.
    func runActivation() {
        SchedulePoint.here(.graphChange)
        DepthBounds.current.runActivation(of: self)
    }

    /// Applies changes until none is pending (for `runActivation`, by the node's runner).
    func applyActivationChanges() {
        while true {
            let step = activation.withLock { a -> (Bool, [FeederRecord], Int, [FeederRecord])? in
                if !a.dirty {
                    a.running = false
                    return nil
                }
                a.dirty = false
                var removed = a.removed
                a.removed = []
                // Every feeder already in the list was brought to `applied` by an earlier pass
                // (only the runner changes a feeder's state), so unless `wanted` changed, only
                // the ones appended since need a look. (The list is handed out whole, a
                // retain; a copy of its tail would allocate on every node made.)
                let start: Int
                // Feeders running for an older generation (see `activeGeneration`) are stopped
                // first and started again, for this one.
                let restart = a.wanted && a.applied && a.activeGeneration != a.generation
                // This pass stops feeders (all of them, or those removed): what their chains
                // forward from now on is stale.
                if restart || !a.wanted || !removed.isEmpty { feederEpoch.wrappingAdd(1, ordering: .relaxed) }
                if a.wanted { a.activeGeneration = a.generation }
                if restart {
                    removed.append(contentsOf: a.feeders)
                    a.recheck = false
                    start = 0
                } else if a.wanted != a.applied || a.recheck {
                    a.applied = a.wanted
                    a.recheck = false
                    start = 0
                } else {
                    start = a.firstUnapplied
                }
                a.firstUnapplied = a.feeders.count
                return (a.wanted, a.feeders, start, removed)
            }
            guard let (wanted, feeders, start, removed) = step else { return }
            for r in removed where r.isActive {
                r.feeder.deactivate()
                r.active.store(false, ordering: .releasing)
            }
            // Stopping several feeders: each one's deactivation may run user code (an
            // `onDeactivate`, a multi's other handlers delivered by the branch removal), which
            // must find every source of this node already refusing, not only those stopped
            // before it. (One feeder needs no first step: its detach refuses before it runs
            // anything.)
            if !wanted && feeders.count - start > 1 {
                for i in start..<feeders.count where feeders[i].isActive {
                    feeders[i].feeder.refuseSendsBeforeDeactivating()
                }
            }
            // By index: a slice of the list would be one more retain of its storage per pass.
            for i in start..<feeders.count {
                let r = feeders[i]
                guard r.isActive != wanted else { continue }
                if wanted {
                    // Feeders connect in order, and an earlier one may have ended what this
                    // node feeds while it was connected (`takeUntil`'s trigger sending as it
                    // is connected): the node is then no longer wanted, or wanted for a newer
                    // generation, or that feeder was abandoned, and the later feeders are not
                    // started in this pass (a cold source behind them never runs). The next
                    // pass, which that change made due, looks at every feeder.
                    let stillWanted = activation.withLock { a -> Bool in
                        guard a.wanted && a.generation == a.activeGeneration && !a.recheck else {
                            a.dirty = true
                            a.recheck = true
                            return false
                        }
                        a.activating = r
                        return true
                    }
                    guard stillWanted else { break }
                    // A connection that nests past the activation bound is finished later, by
                    // deferred runs: the feeders after this one wait for them (below).
                    let bounds: DepthBounds? = i + 1 < feeders.count ? DepthBounds.current : nil
                    bounds?.beginConnection()
                    r.feeder.activate()
                    let unfinished = bounds?.endConnection()
                    let abandoned = activation.withLock { a -> Bool in
                        if a.activating === r {
                            a.activating = nil
                            return false
                        }
                        // Abandoned while it ran: stopped here, and looked at again next pass
                        // (wanted again by then, it starts afresh).
                        feederEpoch.wrappingAdd(1, ordering: .relaxed)
                        a.dirty = true
                        a.recheck = true
                        return true
                    }
                    if abandoned {
                        r.feeder.deactivate()
                        continue
                    }
                    if let unfinished, let bounds, feeders[(i + 1)...].contains(where: { !$0.isActive }) {
                        // This feeder's connection is not finished: the pass stops here and
                        // goes on once the runs it deferred have run (this thread stays the
                        // runner meanwhile). By then the node may no longer be wanted (the
                        // check above). It goes on from the next feeder, so a node whose every
                        // feeder waits does O(n) work in all, unless a feeder was removed
                        // meanwhile (`takeFeeder` has moved `firstUnapplied`): then it looks at
                        // every feeder again.
                        r.active.store(true, ordering: .releasing)
                        activation.withLock { a in
                            a.dirty = true
                            if a.firstUnapplied == feeders.count {
                                a.firstUnapplied = i + 1
                            } else {
                                a.recheck = true
                            }
                        }
                        bounds.resume(self, after: unfinished)
                        return
                    }
                } else {
                    r.feeder.deactivate()
                }
                r.active.store(wanted, ordering: .releasing)
            }
        }
    }

    /// Adds a feeder; it starts at once if the node is active.
    @usableFromInline
    func addFeeder(_ record: FeederRecord) {
        updateActivation { $0.feeders.append(record) }
    }

    /// Adds feeders in one change; they start at once if the node is active.
    @usableFromInline
    func addFeeders(_ records: [FeederRecord]) {
        updateActivation { $0.feeders.append(contentsOf: records) }
    }

    /// Removes a feeder; it stops if it was running.
    @usableFromInline
    func removeFeeder(where match: (FeederRecord) -> Bool) -> Bool {
        var found = false
        var whenEmpty: (@Sendable () -> Void)?
        updateActivation { a in
            if let i = a.feeders.firstIndex(where: match) {
                a.removed.append(a.takeFeeder(at: i))
                found = true
                if a.feeders.isEmpty { whenEmpty = a.afterLastFeeder.take() }
            }
        }
        // Outside the lock: it sends an end.
        whenEmpty?()
        return found
    }

    /// Sets `work` to run when the last feeder is removed, unless there is none now: then
    /// returns false and sets nothing.
    @usableFromInline
    func runAfterLastFeeder(_ work: @escaping @Sendable () -> Void) -> Bool {
        activation.withLock { a in
            if a.feeders.isEmpty { return false }
            a.afterLastFeeder = work
            return true
        }
    }

    /// The nodes that feed this one, for loop detection.
    func upstreamRoots() -> [NodeBase] {
        activation.withLock { a in a.feeders.compactMap { $0.feeder.upstreamRoot } }
    }
}

/// Decoding of `NodeBase.status`.
@usableFromInline
enum NodeStatus {
    @usableFromInline static var inactive: Int { 0 }
    @usableFromInline static var active: Int { 1 }
    @usableFromInline static var ended: Int { 2 }
    @inlinable static func make(generation: Int, state: Int) -> Int { generation << 2 | state }

    /// Why a send was refused, given the status read and the status the input expected.
    @inlinable static func rejection(read: Int, expectedActive: Int) -> SignalSendError {
        if read >> 2 != expectedActive >> 2 { return .disconnected }
        return read & 3 == inactive ? .inactive : .disconnected
    }
}
