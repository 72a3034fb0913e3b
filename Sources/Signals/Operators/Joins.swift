// `join` and `groupJoin` (CwlSignal's `intersect` and `groupIntersect`): values of two
// signals paired while their duration windows overlap.
//
// One stage over the left signal; it subscribes the right signal and every value's duration
// signal through its channel, so every event reaches one serialized processor. A value's
// window closes when its duration signal sends a value or ends. The two operators differ
// only in what an open left value is (the value itself, or the input of its group), which
// `JoinKind` says.

/// What `join` and `groupJoin` do with an open left value.
struct JoinKind<T: Sendable, R: Sendable, L: Sendable, X: Sendable>: Sendable {
    /// A left value arrived, with the right values open now: emit, and return what to keep.
    let open: @Sendable (T, [R], SignalNext<X>) -> L
    /// A right value arrived while `left` is open.
    let meet: @Sendable (L, R, SignalNext<X>) -> Void
    /// `left`'s window closed (`.complete`), or the result ends with this end.
    let close: @Sendable (L, SignalEnd) -> Void
}

extension JoinKind where L == T, X == (T, R) {
    /// `join`'s kind: a left value is kept as it is, and each overlap is emitted as a pair.
    static var pairs: JoinKind {
        JoinKind(
            open: { v, rights, next in
                for r in rights { next.send(value: (v, r)) }
                return v
            },
            meet: { l, r, next in next.send(value: (l, r)) },
            close: { _, _ in }
        )
    }
}

extension JoinKind where L == SignalInput<R>, X == (T, Signal<R>) {
    /// `groupJoin`'s kind: a left value gets a group signal (on `delivery`), which starts with
    /// the right values open at that moment, carries those that meet it, and ends with the
    /// end that closes it (`.complete` when its window closes or the join ends; a throw of a
    /// window closure, possible only in the throwing forms, ends it with that error).
    static func groups(delivery: DeliveryVariant) -> JoinKind {
        JoinKind(
            open: { v, rights, next in
                let (input, group) = Signal<R>.create(delivery: delivery)
                next.send(value: (v, group.cacheUntilActive(precached: rights)))
                return input
            },
            meet: { input, r, _ in input.send(value: r) },
            close: { input, end in input.send(end: end) }
        )
    }
}

/// What a join stage receives besides left values.
enum JoinEvent<R: Sendable>: Sendable {
    case right(Result<R, SignalEnd>)
    case leftClosed(Int)
    case rightClosed(Int)
}

/// A join stage's state for one activation: the right signal's subscription, the open values
/// of each side with the subscriptions of their windows, and the next window's id. It holds
/// the subscriptions, so dropping an entry cancels its window.
package struct JoinState<R: Sendable, L: Sendable>: @unchecked Sendable {
    // Unchecked: touched only inside the stage's deliveries, which its node serializes; the
    // lifetimes are Sendable, `L` and `R` are.
    package struct Open<Value> {
        package let id: Int
        package let value: Value
        let window: any Lifetime
    }

    /// The right signal's subscription, from activation to the end.
    var right: (any Lifetime)?
    package private(set) var lefts: [Open<L>] = []
    package private(set) var rights: [Open<R>] = []
    var nextID = 0

    package init() {}

    /// A new window's id; ids are never reused within an activation.
    package mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    package mutating func openLeft(_ id: Int, _ left: L, window: any Lifetime) {
        lefts.append(Open(id: id, value: left, window: window))
    }

    package mutating func openRight(_ id: Int, _ value: R, window: any Lifetime) {
        rights.append(Open(id: id, value: value, window: window))
    }

    /// Closes left window `id`: its entry (the caller holds the window's subscription while
    /// it closes the value), or nil if it was closed already.
    package mutating func closeLeft(_ id: Int) -> Open<L>? {
        guard let i = lefts.firstIndex(where: { $0.id == id }) else { return nil }
        return lefts.remove(at: i)
    }

    package mutating func closeRight(_ id: Int) {
        rights.removeAll { $0.id == id }
    }

    /// The result ends: drops the right subscription and every right window, and returns the
    /// open left entries, in order (their windows end when the caller lets them go, after it
    /// has closed their values). Ids keep counting, so a late window event matches nothing.
    package mutating func end() -> [Open<L>] {
        let open = lefts
        right = nil
        lefts = []
        rights = []
        return open
    }
}

extension Signal {
    /// The skeleton of `join` and `groupJoin`. State per activation: the right subscription,
    /// the open left and right values with their duration subscriptions, the next id.
    func joining<R: Sendable, L: Sendable, X: Sendable, DL: Sendable, DR: Sendable>(
        withRight right: Signal<R>,
        leftEnd: @escaping @Sendable (T) throws -> Signal<DL>,
        rightEnd: @escaping @Sendable (R) throws -> Signal<DR>,
        _ kind: JoinKind<T, R, L, X>
    ) -> Signal<X> {
        typealias S = (join: JoinState<R, L>, failed: Bool)
        return stage(initialState: S(JoinState<R, L>(), false), eventType: JoinEvent<R>.self) {
            (s: inout S, e: StageEvent<T, JoinEvent<R>>, channel: StageChannel<JoinEvent<R>>, next: SignalNext<X>) in
            // After a window closure threw, nothing more is taken in this activation.
            if s.failed { return }
            func fail(_ error: any Error) {
                s.failed = true
                for left in s.join.end() { kind.close(left.value, .other(error)) }
                next.send(end: .other(error))
            }
            switch e {
            case .activated:
                s.join.right = channel.subscribe(right) { .right($0) }
            case .upstream(.success(let v)):
                // The window is made first, so a throw emits nothing for this value.
                let window: Signal<DL>
                do { window = try leftEnd(v) } catch { return fail(error) }
                let id = s.join.takeID()
                let left = kind.open(v, s.join.rights.map(\.value), next)
                s.join.openLeft(id, left, window: channel.subscribe(window) { _ in .leftClosed(id) })
            case .event(.right(.success(let r))):
                let window: Signal<DR>
                do { window = try rightEnd(r) } catch { return fail(error) }
                let id = s.join.takeID()
                for l in s.join.lefts { kind.meet(l.value, r, next) }
                s.join.openRight(id, r, window: channel.subscribe(window) { _ in .rightClosed(id) })
            case .event(.leftClosed(let id)):
                if let left = s.join.closeLeft(id) { kind.close(left.value, .complete) }
            case .event(.rightClosed(let id)):
                s.join.closeRight(id)
            case .upstream(.failure(let end)), .event(.right(.failure(let end))):
                // As in CwlSignal, the end of either side completes the result; but misuse
                // (a duplicate or looping signal) is reported, as everywhere in Signals.
                for left in s.join.end() { kind.close(left.value, .complete) }
                next.send(end: end.otherError is SignalBindError ? end : .complete)
            }
        }
    }

    /// Pairs each value with each value of `right` whose windows overlap (ReactiveX `join`,
    /// CwlSignal's `intersect`): a value's window lasts until the signal its end closure
    /// makes sends a value or ends. Pairs are emitted when the later of the two arrives, with
    /// the earlier side's open values in arrival order. The end of either signal completes the
    /// result.
    ///
    /// - Parameters:
    ///   - right: the other signal.
    ///   - leftEnd: makes the window of a value of this signal.
    ///   - rightEnd: makes the window of a value of `right`.
    ///   - context: where `processor` runs.
    ///   - processor: makes the result from a pair.
    /// - Returns: the signal of results.
    public func join<R: Sendable, DL: Sendable, DR: Sendable, X: Sendable>(
        withRight right: Signal<R>,
        leftEnd: @escaping @Sendable (T) -> Signal<DL>,
        rightEnd: @escaping @Sendable (R) -> Signal<DR>,
        context: Exec = .direct,
        _ processor: @escaping @Sendable ((T, R)) -> X
    ) -> Signal<X> {
        joining(withRight: right, leftEnd: leftEnd, rightEnd: rightEnd, JoinKind<T, R, T, (T, R)>.pairs).map(context: context, processor)
    }

    /// `join(withRight:leftEnd:rightEnd:context:_:)` with throwing closures. A throw from
    /// `leftEnd` or `rightEnd` ends the result with `.other(error)` at once: the value it was
    /// called for is not paired, every open window is released with the right signal, and
    /// neither closure is called again in this activation. A throw from `processor` ends the
    /// result the same way (in a throwing `map` right behind the join, which then lets the
    /// graph go). Non-throwing closures pick the non-throwing form.
    ///
    /// - Parameters:
    ///   - right: the other signal.
    ///   - leftEnd: makes the window of a value of this signal; throws to end the result.
    ///   - rightEnd: makes the window of a value of `right`; throws to end the result.
    ///   - context: where `processor` runs.
    ///   - processor: makes the result from a pair; throws to end the result.
    /// - Returns: the signal of results.
    public func join<R: Sendable, DL: Sendable, DR: Sendable, X: Sendable>(
        withRight right: Signal<R>,
        leftEnd: @escaping @Sendable (T) throws -> Signal<DL>,
        rightEnd: @escaping @Sendable (R) throws -> Signal<DR>,
        context: Exec = .direct,
        _ processor: @escaping @Sendable ((T, R)) throws -> X
    ) -> Signal<X> {
        joining(withRight: right, leftEnd: leftEnd, rightEnd: rightEnd, JoinKind<T, R, T, (T, R)>.pairs)
            .map(context: context) { (pair: (T, R)) throws -> X in try processor(pair) }
    }

    /// Gives each value, as it arrives, a signal of the values of `right` whose windows
    /// overlap its own (ReactiveX `groupJoin`, CwlSignal's `groupIntersect`): the signal
    /// starts with the right values open at that moment, carries those that arrive while the
    /// value's window is open, and completes when it closes. It keeps what arrives before it
    /// is subscribed. The end of either signal completes the result and every open group.
    ///
    /// - Parameters:
    ///   - right: the other signal.
    ///   - leftEnd: makes the window of a value of this signal.
    ///   - rightEnd: makes the window of a value of `right`.
    ///   - context: where `processor` runs.
    ///   - processor: makes the result from a value and its group of right values.
    /// - Returns: the signal of results.
    public func groupJoin<R: Sendable, DL: Sendable, DR: Sendable, X: Sendable>(
        withRight right: Signal<R>,
        leftEnd: @escaping @Sendable (T) -> Signal<DL>,
        rightEnd: @escaping @Sendable (R) -> Signal<DR>,
        context: Exec = .direct,
        _ processor: @escaping @Sendable ((T, Signal<R>)) -> X
    ) -> Signal<X> {
        joining(withRight: right, leftEnd: leftEnd, rightEnd: rightEnd, JoinKind<T, R, SignalInput<R>, (T, Signal<R>)>.groups(delivery: delivery))
            .map(context: context, processor)
    }

    /// `groupJoin(withRight:leftEnd:rightEnd:context:_:)` with throwing closures. A throw from
    /// `leftEnd` or `rightEnd` ends the result with `.other(error)` at once, and every open
    /// group ends with that same error (as `groupBy`'s groups do); the value it was called for
    /// gets no group, and neither closure is called again in this activation. A throw from
    /// `processor` ends the result the same way (in a throwing `map` behind the join); the
    /// groups then end when the graph lets them go. Non-throwing closures pick the
    /// non-throwing form.
    ///
    /// - Parameters:
    ///   - right: the other signal.
    ///   - leftEnd: makes the window of a value of this signal; throws to end the result.
    ///   - rightEnd: makes the window of a value of `right`; throws to end the result.
    ///   - context: where `processor` runs.
    ///   - processor: makes the result from a value and its group of right values; throws to
    ///     end the result.
    /// - Returns: the signal of results.
    public func groupJoin<R: Sendable, DL: Sendable, DR: Sendable, X: Sendable>(
        withRight right: Signal<R>,
        leftEnd: @escaping @Sendable (T) throws -> Signal<DL>,
        rightEnd: @escaping @Sendable (R) throws -> Signal<DR>,
        context: Exec = .direct,
        _ processor: @escaping @Sendable ((T, Signal<R>)) throws -> X
    ) -> Signal<X> {
        joining(withRight: right, leftEnd: leftEnd, rightEnd: rightEnd, JoinKind<T, R, SignalInput<R>, (T, Signal<R>)>.groups(delivery: delivery))
            .map(context: context) { (pair: (T, Signal<R>)) throws -> X in try processor(pair) }
    }
}
