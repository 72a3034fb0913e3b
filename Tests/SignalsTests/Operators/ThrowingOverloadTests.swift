import Signals
import Testing

/// Every operator has a throwing overload under the same name; these spellings must still
/// compile without ambiguity and pick the form they mean. A closure that does not throw
/// (`$0` closures, key paths, operator and function references, `try?` or `do`/`catch`
/// inside) picks the original operator, since it matches without a function conversion; one
/// with a `try` outside a `do`/`catch`, or a throwing function passed by name, picks the
/// throwing one. (That the non-throwing spellings keep the original operators' cost is
/// checked by `scripts/instruction-counts --check`, whose workloads use them.)
@Suite struct ThrowingOverloadTests {
    static let variants = DeliveryVariant.allCases

    struct Point: Sendable, Equatable {
        var x: Int
    }

    @Sendable static func half(_ n: Int) throws -> Int {
        guard n % 2 == 0 else { throw TestError.boom }
        return n / 2
    }

    @Sendable static func double(_ n: Int) -> Int { n * 2 }

    @Test(arguments: variants) func nonThrowingSpellingsCompileAndWork(_ v: DeliveryVariant) {
        func check<U: Sendable & Equatable>(_ op: (Signal<Int>) -> Signal<U>, _ expected: [U], _ name: String,
                                            sourceLocation: SourceLocation = #_sourceLocation) {
            let r = run(v, [3, 1, 2, 2], op)
            #expect(r.values == expected, "\(name)", sourceLocation: sourceLocation)
            #expect(r.end == .complete, "\(name)", sourceLocation: sourceLocation)
        }
        check({ $0.map { $0 + 1 } }, [4, 2, 3, 3], "map $0")
        check({ $0.map { v in v * 2 } }, [6, 2, 4, 4], "map named")
        check({ $0.map(Self.double) }, [6, 2, 4, 4], "map function")
        check({ $0.map { Point(x: $0) }.map(\.x) }, [3, 1, 2, 2], "map key path")
        check({ $0.map(String.init).compactMap(Int.init) }, [3, 1, 2, 2], "initializers")
        check({ $0.map { (try? Self.half($0)) ?? -1 } }, [-1, -1, 1, 1], "try?")
        check({ $0.map { v in
            do { return try Self.half(v) } catch { return 0 }
        } }, [0, 0, 1, 1], "do/catch")
        check({ $0.map { v -> String in
            let s = "\(v)"
            return s + s
        } }, ["33", "11", "22", "22"], "multi-statement")
        check({ $0.map(initialState: 0) { $0 += $1; return $0 } }, [3, 4, 6, 8], "map(initialState:)")
        check({ $0.filter { $0 > 1 } }, [3, 2, 2], "filter")
        check({ $0.compactMap { $0 > 1 ? $0 : nil } }, [3, 2, 2], "compactMap")
        check({ $0.scan(initialValue: 0, +) }, [3, 4, 6, 8], "scan +")
        check({ $0.scan(initialValue: 0) { $0 + $1 } }, [3, 4, 6, 8], "scan $0")
        check({ $0.reduce(initialValue: 0, +) }, [8], "reduce +")
        check({ $0.distinctUntilChanged(by: ==) }, [3, 1, 2], "distinctUntilChanged ==")
        check({ $0.distinctUntilChanged { $0 == $1 } }, [3, 1, 2], "distinctUntilChanged $0")
        check({ $0.min(by: <) }, [1], "min <")
        check({ $0.max { $0 < $1 } }, [3], "max $0")
        check({ $0.first() }, [3], "first()")
        check({ $0.first { $0 < 3 } }, [1], "first $0")
        check({ $0.last(where: { $0 > 1 }) }, [2], "last(where:)")
        check({ $0.last() }, [2], "last()")
        check({ $0.single { $0 == 1 } }, [1], "single $0")
        check({ $0.skipWhile { $0 > 1 } }, [1, 2, 2], "skipWhile")
        check({ $0.takeWhile { $0 > 1 } }, [3], "takeWhile")
        check({ $0.all { $0 > 0 } }, [true], "all")
        check({ $0.contains { $0 == 2 } }, [true], "contains(where:)")
        check({ $0.contains(2) }, [true], "contains(value)")
        check({ $0.find { $0 == 2 } }, [2], "find")
        check({ $0.onValue { _ in }.onEnd { _ in }.onResult { _ in } }, [3, 1, 2, 2], "taps")
        check({ $0.mapErrors { $0 } }, [3, 1, 2, 2], "mapErrors")
        check({ $0.groupBy { $0 % 2 }.map(\.key) }, [1, 0], "groupBy")
        check({ $0.flatMap { Signal.just($0, delivery: v) } }, [3, 1, 2, 2], "flatMap")
        check({ $0.flatMap(maxConcurrent: 2) { Signal.just($0, delivery: v) } }, [3, 1, 2, 2], "flatMap(maxConcurrent:)")
        check({ $0.flatMapLatest { Signal.just($0, delivery: v) } }, [3, 1, 2, 2], "flatMapLatest")
        check({ $0.concatMap { Signal.just($0, delivery: v) } }, [3, 1, 2, 2], "concatMap")
        check({ $0.catchError { _ in .just(0, delivery: v) } }, [3, 1, 2, 2], "catchError")

        let (a, b, r) = graph2(v, Int.self, Int.self) { $0.combineLatest($1, +) }
        a.send(value: 1)
        b.send(value: 10)
        #expect(r.values == [11])
        let (e, third) = Signal<Int>.create(delivery: v)
        let (c, d, r3) = graph2(v, Int.self, Int.self) { $0.combineLatest($1, third) { $0 + $1 + $2 } }
        c.send(value: 1)
        d.send(value: 10)
        e.send(value: 100)
        #expect(r3.values == [111])
        let (f, g, latest) = graph2(v, Int.self, Int.self) { $0.withLatestFrom($1) { $0 + $1 } }
        g.send(value: 10)
        f.send(value: 3)
        #expect(latest.values == [13])
        withExtendedLifetime((a, b, c, d, f, g)) {}

        let retried = Recorder(Signal<Int>.retry(count: 1) { .just(1, delivery: v) })
        #expect(retried.values == [1])
        let deferred = Recorder(Signal<Int>.deferred { .just(2, delivery: v) })
        #expect(deferred.values == [2])
    }

    @Test(arguments: variants) func throwingSpellingsPickTheThrowingForms(_ v: DeliveryVariant) {
        func check<U: Sendable & Equatable>(_ op: (Signal<Int>) -> Signal<U>, _ expected: [U], _ name: String,
                                            sourceLocation: SourceLocation = #_sourceLocation) {
            // 3 comes first: each closure throws at it.
            let r = run(v, [2, 4, 3, 6], op)
            #expect(r.values == expected, "\(name)", sourceLocation: sourceLocation)
            #expect(r.end == .boom, "\(name)", sourceLocation: sourceLocation)
        }
        check({ $0.map { try Self.half($0) } }, [1, 2], "map try")
        check({ $0.map(Self.half) }, [1, 2], "map throwing function")
        check({ $0.map { v in
            if v % 2 == 1 { throw TestError.boom }
            return v
        } }, [2, 4], "map throw statement")
        check({ $0.filter { try Self.half($0) > 0 } }, [2, 4], "filter")
        check({ $0.compactMap { try Self.half($0) } }, [1, 2], "compactMap")
        check({ $0.scan(initialValue: 0) { try $0 + Self.half($1) } }, [1, 3], "scan")
        check({ $0.first { try Self.half($0) > 5 } }, [], "first(where:)")
        check({ $0.takeWhile { try Self.half($0) > 0 } }, [2, 4], "takeWhile")
        check({ $0.onValue { _ = try Self.half($0) } }, [2, 4], "onValue")
        check({ $0.flatMap { Signal.just(try Self.half($0), delivery: v) } }, [1, 2], "flatMap")
        check({ $0.groupBy { try Self.half($0) }.map(\.key) }, [1, 2], "groupBy")
    }

    /// The forms added with throwing overloads later (retry, join, per-value delay, the
    /// inclusive takes, the seedless and keyed forms): plain spellings still compile, without
    /// ambiguity, to the non-throwing operator; a `try` picks the throwing one.
    @Test(arguments: variants) func laterFormsResolveByWhetherTheClosureThrows(_ v: DeliveryVariant) {
        func check<U: Sendable & Equatable>(_ op: (Signal<Int>) -> Signal<U>, _ expected: [U], _ name: String,
                                            end: End = .complete, sourceLocation: SourceLocation = #_sourceLocation) {
            let r = run(v, [2, 4, 3, 6], op)
            #expect(r.values == expected, "\(name)", sourceLocation: sourceLocation)
            #expect(r.end == end, "\(name)", sourceLocation: sourceLocation)
        }
        // Plain spellings.
        check({ $0.takeWhile(inclusive: true) { $0 % 2 == 0 } }, [2, 4, 3], "takeWhile(inclusive:)")
        check({ $0.takeUntil(inclusive: false) { $0 == 3 } }, [2, 4], "takeUntil(inclusive:)")
        check({ $0.scan(+) }, [2, 6, 9, 15], "scan +")
        check({ $0.reduce { $0 + $1 } }, [15], "reduce $0")
        check({ $0.distinct { $0 % 2 } }, [2, 3], "distinct(by:)")
        check({ $0.distinct(by: \.self) }, [2, 4, 3, 6], "distinct(by:) key path")
        check({ $0.delay { _ in Signal<Void>.just((), delivery: v) } }, [2, 4, 3, 6], "delay(offset:)")
        check({ $0.sequenceEqual(Signal.just(2, 4, 3, 6, delivery: v), by: ==) }, [true], "sequenceEqual(by:)")
        check({ $0.retry(0) { _, _ in nil } }, [2, 4, 3, 6], "retry(_:shouldRetry:)")
        check({ $0.join(withRight: Signal<Int>.never(delivery: v), leftEnd: { _ in Signal<Void>.never(delivery: v) },
                        rightEnd: { _ in Signal<Void>.never(delivery: v) }) { $0.0 + $0.1 } }, [], "join")
        check({ $0.groupJoin(withRight: Signal<Int>.never(delivery: v), leftEnd: { _ in Signal<Void>.never(delivery: v) },
                             rightEnd: { _ in Signal<Void>.never(delivery: v) }) { $0.0 } }, [2, 4, 3, 6], "groupJoin")
        let retried = Recorder(Signal<Int>.retry(when: { _, _ in nil }) { .just(1, delivery: v) })
        #expect(retried.values == [1])

        // A `try` picks the throwing form (each throws at 3).
        check({ $0.takeWhile(inclusive: true) { try Self.half($0) > 0 } }, [2, 4], "takeWhile(inclusive:) try", end: .boom)
        check({ $0.takeUntil(inclusive: true) { try Self.half($0) > 5 } }, [2, 4], "takeUntil(inclusive:) try", end: .boom)
        check({ $0.scan { try $0 + Self.half($1) } }, [2, 4], "scan try", end: .boom)
        check({ $0.reduce { try $0 + Self.half($1) } }, [], "reduce try", end: .boom)
        check({ $0.distinct { try Self.half($0) } }, [2, 4], "distinct(by:) try", end: .boom)
        check({ $0.delay { x in
            _ = try Self.half(x)
            return Signal<Void>.just((), delivery: v)
        } }, [2, 4], "delay(offset:) try", end: .boom)
        check({ $0.sequenceEqual(Signal.just(2, 4, 3, 6, delivery: v)) { try Self.half($0) * 2 == $1 } }, [], "sequenceEqual(by:) try", end: .boom)
    }
}
