// `buffer`: arrays of values, by count (and skip), by a boundary signal, by a signal of
// windows, by interval and timeshift, and by time span.
//
// Every operator here is one of the skeletons in GroupingStages.swift with one `GroupKind`,
// or a stage of its own (by count, by boundary, by time span).

extension Signal {
    /// Collects values into arrays of `count` (`buffer(count:)`, `collect(_:)`); when the signal
    /// completes, a last, shorter array is emitted if values are left over. Errors drop them.
    ///
    /// State: the array being filled, per activation.
    ///
    /// A `count` of zero or less completes as soon as the result is activated (CwlSignal's
    /// `buffer(count: 0)`; the same rule as `window(count:)` and `buffer(count:skip:)`); a huge
    /// `count` collects everything into one array, emitted at the completion.
    ///
    /// - Parameters:
    ///   - count: the most values in one array.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of arrays.
    @inlinable
    public func buffer(count: Int, context: Exec = .direct) -> Signal<[T]> {
        if count <= 0 { return hop(to: context).completingOnActivation() }
        return transform(initialState: [T](), context: context) { (buf: inout [T], r: Result<T, SignalEnd>, next: SignalNext<[T]>) in
            switch r {
            case .success(let v):
                buf.append(v)
                if buf.count == count {
                    let full = buf
                    buf.removeAll(keepingCapacity: true)
                    next.send(value: full)
                }
            case .failure(.complete):
                if !buf.isEmpty { next.send(value: buf) }
                buf = []
                next.complete()
            case .failure(let e):
                buf = []
                next.send(end: e)
            }
        }
    }

    /// Arrays of `count` values, one starting at every `skip`-th value: overlapping when
    /// `skip < count`, with gaps when `skip > count` (CwlSignal's `buffer(count:skip:)`). At
    /// the completion the partly filled arrays are emitted (oldest first), then the
    /// completion; an error or cancellation drops them and passes at once (RxJS's
    /// `bufferCount`; the rule of every buffer form).
    ///
    /// At the limits (the same rule as `window(count:skip:)`): a `count` of zero or less
    /// completes as soon as the result is activated (CwlSignal: a preclosed signal); otherwise
    /// a `skip` of zero or less ends it then with `SignalArgumentError`. A huge `count` or
    /// `skip` is taken as it is (an array that never fills is emitted at the end).
    ///
    /// - Parameters:
    ///   - count: the size of each array.
    ///   - skip: values between the starts of two arrays.
    /// - Returns: the signal of arrays.
    public func buffer(count: Int, skip: Int) -> Signal<[T]> {
        if count <= 0 { return endingOnActivation(.complete) }
        if skip <= 0 { return argumentError("buffer(count:skip:)", "skip", skip, allowed: "1 or more") }
        return countedGroups(count: count, skip: skip, .buffers)
    }

    /// Emits the values collected since the previous emission each time `boundary` sends a value,
    /// empty arrays included (`buffer(boundary:)`, RxJS `buffer(notifier)`). When this signal
    /// completes, the values left (if any) are emitted before the completion; errors drop them.
    /// The boundary's completion or cancellation is ignored; its error ends the result.
    ///
    /// State: the array being filled, per activation.
    ///
    /// - Parameters:
    ///   - boundary: the signal whose values emit each array (its single output is taken).
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    /// - Returns: the signal of arrays.
    public func buffer<U: Sendable>(boundary: Signal<U>, context: Exec = .direct) -> Signal<[T]> {
        combine(boundary, initialState: [T](), context: context) { (buf: inout [T], e: EitherResult2<T, U>, next: SignalNext<[T]>) in
            switch e {
            case .result1(.success(let v)):
                buf.append(v)
            case .result1(.failure(.complete)):
                if !buf.isEmpty { next.send(value: buf) }
                buf = []
                next.complete()
            case .result1(.failure(let end)):
                buf = []
                next.send(end: end)
            case .result2(.success):
                let full = buf
                buf = []
                next.send(value: full)
            case .result2(.failure(.other(let error))):
                buf = []
                next.send(end: .other(error))
            case .result2(.failure):
                break
            }
        }
    }

    /// An array per window: each signal `windows` sends starts an array, which is emitted when
    /// that signal sends a value, completes or is cancelled (CwlSignal's `buffer(windows:)`;
    /// RxJS's `bufferToggle` emits on a value only). At the completion (of this signal or of
    /// `windows`) the open arrays are emitted (oldest first), then the completion; an error or
    /// cancellation of either, or an error of a window's signal (RxJS), drops them and ends
    /// the result with it at once.
    ///
    /// - Parameter windows: a signal of windows.
    /// - Returns: the signal of arrays.
    public func buffer<W: Sendable>(windows: Signal<Signal<W>>) -> Signal<[T]> {
        windowedGroups(windows: { windows }, .buffers)
    }

    /// An array per `interval`, one starting at activation and every `timeshift` after
    /// (CwlSignal's `buffer(interval:timeshift:)`): overlapping when `timeshift < interval`,
    /// with gaps when it is longer. At the completion the open arrays are emitted (oldest
    /// first), then the completion; an error or cancellation drops them and passes at once
    /// (RxJS's `bufferTime`).
    ///
    /// At the limits (the same rule as `window(interval:timeshift:)`): a `timeshift` of zero
    /// or less ends the result as soon as it is activated with `SignalArgumentError` (arrays
    /// would start without pause); an `interval` of zero or less closes each array as soon as
    /// it starts (an empty array every `timeshift`); a duration of `Exec.neverDelay` or more
    /// never elapses (one array, emitted at the end; or arrays that never close).
    ///
    /// - Parameters:
    ///   - interval: how long each array collects.
    ///   - timeshift: the time between the starts of two arrays.
    ///   - context: where the timers run and whose clock is read.
    /// - Returns: the signal of arrays.
    public func buffer(interval: Duration, timeshift: Duration, context: Exec = .global) -> Signal<[T]> {
        if timeshift <= .zero {
            return argumentError("buffer(interval:timeshift:context:)", "timeshift", timeshift, allowed: "more than zero")
        }
        return windowedGroups(windows: timedWindows(interval: interval, timeshift: timeshift, context: context), .buffers)
    }

    /// `buffer(interval:timeshift:context:)` with a size limit (RxJS `bufferTime(interval,
    /// timeshift, count)`): an array that reaches `count` values is emitted at once and
    /// closed (its `interval` timer cancelled); no array starts in its place, the next one
    /// starts at its `timeshift` as always. A value fills the open arrays oldest first, and
    /// the arrays it fills are emitted in that order.
    ///
    /// At the limits: a `count` of zero or less completes as soon as the result is activated
    /// (as `buffer(timeSpan:count:)`); `Int.max` is no limit. `interval` and `timeshift` as in
    /// `buffer(interval:timeshift:context:)` (a `timeshift` of zero or less ends the result
    /// with `SignalArgumentError`; `Exec.neverDelay` or more never elapses).
    ///
    /// State, ends, concurrency and release as `buffer(interval:timeshift:context:)`: the
    /// windows' subscription and the open arrays with their timers, per activation; released
    /// (timers cancelled, arrays dropped) when the output is released or cancelled.
    ///
    /// - Parameters:
    ///   - interval: how long each array collects.
    ///   - timeshift: the time between the starts of two arrays.
    ///   - count: the most values in one array.
    ///   - context: where the timers run and whose clock is read.
    /// - Returns: the signal of arrays.
    public func buffer(interval: Duration, timeshift: Duration, count: Int, context: Exec = .global) -> Signal<[T]> {
        if count <= 0 { return endingOnActivation(.complete) }
        if timeshift <= .zero {
            return argumentError("buffer(interval:timeshift:count:context:)", "timeshift", timeshift, allowed: "more than zero")
        }
        let windows = timedWindows(interval: interval, timeshift: timeshift, context: context)
        if count == .max { return windowedGroups(windows: windows, .buffers) }
        return windowedGroups(windows: windows, .buffers, isFull: { $0.count >= count })
    }

    /// Emits the values collected during each `timeSpan` (counting from activation) as an array,
    /// empty if none arrived; an array that reaches `count` values is emitted at once and starts
    /// a new span (`buffer(timeSpan:count:scheduler:)`, `collect(.byTimeOrCount)`). On completion
    /// the open buffer is emitted before it, even empty (every ReactiveX does: spans of 10 s
    /// and a completion at 15 s give `[]` at 10 s, `[]` at 15 s, then the completion); errors
    /// and cancellation drop it.
    ///
    /// State: the array being filled, the span's timer and a generation number, per activation.
    ///
    /// - Parameters:
    ///   - timeSpan: how long each group of values is collected.
    ///   - count: the most values in one array.
    ///   - context: where its timers run and whose clock it reads (`.global` by default;
    ///     `.custom(VirtualTimeContext())` in tests).
    /// - Returns: the signal of arrays.
    public func buffer(timeSpan: Duration, count: Int = .max, context: Exec = .global) -> Signal<[T]> {
        // At the limits, the rule of buffer(count:) for the count; a span of zero would emit
        // empty arrays without pause.
        if count <= 0 { return endingOnActivation(.complete) }
        if timeSpan <= .zero {
            return argumentError("buffer(timeSpan:count:context:)", "timeSpan", timeSpan, allowed: "more than zero")
        }
        typealias S = (buffer: [T], timer: (any Lifetime)?, generation: Int)
        return stage(initialState: S([], nil, 0), eventType: Int.self) {
            (s: inout S, e: StageEvent<T, Int>, channel: StageChannel<Int>, next: SignalNext<[T]>) in
            func restart() {
                s.generation += 1
                s.timer = channel.schedule(after: timeSpan, on: context, s.generation)
            }
            switch e {
            case .activated:
                restart()
            case .upstream(.success(let v)):
                s.buffer.append(v)
                if s.buffer.count >= count {
                    let full = s.buffer
                    s.buffer = []
                    restart()
                    next.send(value: full)
                }
            case .upstream(.failure(.complete)):
                s.timer = nil
                let last = s.buffer
                s.buffer = []
                next.send(value: last)
                next.complete()
            case .upstream(.failure(let end)):
                s = ([], nil, s.generation)
                next.send(end: end)
            case .event(let generation):
                guard generation == s.generation else { return }
                let span = s.buffer
                s.buffer = []
                restart()
                next.send(value: span)
            }
        }
    }
}
