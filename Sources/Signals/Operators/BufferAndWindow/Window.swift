// `window`: signals of values, by count (and skip), by a boundary signal, by a signal of
// windows, by interval and timeshift, and by time span.
//
// Every operator here is one of the skeletons in GroupingStages.swift with one `GroupKind`,
// or a stage of its own (by count, by boundary, by time span).

extension Signal {
    /// Splits the values into consecutive signals of `count` values each (`window(count:)`).
    ///
    /// Windows use this signal's delivery variant. Each window is delivered before its first
    /// value is sent into it: subscribe to it inside
    /// the handler that receives it (values sent to a window without a subscriber are dropped).
    /// The end of this signal ends the open window too.
    /// State: the open window's input and its count, per activation.
    ///
    /// A `count` of zero or less completes as soon as the result is activated (the same rule
    /// as `buffer(count:)`); a huge `count` keeps one window open until the end.
    ///
    /// - Parameters:
    ///   - count: the most values in one window.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of windows.
    public func window(count: Int, context: Exec = .direct) -> Signal<Signal<T>> {
        if count <= 0 { return hop(to: context).endingOnActivation(.complete) }
        let delivery = self.delivery
        return transform(initialState: (SignalInput<T>?.none, 0), context: context) {
            (s: inout (SignalInput<T>?, Int), r: Result<T, SignalEnd>, next: SignalNext<Signal<T>>) in
            switch r {
            case .success(let v):
                let input: SignalInput<T>
                if let open = s.0 {
                    input = open
                } else {
                    let (i, signal) = Signal<T>.create(delivery: delivery)
                    input = i
                    s = (i, 0)
                    next.send(value: signal)
                }
                input.send(value: v)
                s.1 += 1
                if s.1 == count {
                    input.complete()
                    s = (nil, 0)
                }
            case .failure(let e):
                s.0?.send(end: e)
                s = (nil, 0)
                next.send(end: e)
            }
        }
    }

    /// Signals of `count` values, one opening at every `skip`-th value (CwlSignal's
    /// `window(count:skip:)`). Each window is delivered before its first value: subscribe to
    /// it in the handler that receives it. At the end every open window ends with it.
    ///
    /// At the limits (the same rule as `buffer(count:skip:)`): a `count` of zero or less
    /// completes as soon as the result is activated; otherwise a `skip` of zero or less ends
    /// it then with `SignalArgumentError`. A huge `count` or `skip` is taken as it is.
    ///
    /// - Parameters:
    ///   - count: the number of values in each window.
    ///   - skip: values between the openings of two windows.
    /// - Returns: the signal of windows.
    public func window(count: Int, skip: Int) -> Signal<Signal<T>> {
        if count <= 0 { return endingOnActivation(.complete) }
        if skip <= 0 { return argumentError("window(count:skip:)", "skip", skip, allowed: "1 or more") }
        return countedGroups(count: count, skip: skip, .windows(delivery: delivery))
    }

    /// Consecutive windows split by `boundary` (RxJS `window(windowBoundaries)`): the first
    /// window is delivered as soon as the result is activated, and each value of `boundary`
    /// completes the open window and delivers the next, so the windows cover every value
    /// with no gap and no overlap (an empty one when two boundary values come with no value
    /// between).
    ///
    /// What ends it: the end of this signal ends the open window and then the result with
    /// that end (completion, error or cancellation); an error of `boundary` does the same
    /// with that error; `boundary`'s completion or cancellation is ignored (the open window
    /// stays open until this signal ends; RxJS's rule). Releasing the result's output ends the
    /// open window with `.cancelled` and releases both inputs. A `boundary` whose output is
    /// already taken fails the result with `SignalBindError.duplicate` (one that would close a
    /// loop: `.loop`).
    ///
    /// Windows use this signal's delivery variant. Each window is delivered before any value
    /// is sent into it: subscribe to it inside the handler that receives it (values sent to a
    /// window without a subscriber are dropped). Upstream values and boundary values reach
    /// the stage through one serialized queue, so a value and a boundary value never race: a
    /// value belongs to the window open when it reaches the stage. Lifetimes: a closed
    /// window's input is released when it closes; the result holds only the open one.
    /// State per activation: the open window's input, the subscription to `boundary`.
    ///
    /// - Parameter boundary: the signal whose every value starts a new window (its single
    ///   output is taken, and connected again on each activation).
    /// - Returns: the signal of windows.
    public func window<B: Sendable>(boundary: Signal<B>) -> Signal<Signal<T>> {
        boundaryGroups(boundary: boundary, .windows(delivery: delivery))
    }

    /// A signal per window: each signal `windows` sends opens one, which completes when that
    /// signal sends a value, completes or is cancelled (CwlSignal's `window(windows:)`; RxJS's
    /// `windowToggle` closes on a value only). An error of a window's signal fails the result
    /// and every open window with it (RxJS). At the end every open window ends with it.
    ///
    /// - Parameter windows: a signal of windows.
    /// - Returns: the signal of windows.
    public func window<W: Sendable>(windows: Signal<Signal<W>>) -> Signal<Signal<T>> {
        windowedGroups(windows: { windows }, .windows(delivery: delivery))
    }

    /// A signal per `interval`, one opening at activation and every `timeshift` after
    /// (CwlSignal's `window(interval:timeshift:)`).
    ///
    /// At the limits (the same rule as `buffer(interval:timeshift:)`): a `timeshift` of zero
    /// or less ends the result as soon as it is activated with `SignalArgumentError`; an
    /// `interval` of zero or less completes each window as soon as it opens; a duration of
    /// `Exec.neverDelay` or more never elapses.
    ///
    /// - Parameters:
    ///   - interval: how long each window stays open.
    ///   - timeshift: the time between the openings of two windows.
    ///   - context: where the timers run and whose clock is read.
    /// - Returns: the signal of windows.
    public func window(interval: Duration, timeshift: Duration, context: Exec = .global) -> Signal<Signal<T>> {
        if timeshift <= .zero {
            return argumentError("window(interval:timeshift:context:)", "timeshift", timeshift, allowed: "more than zero")
        }
        return windowedGroups(windows: timedWindows(interval: interval, timeshift: timeshift, context: context), .windows(delivery: delivery))
    }

    /// `window(interval:timeshift:context:)` with a size limit (RxJS `windowTime(interval,
    /// timeshift, count)`): each window completes at the first of its `interval` elapsing and
    /// its `count`-th value (sent into it before it completes; its timer is then cancelled).
    /// No window opens in place of a full one: the next opens at its `timeshift` as always,
    /// so a full window leaves a gap until then. A value goes into every open window, oldest
    /// first; the windows it fills complete in that order.
    ///
    /// At the limits: a `count` of zero or less completes the result as soon as it is
    /// activated (as `window(timeSpan:count:context:)`); `Int.max` is no limit (exactly
    /// `window(interval:timeshift:context:)`). A `timeshift` of zero or less ends the result
    /// as soon as it is activated with `SignalArgumentError`; an `interval` of zero or less
    /// completes each window as soon as it opens; a duration of `Exec.neverDelay` or more
    /// never elapses (one window only, for a huge `timeshift`; windows that close only when
    /// full, for a huge `interval`).
    ///
    /// Each window is delivered before any value is sent into it: subscribe to it inside the
    /// handler that receives it (values sent to a window without a subscriber are dropped).
    /// Windows use this signal's delivery variant. Values and timers reach the stage through
    /// one serialized queue, so values may be sent from any thread and a value belongs to the
    /// windows open when it reaches the stage. The end of this signal ends every open window
    /// with it (oldest first), then the result. State per activation: the timer source and
    /// the open windows (input, count, timer); a closed window's input and timer are released
    /// as it closes, and releasing the result's output ends the open ones with `.cancelled`.
    ///
    /// - Parameters:
    ///   - interval: how long each window stays open at most.
    ///   - timeshift: the time between the openings of two windows.
    ///   - count: the most values in one window.
    ///   - context: where the timers run and whose clock is read.
    /// - Returns: the signal of windows.
    public func window(interval: Duration, timeshift: Duration, count: Int, context: Exec = .global) -> Signal<Signal<T>> {
        if count <= 0 { return endingOnActivation(.complete) }
        if timeshift <= .zero {
            return argumentError("window(interval:timeshift:count:context:)", "timeshift", timeshift, allowed: "more than zero")
        }
        let windows = timedWindows(interval: interval, timeshift: timeshift, context: context)
        if count == .max { return windowedGroups(windows: windows, .windows(delivery: delivery)) }
        return windowedGroups(windows: windows, .countedWindows(delivery: delivery), isFull: { $0.count >= count })
    }

    /// Splits the values into consecutive signals, each open for `timeSpan` (counting from
    /// activation) or until it has `count` values, whichever is first (`window(timeSpan:count:)`).
    /// A new window opens as soon as the previous one closes, so windows may be empty.
    ///
    /// Subscribe to each window inside the handler that receives it. The end of this signal
    /// ends the open window too (the window open at a completion completes then, even empty,
    /// as `buffer(timeSpan:count:context:)` emits its open buffer).
    /// State: the open window's input, its count, the span's timer and a generation number,
    /// per activation.
    ///
    /// - Parameters:
    ///   - timeSpan: how long each group of values is collected.
    ///   - count: the most values in one window.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of windows.
    public func window(timeSpan: Duration, count: Int = .max, context: Exec = .global) -> Signal<Signal<T>> {
        if count <= 0 { return endingOnActivation(.complete) }
        if timeSpan <= .zero {
            return argumentError("window(timeSpan:count:context:)", "timeSpan", timeSpan, allowed: "more than zero")
        }
        typealias S = (window: SignalInput<T>?, count: Int, timer: (any Lifetime)?, generation: Int)
        let delivery = self.delivery
        return stage(initialState: S(nil, 0, nil, 0), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<Signal<T>>) in
            func open() {
                s.window?.complete()
                let (input, signal) = Signal<T>.create(delivery: delivery)
                s.window = input
                s.count = 0
                s.generation += 1
                s.timer = channel.schedule(after: timeSpan, on: context, s.generation)
                next.send(value: signal)
            }
            switch e {
            case .activated:
                open()
            case .upstream(.success(let v)):
                s.window?.send(value: v)
                s.count += 1
                if s.count >= count { open() }
            case .upstream(.failure(let end)):
                s.window?.send(end: end)
                s = (nil, 0, nil, s.generation)
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation else { return }
                open()
            }
        }
    }
}
