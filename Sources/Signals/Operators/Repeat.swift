// Repeating operators: subscribe again when the source completes (ReactiveX `repeat`,
// `repeatWhen`), the completion counterpart of the `retry` family in Retry.swift.
//
// A signal has one output for its lifetime, so the source is a factory, called once per run.
// State: the running subscription, the trigger or notifier subscription and the count of
// completed runs live in the per-activation state of a stage (see OperatorSupport.swift).
// A run that completes inside its own subscription (`Signal.just`) does not nest: its results
// reach the stage through the stage's private input, queued behind the event being processed,
// so each next run is started from the stage's delivery loop, in bounded stack, however many
// runs there are.

/// What a repeating stage does when a run completes.
@usableFromInline
enum RepeatStep: Sendable {
    /// Completes the result.
    case stop
    /// Starts the next run at once.
    case now
    /// Starts the next run at this trigger's first value; its end without a value ends the
    /// result with that end.
    case after(Signal<Void>)
}

extension Signal {
    /// A signal that subscribes to `attempt()` when activated and, each time that signal
    /// completes, subscribes to a fresh `attempt()`, until `count` runs have completed; then
    /// it completes (`repeat(count)`). An error or cancellation of a run passes on at once,
    /// with no further run.
    ///
    /// ReactiveX's `repeat` re-subscribes the *same* cold observable; a `Signal` has one
    /// output for its lifetime, so the source is given as a factory instead (subscribing a
    /// finished signal again would only give its end again).
    ///
    /// At the limits: `count` of 0 or less completes at once on activation, without calling
    /// `attempt` (RxJS's `EMPTY`); `Int.max` repeats for as long as the result is held. A run
    /// that completes synchronously (`Signal.just(1)`) starts the next from the stage's
    /// delivery loop, never by recursion, so a million runs need no more stack than one; once
    /// the downstream has ended (`Signal.repeat(count: .max) { … }.take(3)`) or the output is
    /// released, no further run starts.
    ///
    /// State: the current run's subscription and the number of completed runs, per activation
    /// (each activation starts counting afresh). `attempt` is called in the stage, never
    /// concurrently with itself. When the result ends or is deactivated, the running
    /// subscription is released.
    ///
    /// - Parameters:
    ///   - count: how many runs, in all (RxJS's `count`; not the repeats after the first).
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each run.
    /// - Returns: the signal of the runs' values.
    public static func `repeat`(count: Int, delivery: DeliveryVariant = .lockFree, _ attempt: @escaping @Sendable () -> Signal<T>) -> Signal<T> {
        if count <= 0 { return Signal<T>.empty(delivery: delivery) }
        return repeating({ completed in completed < count ? .now : .stop }, delivery: delivery, attempt)
    }

    /// `Signal.repeat(count:_:)` with a throwing `attempt`: a throw counts as a run that failed
    /// with that error, so it ends the result with `.other(error)` (ReactiveX's `repeat` over
    /// a `defer` whose factory throws). `count` at 0, negative or huge behaves as in the
    /// non-throwing form.
    ///
    /// - Parameters:
    ///   - count: how many runs, in all.
    ///   - delivery: the delivery variant of the result's own stage.
    ///   - attempt: makes the signal of each run, or throws to fail the result.
    /// - Returns: the signal of the runs' values.
    public static func `repeat`(count: Int, delivery: DeliveryVariant = .lockFree, _ attempt: @escaping @Sendable () throws -> Signal<T>) -> Signal<T> {
        Signal.repeat(count: count, delivery: delivery) { () -> Signal<T> in
            do { return try attempt() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// A signal that subscribes to `attempt()` when activated and, each time that signal
    /// completes, asks `shouldRepeat(n)` (n counts completed runs from 1): `nil` completes the
    /// result; a signal makes it subscribe to a fresh `attempt()` when that signal sends its
    /// first value (`Signal<Void>.just(())` at once, `Signal<Void>.timer(interval:context:)`
    /// after a pause). A trigger that ends without a value ends the result with that end: a
    /// completion completes it, an error fails it (RxJS's `repeat({ count, delay: n =>
    /// notifier })`). An error or cancellation of a run passes on at once, with no further run.
    ///
    /// A trigger that never sends (`Signal<Void>.never()`, or a timer of `Exec.neverDelay` or
    /// more) means no further run: the result stays open, without values, until released. The
    /// repetition number saturates at `Int.max`. A trigger that sends synchronously starts the
    /// next run from the stage's delivery loop, never by recursion (see
    /// `Signal.repeat(count:_:)`).
    ///
    /// State: the current run's and trigger's subscriptions and the number of completed runs,
    /// per activation. `shouldRepeat` and `attempt` are called in the stage, never concurrently
    /// with themselves; the trigger is released at its first value. When the result ends or is
    /// deactivated, the run and the trigger are released.
    ///
    /// - Parameters:
    ///   - shouldRepeat: given the number of completed runs, returns a signal whose first
    ///     value starts the next run, or nil to complete.
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each run.
    /// - Returns: the signal of the runs' values.
    public static func `repeat`(
        when shouldRepeat: @escaping @Sendable (_ repetition: Int) -> Signal<Void>?,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        repeating({ completed in shouldRepeat(completed).map { .after($0) } ?? .stop }, delivery: delivery, attempt)
    }

    /// `Signal.repeat(when:_:)` with throwing closures. A throw from `shouldRepeat` ends the
    /// result with `.other(error)` at once, with no further run (RxJS's `repeat` whose `delay`
    /// function throws). A throw from `attempt` counts as a run that failed with that error,
    /// which ends the result. After the end nothing follows, and neither closure is called
    /// again in that activation.
    ///
    /// - Parameters:
    ///   - shouldRepeat: given the number of completed runs, returns a signal whose first
    ///     value starts the next run, or nil to complete; throws to fail the result.
    ///   - delivery: the delivery variant of the result's own stage.
    ///   - attempt: makes the signal of each run, or throws to fail the result.
    /// - Returns: the signal of the runs' values.
    public static func `repeat`(
        when shouldRepeat: @escaping @Sendable (_ repetition: Int) throws -> Signal<Void>?,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () throws -> Signal<T>
    ) -> Signal<T> {
        repeating({ completed in try shouldRepeat(completed).map { .after($0) } ?? .stop }, delivery: delivery) { () -> Signal<T> in
            do { return try attempt() } catch { return Signal<T>.failing(error, delivery: delivery) }
        }
    }

    /// A signal that subscribes to `attempt()` when activated and re-runs it, as RxJS's
    /// `repeatWhen(completions => notifier)` does, under one notifier for the whole
    /// activation: at the first completion of a run it calls `notifier` once with the signal
    /// of this activation's completions (a multicast: branch it as often as needed) and
    /// subscribes to the signal it returns; every completion of a run, that first one
    /// included, is then sent on the completions signal. Each value of the notifier starts a
    /// fresh `attempt()` if none is running (one run at a time: a value while a run is
    /// running is dropped). The notifier's completion completes the result once no run is
    /// running (at once if none is, else when the running one completes); its error or
    /// cancellation ends the result at once with that end. A run's error or cancellation
    /// ends the result at once.
    ///
    /// Unlike `Signal.repeat(when:_:)`, which makes a trigger per completion and releases it
    /// at its first value, the notifier here sees every completion in order and can count,
    /// delay or stop them (`completions.take(3)`, `completions.delay(interval:context:)`).
    ///
    /// A throw from `notifier` fails the result with the thrown error at once. `notifier` and
    /// `attempt` run in the stage (never concurrently with themselves); the completions
    /// signal sends from inside the stage, so a notifier that answers at once
    /// (`completions.map { _ in () }`) starts the next run right after the completion, in the
    /// same delivery and without recursion. Each activation of the result starts afresh (a new
    /// notifier at its first completion); when the result ends or is deactivated, the run, the
    /// notifier and the completions signal are released (the completions signal then ends
    /// with `.cancelled`).
    ///
    /// - Parameters:
    ///   - notifier: given the signal of completions, returns the signal whose values start the
    ///     next runs; throws to fail the result.
    ///   - delivery: the delivery variant of the result's own stage (the signals `attempt`
    ///     makes keep theirs); the default is `.lockFree`, as for `Signal.create()`.
    ///   - attempt: makes the signal of each run.
    /// - Returns: the signal of the runs' values.
    public static func `repeat`<U: Sendable>(
        whenCompletions notifier: @escaping @Sendable (_ completions: SignalMulti<Void>) throws -> Signal<U>,
        delivery: DeliveryVariant = .lockFree,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        notifiedRuns(notification: { end -> Void? in
            if case .complete = end { return () } else { return nil }
        }, notifierCompletionWaitsForRun: true, notifier: notifier, delivery: delivery, attempt)
    }

    /// The `Signal.repeat(count:_:)` and `Signal.repeat(when:_:)` forms: one stage holding the
    /// run's and the trigger's subscriptions; `decide` is asked at each completion.
    static func repeating(
        _ decide: @escaping @Sendable (_ completed: Int) throws -> RepeatStep,
        delivery: DeliveryVariant,
        _ attempt: @escaping @Sendable () -> Signal<T>
    ) -> Signal<T> {
        typealias S = (run: SignalOutput<T>?, trigger: SignalOutput<Void>?, completed: Int, ended: Bool)
        return Signal<Never>.never(delivery: delivery).stage(initialState: S(nil, nil, 0, false), eventType: AttemptEvent<T>.self) {
            (s: inout S, e: StageEvent<Never, AttemptEvent<T>>, channel: StageChannel<AttemptEvent<T>>, next: SignalNext<T>) in
            if s.ended { return }
            func start() {
                let n = s.completed
                s.run = channel.subscribe(attempt()) { .attempt(n, $0) }
            }
            func finish(_ end: SignalEnd) {
                s.ended = true
                s.run = nil
                s.trigger = nil
                next.send(end: end)
            }
            switch e {
            case .activated:
                start()
            case .upstream:
                break
            case .event(.attempt(let n, let r)):
                guard n == s.completed, s.run != nil else { return }
                switch r {
                case .success(let v):
                    next.send(value: v)
                case .failure(.complete):
                    s.run = nil
                    if s.completed < .max { s.completed += 1 }
                    let step: RepeatStep
                    do {
                        step = try decide(s.completed)
                    } catch {
                        return finish(.other(error))
                    }
                    switch step {
                    case .stop:
                        finish(.complete)
                    case .now:
                        start()
                    case .after(let trigger):
                        let n = s.completed
                        s.trigger = channel.subscribe(trigger) { .trigger(n, $0) }
                    }
                case .failure(let end):
                    finish(end)
                }
            case .event(.trigger(let n, let r)):
                guard n == s.completed, s.trigger != nil else { return }
                s.trigger = nil
                switch r {
                case .success:
                    start()
                case .failure(let end):
                    finish(end)
                }
            }
        }
    }
}
