import Signals
import Testing

/// CwlSignal's self-retaining subscriptions and activation operators, on both variants.
@Suite struct LifetimeAndActivationPortTests {
    static let variants = DeliveryVariant.allCases

    // MARK: subscribeWhile / subscribeUntilEnd

    /// The subscription lives with nothing holding it, and ends (deactivating the graph)
    /// when the handler returns false; the handler is not called again.
    @Test(arguments: variants) func subscribeWhileEndsWhenHandlerSaysSo(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let seen = Collected<Int>()
        signal.subscribeValuesWhile { value in
            seen.append(value)
            return value < 2
        }
        #expect(input.send(value: 1) == nil)
        #expect(input.send(value: 2) == nil)
        #expect(input.send(value: 3) == .inactive)
        #expect(seen.all == [1, 2])
    }

    /// Results including the end reach a `subscribeWhile` handler; after the end it is gone.
    @Test(arguments: variants) func subscribeWhileSeesTheEnd(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let seen = Collected<String>()
        signal.subscribeWhile { r in
            switch r {
            case .success(let x): seen.append("\(x)")
            case .failure(let e): seen.append("\(End(e))")
            }
            return true
        }
        input.send(value: 1)
        input.send(value: 2)
        input.send(end: .complete)
        #expect(seen.all == ["1", "2", "complete"])
        #expect(input.send(value: 3) != nil)
    }

    /// A handler that says stop during activation (a continuous multi's cached value) gets
    /// nothing after it, even though the output was not yet stored when it returned.
    @Test(arguments: variants) func subscribeWhileStopsDuringActivation(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous(initialValue: 5) }
        let seen = Collected<Int>()
        multi.subscribeValuesWhile { value in
            seen.append(value)
            return false
        }
        input.send(value: 6)
        #expect(seen.all == [5])
    }

    /// `subscribeUntilEnd` and `subscribeValuesUntilEnd` see every value (and the end) with
    /// nothing holding them, and deactivate the graph once it ends.
    @Test(arguments: variants) func subscribeUntilEnd(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let deactivated = Collected<Bool>()
        let shared = signal.onDeactivate { deactivated.append(true) }.multicast()
        let all = Collected<String>()
        let values = Collected<Int>()
        shared.subscribeUntilEnd { r in all.append(r.value.map { "\($0)" } ?? "\(End(r.end!))") }
        shared.subscribeValuesUntilEnd { values.append($0) }
        input.send(value: 1)
        input.send(value: 2)
        #expect(deactivated.all.isEmpty)
        input.send(end: .other(TestError.boom))
        #expect(all.all == ["1", "2", "\(End.boom)"])
        #expect(values.all == [1, 2])
        #expect(deactivated.all == [true])
    }

    // MARK: captures resumed, dropActivation, deferActivation, cacheUntilActive

    @Test(arguments: variants) func dropAndDeferActivation(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous(initialValue: 5) }
        let dropped = Recorder(multi.dropActivation())
        let deferred = Recorder(multi.deferActivation())
        input.send(value: 6)
        #expect(dropped.values == [6])
        #expect(deferred.values == [5, 6])
    }

    /// `resume(resend:)` with each selection; the held values follow in every case.
    @Test(arguments: variants) func captureResumeSelections(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        func resumed(_ s: SignalActivationSelection) -> Recorder<Int> {
            let c = multi.capture()
            input.send(value: 0)   // held by every capture made so far
            return Recorder(c.resume(resend: s))
        }
        #expect(resumed(.none).values == [0])
        #expect(resumed(.last).values == [0, 0])
        #expect(resumed(.first).values == [1, 2, 0, 0, 0])
        #expect(resumed(.all).values == [1, 2, 0, 0, 0, 0])
    }

    /// A capture of a signal that ended during activation delivers the end whatever the
    /// selection.
    @Test(arguments: variants) func resumeAfterEnd(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.playback() }
        input.send(value: 1)
        input.send(end: .other(TestError.boom))
        let r = Recorder(multi.capture().resume(resend: .none))
        #expect(r.values == [])
        #expect(r.end == .boom)
    }

    /// Values sent before the result is subscribed are kept (after `precached`), then the
    /// signal passes values through.
    @Test(arguments: variants) func cacheUntilActive(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let cached = signal.cacheUntilActive(precached: [0])
        #expect(input.send(value: 1) == nil, "active at once")
        input.send(value: 2)
        let r = Recorder(cached)
        #expect(r.values == [0, 1, 2])
        input.send(value: 3)
        input.send(end: .complete)
        #expect(r.values == [0, 1, 2, 3])
        #expect(r.end == .complete)
    }

    // MARK: mapActivation, compactMapActivation

    @Test(arguments: variants) func mapActivationSelections(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.playback() }
        for x in [1, 2, 3] { input.send(value: x) }
        let last = Recorder(multi.mapActivation(select: .last, activation: { "a\($0)" }, remainder: { "r\($0)" }))
        let first = Recorder(multi.mapActivation(select: .first, activation: { "a\($0)" }, remainder: { "r\($0)" }))
        let all = Recorder(multi.compactMapActivation(select: .all, activation: { $0 == 2 ? nil : "a\($0)" }, remainder: { "r\($0)" }))
        let none = Recorder(multi.compactMapActivation(select: .none) { $0 * 10 })
        let deferred = Recorder(multi.compactMapActivation(select: .deferred) { $0 * 10 })
        input.send(value: 4)
        #expect(last.values == ["a3", "r4"])
        #expect(first.values == ["a1", "r2", "r3", "r4"])
        #expect(all.values == ["a1", "a3", "r4"])
        #expect(none.values == [4])
        #expect(deferred.values == [1, 2, 3, 4])
    }

    /// CwlSignal's `testCompactMapActivation`: the mapped last activation value is an
    /// activation value downstream (a capture takes it), and the remainder maps the rest.
    @Test(arguments: variants) func compactMapActivationOutputIsAnActivationValue(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let capture = signal
            .cacheUntilActive(precached: [1, 2])
            .compactMapActivation(select: .last, activation: { $0 * 10 }, remainder: { $0 * 2 })
            .capture()
        #expect(capture.values == [20])
        let r = Recorder(capture.resume(resend: .deferred))
        input.send(value: 7)
        input.send(value: 8)
        input.send(value: 9)
        input.complete()
        #expect(r.values == [20, 14, 16, 18])
        #expect(r.end == .complete)
    }

    /// CwlSignal's `testCompactMapLatestActivation`: the same with `remainder` passing values
    /// through.
    @Test(arguments: variants) func compactMapLatestActivationOutputIsAnActivationValue(_ v: DeliveryVariant) {
        let (input, signal) = Signal<Int>.create(delivery: v)
        let capture = signal
            .cacheUntilActive(precached: [1, 2])
            .compactMapActivation(select: .last) { $0 * 10 }
            .capture()
        #expect(capture.values == [20])
        let r = Recorder(capture.resume(resend: .deferred))
        input.send(value: 7)
        input.send(value: 8)
        input.send(value: 9)
        input.complete()
        #expect(r.values == [20, 7, 8, 9])
        #expect(r.end == .complete)
    }

    /// `mapActivation` likewise, with each selection: what was an activation value upstream
    /// is one downstream (`.first` maps the rest with `remainder`, still as activation values);
    /// `.deferred` makes them ordinary.
    @Test(arguments: variants) func mapActivationOutputIsActivationValues(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.playback() }
        for x in [1, 2, 3] { input.send(value: x) }
        func captured(_ s: SignalActivationSelection) -> [Int] {
            multi.mapActivation(select: s, activation: { $0 * 10 }, remainder: { $0 * 2 }).capture().values
        }
        #expect(captured(.last) == [30])
        #expect(captured(.first) == [10, 4, 6])
        #expect(captured(.all) == [10, 20, 30])
        #expect(captured(.none) == [])
        #expect(captured(.deferred) == [])
    }

    @Test(arguments: variants) func compactMapActivationThrowing(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.continuous(initialValue: 1) }
        let r = Recorder(multi.compactMapActivation(activation: { _ in 0 }, remainder: { (x: Int) throws -> Int? in
            if x == 3 { throw TestError.boom }
            return x
        }))
        input.send(value: 2)
        input.send(value: 3)
        input.send(value: 4)
        #expect(r.values == [0, 2])
        #expect(r.end == .boom)
    }

    // MARK: customActivation, reduce, toggle

    /// The updater decides what a new branch gets first; at the end it may rewrite both the
    /// cached values and the cached end.
    @Test(arguments: variants) func customActivation(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) {
            $0.customActivation(initialValues: [0]) { values, end, incoming in
                switch incoming {
                case .success(let x): values = Array((values + [x]).suffix(2))
                case .failure: values = values.map { -$0 }
                }
            }
        }
        #expect(Recorder(multi).values == [0])
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        let early = Recorder(multi)
        #expect(early.values == [2, 3])
        input.send(end: .complete)
        #expect(early.end == .complete)
        let late = Recorder(multi)
        #expect(late.values == [-2, -3])
        #expect(late.end == .complete)
    }

    /// An updater that clears the cached end leaves late branches open (their values only).
    @Test(arguments: variants) func customActivationClearingTheEnd(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) {
            $0.customActivation { values, end, incoming in
                if case .success(let x) = incoming { values = [x] } else { end = nil }
            }
        }
        input.send(value: 7)
        input.send(end: .complete)
        let late = Recorder(multi)
        #expect(late.values == [7])
        #expect(late.end == nil)
    }

    /// The state is the activation value and each value's new state is emitted; the state
    /// survives the end for late branches; a throwing reducer ends with its error.
    @Test(arguments: variants) func reduceInitialState(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) { $0.reduce(initialState: 10) { $0 + $1 } }
        let first = Recorder(multi)
        input.send(value: 1)
        input.send(value: 2)
        #expect(first.values == [10, 11, 13])
        #expect(Recorder(multi).values == [13])
        input.send(end: .complete)
        let late = Recorder(multi)
        #expect(late.values == [13])
        #expect(late.end == .complete)

        let (input2, failing) = Signal<Int>.create(delivery: v) {
            $0.reduce(initialState: 0) { (s: Int, x: Int) throws -> Int in
                if x < 0 { throw TestError.boom }
                return s + x
            }
        }
        let r = Recorder(failing)
        input2.send(value: 1)
        input2.send(value: -1)
        input2.send(value: 5)
        #expect(r.values == [0, 1])
        #expect(r.end == .boom)
    }

    /// Until the initializer makes a state there is no activation value and nothing emitted.
    @Test(arguments: variants) func reduceInitializer(_ v: DeliveryVariant) {
        let (input, multi) = Signal<Int>.create(delivery: v) {
            $0.reduce(initializer: { $0 > 2 ? $0 * 100 : nil }) { $0 + $1 }
        }
        let r = Recorder(multi)
        input.send(value: 1)
        input.send(value: 2)
        #expect(Recorder(multi).values == [])
        input.send(value: 3)
        input.send(value: 4)
        #expect(r.values == [300, 304])
        #expect(Recorder(multi).values == [304])
    }

    @Test(arguments: variants) func toggle(_ v: DeliveryVariant) {
        let (input, multi) = Signal<String>.create(delivery: v) { $0.toggle() }
        let r = Recorder(multi)
        input.send(value: "a")
        input.send(value: "b")
        input.send(value: "c")
        #expect(r.values == [false, true, false, true])
        #expect(Recorder(multi).values == [true])
        let (_, startingTrue) = Signal<Int>.create(delivery: v) { $0.toggle(initialState: true) }
        #expect(Recorder(startingTrue).values == [true])
    }
}
