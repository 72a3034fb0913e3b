// Cold sources: each starts when activated and starts again on the next activation (the
// `generate`-based ones run their body anew on a context of their own: `repeatCollection`,
// `start`). The static `merge` of several signals is with the instance one, in Merge.swift;
// the time sources (`interval`, `timer`) are in Operators/Timer.swift.

extension Signal {
    /// A signal that sends `values` when activated, then completes (`just`, `of`).
    ///
    /// - Parameters:
    ///   - values: the values to send.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func just(_ values: T..., delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        from(values, delivery: delivery)
    }

    /// A signal that sends the elements of `values` when activated, then completes (`from`).
    ///
    /// All of them are sent inside the activation, on the activating thread. Iteration stops
    /// as soon as a send is refused: once the downstream has ended (behind a `take(3)` the
    /// sequence is asked for 4 elements, the last one refused, and an endless sequence such
    /// as `0...` is fine) or the
    /// output was cancelled. To send one element per job on a context, so that a long
    /// sequence can be cancelled between elements, use `from(_:context:delivery:)`.
    ///
    /// - Parameters:
    ///   - values: the values to send.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal of the elements.
    public static func from<S: Sequence & Sendable>(_ values: S, delivery: DeliveryVariant = .lockFree) -> Signal<T>

    where S.Element == T {
        generate(delivery: delivery) { input in
            guard let input else { return }
            // A refused send means the downstream has ended or gone: stop iterating.
            for v in values where input.send(value: v) != nil { return }
            input.complete()
        }
    }

    /// A signal that sends the elements of `values` one per job on `context`, then completes
    /// (`from` with a scheduler).
    ///
    /// Each activation iterates `values` afresh: every element is sent from a job of its own
    /// (`context.invoke`), so a long or endless sequence can be cancelled between two elements
    /// and other work on `context` runs in between. The first job is the activation's own (the
    /// job on `context` that starts the source sends the first element); each later one is
    /// queued when the previous element has been sent, so n elements take n jobs and the
    /// completion comes in the job after the last element. Iteration stops, and no further
    /// job is queued, as soon as a send is refused: the downstream has ended (behind
    /// `take(3)`, 4 elements are asked for) or the output was cancelled or released (at most
    /// the element in flight is asked of the sequence). An empty sequence completes in the
    /// first job. `.direct` has no queue of its own: the activation runs where it happens and
    /// every element's job, the first included, runs on a global queue, as
    /// `Exec.direct.invoke` does; use `from(_:delivery:)` to send inside the activation
    /// instead.
    ///
    /// - Parameters:
    ///   - values: the values to send (iterated on `context`, one job at a time).
    ///   - context: where each element is sent from.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal of the elements.
    public static func from<S: Sequence & Sendable>(
        _ values: S, context: Exec, delivery: DeliveryVariant = .lockFree
    ) -> Signal<T> where S.Element == T {
        generate(context: context, delivery: delivery) { input in
            guard let input else { return }
            let stepper = SequenceStepper<S>(iterator: values.makeIterator(), input: input, context: context)
            // Off `.direct`, this closure runs in a job on `context`: it sends the first
            // element itself rather than queueing a job for it.
            if context.isDirect { stepper.next() } else { stepper.step() }
        }
    }

    /// A signal that completes as soon as it is activated (`empty`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func empty(delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        generate(delivery: delivery) { input in input?.complete() }
    }

    /// A signal that sends nothing and never ends while active (`never`).
    ///
    /// - Parameter delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func never(delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        // A generate input that is released sends `.cancelled`: keep it until deactivation.
        let holder = SideInputHolder<T>()
        return generate(delivery: delivery) { input in holder.replace(with: input) }
    }

    /// A signal that fails with `error` as soon as it is activated (`error`, `fail`).
    ///
    /// - Parameters:
    ///   - error: the error to end with, as `.other(error)`.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the signal.
    public static func failing(_ error: any Error, delivery: DeliveryVariant = .lockFree) -> Signal<T> {
        generate(delivery: delivery) { input in input?.send(end: .other(error)) }
    }

    /// A signal that calls `make` on every activation and mirrors the signal it returns
    /// (`deferred`). Use it to make a fresh request per subscription.
    ///
    /// State: the made signal's subscription, per activation.
    ///
    /// - Parameters:
    ///   - delivery: the delivery variant of the result's own stage (the signals `make`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - make: makes the signal to mirror, once per activation.
    /// - Returns: the signal.
    public static func deferred(delivery: DeliveryVariant = .lockFree, _ make: @escaping @Sendable () -> Signal<T>) -> Signal<T> {
        Signal<Never>.never(delivery: delivery).stage(initialState: SignalOutput<T>?.none, eventType: Result<T, SignalEnd>.self) {
            (output: inout SignalOutput<T>?, e: StageEvent<Never, Result<T, SignalEnd>>, channel: StageChannel<Result<T, SignalEnd>>, next: SignalNext<T>) in
            switch e {
            case .activated:
                output = channel.subscribe(make()) { $0 }
            case .upstream:
                break
            case .event(let r):
                if case .failure = r { output = nil }
                next.send(result: r)
            }
        }
    }

    /// `Signal.deferred(delivery:_:)` with a throwing `make`: calls it on every activation; if
    /// it throws, that activation ends with `.other(error)` at once (`defer` in ReactiveX).
    ///
    /// - Parameters:
    ///   - delivery: the delivery variant of the result's own stage (and of the failing
    ///     signal a throw makes).
    ///   - make: makes the signal to mirror, once per activation, or throws to end it.
    /// - Returns: the signal.
    public static func deferred(delivery: DeliveryVariant = .lockFree, _ make: @escaping @Sendable () throws -> Signal<T>) -> Signal<T> {
        // The same parameters as the non-throwing form, so this non-throwing closure picks
        // that one (with a parameter this form lacked, the call would resolve to itself).
        deferred(delivery: delivery) { () -> Signal<T> in
            do { return try make() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// A source that runs `body` with the input on every activation, then completes. The
    /// skeleton of `repeatCollection` and `start`.
    static func sending(context: Exec, delivery: DeliveryVariant,
                        _ body: @escaping @Sendable (SignalInput<T>) -> Void) -> Signal<T> {
        generate(context: context, delivery: delivery) { input in
            guard let input else { return }
            body(input)
            input.complete()
        }
    }

    /// Sends the values of `values`, `count` times over, then completes (CwlSignal's
    /// `repeatCollection`, ReactiveX `repeat`). Restarts on every activation; stops early if
    /// a send is refused (the downstream ended, or the graph was deactivated meanwhile). An
    /// empty collection completes at once, whatever `count` is.
    ///
    /// - Parameters:
    ///   - values: the values of one round.
    ///   - count: how many rounds (zero or less: it only completes).
    ///   - context: where the values are sent from.
    ///   - delivery: the delivery variant of the new graph.
    /// - Returns: the source.
    public static func repeatCollection<C: Collection & Sendable>(
        _ values: C, count: Int, context: Exec = .direct, delivery: DeliveryVariant = .lockFree
    ) -> Signal<T> where C.Element == T {
        sending(context: context, delivery: delivery) { input in
            // Rounds of nothing would spin `count` times (Int.max: for ever) sending nothing.
            if values.isEmpty { return }
            rounds: for _ in 0..<Swift.max(0, count) {
                for v in values where input.send(value: v) != nil { break rounds }
            }
        }
    }

    /// Sends the value `f` returns, then completes (CwlSignal's `start`, ReactiveX `start`).
    /// `f` runs on every activation, on `context`.
    ///
    /// - Parameters:
    ///   - context: where `f` runs.
    ///   - delivery: the delivery variant of the new graph.
    ///   - f: makes the value.
    /// - Returns: the source.
    public static func start(context: Exec = .direct, delivery: DeliveryVariant = .lockFree,
                             f: @escaping @Sendable () -> T) -> Signal<T> {
        sending(context: context, delivery: delivery) { input in input.send(value: f()) }
    }
}

/// Sends one element of a sequence per job on a context (`Signal.from(_:context:delivery:)`).
/// Each job queues the next as its last act, so jobs never overlap and each sees the
/// iterator as the previous one left it (the context's queue orders them): hence unchecked.
/// Generic over the sequence, which is `Sendable`, rather than its iterator, whose metatype
/// need not be: a job captures `self`, and with it the type it is generic over.
final class SequenceStepper<S: Sequence & Sendable>: @unchecked Sendable where S.Element: Sendable {
    var iterator: S.Iterator
    let input: SignalInput<S.Element>
    let context: Exec

    init(iterator: S.Iterator, input: SignalInput<S.Element>, context: Exec) {
        self.iterator = iterator
        self.input = input
        self.context = context
    }

    /// Queues the job that sends the next element, or completes when there is none.
    func next() {
        context.invoke { [self] in step() }
    }

    /// Sends the next element and queues the job for the one after it, or completes when
    /// there is none; runs in a job on `context`.
    func step() {
        guard let v = iterator.next() else {
            input.complete()
            return
        }
        // Refused: the downstream has ended or the activation is gone; stop here.
        if input.send(value: v) == nil { next() }
    }
}
