// The flatMap family: `flatMap` (merging, with a limit or without), `flatMapLatest`,
// `flatMapFirst`, `concatMap`, `switchLatest`, and CwlSignal's stateful `flatMap`; one
// `flatten` skeleton with a strategy serves them all.
//
// A throwing `transform` is the closure of a throwing `map` fused in front of the operator, so
// the thrown error reaches the operator as an upstream error (`.other(error)`), and the operator's
// own rule for an upstream error releases its inner subscriptions. `flatMapFirst` turns the
// error into an inner signal that fails at once, since a value reaches its `transform` only when
// no inner signal runs.

/// How the flattening operators treat a new inner signal while others are running.
@usableFromInline
enum FlattenStrategy: Sendable {
    /// Up to `limit` inner signals at once; later ones wait their turn (concatMap is a limit of 1).
    case merge(limit: Int)
    case latest, first
}

/// Per-activation state of the flattening operators.
@usableFromInline
struct FlattenState<U: Sendable>: Sendable {
    @usableFromInline var nextID = 0
    @usableFromInline var active: [Int: SignalOutput<U>] = [:]
    /// Inner signals waiting their turn, not yet subscribed (ReactiveX's rule: a waiting
    /// inner signal is subscribed only when a running one ends, so its work does not start
    /// early); dropping one leaves it unsubscribed. `waitingHead` is the next to start: the
    /// array is trimmed only when the head has passed half of it, so starting one is O(1).
    @usableFromInline var waiting: [Signal<U>] = []
    @usableFromInline var waitingHead = 0
    /// The outer signal's end, once it has ended with `.complete` or `.cancelled`.
    @usableFromInline var outerEnd: SignalEnd?
    @usableFromInline init() {}
}

extension Signal {
    /// Subscribes to the signal that `transform` makes of each value and merges all their values
    /// (`flatMap` in ReactiveX; `flatMap(.merge)` in ReactiveSwift).
    ///
    /// Ends once this signal and every inner signal have ended, with this signal's end; the
    /// first error (`.other`) of this signal or of an inner signal ends the result at once. As in
    /// the core's `merge`, `.cancelled` counts as an ordinary end here (an inner signal whose
    /// input was released is simply done).
    /// State: the inner subscriptions, in the stage's per-activation state; inner values reach
    /// the stage through its private input, serialized with upstream values.
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.merge(limit: .max), transform)
    }

    /// `flatMap(_:)` with a throwing `transform`: a thrown error ends the result with
    /// `.other(error)` at once, as an error of this signal does: every inner subscription is
    /// released and `transform` is not called again in this activation.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).flatMap { $0 }
    }

    /// Like `flatMap(_:)`, but with at most `maxConcurrent` inner signals subscribed at once;
    /// the signals made from later values wait, in order, for a running one to complete
    /// (`flatMap(maxPublishers:)`, `merge(maxConcurrent:)`).
    ///
    /// A waiting inner signal is made (`transform` runs) when its value arrives but subscribed
    /// only when a running one ends, as in RxJS, RxSwift and Combine: a timer or a request
    /// starts then, not early. An inner signal fed by an input refuses what is sent to it
    /// before its turn (`SignalSendError.inactive`). An error ends the result at once and drops
    /// the waiting signals unsubscribed.
    ///
    /// A `maxConcurrent` of zero or less ends the result as soon as it is activated with
    /// `SignalArgumentError` (no inner signal could ever run); `Int.max` is `flatMap(_:)`.
    ///
    /// - Parameters:
    ///   - maxConcurrent: the most inner signals subscribed at once.
    ///   - transform: makes an inner signal from each value.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(
        maxConcurrent: Int,
        _ transform: @escaping @Sendable (T) -> Signal<U>
    ) -> Signal<U> {
        if maxConcurrent <= 0 {
            return argumentError("flatMap(maxConcurrent:_:)", "maxConcurrent", maxConcurrent, allowed: "1 or more")
        }
        return flatten(.merge(limit: maxConcurrent), transform)
    }

    /// `flatMap(maxConcurrent:_:)` with a throwing `transform`: a thrown error ends the result
    /// with `.other(error)` at once, as an error of this signal does: running and waiting
    /// inner signals are released. `maxConcurrent` at 0, negative or huge behaves as in the
    /// non-throwing form (`SignalArgumentError` on activation for 0 or less).
    ///
    /// - Parameters:
    ///   - maxConcurrent: the most inner signals subscribed at once.
    ///   - transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of every inner signal's values.
    public func flatMap<U: Sendable>(
        maxConcurrent: Int,
        _ transform: @escaping @Sendable (T) throws -> Signal<U>
    ) -> Signal<U> {
        map(transform).flatMap(maxConcurrent: maxConcurrent) { $0 }
    }

    /// `flatMap` whose closure keeps a state across values (per activation): each value makes
    /// an inner signal, and every inner signal's values are merged (CwlSignal's
    /// `flatMap(initialState:_:)`). A closure that throws ends the signal with the error.
    ///
    /// - Parameters:
    ///   - initialState: the state at each activation.
    ///   - context: where `processor` runs.
    ///   - processor: makes the inner signal for a value.
    /// - Returns: the merged signal.
    public func flatMap<S: Sendable, U: Sendable>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, T) throws -> Signal<U>
    ) -> Signal<U> {
        // The throwing `map`'s rule: a throw ends the outer signal, which ends the merge and
        // releases its inner subscriptions (`throwingStage`, OperatorSupport.swift).
        map(initialState: initialState, context: context, processor).flatMap { $0 }
    }

    /// Like `flatMap(_:)`, but a new value cancels the inner signal made from the previous one
    /// (`flatMapLatest` in RxSwift, `switchToLatest` in Combine).
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapLatest<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.latest, transform)
    }

    /// `flatMapLatest(_:)` with a throwing `transform`: a thrown error ends the result with
    /// `.other(error)` at once, and the running inner signal is released.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapLatest<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).flatMapLatest { $0 }
    }

    /// Like `flatMap(_:)`, but values that arrive while an inner signal is running are ignored
    /// (`flatMapFirst` in RxSwift, `exhaustMap` in RxJS).
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapFirst<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.first, transform)
    }

    /// `flatMapFirst(_:)` with a throwing `transform`: `transform` runs only for the values
    /// that start an inner signal (values arriving while one runs are ignored without a
    /// call); a thrown error ends the result with `.other(error)` at once.
    ///
    /// - Parameter transform: makes an inner signal from each value taken; throws to end the
    ///   result.
    /// - Returns: the signal of the inner signals' values.
    public func flatMapFirst<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        let delivery = self.delivery
        // The throw becomes an inner signal that fails as soon as it is subscribed, which is
        // at once: a value reaches `transform` only when no inner signal runs.
        return flatMapFirst { (v: T) -> Signal<U> in
            do { return try transform(v) } catch { return Signal<U>.failing(error, delivery: delivery) }
        }
    }

    /// Like `flatMap(_:)`, but inner signals run one after another, in order: the next inner
    /// signal is subscribed when the previous one completes (`concatMap`).
    ///
    /// `transform` runs when the value arrives; its signal is subscribed only when the running
    /// one ends (RxJS, RxSwift, Combine), so a timer or a request made from a value starts
    /// then. An inner signal fed by an input refuses what is sent to it before its turn
    /// (`SignalSendError.inactive`); an error drops the waiting signals unsubscribed.
    ///
    /// - Parameter transform: makes an inner signal from each value.
    /// - Returns: the signal of the inner signals' values, in order.
    public func concatMap<U: Sendable>(_ transform: @escaping @Sendable (T) -> Signal<U>) -> Signal<U> {
        flatten(.merge(limit: 1), transform)
    }

    /// `concatMap(_:)` with a throwing `transform`: `transform` runs when the value arrives,
    /// as in the non-throwing form; a thrown error ends the result with `.other(error)` at
    /// once, as an error of this signal does: the running inner signal and those waiting
    /// their turn are released, and their values are not delivered.
    ///
    /// - Parameter transform: makes an inner signal from each value; throws to end the result.
    /// - Returns: the signal of the inner signals' values, in order.
    public func concatMap<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> Signal<U>) -> Signal<U> {
        map(transform).concatMap { $0 }
    }

    /// Forwards the values of the latest signal this signal has delivered, cancelling the previous
    /// one (`switchLatest` in RxSwift, `switchToLatest` in Combine).
    ///
    /// - Returns: the signal of the latest inner signal's values.
    public func switchLatest<U: Sendable>() -> Signal<U> where T == Signal<U> {
        flatten(.latest) { $0 }
    }

    @usableFromInline
    func flatten<U: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (T) -> Signal<U>
    ) -> Signal<U> {
        stage(initialState: FlattenState<U>(), eventType: Tagged<U>.self) {
            (s: inout FlattenState<U>, event: StageEvent<T, Tagged<U>>, channel: StageChannel<Tagged<U>>, next: SignalNext<U>) in
            func start(_ inner: Signal<U>) {
                let id = s.nextID
                s.nextID += 1
                s.active[id] = channel.subscribe(inner) { Tagged(index: id, result: $0) }
            }
            func finish(_ end: SignalEnd) {
                s.active = [:]
                s.waiting = []
                s.waitingHead = 0
                next.send(end: end)
            }
            switch event {
            case .activated:
                break
            case .upstream(.success(let v)):
                switch strategy {
                case .merge(let limit):
                    if s.active.count < limit {
                        start(transform(v))
                    } else {
                        // Made now, subscribed when its turn comes (RxJS, RxSwift and
                        // Combine's `flatMap(maxPublishers:)` alike): a cold or timed inner
                        // signal starts its work then, and an input-fed one refuses what it is
                        // sent before its turn (`.inactive`).
                        s.waiting.append(transform(v))
                    }
                case .latest:
                    s.active = [:]  // releasing the outputs cancels them
                    start(transform(v))
                case .first:
                    if s.active.isEmpty { start(transform(v)) }
                }
            case .upstream(.failure(.other(let error))):
                finish(.other(error))
            case .upstream(.failure(let end)):
                // `.complete` or `.cancelled`: no more inner signals; wait for the running ones.
                s.outerEnd = end
                if s.active.isEmpty && s.waitingHead == s.waiting.count { finish(end) }
            case .event(let inner):
                guard s.active[inner.index] != nil else { return }  // cancelled or stale
                switch inner.result {
                case .success(let u):
                    next.send(value: u)
                case .failure(.other(let error)):
                    finish(.other(error))
                case .failure:
                    // `.complete` or `.cancelled` (its input was released): this inner is done.
                    s.active[inner.index] = nil
                    if s.waitingHead < s.waiting.count {
                        let inner = s.waiting[s.waitingHead]
                        s.waitingHead += 1
                        if s.waitingHead * 2 >= s.waiting.count {
                            s.waiting.removeFirst(s.waitingHead)
                            s.waitingHead = 0
                        }
                        start(inner)
                    } else if s.active.isEmpty, let end = s.outerEnd {
                        finish(end)
                    }
                }
            }
        }
    }
}
