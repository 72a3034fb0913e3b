// `combineLatest` and `zip` of two to five signals. Each keeps its per-activation state in the
// state of `combine(initialState:)` (`CombiningState`): one typed slot per input (`LatestValue`,
// `QueuedValues`), and a state machine that does the bookkeeping common to every number of inputs
// (`CombineLatestStateMachine`, `ZipStateMachine`) and says what to emit. The machines are
// plain values, tested without threads; the node that serializes the stage serializes them.

/// Bits of a combining state recording which inputs have done something (sent a value,
/// ended), and for ended inputs which end.
@usableFromInline
package struct InputSet: Sendable, Equatable {
    @usableFromInline var bits: UInt8 = 0
    /// Inputs that ended with `.cancelled` rather than `.complete`.
    @usableFromInline var cancelledBits: UInt8 = 0
    @inlinable package init() {}
    @inlinable mutating func insert(_ i: Int) { bits |= 1 << UInt8(i) }
    @inlinable mutating func insert(_ i: Int, end: SignalEnd) {
        insert(i)
        if case .cancelled = end { cancelledBits |= 1 << UInt8(i) }
    }
    /// The end input `i` finished with (`.complete` or `.cancelled`).
    @inlinable func end(of i: Int) -> SignalEnd {
        cancelledBits & (1 << UInt8(i)) != 0 ? .cancelled : .complete
    }
    @inlinable package func contains(_ i: Int) -> Bool { bits & (1 << UInt8(i)) != 0 }
    @inlinable func isFull(_ n: Int) -> Bool { bits == (1 << UInt8(n)) - 1 }
}

/// What a combining state machine tells its stage to do after one input's result.
@usableFromInline
package enum CombiningAction: Sendable {
    /// Nothing to emit yet.
    case none
    /// Emit a value made from the inputs' slots (every input has a value there).
    case emit
    /// Emit a value, then end with the given end.
    case emitThenEnd(SignalEnd)
    /// End with the given end.
    case end(SignalEnd)
}

/// Carries out `action` on `next`; `value` makes the value to emit (called only for `.emit`
/// and `.emitThenEnd`).
@inlinable
func performCombining<R>(_ action: CombiningAction, _ next: SignalNext<R>, _ value: () -> R) {
    switch action {
    case .none: break
    case .emit: next.send(value: value())
    case .emitThenEnd(let end):
        next.send(value: value())
        next.send(end: end)
    case .end(let end): next.send(end: end)
    }
}

/// Where a combining stage keeps one input's values.
@usableFromInline
package protocol CombiningSlot {
    associatedtype Value
    mutating func store(_ value: Value)
}

/// `combineLatest`'s slot: the input's latest value.
@usableFromInline
package struct LatestValue<Value>: CombiningSlot {
    @usableFromInline package var value: Value?
    @inlinable package init() {}
    @inlinable package mutating func store(_ value: Value) { self.value = value }
}

/// `zip`'s slot: the input's values not paired yet, oldest first.
@usableFromInline
package struct QueuedValues<Value>: CombiningSlot {
    @usableFromInline package var values: [Value] = []
    @inlinable package init() {}
    @inlinable package mutating func store(_ value: Value) { values.append(value) }
    /// The oldest value, removed (the machine says when there is one).
    @inlinable mutating func take() -> Value { values.removeFirst() }
}

/// The bookkeeping of a stage that combines inputs by index: what each input's value or end
/// means for the result. The values themselves stay in the caller's typed slots.
@usableFromInline
package protocol CombiningStateMachine {
    /// Input `i` sent a value (already stored in its slot).
    mutating func valueArrived(from i: Int) -> CombiningAction
    /// Input `i` ended with `end`.
    mutating func endArrived(from i: Int, _ end: SignalEnd) -> CombiningAction
}

extension CombiningStateMachine {
    /// Input `i`'s result: a value goes into `slot`, then the machine decides.
    @inlinable
    package mutating func receive<Slot: CombiningSlot>(
        _ r: Result<Slot.Value, SignalEnd>, from i: Int, into slot: inout Slot
    ) -> CombiningAction {
        switch r {
        case .success(let v):
            slot.store(v)
            return valueArrived(from: i)
        case .failure(let e):
            return endArrived(from: i, e)
        }
    }

    @inlinable
    package mutating func receive<A: CombiningSlot, B: CombiningSlot>(
        _ e: EitherResult2<A.Value, B.Value>, into s: inout (A, B)
    ) -> CombiningAction {
        switch e {
        case .result1(let r): receive(r, from: 0, into: &s.0)
        case .result2(let r): receive(r, from: 1, into: &s.1)
        }
    }

    @inlinable
    package mutating func receive<A: CombiningSlot, B: CombiningSlot, C: CombiningSlot>(
        _ e: EitherResult3<A.Value, B.Value, C.Value>, into s: inout (A, B, C)
    ) -> CombiningAction {
        switch e {
        case .result1(let r): receive(r, from: 0, into: &s.0)
        case .result2(let r): receive(r, from: 1, into: &s.1)
        case .result3(let r): receive(r, from: 2, into: &s.2)
        }
    }

    @inlinable
    package mutating func receive<A: CombiningSlot, B: CombiningSlot, C: CombiningSlot, D: CombiningSlot>(
        _ e: EitherResult4<A.Value, B.Value, C.Value, D.Value>, into s: inout (A, B, C, D)
    ) -> CombiningAction {
        switch e {
        case .result1(let r): receive(r, from: 0, into: &s.0)
        case .result2(let r): receive(r, from: 1, into: &s.1)
        case .result3(let r): receive(r, from: 2, into: &s.2)
        case .result4(let r): receive(r, from: 3, into: &s.3)
        }
    }

    @inlinable
    package mutating func receive<A: CombiningSlot, B: CombiningSlot, C: CombiningSlot, D: CombiningSlot, E: CombiningSlot>(
        _ e: EitherResult5<A.Value, B.Value, C.Value, D.Value, E.Value>, into s: inout (A, B, C, D, E)
    ) -> CombiningAction {
        switch e {
        case .result1(let r): receive(r, from: 0, into: &s.0)
        case .result2(let r): receive(r, from: 1, into: &s.1)
        case .result3(let r): receive(r, from: 2, into: &s.2)
        case .result4(let r): receive(r, from: 3, into: &s.3)
        case .result5(let r): receive(r, from: 4, into: &s.4)
        }
    }
}

/// A combining stage's state: the machine and one slot per input (`Slots` is a tuple of
/// `LatestValue` or `QueuedValues`, one per input).
@usableFromInline
package struct CombiningState<Machine: CombiningStateMachine, Slots>: @unchecked Sendable {
    // Unchecked: the slots hold `Sendable` values, in a tuple (tuples cannot conform).
    @usableFromInline var machine: Machine
    @usableFromInline var slots: Slots

    @inlinable
    init(_ machine: Machine, _ slots: Slots) {
        self.machine = machine
        self.slots = slots
    }
}

// MARK: - combineLatest

/// `combineLatest`'s bookkeeping for any number of inputs (up to eight): which inputs have sent
/// a value and which have ended. An error (`.other`) ends the result at once; `.complete` and
/// `.cancelled` count as ordinary ends. It ends when every input has ended, even when one
/// ended without a value and no value can be made any more (RxJS's rule: the result's end
/// says that every input has ended).
@usableFromInline
package struct CombineLatestStateMachine: CombiningStateMachine, Sendable {
    @usableFromInline let inputCount: Int
    @usableFromInline var sentValue = InputSet()
    @usableFromInline var ended = InputSet()

    @inlinable
    package init(inputs: Int) {
        self.inputCount = inputs
    }

    /// Emit once every input has sent a value.
    @inlinable
    package mutating func valueArrived(from i: Int) -> CombiningAction {
        sentValue.insert(i)
        return sentValue.isFull(inputCount) ? .emit : .none
    }

    @inlinable
    package mutating func endArrived(from i: Int, _ end: SignalEnd) -> CombiningAction {
        if case .other = end { return .end(end) }
        ended.insert(i)
        return ended.isFull(inputCount) ? .end(end) : .none
    }
}

// MARK: - zip

/// `zip`'s bookkeeping for any number of inputs (up to eight): how many unpaired values each
/// input has queued, and which inputs have ended. An error (`.other`) ends the result at once;
/// `.complete` and `.cancelled` count as ordinary ends. A value that gives every input one
/// queued value makes a tuple; the result ends, with that input's end, as soon as an input has
/// ended and its queued values are used up.
@usableFromInline
package struct ZipStateMachine: CombiningStateMachine, Sendable {
    @usableFromInline var queued: [Int]
    @usableFromInline var ended = InputSet()

    @inlinable
    package init(inputs: Int) { queued = Array(repeating: 0, count: inputs) }

    /// Emit a tuple if every input now has a queued value, then end if an input that has
    /// ended has none left.
    @inlinable
    package mutating func valueArrived(from i: Int) -> CombiningAction {
        queued[i] += 1
        for count in queued where count == 0 { return .none }
        for j in queued.indices { queued[j] -= 1 }
        for j in queued.indices where queued[j] == 0 && ended.contains(j) {
            return .emitThenEnd(ended.end(of: j))
        }
        return .emit
    }

    @inlinable
    package mutating func endArrived(from i: Int, _ end: SignalEnd) -> CombiningAction {
        if case .other = end { return .end(end) }
        ended.insert(i, end: end)
        return queued[i] == 0 ? .end(end) : .none
    }
}

extension Signal {
    // MARK: - combineLatest (2 to 5 inputs)

    /// Emits `combiner(latestA, latestB)` each time either input emits, once both have
    /// emitted. Ends with an error from either input at once; completes when both have ended
    /// (with the last one's end), even if one ended without a value and nothing more can be
    /// emitted (RxJS). `.cancelled` counts as an ordinary end.
    ///
    /// State: the latest value of each input and which inputs ended, per activation.
    ///
    /// - Parameters:
    ///   - other: the second input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combiner: makes a value from the latest value of each input.
    /// - Returns: the signal of combined values.
    @inlinable
    public func combineLatest<U: Sendable, V: Sendable>(
        _ other: Signal<U>, context: Exec = .direct, _ combiner: @escaping @Sendable (T, U) -> V
    ) -> Signal<V> {
        let machine = CombineLatestStateMachine(inputs: 2)
        let initial = CombiningState(machine, (LatestValue<T>(), LatestValue<U>()))
        return combine(other, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            // `.emit` comes only once every slot holds a value.
            performCombining(action, next) { combiner(s.slots.0.value!, s.slots.1.value!) }
        }
    }

    /// Emits `combine` of the latest value of each signal whenever any of them sends a value, once
    /// all have sent at least one (`combineLatest`). As in the two-input form, it completes when
    /// every input has ended (with the last input's end), even if one ended without a value and
    /// nothing more can be emitted (RxJS); an error (`.other`) ends it at once; `.cancelled`
    /// counts as an ordinary end.
    ///
    /// State: the latest value of each input and which inputs ended, per activation.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V) -> R
    ) -> Signal<R> {
        let machine = CombineLatestStateMachine(inputs: 3)
        let initial = CombiningState(machine, (LatestValue<T>(), LatestValue<U>(), LatestValue<V>()))
        return self.combine(second, third, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) { combine(s.slots.0.value!, s.slots.1.value!, s.slots.2.value!) }
        }
    }

    /// Four-input `combineLatest`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W) -> R
    ) -> Signal<R> {
        let machine = CombineLatestStateMachine(inputs: 4)
        let slots = (LatestValue<T>(), LatestValue<U>(), LatestValue<V>(), LatestValue<W>())
        return self.combine(second, third, fourth, initialState: CombiningState(machine, slots), context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) {
                combine(s.slots.0.value!, s.slots.1.value!, s.slots.2.value!, s.slots.3.value!)
            }
        }
    }

    /// Five-input `combineLatest`; see the three-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - fifth: the fifth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - combine: makes the emitted value from the latest value of each input.
    /// - Returns: the signal of the combined values.
    public func combineLatest<U: Sendable, V: Sendable, W: Sendable, X: Sendable, R: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, _ fifth: Signal<X>,
        context: Exec = .direct,
        _ combine: @escaping @Sendable (T, U, V, W, X) -> R
    ) -> Signal<R> {
        let machine = CombineLatestStateMachine(inputs: 5)
        let slots = (LatestValue<T>(), LatestValue<U>(), LatestValue<V>(), LatestValue<W>(), LatestValue<X>())
        let initial = CombiningState(machine, slots)
        return self.combine(second, third, fourth, fifth, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) {
                let l = s.slots
                return combine(l.0.value!, l.1.value!, l.2.value!, l.3.value!, l.4.value!)
            }
        }
    }

    // MARK: - zip (2 to 5 inputs)

    /// Pairs the n-th value of this signal with the n-th value of `other`. Ends as soon as an
    /// input has ended and its unpaired values are used up (with that input's end); an error
    /// (`.other`) ends it at once. `.cancelled` counts as an ordinary end.
    ///
    /// State: a queue of unpaired values per input and which inputs ended, per activation (a
    /// fast input's queue grows while a slow one lags).
    ///
    /// - Parameters:
    ///   - other: the second input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of pairs.
    @inlinable
    public func zip<U: Sendable>(_ other: Signal<U>, context: Exec = .direct) -> Signal<(T, U)> {
        let initial = CombiningState(ZipStateMachine(inputs: 2), (QueuedValues<T>(), QueuedValues<U>()))
        return combine(other, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            // `.emit` comes only once every queue holds a value.
            performCombining(action, next) { (s.slots.0.take(), s.slots.1.take()) }
        }
    }

    /// Three-input `zip`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, context: Exec = .direct
    ) -> Signal<(T, U, V)> {
        let slots = (QueuedValues<T>(), QueuedValues<U>(), QueuedValues<V>())
        let initial = CombiningState(ZipStateMachine(inputs: 3), slots)
        return combine(second, third, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) { (s.slots.0.take(), s.slots.1.take(), s.slots.2.take()) }
        }
    }

    /// Four-input `zip`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable, W: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, context: Exec = .direct
    ) -> Signal<(T, U, V, W)> {
        let slots = (QueuedValues<T>(), QueuedValues<U>(), QueuedValues<V>(), QueuedValues<W>())
        return combine(second, third, fourth, initialState: CombiningState(ZipStateMachine(inputs: 4), slots), context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) { (s.slots.0.take(), s.slots.1.take(), s.slots.2.take(), s.slots.3.take()) }
        }
    }

    /// Five-input `zip`; see the two-input form.
    ///
    /// - Parameters:
    ///   - second: the second input (its single output is taken).
    ///   - third: the third input (its single output is taken).
    ///   - fourth: the fourth input (its single output is taken).
    ///   - fifth: the fifth input (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of the tuples.
    public func zip<U: Sendable, V: Sendable, W: Sendable, X: Sendable>(
        _ second: Signal<U>, _ third: Signal<V>, _ fourth: Signal<W>, _ fifth: Signal<X>,
        context: Exec = .direct
    ) -> Signal<(T, U, V, W, X)> {
        let slots = (QueuedValues<T>(), QueuedValues<U>(), QueuedValues<V>(), QueuedValues<W>(), QueuedValues<X>())
        let initial = CombiningState(ZipStateMachine(inputs: 5), slots)
        return combine(second, third, fourth, fifth, initialState: initial, context: context) { s, e, next in
            let action = s.machine.receive(e, into: &s.slots)
            performCombining(action, next) {
                (s.slots.0.take(), s.slots.1.take(), s.slots.2.take(), s.slots.3.take(), s.slots.4.take())
            }
        }
    }
}

// MARK: - combineLatest and zip of an array

/// `combineLatest` of any number of inputs: the latest value of each, and counts rather than
/// bits (an array of inputs has no upper bound). Touched only by its serialized stage.
@usableFromInline
struct ArrayCombineLatestState<T: Sendable>: Sendable {
    @usableFromInline var latest: [T?]
    /// Inputs that have not sent a value yet.
    @usableFromInline var missing: Int
    /// Inputs that have ended.
    @usableFromInline var ended = 0

    @usableFromInline init(inputs: Int) {
        latest = Array(repeating: nil, count: inputs)
        missing = inputs
    }
}

/// `zip` of any number of inputs: each input's unpaired values (read from `heads`, so taking
/// one is O(1)), how many inputs have some, and which inputs have ended.
@usableFromInline
struct ArrayZipState<T: Sendable>: Sendable {
    @usableFromInline var queues: [[T]]
    @usableFromInline var heads: [Int]
    /// Inputs with at least one unpaired value.
    @usableFromInline var ready = 0
    @usableFromInline var ends: [SignalEnd?]

    @usableFromInline init(inputs: Int) {
        queues = Array(repeating: [], count: inputs)
        heads = Array(repeating: 0, count: inputs)
        ends = Array(repeating: nil, count: inputs)
    }

    @usableFromInline func hasValue(_ i: Int) -> Bool { heads[i] < queues[i].count }

    /// Takes the oldest value of input `i` (there is one).
    @usableFromInline mutating func take(_ i: Int) -> T {
        let v = queues[i][heads[i]]
        heads[i] += 1
        if heads[i] == queues[i].count {
            queues[i].removeAll(keepingCapacity: true)
            heads[i] = 0
        } else if heads[i] * 2 >= queues[i].count {
            queues[i].removeFirst(heads[i])
            heads[i] = 0
        }
        return v
    }
}

extension Signal {
    /// One node fed by every signal of `signals`, each result tagged with its input's index
    /// (one feeder per input, attached in a loop: no nesting, however many inputs). When an
    /// input's output was already taken, the result ends with `SignalBindError.duplicate`.
    static func taggedNode(_ signals: [Signal<T>]) -> Signal<Tagged<T>> {
        let delivery = signals[0].delivery
        let node = SignalNode<Tagged<T>>(variant: delivery, newGenerationOnDeactivate: true)
        // Each output is held by its record: a refused input gives back the ones taken before
        // it, and all of them come free when the node goes.
        var records: [FeederRecord] = []
        records.reserveCapacity(signals.count)
        for (i, s) in signals.enumerated() {
            let record = FeederRecord(ChainFeeder(upstream: s, into: node) { n in SignalSink { r in n.forward(.success(Tagged(index: i, result: r))) } })
            guard s.takeOutput(for: record) else { return .duplicate(delivery: delivery, root: node) }
            records.append(record)
        }
        node.updateActivation { $0.feeders.append(contentsOf: records) }
        return Signal<Tagged<T>>(rootedAt: node)
    }

    /// Emits an array of the latest value of each of `signals` (in their order) whenever any
    /// of them sends a value, once all have sent one (RxJS `combineLatest([...])`, RxSwift
    /// `combineLatest(_ collection:)`).
    ///
    /// Ends as the two-to-five-input forms do: an error (`.other`) of any input ends it at
    /// once; otherwise it ends when every input has ended (with the last input's end), even if
    /// one ended without a value and no array can be made any more (RxJS); `.cancelled` counts
    /// as an ordinary end. An empty array completes as soon as the result is activated (RxJS).
    ///
    /// Any number of inputs: one node with one feeder per input (no nesting per input), so
    /// 100,000 inputs activate, deliver and tear down without deep recursion. Each emission
    /// builds an array of every input's latest value (O(inputs)).
    /// State: the latest value of each input, per activation.
    ///
    /// - Parameters:
    ///   - signals: the inputs (their single outputs are taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - delivery: the delivery variant of the result when `signals` is empty (otherwise
    ///     the first input's).
    /// - Returns: the signal of arrays of latest values.
    public static func combineLatest(
        _ signals: [Signal<T>], context: Exec = .direct, delivery: DeliveryVariant = .lockFree
    ) -> Signal<[T]> {
        if signals.isEmpty { return Signal<[T]>.empty(delivery: delivery) }
        let count = signals.count
        let tagged = taggedNode(signals)
        return tagged.transform(initialState: ArrayCombineLatestState<T>(inputs: count), context: context) {
            (s: inout ArrayCombineLatestState<T>, r: Result<Tagged<T>, SignalEnd>, next: SignalNext<[T]>) in
            routeCombined(r, next) { t in
                switch t.result {
                case .success(let v):
                    if s.latest[t.index] == nil { s.missing -= 1 }
                    s.latest[t.index] = v
                    if s.missing == 0 { next.send(value: s.latest.map { $0! }) }
                case .failure(.other(let error)):
                    next.send(end: .other(error))
                case .failure(let end):
                    s.ended += 1
                    if s.ended == count { next.send(end: end) }
                }
            }
        }
    }

    /// Emits an array of the `n`th value of each of `signals` (in their order) once every one
    /// has sent its `n`th value (RxJS `zip([...])`, RxSwift `zip(_ collection:)`).
    ///
    /// Ends as the three-to-five-input forms do: an error (`.other`) of any input ends it at
    /// once; otherwise it ends, with that input's end, as soon as an input has ended and its
    /// unpaired values are used up (`.cancelled` counts as an ordinary end). An empty array
    /// completes as soon as the result is activated (RxJS).
    ///
    /// Any number of inputs: one node with one feeder per input (no nesting per input), so
    /// 100,000 inputs activate, deliver and tear down without deep recursion. A value costs
    /// O(1) until it completes a row; each row emitted costs O(inputs).
    /// State: the unpaired values of each input and which inputs ended, per activation.
    ///
    /// - Parameters:
    ///   - signals: the inputs (their single outputs are taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - delivery: the delivery variant of the result when `signals` is empty (otherwise
    ///     the first input's).
    /// - Returns: the signal of arrays, one value of each input.
    public static func zip(
        _ signals: [Signal<T>], context: Exec = .direct, delivery: DeliveryVariant = .lockFree
    ) -> Signal<[T]> {
        if signals.isEmpty { return Signal<[T]>.empty(delivery: delivery) }
        let count = signals.count
        let tagged = taggedNode(signals)
        return tagged.transform(initialState: ArrayZipState<T>(inputs: count), context: context) {
            (s: inout ArrayZipState<T>, r: Result<Tagged<T>, SignalEnd>, next: SignalNext<[T]>) in
            routeCombined(r, next) { t in
                switch t.result {
                case .success(let v):
                    if !s.hasValue(t.index) { s.ready += 1 }
                    s.queues[t.index].append(v)
                    guard s.ready == count else { return }
                    var row: [T] = []
                    row.reserveCapacity(count)
                    var exhausted: SignalEnd?
                    for i in 0..<count {
                        row.append(s.take(i))
                        if !s.hasValue(i) {
                            s.ready -= 1
                            if exhausted == nil, let end = s.ends[i] { exhausted = end }
                        }
                    }
                    next.send(value: row)
                    if let end = exhausted { next.send(end: end) }
                case .failure(.other(let error)):
                    next.send(end: .other(error))
                case .failure(let end):
                    s.ends[t.index] = end
                    if !s.hasValue(t.index) { next.send(end: end) }
                }
            }
        }
    }
}
