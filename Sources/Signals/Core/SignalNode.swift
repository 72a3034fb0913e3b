import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The receiving end of every stage: one closure for values and one for the end. Sinks run
/// while their node is held, so a sink is never entered concurrently with itself.
///
/// Two closures rather than one that takes a `Result`: a value crosses a fused stage as one
/// indirect call (the value passed by address, the generic convention a closure stored here
/// keeps), instead of a `Result` built, passed by address, switched on and destroyed at every
/// stage; and a stage that only forwards the end (a `map`, a `filter`) hands the downstream
/// `end` closure on as it is, so the end costs it nothing.
///
/// A struct rather than bare function types: sinks pass through generic function types
/// (`attachChain`, stage builders), and a bare closure would be re-abstracted there (a thunk
/// per stage per value); inside a struct it keeps the one representation it was made with.
@usableFromInline package struct SignalSink<T: Sendable>: Sendable {
    /// Receives each value.
    @usableFromInline let value: @Sendable (T) -> Void
    /// Receives the end (at most once: a node delivers nothing after an end).
    @usableFromInline let end: @Sendable (SignalEnd) -> Void
    /// The value subscription whose gated entry this sink is (`ValueTerminal.sink`, so a
    /// `ValueTerminal<T>`); nil for every other sink. A `map` stage right in front of it checks
    /// the terminal's gate and calls its handler itself (`MapIntoTerminalStage`): `value` would
    /// do the same one closure call further on (docs/design/fused-stages-and-fan-out.md).
    ///
    /// Unowned and not generic, so a sink stays as cheap to copy as its two closures: a strong
    /// `ValueTerminal<T>?` cost a retain and a release per copy, and an Optional's value
    /// witnesses in the unspecialized code that copies sinks (subscribe + cancel on a multicast
    /// +113 instructions, measured). Valid for as long as the sink is: its `value` closure
    /// holds the terminal; a stage that keeps the terminal takes its own strong reference.
    @usableFromInline unowned(unsafe) let terminal: OutputTerminal?

    /// A sink with a path for values and one for the end.
    @inlinable package init(value: @escaping @Sendable (T) -> Void, end: @escaping @Sendable (SignalEnd) -> Void) {
        self.value = value
        self.end = end
        self.terminal = nil
    }

    /// A value subscription's gated sink: `value` and `end` are the terminal's own paths.
    @inlinable init(value: @escaping @Sendable (T) -> Void, end: @escaping @Sendable (SignalEnd) -> Void,
                    terminal: ValueTerminal<T>) {
        self.value = value
        self.end = end
        self.terminal = terminal
    }

    /// A sink that runs `body` for each result: for the stages that treat values and ends
    /// alike (off the per-value paths that matter; it costs one more call per value).
    @inlinable package init(_ body: @escaping @Sendable (Result<T, SignalEnd>) -> Void) {
        self.value = { body(.success($0)) }
        self.end = { body(.failure($0)) }
        self.terminal = nil
    }

    /// A sink that forwards everything into `node` (a chain feeding a node of its own), in
    /// bounded stack however many nodes are chained (`SignalNode.forward`).
    @inlinable init(forwardingInto node: SignalNode<T>) {
        self.value = { node.forward(.success($0)) }
        if node.newGenerationOnDeactivate {
            // Made as the node activates (`ChainFeeder.activate`): an end that this
            // activation's upstream delivers late (held in an `onEnd` while the node was
            // deactivated and activated again) belongs to it, and must not close the next
            // activation's queue (`forwardEnd(_:ofGeneration:)`).
            let generation = node.currentGeneration
            self.end = { node.forwardEnd($0, ofGeneration: generation) }
        } else {
            self.end = { node.forward(.failure($0)) }
        }
        self.terminal = nil
    }

    /// Delivers a result: its value to `value`, its end to `end`.
    @inlinable @inline(__always)
    package func callAsFunction(_ result: Result<T, SignalEnd>) {
        switch result {
        case .success(let v): value(v)
        case .failure(let e): end(e)
        }
    }
}

/// Which path an input's `send(value:)` takes into its node (`SignalNode.sendPath`).
@usableFromInline
enum NodeSendPath: UInt8, Sendable {
    /// A `.direct` node of one activation on the lock-free variant: inlined into the send.
    case lockFreeDirect
    /// The same on the mutex variant.
    case mutexDirect
    /// An asynchronous node or a `generate` node's checked delivery: one outlined call.
    case outlined
}

/// What travels through a node's delivery queue: values, and graph changes, which take their
/// place in line so that they happen between two values and never reorder them.
@usableFromInline
enum NodeMessage<T: Sendable>: Sendable {
    case value(Result<T, SignalEnd>)
    case control(NodeControl)
}

/// A graph change run by whoever holds the node, in line with values.
@usableFromInline
final class NodeControl: @unchecked Sendable {
    // Unchecked: `work` runs once, by the holder; `finished` publishes its effects.
    @usableFromInline let work: () -> Void
    let finished = Atomic<Bool>(false)
    let waiter = Mutex<DispatchSemaphore?>(nil)

    @usableFromInline init(_ work: @escaping () -> Void) { self.work = work }

    /// How long `wait` spins on the flag before it parks, in nanoseconds: a few deliveries'
    /// worth (one delivery to ten subscribers takes well under a microsecond here), so a
    /// holder that is running finishes within it.
    static let spinNanosecondsBeforeParking: UInt64 = 20_000

    @usableFromInline func perform() {
        // The hand-overs it defers past the depth bound run before the waiter is let go.
        DepthBounds.current.runningDeferred(work)
        finished.store(true, ordering: .releasing)
        if let s = waiter.withLock({ $0 }) { s.signal() }
    }

    /// Blocks until another thread has performed this control, unless waiting could close a
    /// cycle of threads each waiting for a node the next one holds (see `WaitRegistry`): then
    /// it returns at once and the holder performs the control later.
    @usableFromInline func wait(holder: @escaping @Sendable () -> UInt) {
        // The holder usually finishes within a delivery (well under a microsecond): spin on
        // the flag, for a bounded time, then park on a semaphore that the holder signals.
        // Never `sched_yield`: on a busy machine a yield hands the core to whatever else is
        // runnable there for the rest of its time slice (milliseconds; measured under
        // `--load 2`: two yields cost 27 ms while the holder had finished within a
        // microsecond, docs/design/churn.md), whereas a parked thread is woken when the holder
        // is done. A holder that was preempted is not helped by the spin either; parking
        // gives it the core.
        let start = DispatchTime.now().uptimeNanoseconds
        let counting = WaitCounters.counting
        if counting { WaitCounters.add(.controlWait) }
        defer { if counting { WaitCounters.add(.controlWaitNanoseconds, Int(truncatingIfNeeded: WaitCounters.now() &- start)) } }
        #if DEBUG
        var spinTurns = 0
        #endif
        while true {
            for _ in 0..<128 where finished.load(ordering: .acquiring) {
                if counting { WaitCounters.add(.controlWaitEndedInSpin) }
                return
            }
            #if DEBUG
            // A thread of a controlled scheduler (`bench explore`) cannot spin for a holder
            // that runs only when it yields: its spin is two turns, then it parks as below.
            if SchedulePoint.waitingTurn(.controlWait) {
                spinTurns += 1
                if spinTurns < 2 { continue }
                break
            }
            #endif
            if DispatchTime.now().uptimeNanoseconds &- start > Self.spinNanosecondsBeforeParking { break }
        }
        let me = currentThreadToken()
        guard Self.registerUnscheduled(me, waitingFor: holder) else { return }
        defer { Self.unregisterUnscheduled(me) }
        #if DEBUG
        // The scheduler's park: turns until the holder has run the control.
        while !finished.load(ordering: .acquiring) {
            if !SchedulePoint.waitingTurn(.controlWait) { break }
        }
        if finished.load(ordering: .acquiring) { return }
        #endif
        let semaphore = DispatchSemaphore(value: 0)
        waiter.withLock { $0 = semaphore }
        if finished.load(ordering: .acquiring) { return }
        if counting { WaitCounters.add(.controlWaitParked) }
        semaphore.wait()
    }

    /// `WaitRegistry.register`, out of the scheduler's view in debug builds: the registry's
    /// `Mutex` is held while it reads holders, whose locks have schedule points, and a thread
    /// suspended there would block the others outside the scheduler.
    static func registerUnscheduled(_ me: UInt, waitingFor holder: @escaping @Sendable () -> UInt) -> Bool {
        #if DEBUG
        return SchedulePoint.unscheduled { WaitRegistry.register(me, waitingFor: holder) }
        #else
        return WaitRegistry.register(me, waitingFor: holder)
        #endif
    }

    static func unregisterUnscheduled(_ me: UInt) {
        #if DEBUG
        SchedulePoint.unscheduled { WaitRegistry.unregister(me) }
        #else
        WaitRegistry.unregister(me)
        #endif
    }
}

/// The threads blocked in `NodeControl.wait`, each with a way to read the holder of the node
/// it waits for. A thread runs its handlers while holding its node, so a graph change made
/// from inside a handler (a cancel, a subscribe, a branch removal) that waits for another
/// node's holder turns its own node into a lock held while waiting: two threads doing that to
/// each other's nodes would wait for ever (handlers that cancel each other). Before
/// blocking, a thread follows the chain holder → node that holder waits for → its holder …;
/// if the chain comes back to it, it does not wait. Registration and the check are one step under the registry's mutex,
/// so of the threads closing a cycle the last one to arrive sees it. Only threads that would
/// block use the registry: no value path touches it.
enum WaitRegistry {
    static let waiting = Mutex<[UInt: @Sendable () -> UInt]>([:])

    /// Registers `me` as waiting for the holder `holder` reads, and returns true; returns false
    /// (registering nothing) when that wait would close a cycle.
    static func register(_ me: UInt, waitingFor holder: @escaping @Sendable () -> UInt) -> Bool {
        waiting.withLock { w in
            var t = holder()
            var steps = 0
            while t != 0, steps <= w.count {
                if t == me { return false }
                guard let next = w[t] else { break }
                t = next()
                steps += 1
            }
            w[me] = holder
            return true
        }
    }

    static func unregister(_ me: UInt) {
        _ = waiting.withLock { $0.removeValue(forKey: me) }
    }
}

/// A serialization point: values from any number of threads enter here and leave, one at a
/// time and in order, through `output` (a fused chain of `.direct` stages ending at a
/// subscriber or at the next node).
///
/// The node is generic over its value type only; the delivery variant is picked at run time
/// from a stored flag and each branch calls code specialized for its queue type, so the hot
/// path pays one predictable branch instead of an existential or a virtual call.
@usableFromInline
final class SignalNode<T: Sendable>: NodeBase, @unchecked Sendable {
    // Unchecked: `output` is touched only by the holder of the node's queue.
    @usableFromInline typealias Message = NodeMessage<T>
    @usableFromInline typealias LockFreeQueue = LockFreeDeliveryQueue<Message>
    @usableFromInline typealias MutexQueue = MutexDeliveryQueue<Message>

    @usableFromInline let variant: DeliveryVariant
    /// The delivery queue, held by an unmanaged reference so the hot path can use it without
    /// retaining it per value (the node owns it: released in `deinit`).
    @usableFromInline let queue: Unmanaged<AnyObject>
    /// Where this node's holder runs: nil for `.direct` (the sending thread delivers).
    @usableFromInline let context: Exec?
    /// `context != nil`, kept as a plain flag: testing the enum would copy it (and retain its
    /// payload) on every delivery.
    @usableFromInline let isAsync: Bool
    /// How an input's `send(value:)` enters this node, decided once here: the variant's
    /// synchronous path, inlined into the send, for a `.direct` node of one activation (what
    /// `Signal.create` makes, the common case of a lone sender); everything else (an
    /// asynchronous node, a `generate` node's checked delivery) goes through one outlined call.
    /// One byte tested per send instead of three flags (`newGenerationOnDeactivate`, the
    /// variant, `isAsync`).
    @usableFromInline let sendPath: NodeSendPath

    /// The fused chain out of this node, boxed and retained by hand so a delivery calls it
    /// through a guaranteed reference (no retain/release per value); nil while nothing is
    /// attached. Holder-only.
    @exclusivity(unchecked) @usableFromInline var outputBox: Unmanaged<SinkBox<T>>?

    /// Installs or removes the output. Holder-only (or before the node is shared). The old
    /// chain is released here, outside every lock.
    @usableFromInline var output: SignalSink<T>? {
        get { outputBox?.takeUnretainedValue().sink }
        set {
            let old = outputBox
            outputBox = newValue.map { Unmanaged.passRetained(SinkBox($0)) }
            old?.release()
        }
    }

    @usableFromInline
    init(variant: DeliveryVariant, context: Exec? = nil, newGenerationOnDeactivate: Bool = false) {
        self.variant = variant
        switch variant {
        case .lockFree: queue = Unmanaged.passRetained(LockFreeQueue())
        case .mutex: queue = Unmanaged.passRetained(MutexQueue())
        }
        if let c = context, !c.isDirect { self.context = c } else { self.context = nil }
        isAsync = self.context != nil
        if isAsync || newGenerationOnDeactivate {
            sendPath = .outlined
        } else {
            sendPath = variant == .lockFree ? .lockFreeDirect : .mutexDirect
        }
        super.init(newGenerationOnDeactivate: newGenerationOnDeactivate)
    }

    // MARK: Delivery

    /// Delivers a result through the node: on this thread at once if the node is idle,
    /// otherwise queued for the thread that holds it. Returns false, and does nothing, for a
    /// value that comes after an end the node already accepted: the end and the enqueue are
    /// one atomic decision in the queue, so no stage ever sees a value after its end, and a
    /// value accepted here (true) is always delivered (unless the output is cancelled).
    @inlinable @inline(__always) @discardableResult
    func deliver(_ result: Result<T, SignalEnd>) -> Bool {
        if variant == .lockFree {
            return queue._withUnsafeGuaranteedRef { deliver(result, through: unsafeDowncast($0, to: LockFreeQueue.self)) }
        } else {
            return queue._withUnsafeGuaranteedRef { deliver(result, through: unsafeDowncast($0, to: MutexQueue.self)) }
        }
    }

    @inlinable @inline(__always)
    func deliver<Q: DeliveryQueue>(_ result: Result<T, SignalEnd>, through q: Q) -> Bool where Q.Element == Message {
        if isAsync {
            let kind: QueueElementKind
            if case .failure = result { kind = .end } else { kind = .value }
            guard let claimed = q.enqueueAndClaimIfIdle(kind, .value(result)) else { return false }
            if claimed { scheduleDrain(q) }
            return true
        }
        return deliverDirect(result, through: q)
    }

    /// A value sent by an input whose node takes the outlined path (`sendPath`): a `generate`
    /// node's checked delivery, or an asynchronous node. Out of line, so the inlined send of
    /// the common path carries neither; `@inlinable`, so it is still specialized for `T`.
    @inlinable @inline(never)
    func sendOutlined(_ value: T, expectedActive: Int) -> Bool {
        if newGenerationOnDeactivate { return deliver(checked: .success(value), expectedActive: expectedActive) }
        return deliver(.success(value))
    }

    /// A value sent by an input of a `.direct` node on the mutex variant (`sendPath`
    /// `.mutexDirect`). Out of line so that `SignalInput.send(value:)`, which inlines the
    /// lock-free path, keeps that path's registers (the mutex queue's claim, inlined beside
    /// it, cost every lock-free send one more saved register); the claim is inlined here, so
    /// the mutex path is one call and no generic function shared with other element types
    /// (merged specializations took an extra argument per call).
    @inlinable @inline(never)
    func sendMutexDirect(_ value: T) -> Bool {
        queue._withUnsafeGuaranteedRef {
            deliverDirect(.success(value), through: unsafeDowncast($0, to: MutexQueue.self))
        }
    }

    /// `deliver(_:through:)` for a `.direct` node: the holder delivers on this thread.
    @inlinable @inline(__always)
    func deliverDirect<Q: DeliveryQueue>(_ result: Result<T, SignalEnd>, through q: Q) -> Bool where Q.Element == Message {
        let kind: QueueElementKind
        if case .failure = result { kind = .end } else { kind = .value }
        switch q.claimOrEnqueue(kind, .value(result)) {
        case .claimed:
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(result) } }
            if !q.releaseIfIdle() { drain(q) }
        case .enqueued:
            break
        case .enqueuedAndClaimed:
            drain(q)
        case nil:
            return false
        }
        return true
    }

    /// Delivers a value sent by an input of one activation (a `generate` node's): the status
    /// is checked again while holding the node, so a value that passed the input's check just
    /// before a deactivation never reaches the next activation's chain. Queued values carry
    /// the check with them (one object per contended value, on `generate` nodes only).
    @inlinable @discardableResult
    func deliver(checked result: Result<T, SignalEnd>, expectedActive: Int) -> Bool {
        if variant == .lockFree {
            return queue._withUnsafeGuaranteedRef {
                deliver(checked: result, expectedActive: expectedActive, through: unsafeDowncast($0, to: LockFreeQueue.self))
            }
        } else {
            return queue._withUnsafeGuaranteedRef {
                deliver(checked: result, expectedActive: expectedActive, through: unsafeDowncast($0, to: MutexQueue.self))
            }
        }
    }

    @inlinable
    func deliver<Q: DeliveryQueue>(checked result: Result<T, SignalEnd>, expectedActive: Int, through q: Q) -> Bool
    where Q.Element == Message {
        // Queued as a value (refused after an end, like any value), in the form of a control
        // that carries the check. That form is built only when the value has to wait: an
        // uncontended send allocates nothing.
        //
        // A value that passed its input's status check just before its activation's end can
        // reach the queue after that end's detach reopened it for the next generation: the
        // holder then drops it. Its send must not report it accepted (a send that returns nil
        // is delivered), so a queued value whose generation is gone once it is in the queue
        // is withdrawn, or reported as the holder decided (`CheckedDelivery`).
        let kind: QueueElementKind
        if case .failure = result { kind = .end } else { kind = .value }
        if isAsync {
            let outcome = CheckedDelivery()
            let c = NodeControl { [self] in
                outcome.deliver(current: isCurrent(expectedActive)) {
                    deliverIfCurrent(result, expectedActive: expectedActive)
                }
            }
            guard let claimed = q.enqueueAndClaimIfIdle(kind, .control(c)) else { return false }
            let accepted = outcome.accepted(stillCurrent: isCurrent(expectedActive))
            if claimed { scheduleDrain(q) }
            return accepted
        }
        var outcome: CheckedDelivery?
        switch q.claimOrEnqueue(kind, .control({
            let o = CheckedDelivery()
            outcome = o
            return NodeControl { [self] in
                o.deliver(current: isCurrent(expectedActive)) {
                    deliverIfCurrent(result, expectedActive: expectedActive)
                }
            }
        }())) {
        case .claimed:
            let delivered = deliverIfCurrent(result, expectedActive: expectedActive)
            if !q.releaseIfIdle() { drain(q) }
            return delivered
        case .enqueued:
            return outcome?.accepted(stillCurrent: isCurrent(expectedActive)) ?? true
        case .enqueuedAndClaimed:
            let accepted = outcome?.accepted(stillCurrent: isCurrent(expectedActive)) ?? true
            drain(q)
            return accepted
        case nil:
            return false
        }
    }

    /// Whether the generation an input of `expectedActive` was made for is still the node's.
    @inlinable @inline(__always)
    func isCurrent(_ expectedActive: Int) -> Bool {
        status.load(ordering: .acquiring) >> 2 == expectedActive >> 2
    }

    /// For the holder: delivers `result` unless the node left the activation it was sent in;
    /// whether it did. A deactivation stores the status before it queues its own change, so a
    /// status still equal to `expectedActive` here means that change (and any later
    /// activation) comes after this value.
    @inlinable @discardableResult
    func deliverIfCurrent(_ result: Result<T, SignalEnd>, expectedActive: Int) -> Bool {
        // The generation, not the whole status: a value queued before its own activation's
        // end must still be delivered once that end has closed the status (comparing the whole
        // word dropped every queued value of the activation, and only its end arrived).
        guard isCurrent(expectedActive), let box = outputBox else { return false }
        box._withUnsafeGuaranteedRef { $0.deliverIfOpen(result) }
        return true
    }

    @inlinable @inline(__always)
    func handle(_ message: Message) {
        // Matched to the value or the end inside the message, so the payload is read in place
        // rather than the `Result` being copied out first.
        switch message {
        case .value(.success(let v)):
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(value: v) } }
        case .value(.failure(let e)):
            if let box = outputBox { box._withUnsafeGuaranteedRef { $0.deliverIfOpen(end: e) } }
        case .control(let c):
            c.perform()
        }
    }

    @inlinable
    func drain<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        // A synchronous holder hands the node over after a long drain so that its own call
        // returns while other threads keep sending; an asynchronous node's drain runs on its
        // context and must stay there.
        var budget = isAsync ? Int.max : drainBudgetBeforeHandoff
        while let m = q.nextOrRelease() {
            handle(m)
            // A graph change's sender waits for it and makes its next change itself: do not
            // keep the node watching for that one (see `DeliveryQueue.skipNextCaughtUpWatch()`).
            if case .control = m { q.skipNextCaughtUpWatch() }
            budget &-= 1
            if _slowPath(budget == 0) {
                if q.offerHandoff() { return }
                budget = drainBudgetBeforeHandoff
            }
        }
    }

    @usableFromInline
    func scheduleDrain<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        context!.invoke { [self] in
            q.adoptClaim()
            drain(q)
        }
    }

    deinit {
        outputBox?.release()
        queue.release()
    }

    // MARK: Graph changes

    /// Runs `work` while holding the node, in line with values. Returns once it has run (on
    /// this thread, or on the thread holding the node, which this one waits for; also when
    /// this thread drained the node and handed it over before reaching `work`), except when
    /// called by the thread that holds the node right now (from inside a delivery), or on a
    /// node with an asynchronous context: then it runs after the current delivery and this
    /// returns at once, since waiting would deadlock. It also returns at once where waiting
    /// would close a cycle of threads (`WaitRegistry`); `work` then runs later, in line.
    @inlinable
    func perform(_ work: @escaping () -> Void) {
        if variant == .lockFree {
            queue._withUnsafeGuaranteedRef { perform(work, waiting: true, through: unsafeDowncast($0, to: LockFreeQueue.self)) }
        } else {
            queue._withUnsafeGuaranteedRef { perform(work, waiting: true, through: unsafeDowncast($0, to: MutexQueue.self)) }
        }
    }

    /// Runs `work` while holding the node, in line with values, and never waits: if another
    /// thread holds the node, `work` is queued for it and this returns at once.
    ///
    /// For an attachment: its installation is queued ahead of everything its feeders send,
    /// so nothing needs to wait for it.
    @inlinable
    func post(_ work: @escaping () -> Void) {
        if variant == .lockFree {
            queue._withUnsafeGuaranteedRef { perform(work, waiting: false, through: unsafeDowncast($0, to: LockFreeQueue.self)) }
        } else {
            queue._withUnsafeGuaranteedRef { perform(work, waiting: false, through: unsafeDowncast($0, to: MutexQueue.self)) }
        }
    }

    @inlinable
    func perform<Q: DeliveryQueue>(_ work: @escaping () -> Void, waiting: Bool, through q: Q) where Q.Element == Message {
        if isAsync {
            if q.enqueueAndClaimIfIdle(.control(NodeControl(work))) { scheduleDrain(q) }
            return
        }
        let reentrant = waiting && q.isHeldByCurrentThread
        // The control object (and its waiter) is made only when the change has to be queued.
        var queued: NodeControl?
        switch q.claimOrEnqueue({ let c = NodeControl(work); queued = c; return .control(c) }()) {
        case .claimed:
            work()
            if !q.releaseIfIdle() { drain(q) }
        case .enqueuedAndClaimed:
            drain(q)
            // This thread took the node with the change queued behind a backlog (it took a
            // holder's handoff offer, or found the node idle), and a drain that goes past the
            // handoff budget may hand the node on before it reaches the change. The change is
            // then still queued for the new holder: wait for it as in `.enqueued` (this thread
            // holds the node no more). Without this wait `capture()` could return before a
            // multi's cache was replayed to it, and a subscription before its branch was
            // attached (docs/stress.md, "capture() racing a flooding sender"). Graph changes
            // only: values never come here. (`wait` returns at once when the change has run.)
            fallthrough
        case .enqueued:
            #if DEBUG
            SchedulePoint.here(.graphChange)
            #endif
            if waiting && !reentrant { queued?.wait { q.holderToken } }
        }
    }

    /// Runs `work` at once if the node is idle and direct, holding it meanwhile (true);
    /// otherwise does nothing (false) and the caller falls back to `perform`. Lets frequent
    /// graph changes skip the escaping closure and control object of a queued change.
    @inlinable
    func performIfIdle(_ work: () -> Void) -> Bool {
        if isAsync { return false }
        if variant == .lockFree {
            return queue._withUnsafeGuaranteedRef { performIfIdle(work, through: unsafeDowncast($0, to: LockFreeQueue.self)) }
        } else {
            return queue._withUnsafeGuaranteedRef { performIfIdle(work, through: unsafeDowncast($0, to: MutexQueue.self)) }
        }
    }

    @inlinable
    func performIfIdle<Q: DeliveryQueue>(_ work: () -> Void, through q: Q) -> Bool where Q.Element == Message {
        guard q.tryClaim() else { return false }
        work()
        if !q.releaseIfIdle() { drain(q) }
        return true
    }

    /// Connects the fused chain in `box` as this node's output and starts the node's feeders;
    /// an end sent before anything was attached is delivered to it at once. While this call runs (the feeders
    /// started, the kept end replayed), `attachment` is the node's attachment in progress: a
    /// subscription whose chain ends before `attachChain` has returned its attachment
    /// detaches it through `detachAttachmentInProgress` (see `OutputTerminal.requestDetach`).
    @usableFromInline
    func attach(_ box: SinkBox<T>, detachableThrough attachment: ChainAttachment?) {
        #if DEBUG
        SchedulePoint.here(.subscribe)
        #endif
        post { [self] in installOutput(box) }
        var pendingEnd: SignalEnd?
        updateActivation { a in
            if let attachment { a.attachmentInProgress = attachment }
            a.attachedBox = ObjectIdentifier(box)
            if newGenerationOnDeactivate && status.load(ordering: .acquiring) & 3 == NodeStatus.ended {
                // The last activation's end closed the node and its chain's detach has not
                // yet started the next generation (a junction's disconnect lost the race to
                // detach the chain to that end, then bound again): this attach starts it, and
                // that detach, superseded, leaves it alone. Its feeders are restarted for it.
                a.generation += 1
                reopenQueue()
            }
            if let e = a.recordedEnd {
                pendingEnd = e
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.ended), ordering: .releasing)
            } else {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.active), ordering: .releasing)
                a.wanted = true
            }
        }
        // The kept end of a closed node is its activation: a capture takes it as its end.
        if let e = pendingEnd { ActivationReplay.replaying { deliver(.failure(e)) } }
        if let attachment {
            activation.withLock { a in
                if a.attachmentInProgress === attachment { a.attachmentInProgress = nil }
            }
        }
    }

    /// Opens the delivery queue to values again after an end (see `DeliveryQueue.reopen`).
    @usableFromInline
    func reopenQueue() {
        if variant == .lockFree {
            queue._withUnsafeGuaranteedRef { unsafeDowncast($0, to: LockFreeQueue.self).reopen() }
        } else {
            queue._withUnsafeGuaranteedRef { unsafeDowncast($0, to: MutexQueue.self).reopen() }
        }
    }

    /// Installs `box` (retained here) as the output. Holder-only.
    @usableFromInline
    func installOutput(_ box: SinkBox<T>) {
        let old = outputBox
        outputBox = Unmanaged.passRetained(box)
        old?.release()
    }

    /// Disconnects the output and stops the feeders. Once the node has an end (`end`, or one
    /// recorded earlier), inputs see it as disconnected; otherwise as inactive until attached
    /// again.
    ///
    /// With `closing`, the chain attached in that box is closed first, so no stage of it runs
    /// after this returns (except a call already running), even when `perform` cannot wait
    /// for the holder (from inside its delivery, or where waiting could deadlock) and the
    /// holder drops the chain later.
    @usableFromInline
    func detach(endedWith end: SignalEnd?, closing box: SinkBox<T>? = nil) {
        box?.close()
        // An end forgotten here may carry a user error (`.other`): it is handed out of the
        // lock and released after the unlock, like every user-owned object (no user `deinit`
        // under a lock).
        var superseded = false
        let forgottenEnd = activation.withLock { a -> SignalEnd? in
            // Two threads can detach one chain (a junction's disconnect and its source's end):
            // the one that loses returns at once, and may attach a new chain while this detach
            // runs. This node's status and activation are then the new chain's: only the old
            // chain is closed and dropped.
            if let box, let current = a.attachedBox, current != ObjectIdentifier(box) {
                superseded = true
                return nil
            }
            a.attachedBox = nil
            if newGenerationOnDeactivate {
                // A `generate` node restarts on its next activation (a fresh input, its
                // closure run again), so an end of this activation is not kept: the old
                // input's generation is gone and it sees itself disconnected.
                let forgotten = a.recordedEnd.take()
                a.generation += 1
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
                // The old activation's end closed the queue to values; the next activation's
                // inputs need it open (the generation check drops stragglers of this one).
                reopenQueue()
                return forgotten
            }
            if let end, a.recordedEnd == nil { a.recordedEnd = end }
            // A concurrent `sendEnd` may have closed the status word and not yet recorded its
            // end: the node stays ended, or later sends would see it as merely inactive.
            let endedAlready = status.load(ordering: .acquiring) & 3 == NodeStatus.ended
            if a.recordedEnd != nil || endedAlready {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.ended), ordering: .releasing)
            } else {
                if newGenerationOnDeactivate { a.generation += 1 }
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
            }
            return nil
        }
        withExtendedLifetime(forgottenEnd) {}
        // The old chain is released while holding the node, never under a lock.
        if let box {
            // Only if it is still the installed one: a later attachment may already be queued
            // ahead of this (the removal and installation run in the order they were queued).
            perform { [self] in
                if outputBox?.toOpaque() == Unmanaged.passUnretained(box).toOpaque() { output = nil }
            }
        } else {
            perform { [self] in output = nil }
        }
        // A chain attached since (after the status change above) wants the node active.
        let ofABox = box != nil
        if !superseded { updateActivation { a in if !ofABox || a.attachedBox == nil { a.wanted = false } } }
    }

    /// Makes the inputs refuse sends (as inactive) until the detach that follows: the first
    /// step of a deactivation that stops several feeders of a node below
    /// (`ChainAttachment.refuseSendsBeforeDetach()`). Leaves an ended or newer status alone.
    @usableFromInline
    func refuseSendsUntilDetached() {
        activation.withLock { a in
            let active = NodeStatus.make(generation: a.generation, state: NodeStatus.active)
            if status.load(ordering: .acquiring) == active {
                status.store(NodeStatus.make(generation: a.generation, state: NodeStatus.inactive), ordering: .releasing)
            }
        }
    }

    /// An end sent by an input that expected `expectedActive`: closes the node so later sends
    /// are refused, then delivers the end. While inactive, the end is kept for the next
    /// attachment. `pastTheBound` (a hand-over past the depth bound, `SignalInput.sendHandedOver`):
    /// the end is queued and the node, if this found it idle, drained later by that thread.
    @usableFromInline
    func sendEnd(_ end: SignalEnd, expectedActive: Int, pastTheBound: DepthBounds? = nil) -> SignalSendError? {
        #if DEBUG
        SchedulePoint.here(.end)
        #endif
        var read = status.load(ordering: .acquiring)
        while read == expectedActive {
            let (closed, now) = status.compareExchange(
                expected: read, desired: (read & ~3) | NodeStatus.ended, ordering: .acquiringAndReleasing)
            if closed {
                if newGenerationOnDeactivate {
                    #if DEBUG
                    SchedulePoint.here(.endDelivery)
                    #endif
                    if _slowPath(EndDeliveryGap.armed.load(ordering: .relaxed)) { EndDeliveryGap.run(end) }
                    deliverEnd(end, ofGeneration: expectedActive >> 2, pastTheBound: pastTheBound)
                    return nil
                }
                // Recorded only for the activation it closed.
                activation.withLock { a in
                    if a.recordedEnd == nil && a.generation == expectedActive >> 2 { a.recordedEnd = end }
                }
                if let pastTheBound {
                    handOverPastTheBound(.value(.failure(end)), kind: .end, pastTheBound)
                } else {
                    deliver(.failure(end))
                }
                return nil
            }
            read = now
        }
        // A node that starts a new generation on deactivation never keeps an end for a later
        // attachment: an input of its generation while it is inactive belongs to an
        // activation pass that a deactivation overtook (the feeders are applied outside the
        // lock), and its kept end would reach the next binding's chain as that binding's
        // first result (a chain that completed with no value).
        if newGenerationOnDeactivate && read & 3 == NodeStatus.inactive {
            return NodeStatus.rejection(read: read, expectedActive: expectedActive)
        }
        if read >> 2 == expectedActive >> 2 && read & 3 == NodeStatus.inactive {
            let outcome = activation.withLock { a -> InactiveEndOutcome in
                if a.recordedEnd != nil { return .alreadyEnded }
                guard status.load(ordering: .relaxed) == read else { return .changed }
                a.recordedEnd = end
                status.store((read & ~3) | NodeStatus.ended, ordering: .releasing)
                return .kept
            }
            switch outcome {
            case .kept: return .inactive
            case .alreadyEnded: return .disconnected
            // The status moved on (activated, or ended by another sender): read it again.
            // Loops only while other threads keep changing it, never on a fixed state.
            case .changed: return sendEnd(end, expectedActive: expectedActive, pastTheBound: pastTheBound)
            }
        }
        return NodeStatus.rejection(read: read, expectedActive: expectedActive)
    }

    /// Delivers the end of generation `generation` of a node that starts a new generation on
    /// deactivation (`generate`, merge, combine, hop nodes), unless that generation is gone.
    ///
    /// Why: the end was once delivered like a value, after its status CAS. A thread that
    /// unbound and re-bound the node in between (a junction's `disconnect` and `bind`) started
    /// the next generation and reopened the queue; the old end then closed the reopened queue
    /// (the new activation's values were refused) and reached the new binding's chain, which
    /// completed with no value. Now the end is queued under the activation lock, only while its
    /// generation is current, so it is queued either before the next generation reopens the
    /// queue or not at all; and the holder delivers it only while the generation is still
    /// current. No user code runs under the lock: queuing never delivers, and a stale end's
    /// control is released after the unlock. Values keep their one-load path: only ends pay.
    ///
    /// `recording: false` (an end forwarded from a feeder's chain, `forwardEnd`): the end is
    /// not kept for a later attachment, as a forwarded end never was.
    @usableFromInline
    func deliverEnd(_ end: SignalEnd, ofGeneration generation: Int, pastTheBound: DepthBounds? = nil, recording: Bool = true) {
        let control = NodeControl { [self] in
            guard status.load(ordering: .acquiring) >> 2 == generation, let box = outputBox else { return }
            box._withUnsafeGuaranteedRef { $0.deliverIfOpen(.failure(end)) }
        }
        let claimed = activation.withLock { a -> Bool in
            guard a.generation == generation else { return false }
            if recording && a.recordedEnd == nil { a.recordedEnd = end }
            // The queue's schedule points are not taken under this lock: a thread switched out
            // here would block another on the lock, where the scheduler cannot see it.
            #if DEBUG
            return SchedulePoint.unscheduled { enqueueEnd(control) }
            #else
            return enqueueEnd(control)
            #endif
        }
        withExtendedLifetime(control) {}
        guard claimed else { return }
        if let pastTheBound, !isAsync {
            pastTheBound.deferDelivery { [self] in drainHeld() }
            return
        }
        if variant == .lockFree {
            queue._withUnsafeGuaranteedRef { drainAfterEnqueue(unsafeDowncast($0, to: LockFreeQueue.self)) }
        } else {
            queue._withUnsafeGuaranteedRef { drainAfterEnqueue(unsafeDowncast($0, to: MutexQueue.self)) }
        }
    }

    /// Queues `control` as an end (closing the queue to values); true if the node was idle and
    /// this thread now holds it. Runs no user code.
    @usableFromInline
    func enqueueEnd(_ control: NodeControl) -> Bool {
        // An end is always accepted (only values are refused).
        if variant == .lockFree {
            return queue._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: LockFreeQueue.self).enqueueAndClaimIfIdle(.end, .control(control)) ?? false
            }
        } else {
            return queue._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: MutexQueue.self).enqueueAndClaimIfIdle(.end, .control(control)) ?? false
            }
        }
    }

    /// For a thread that claimed the node by queuing: drains here, or on the node's context.
    @usableFromInline
    func drainAfterEnqueue<Q: DeliveryQueue>(_ q: Q) where Q.Element == Message {
        if isAsync { scheduleDrain(q) } else { drain(q) }
    }

    /// The current generation (a node that starts a new generation on deactivation).
    @usableFromInline
    var currentGeneration: Int { activation.withLock { $0.generation } }

    /// The status an input of the current generation expects while the node is active.
    @usableFromInline
    var currentActiveStatus: Int {
        activation.withLock { NodeStatus.make(generation: $0.generation, state: NodeStatus.active) }
    }
}

/// A hook for the package's tests at the gap between an end's status change and
/// `deliverEnd` (nodes that start a new generation on deactivation): a window a few
/// instructions wide in which another thread's disconnect and bind can start the next
/// generation. Only the tests install it, to run that disconnect and bind there
/// deterministically and check that the stale end neither closes the reopened queue nor
/// reaches the new chain. Not installed, it costs such an end one relaxed load; values never
/// pass here.
package enum EndDeliveryGap {
    /// Whether a hook is installed.
    package static let armed = Atomic<Bool>(false)
    static let body = Mutex<(@Sendable (SignalEnd) -> Void)?>(nil)

    /// Installs `hook` (nil removes it); it runs with the end, on the sending thread, before
    /// the end is queued.
    package static func install(_ hook: (@Sendable (SignalEnd) -> Void)?) {
        body.withLock { $0 = hook }
        armed.store(hook != nil, ordering: .releasing)
    }

    static func run(_ end: SignalEnd) {
        if let hook = body.withLock({ $0 }) { hook(end) }
    }
}

/// What `sendEnd` did with an end sent while its node was inactive.
enum InactiveEndOutcome { case kept, alreadyEnded, changed }

/// A node's output chain in a box of its own, so the node can hold it by an unmanaged
/// reference and call it without retaining it per value.
@usableFromInline
final class SinkBox<T: Sendable>: @unchecked Sendable {
    @usableFromInline let sink: SignalSink<T>
    /// Cleared when the chain is detached: from then on the holder skips it, even for values
    /// queued before the detach (nothing runs after `cancel()`: no stage of a cancelled chain runs
    /// after `cancel()` returns, although the node drops the chain only later).
    @usableFromInline let open = Atomic<Bool>(true)
    @usableFromInline init(_ sink: SignalSink<T>) { self.sink = sink }

    /// Delivers `result` unless the chain was closed: its value to the chain's value path,
    /// its end to the end path.
    @inlinable @inline(__always)
    func deliverIfOpen(_ result: Result<T, SignalEnd>) {
        if _fastPath(open.load(ordering: .relaxed)) { sink(result) }
    }

    /// Delivers a value unless the chain was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(value: T) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.value(value) }
    }

    /// Delivers the end unless the chain was closed.
    @inlinable @inline(__always)
    func deliverIfOpen(end: SignalEnd) {
        if _fastPath(open.load(ordering: .relaxed)) { sink.end(end) }
    }

    @usableFromInline func close() { open.store(false, ordering: .releasing) }
}
