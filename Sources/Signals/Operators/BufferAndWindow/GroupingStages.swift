// The skeletons of the overlapping (or gapped) buffers and windows, CwlSignal's forms: by
// count and skip, by a signal of windows, and by interval and timeshift.
//
// Three skeletons decide when a group opens and closes (`countedGroups`: by value count;
// `windowedGroups`: by a signal of windows; `boundaryGroups`: one at a time, split by a
// boundary signal), and a `GroupKind` says what a group is (an array being filled, or the input
// of a window signal). Buffer.swift and Window.swift pick one skeleton and one kind.

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
}
