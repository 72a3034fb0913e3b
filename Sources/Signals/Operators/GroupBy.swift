// `groupBy`: by key, with an element transform, and with a duration signal per group.
//
// Each operator with a closure is one implementation for both closure kinds: the closure is
// `throws(Failure)`, and `Failure` is `Never` for one that does not throw (`Sequence.map`'s
// spelling). A thrown error ends the result with `.other(error)` at once; the stage stops there
// (`throwingStage`, OperatorSupport.swift). A throw ends every open group with the same error.
//
// State: the open groups, in the stage's per-activation state; no lock.

/// A key and the signal of the values that `groupBy(_:)` routed to it.
public struct SignalGroup<Key: Sendable, Value: Sendable>: Sendable {
    /// The key shared by every value in `signal`.
    public let key: Key
    /// The values with this key; subscribe to it when it is delivered (values sent while it has
    /// no subscriber are dropped).
    public let signal: Signal<Value>
}

extension Signal {
    /// Routes each value to a signal per key (`groupBy`): a `SignalGroup` is delivered the first
    /// time a key is seen, then that key's values go to its signal. The end of this signal ends
    /// every group.
    ///
    /// Subscribe to each group's signal inside the handler that receives it.
    /// State: a dictionary from key to the group's input, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, Failure: Error>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws(Failure) -> K
    ) -> Signal<SignalGroup<K, T>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: [K: SignalInput<T>](), context: context,
            value: { (groups: inout [K: SignalInput<T>], v: T, next: SignalNext<SignalGroup<K, T>>) throws(Failure) in
                let k = try key(v)
                if let input = groups[k] {
                    input.send(value: v)
                } else {
                    let (input, signal) = Signal<T>.create(delivery: delivery)
                    groups[k] = input
                    next.send(value: SignalGroup(key: k, signal: signal))
                    input.send(value: v)
                }
                return false
            },
            end: { (groups: inout [K: SignalInput<T>], e: SignalEnd, next: SignalNext<SignalGroup<K, T>>) throws(Failure) in
                for input in groups.values { input.send(end: e) }
                groups = [:]
                next.send(end: e)
            },
            failure: { (groups: inout [K: SignalInput<T>], error: any Error, next: SignalNext<SignalGroup<K, T>>) in
                for input in groups.values { input.send(end: .other(error)) }
                groups = [:]
                next.send(end: .other(error))
            })
    }

    /// `groupBy(context:_:)` with an element selector (RxJS `groupBy(key, { element })`): routes
    /// each value to the group of its key, as `element(value)`. A `SignalGroup` is delivered the
    /// first time a key is seen, before `element` runs for that value; then that key's
    /// elements go to its signal. The end of this signal ends every group (oldest first) and
    /// then the result with the same end.
    ///
    /// Subscribe to each group's signal inside the handler that receives it. `key` and
    /// `element` run on the stage, one value at a time (never concurrently), once per value.
    /// Releasing the result's output ends every open group with `.cancelled`.
    /// State: a dictionary from key to the group's input, per activation; released at the end.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - key: the key of each value.
    ///   - element: what of each value its group sends.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable, Failure: Error>(
        context: Exec = .direct,
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        element: @escaping @Sendable (T) throws(Failure) -> E
    ) -> Signal<SignalGroup<K, E>> {
        let delivery = self.delivery
        return throwingStage(
            initialState: KeyedGroups<K, E>(), context: context,
            value: { (s: inout KeyedGroups<K, E>, v: T, next: SignalNext<SignalGroup<K, E>>) throws(Failure) in
                let k = try key(v)
                let input = s.input(for: k, delivery: delivery, next)
                let e = try element(v)
                input.send(value: e)
                return false
            },
            end: { (s: inout KeyedGroups<K, E>, e: SignalEnd, next: SignalNext<SignalGroup<K, E>>) throws(Failure) in
                s.end(e, next)
            },
            failure: { (s: inout KeyedGroups<K, E>, error: any Error, next: SignalNext<SignalGroup<K, E>>) in
                s.end(.other(error), next)
            })
    }

    /// `groupBy(_:)` with a duration selector (RxJS `groupBy(key, { duration })`): routes each
    /// value to the group of its key, and each group lasts until the signal `duration` makes
    /// for it sends its first value or ends. A later value with that key opens a fresh group
    /// (a new `SignalGroup`, and `duration` called again), as RxJS does.
    ///
    /// What ends a group: its duration signal's first value, completion or cancellation
    /// (the group completes); its duration signal's error (the group fails with it, the
    /// result and the other groups go on: RxJS's rule); the end of this signal (every open
    /// group, oldest first, then the result, with that end); or releasing the result's output
    /// (every open group ends with `.cancelled`). A duration signal that cannot be subscribed
    /// (its output already taken: `SignalBindError.duplicate`; a loop:
    /// `SignalBindError.loop`) fails its group with that error.
    ///
    /// `duration` is called once per group, right after the group is delivered and before
    /// its first value is sent, with a `SignalGroup` of the same key whose signal sends the
    /// group's values too (after the group's own subscriber gets each), so a duration can
    /// count them (`{ $0.signal.skip(2) }`); it may also ignore it (a timer). The duration
    /// signal's results reach the stage through its serialized queue, so a group always
    /// gets the value its duration reacts to before it closes.
    ///
    /// Lifetimes: a closed group's state (its input, its duration subscription and the
    /// view's input) is released when it closes, so a long-lived source with many
    /// short-lived keys holds only the open groups. Subscribe to each group's signal inside
    /// the handler that receives it.
    /// State: a dictionary from key to the open group, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - key: the key of each value.
    ///   - duration: makes the signal whose first value or end closes a group.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, D: Sendable, Failure: Error>(
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        duration: @escaping @Sendable (SignalGroup<K, T>) throws(Failure) -> Signal<D>
    ) -> Signal<SignalGroup<K, T>> {
        groupsWithDuration(key: key, element: { $0 }, duration: duration)
    }

    /// `groupBy(_:duration:)` with an element selector (RxJS `groupBy(key, element,
    /// duration)` and `groupBy(key, { element, duration })`): each group sends
    /// `element(value)` for the values of its key, and lasts until the signal `duration` makes
    /// for it sends its first value or ends (every rule of `groupBy(_:duration:)`: what ends
    /// a group, the duration signal's error failing its group only, a fresh group for a key
    /// seen again, the release of a closed group's state).
    ///
    /// For a new key the order is RxJS's: the group is delivered, `duration` is called with
    /// a `SignalGroup` whose signal sends the group's elements, then `element` runs and its
    /// result is sent. Each closure runs on the stage, one value at a time.
    /// State: a dictionary from key to the open group, per activation.
    ///
    /// The closure may throw (`throws(Failure)`; `Failure` is `Never` for one that does not):
    /// a thrown error ends the result with `.other(error)` at once, and the closure is not
    /// called again in this activation (a new activation starts afresh).
    ///
    /// - Parameters:
    ///   - key: the key of each value.
    ///   - element: what of each value its group sends.
    ///   - duration: makes the signal whose first value or end closes a group.
    /// - Returns: the signal of groups.
    public func groupBy<K: Hashable & Sendable, E: Sendable, D: Sendable, Failure: Error>(
        _ key: @escaping @Sendable (T) throws(Failure) -> K,
        element: @escaping @Sendable (T) throws(Failure) -> E,
        duration: @escaping @Sendable (SignalGroup<K, E>) throws(Failure) -> Signal<D>
    ) -> Signal<SignalGroup<K, E>> {
        groupsWithDuration(key: key, element: element, duration: duration)
    }

    /// The duration forms of `groupBy`, throwing closures or not: a thrown error ends every
    /// open group (oldest first) and then the result with `.other(error)`, and the stage
    /// ignores everything after (see `throwingStage`, OperatorSupport.swift). State per activation: the
    /// open groups by key, the next group id, whether the stage has ended.
    func groupsWithDuration<K: Hashable & Sendable, E: Sendable, D: Sendable>(
        key: @escaping @Sendable (T) throws -> K,
        element: @escaping @Sendable (T) throws -> E,
        duration: @escaping @Sendable (SignalGroup<K, E>) throws -> Signal<D>
    ) -> Signal<SignalGroup<K, E>> {
        let delivery = self.delivery
        typealias S = DurationGroups<K, E>
        return stage(initialState: S(), eventType: GroupDurationEnd<K>.self) {
            (s: inout S, e: StageEvent<T, GroupDurationEnd<K>>, channel: StageChannel<GroupDurationEnd<K>>, next: SignalNext<SignalGroup<K, E>>) in
            if s.ended { return }
            switch e {
            case .activated:
                break
            case .upstream(.success(let v)):
                do {
                    let k = try key(v)
                    if s.open[k] == nil {
                        let id = s.nextID
                        s.nextID &+= 1
                        let (input, signal) = Signal<E>.create(delivery: delivery)
                        let (view, viewSignal) = Signal<E>.create(delivery: delivery)
                        s.open[k] = DurationGroup(id: id, input: input, view: view)
                        next.send(value: SignalGroup(key: k, signal: signal))
                        let closing = try duration(SignalGroup(key: k, signal: viewSignal))
                        // Every result of the duration signal comes back as an event; the
                        // first one closes the group, later ones find another id (or none).
                        s.open[k]?.duration = channel.subscribe(closing) { r in
                            if case .failure(.other(let error)) = r {
                                return GroupDurationEnd(key: k, id: id, end: .other(error))
                            }
                            return GroupDurationEnd(key: k, id: id, end: .complete)
                        }
                    }
                    let value = try element(v)
                    if let group = s.open[k] {
                        group.input.send(value: value)
                        group.view.send(value: value)
                    }
                } catch {
                    s.end(.other(error), next)
                }
            case .upstream(.failure(let end)):
                s.end(end, next)
            case .event(let closed):
                guard let group = s.open[closed.key], group.id == closed.id else { return }
                s.open[closed.key] = nil
                group.duration?.cancel()
                group.input.send(end: closed.end)
                group.view.send(end: closed.end)
            }
        }
    }
}

/// The open groups of `groupBy(_:element:)` (a transform): the input of each by key, and the
/// order they opened in, for ending them oldest first.
struct KeyedGroups<K: Hashable & Sendable, E: Sendable>: Sendable {
    var inputs: [K: SignalInput<E>] = [:]
    var order: [K] = []

    /// The input of `key`'s group, opening the group (and delivering it) if it is new.
    mutating func input(for key: K, delivery: DeliveryVariant, _ next: SignalNext<SignalGroup<K, E>>) -> SignalInput<E> {
        if let input = inputs[key] { return input }
        let (input, signal) = Signal<E>.create(delivery: delivery)
        inputs[key] = input
        order.append(key)
        next.send(value: SignalGroup(key: key, signal: signal))
        return input
    }

    /// Ends every group, oldest first, then the result; lets them go.
    mutating func end(_ end: SignalEnd, _ next: SignalNext<SignalGroup<K, E>>) {
        let (inputs, order) = (self.inputs, self.order)
        self = KeyedGroups()
        for k in order { inputs[k]?.send(end: end) }
        next.send(end: end)
    }
}

/// An open group of the duration forms of `groupBy`: its id (a key seen again after its
/// group closed gets a new one), its input, the input of the view its duration closure was
/// given, and the subscription to its duration signal.
struct DurationGroup<E: Sendable>: Sendable {
    let id: Int
    let input: SignalInput<E>
    let view: SignalInput<E>
    var duration: (any Lifetime)? = nil
}

/// A duration signal's first result, as an event of its `groupBy` stage: the group it closes
/// and the end it closes it with.
struct GroupDurationEnd<K: Hashable & Sendable>: Sendable {
    let key: K
    let id: Int
    let end: SignalEnd
}

/// The per-activation state of the duration forms of `groupBy`.
struct DurationGroups<K: Hashable & Sendable, E: Sendable>: Sendable {
    var open: [K: DurationGroup<E>] = [:]
    var nextID = 0
    var ended = false

    /// Ends every open group (their duration subscriptions first, then the groups oldest
    /// first), then the result; lets them go and ignores everything after.
    mutating func end(_ end: SignalEnd, _ next: SignalNext<SignalGroup<K, E>>) {
        let groups = open.values.sorted { $0.id < $1.id }
        self = DurationGroups(ended: true)
        for g in groups { g.duration?.cancel() }
        for g in groups {
            g.input.send(end: end)
            g.view.send(end: end)
        }
        next.send(end: end)
    }
}
