// Overlapping (or gapped) buffers and windows, CwlSignal's forms: by count and skip, by a
// signal of windows, and by interval and timeshift.
//
// Three skeletons decide when a group opens and closes (`countedGroups`: by value count;
// `windowedGroups`: by a signal of windows; `boundaryGroups`: one at a time, split by a
// boundary signal), and a `GroupKind` says what a group is (an
// array being filled, or the input of a window signal). Every operator here is one skeleton
// with one kind.

/// What a group is: how it opens, takes a value, and closes (with the end that closed it,
/// nil when it closed on its own terms).
struct GroupKind<T: Sendable, G: Sendable, U: Sendable>: Sendable {
    let open: @Sendable (SignalNext<U>) -> G
    let add: @Sendable (inout G, T) -> Void
    let close: @Sendable (G, SignalEnd?, SignalNext<U>) -> Void
}

extension GroupKind where G == [T], U == [T] {
    /// An array, emitted when it closes on its own terms or with a completion; an error or
    /// cancellation drops it (RxJS drops open buffers on error, as `buffer(count:)` and
    /// `buffer(timeSpan:count:)` do).
    static var buffers: GroupKind {
        GroupKind(open: { _ in [] }, add: { buffer, v in buffer.append(v) }, close: { buffer, end, next in
            if end?.isComplete ?? true { next.send(value: buffer) }
        })
    }
}

extension GroupKind where G == SignalInput<T>, U == Signal<T> {
    /// A signal, delivered when it opens, that ends when the group closes (with the end that
    /// closed it).
    static func windows(delivery: DeliveryVariant) -> GroupKind {
        GroupKind(open: { next in
            let (input, signal) = Signal<T>.create(delivery: delivery)
            next.send(value: signal)
            return input
        }, add: { input, v in input.send(value: v) }, close: { input, end, _ in input.send(end: end ?? .complete) })
    }
}

/// A window's input with the number of values sent into it (the group of the size-limited
/// window forms).
struct CountedWindow<T: Sendable>: Sendable {
    let input: SignalInput<T>
    var count: Int
}

extension GroupKind where G == CountedWindow<T>, U == Signal<T> {
    /// `windows(delivery:)` that counts what each window has taken, for `isFull`.
    static func countedWindows(delivery: DeliveryVariant) -> GroupKind {
        let plain = GroupKind<T, SignalInput<T>, Signal<T>>.windows(delivery: delivery)
        return GroupKind(open: { next in CountedWindow(input: plain.open(next), count: 0) }, add: { window, v in
            window.count += 1
            window.input.send(value: v)
        }, close: { window, end, next in plain.close(window.input, end, next) })
    }
}

/// What a windowed stage receives besides upstream results.
enum WindowEvent<W: Sendable>: Sendable {
    /// A result of the signal of windows: a new window, or its end.
    case windows(Result<Signal<W>, SignalEnd>)
    /// The window with this id closed (its signal sent a value, completed or was cancelled).
    case closed(Int)
    /// A window's signal failed (`.other`): the result fails with it (RxJS's windowToggle and
    /// bufferToggle).
    case failed(SignalEnd)
}

extension Signal {
    /// Groups that open at every `skip`-th value (the first included), take every value while
    /// open, and close after `count` values (oldest first). At the end every open group closes
    /// with it. State per activation: the open groups with their sizes, and the value index.
    func countedGroups<G: Sendable, U: Sendable>(count: Int, skip: Int, _ kind: GroupKind<T, G, U>) -> Signal<U> {
        typealias S = (groups: [(group: G, size: Int)], index: Int)
        return transform(initialState: S([], 0)) { (s: inout S, r: Result<T, SignalEnd>, next: SignalNext<U>) in
            switch r {
            case .success(let v):
                if s.index % skip == 0 { s.groups.append((kind.open(next), 0)) }
                s.index += 1
                for i in s.groups.indices {
                    kind.add(&s.groups[i].group, v)
                    s.groups[i].size += 1
                }
                while let first = s.groups.first, first.size >= count {
                    s.groups.removeFirst()
                    kind.close(first.group, nil, next)
                }
            case .failure(let e):
                let groups = s.groups
                s.groups = []
                for g in groups { kind.close(g.group, e, next) }
                next.send(end: e)
            }
        }
    }

    /// Groups that open with each signal `windows` sends and close when that signal sends a
    /// value, completes or is cancelled. Every upstream value goes into every open group. When
    /// upstream or `windows` ends, or a window's signal fails, every open group closes (oldest
    /// first) and the result ends with that end. State per
    /// activation: the subscription to `windows`, the open groups with their window
    /// subscriptions.
    /// `windows` is called on each activation (the timed forms build a fresh timer source
    /// each time).
    /// `isFull`, when given, is asked after each value is added: a full group closes at once
    /// (before the next group gets the value after it), its window released.
    func windowedGroups<W: Sendable, G: Sendable, U: Sendable>(
        windows: @escaping @Sendable () -> Signal<Signal<W>>, _ kind: GroupKind<T, G, U>,
        isFull: (@Sendable (G) -> Bool)? = nil
    ) -> Signal<U> {
        typealias Open = (group: G, window: any Lifetime)
        typealias S = (windows: (any Lifetime)?, open: [(id: Int, group: Open)], nextID: Int)
        return stage(initialState: S(nil, [], 0), eventType: WindowEvent<W>.self) {
            (s: inout S, e: StageEvent<T, WindowEvent<W>>, channel: StageChannel<WindowEvent<W>>, next: SignalNext<U>) in
            switch e {
            case .activated:
                s.windows = channel.subscribe(windows()) { .windows($0) }
            case .upstream(.success(let v)):
                for i in s.open.indices { kind.add(&s.open[i].group.group, v) }
                if let isFull, s.open.contains(where: { isFull($0.group.group) }) {
                    // Oldest first, as RxJS's bufferTime closes its full buffers.
                    let full = s.open.filter { isFull($0.group.group) }
                    s.open.removeAll { isFull($0.group.group) }
                    for f in full { kind.close(f.group.group, nil, next) }
                }
            case .upstream(.failure(let end)), .event(.windows(.failure(let end))), .event(.failed(let end)):
                let open = s.open
                s = (nil, [], s.nextID)
                for o in open { kind.close(o.group.group, end, next) }
                next.send(end: end)
            case .event(.windows(.success(let window))):
                let id = s.nextID
                s.nextID += 1
                let group = kind.open(next)
                s.open.append((id, (group, channel.subscribe(window) { r in
                    if case .failure(let end) = r, end.otherError != nil { .failed(end) } else { .closed(id) }
                })))
            case .event(.closed(let id)):
                guard let i = s.open.firstIndex(where: { $0.id == id }) else { return }
                let closed = s.open.remove(at: i)
                kind.close(closed.group.group, nil, next)
            }
        }
    }

    /// The signal of windows for the interval forms: one opens at activation and every
    /// `timeshift` after, each lasting `interval`.
    func timedWindows(interval: Duration, timeshift: Duration, context: Exec) -> @Sendable () -> Signal<Signal<Void>> {
        let delivery = self.delivery
        return {
            Signal<Int>.interval(timeshift, initial: .zero, context: context, delivery: delivery).map { _ in
                Signal<Void>.timer(interval: interval, value: (), context: context, delivery: delivery)
            }
        }
    }

    /// One group at a time: the first opens at activation, and each value of `boundary`
    /// closes the open one and opens the next. Every upstream value goes into the open group.
    /// When upstream ends, or `boundary` fails, the open group closes with that end and the
    /// result ends with it; `boundary`'s completion or cancellation is ignored (the open group
    /// stays open until upstream ends: RxJS's `window(notifier)`). State per activation: the
    /// open group, the subscription to `boundary`.
    func boundaryGroups<B: Sendable, G: Sendable, U: Sendable>(boundary: Signal<B>, _ kind: GroupKind<T, G, U>) -> Signal<U> {
        typealias S = (group: G?, boundary: (any Lifetime)?)
        // The stage's event: nil for a boundary value, or the boundary's end.
        return stage(initialState: S(nil, nil), eventType: SignalEnd?.self) {
            (s: inout S, e: StageEvent<T, SignalEnd?>, channel: StageChannel<SignalEnd?>, next: SignalNext<U>) in
            func finish(_ end: SignalEnd) {
                let open = s.group
                s = (nil, nil)
                if let open { kind.close(open, end, next) }
                next.send(end: end)
            }
            switch e {
            case .activated:
                // The first group is delivered before either input is connected (RxJS's order).
                s.group = kind.open(next)
                s.boundary = channel.subscribe(boundary) { r in
                    if case .failure(let end) = r { return end }
                    return nil
                }
            case .upstream(.success(let v)):
                if s.group != nil { kind.add(&s.group!, v) }
            case .upstream(.failure(let end)):
                finish(end)
            case .event(.some(.other(let error))):
                finish(.other(error))
            case .event(.some):
                s.boundary = nil
            case .event(.none):
                guard let open = s.group else { return }
                s.group = nil
                kind.close(open, nil, next)
                s.group = kind.open(next)
            }
        }
    }

    // MARK: - Buffers

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

    // MARK: - Windows

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
}
