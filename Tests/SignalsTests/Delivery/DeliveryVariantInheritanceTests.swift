import Signals
import Testing

/// Every public factory takes `delivery:` and builds its graph on it; every operator's result
/// keeps its receiver's variant, whatever the variant of the signals passed as arguments
/// (given here on the other variant, so only the receiver can make the result `v`).
@Suite struct DeliveryVariantInheritanceTests {
    static let variants = DeliveryVariant.allCases

    struct Failure: Error {}

    /// The factories, each given `v`.
    @Test(arguments: variants) func everyFactoryBuildsOnTheGivenVariant(_ v: DeliveryVariant) {
        let other: DeliveryVariant = v == .lockFree ? .mutex : .lockFree
        let vt = Exec.custom(VirtualTimeContext())
        let factories: [(String, DeliveryVariant)] = [
            ("create", Signal<Int>.create(delivery: v).signal.delivery),
            ("create(compose:)", Signal<Int>.create(delivery: v) { $0.map { $0 } }.composed.delivery),
            ("createMergedInput", Signal<Int>.createMergedInput(delivery: v).signal.delivery),
            ("channel", Signal<Int>.channel(delivery: v).map { $0 }.signal.delivery),
            ("mergedChannel", Signal<Int>.mergedChannel(delivery: v).map { $0 }.signal.delivery),
            ("generate", Signal<Int>.generate(delivery: v) { _ in }.delivery),
            ("just", Signal.just(1, delivery: v).delivery),
            ("from", Signal.from([1], delivery: v).delivery),
            ("from(context:)", Signal.from([1], context: vt, delivery: v).delivery),
            ("from(asyncSequence:)", Signal.from(asyncSequence: AsyncStream<Int> { $0.finish() }, delivery: v).delivery),
            ("empty", Signal<Int>.empty(delivery: v).delivery),
            ("never", Signal<Int>.never(delivery: v).delivery),
            ("failing", Signal<Int>.failing(Failure(), delivery: v).delivery),
            ("deferred", Signal<Int>.deferred(delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("deferred throwing", Signal<Int>.deferred(delivery: v) { () throws in throw Failure() }.delivery),
            ("repeatCollection", Signal.repeatCollection([1], count: 2, delivery: v).delivery),
            ("start", Signal.start(delivery: v) { 1 }.delivery),
            ("preclosed", Signal.preclosed(1, delivery: v).delivery),
            ("preclosed(sequence:)", Signal.preclosed(sequence: [1], delivery: v).delivery),
            ("merge", Signal.merge(Signal.just(1, delivery: v), Signal.just(2, delivery: other), delivery: v).delivery),
            ("merge(sequence:)", Signal.merge(sequence: [Signal.just(1, delivery: v)], delivery: v).delivery),
            ("timer", Signal.timer(interval: .seconds(1), value: 1, context: vt, delivery: v).delivery),
            ("timer(Void)", Signal<Void>.timer(interval: .seconds(1), context: vt, delivery: v).delivery),
            ("interval", Signal<Int>.interval(.seconds(1), context: vt, delivery: v).delivery),
            ("interval(initial:)", Signal<Int>.interval(.seconds(1), initial: .zero, context: vt, delivery: v).delivery),
            ("combineLatest([])", Signal<Int>.combineLatest([], delivery: v).delivery),
            ("zip([])", Signal<Int>.zip([], delivery: v).delivery),
            ("combineLatest([...])", Signal.combineLatest([Signal.just(1, delivery: v), Signal.just(2, delivery: other)], delivery: other).delivery),
            ("zip([...])", Signal.zip([Signal.just(1, delivery: v), Signal.just(2, delivery: other)], delivery: other).delivery),
            ("retry(count:)", Signal<Int>.retry(count: 1, delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("retry(count:) throwing", Signal<Int>.retry(count: 1, delivery: v) { () throws in throw Failure() }.delivery),
            ("retry(when:)", Signal<Int>.retry(when: { _, _ in nil }, delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("retry(when:) throwing", Signal<Int>.retry(when: { _, _ throws in nil }, delivery: v) { () throws in throw Failure() }.delivery),
            ("retry(whenErrors:)", Signal<Int>.retry(whenErrors: { $0 }, delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("repeat(count:)", Signal<Int>.repeat(count: 1, delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("repeat(count:) throwing", Signal<Int>.repeat(count: 1, delivery: v) { () throws in throw Failure() }.delivery),
            ("repeat(when:)", Signal<Int>.repeat(when: { _ in nil }, delivery: v) { Signal.just(1, delivery: other) }.delivery),
            ("repeat(when:) throwing", Signal<Int>.repeat(when: { _ throws in nil }, delivery: v) { () throws in throw Failure() }.delivery),
            ("repeat(whenCompletions:)", Signal<Int>.repeat(whenCompletions: { $0 }, delivery: v) { Signal.just(1, delivery: other) }.delivery),
        ]
        for (name, variant) in factories {
            #expect(variant == v, "\(name)")
        }
    }

    /// Left out, `delivery:` is lock-free (as for `Signal.create()`), and each throwing form
    /// still runs (a call resolving to itself would never return).
    @Test func theDefaultIsLockFree() {
        let forms: [(String, Signal<Int>)] = [
            ("deferred", Signal<Int>.deferred { Signal.just(1, delivery: .mutex) }),
            ("deferred throwing", Signal<Int>.deferred { () throws in Signal.just(1, delivery: .mutex) }),
        ]
        for (name, signal) in forms {
            #expect(signal.delivery == .lockFree, "\(name)")
            let rec = Recorder(signal)
            #expect(rec.values == [1], "\(name)")
            #expect(rec.end == .complete, "\(name)")
        }
        let rec = Recorder(Signal<Int>.deferred { () throws -> Signal<Int> in throw TestError.boom })
        #expect(rec.end == .boom)
    }

    /// The operators, each applied to a signal on `v` (their signal arguments on the other
    /// variant).
    @Test(arguments: variants) func everyOperatorKeepsItsReceiversVariant(_ v: DeliveryVariant) {
        let other: DeliveryVariant = v == .lockFree ? .mutex : .lockFree
        let vt = Exec.custom(VirtualTimeContext())
        func s() -> Signal<Int> { Signal<Int>.create(delivery: v).signal }
        func o() -> Signal<Int> { Signal<Int>.create(delivery: other).signal }
        @Sendable func trigger() -> Signal<Void> { Signal<Void>.create(delivery: other).signal }
        let results: [(String, DeliveryVariant)] = [
            ("map", s().map { $0 }.delivery),
            ("map throwing", s().map { (x: Int) throws -> Int in x }.delivery),
            ("compactMap", s().compactMap { $0 }.delivery),
            ("filter", s().filter { _ in true }.delivery),
            ("filter throwing", s().filter { (_: Int) throws in true }.delivery),
            ("scan", s().scan(initialValue: 0) { $0 + $1 }.delivery),
            ("scan seedless", s().scan { $0 + $1 }.delivery),
            ("reduce", s().reduce(initialValue: 0) { $0 + $1 }.delivery),
            ("reduce seedless", s().reduce { $0 + $1 }.delivery),
            ("distinct", s().distinct().delivery),
            ("distinct(flushes:)", s().distinct(flushes: trigger()).delivery),
            ("distinctUntilChanged", s().distinctUntilChanged().delivery),
            ("enumerated", s().enumerated().delivery),
            ("elementAt", s().elementAt(1).delivery),
            ("elementAt negative", s().elementAt(-1).delivery),
            ("first", s().first { _ in true }.delivery),
            ("last", s().last { _ in true }.delivery),
            ("single", s().single { _ in true }.delivery),
            ("skip", s().skip(1).delivery),
            ("skipLast", s().skipLast(1).delivery),
            ("skipWhile", s().skipWhile { _ in true }.delivery),
            ("skipUntil", s().skipUntil(trigger()).delivery),
            ("take", s().take(1).delivery),
            ("take(0)", s().take(0).delivery),
            ("takeLast", s().takeLast(1).delivery),
            ("takeWhile", s().takeWhile { _ in true }.delivery),
            ("takeUntil(predicate)", s().takeUntil(inclusive: true) { _ in true }.delivery),
            ("takeUntil(trigger)", s().takeUntil(trigger()).delivery),
            ("ignoreElements", s().ignoreElements().delivery),
            ("sample", s().sample(trigger()).delivery),
            ("withLatestFrom", s().withLatestFrom(o()).delivery),
            ("withLatestFrom(combine)", s().withLatestFrom(o()) { $0 + $1 }.delivery),
            ("combineLatest", s().combineLatest(o()) { $0 + $1 }.delivery),
            ("zip", s().zip(o()).delivery),
            ("merge(with:)", s().merge(with: o()).delivery),
            ("concat", s().concat(o()).delivery),
            ("race", s().race(o()).delivery),
            ("switchIfEmpty", s().switchIfEmpty(o()).delivery),
            ("sequenceEqual", s().sequenceEqual(o()).delivery),
            ("startWith", s().startWith(1).delivery),
            ("endWith", s().endWith(1).delivery),
            ("defaultIfEmpty", s().defaultIfEmpty(1).delivery),
            ("flatMap", s().flatMap { _ in Signal.just(1, delivery: other) }.delivery),
            ("flatMap throwing", s().flatMap { (_: Int) throws -> Signal<Int> in throw Failure() }.delivery),
            ("flatMap(maxConcurrent:)", s().flatMap(maxConcurrent: 1) { _ in Signal.just(1, delivery: other) }.delivery),
            ("flatMap(maxConcurrent: 0)", s().flatMap(maxConcurrent: 0) { _ in Signal.just(1, delivery: other) }.delivery),
            ("flatMapFirst", s().flatMapFirst { _ in Signal.just(1, delivery: other) }.delivery),
            ("flatMapLatest", s().flatMapLatest { _ in Signal.just(1, delivery: other) }.delivery),
            ("concatMap", s().concatMap { _ in Signal.just(1, delivery: other) }.delivery),
            ("concatMap throwing", s().concatMap { (_: Int) throws -> Signal<Int> in throw Failure() }.delivery),
            ("catchError", s().catchError { _ in Signal.just(1, delivery: other) }.delivery),
            ("catchError throwing", s().catchError { (_: any Error) throws -> Signal<Int> in throw Failure() }.delivery),
            ("catchError(returning:)", s().catchError(returning: 1).delivery),
            ("retry(count:delayInterval:)", s().retry(count: 1, delayInterval: .seconds(1), context: vt).delivery),
            ("materialize", s().materialize().delivery),
            ("mapErrors", s().mapErrors { $0 }.delivery),
            ("buffer(count:)", s().buffer(count: 2).delivery),
            ("buffer(count: 0)", s().buffer(count: 0).delivery),
            ("buffer(count:skip:)", s().buffer(count: 2, skip: 1).delivery),
            ("buffer(count:skip: 0)", s().buffer(count: 2, skip: 0).delivery),
            ("buffer(boundary:)", s().buffer(boundary: trigger()).delivery),
            ("buffer(timeSpan:)", s().buffer(timeSpan: .seconds(1), context: vt).delivery),
            ("buffer(interval:timeshift:)", s().buffer(interval: .seconds(1), timeshift: .seconds(1), context: vt).delivery),
            ("window(count:)", s().window(count: 2).delivery),
            ("window(count:skip:)", s().window(count: 2, skip: 1).delivery),
            ("window(boundary:)", s().window(boundary: trigger()).delivery),
            ("window(timeSpan:)", s().window(timeSpan: .seconds(1), context: vt).delivery),
            ("groupBy", s().groupBy { $0 % 2 }.delivery),
            ("debounce", s().debounce(interval: .seconds(1), context: vt).delivery),
            ("throttleFirst", s().throttleFirst(interval: .seconds(1), context: vt).delivery),
            ("throttleLast", s().throttleLast(interval: .seconds(1), context: vt).delivery),
            ("throttle(latest:)", s().throttle(interval: .seconds(1), latest: true, context: vt).delivery),
            ("throttle(leading:latest:)", s().throttle(interval: .seconds(1), leading: false, latest: false, context: vt).delivery),
            ("delay(interval:)", s().delay(interval: .seconds(1), context: vt).delivery),
            ("delay(until:)", s().delay(until: .seconds(1), context: vt).delivery),
            ("delay(offset:)", s().delay(offset: { _ in trigger() }).delivery),
            ("delaySubscription(until:)", s().delaySubscription(until: trigger()).delivery),
            ("timeout(interval:)", s().timeout(interval: .seconds(1), context: vt).delivery),
            ("timeInterval", s().timeInterval(context: vt).delivery),
            ("timestamp", s().timestamp(context: vt).delivery),
            ("count", s().count().delivery),
            ("sum", s().sum().delivery),
            ("min", s().min().delivery),
            ("max", s().max().delivery),
            ("toArray", s().toArray().delivery),
            ("all", s().all { _ in true }.delivery),
            ("contains", s().contains(1).delivery),
            ("find", s().find { _ in true }.delivery),
            ("onValue", s().onValue { _ in }.delivery),
            ("onEnd", s().onEnd { _ in }.delivery),
            ("hop(to:)", s().hop(to: vt).delivery),
            ("multicast", s().multicast().delivery),
            ("continuous", s().continuous().delivery),
            ("playback", s().playback().delivery),
            ("cacheUntilActive", s().cacheUntilActive().delivery),
            ("combine", s().combine(o()) { (_: EitherResult2<Int, Int>, _: SignalNext<Int>) in }.delivery),
            ("transform", s().transform { (r: Result<Int, SignalEnd>, next: SignalNext<Int>) in next.send(result: r) }.delivery),
        ]
        for (name, variant) in results {
            #expect(variant == v, "\(name)")
        }
        // A flattening operator's result keeps its receiver's variant, not the outer
        // signal's argument's.
        let outer = Signal<Signal<Int>>.create(delivery: v).signal
        #expect(outer.switchLatest().delivery == v, "switchLatest")
    }
}
