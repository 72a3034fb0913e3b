import Signals
import Testing

/// `takeWhile(inclusive:)` and the predicate form of `takeUntil(inclusive:)`.
@Suite struct InclusiveTakeTests {
    static let variants = DeliveryVariant.allCases

    @Test(arguments: variants) func takeWhileInclusiveSendsTheFailingValueThenCompletes(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 5, 3]) { $0.takeWhile(inclusive: true) { $0 < 3 } }
        #expect(r.values == [1, 2, 5])
        #expect(r.end == .complete)
        let exclusive = run(v, [1, 2, 5, 3]) { $0.takeWhile(inclusive: false) { $0 < 3 } }
        #expect(exclusive.values == [1, 2])
        #expect(exclusive.end == .complete)
        let allPass = run(v, [1, 2], end: .other(TestError.boom)) { $0.takeWhile(inclusive: true) { $0 < 3 } }
        #expect(allPass.values == [1, 2])
        #expect(allPass.end == .boom)
        let empty = run(v, []) { $0.takeWhile(inclusive: true) { $0 < 3 } }
        #expect(empty.values == [])
        #expect(empty.end == .complete)
    }

    @Test(arguments: variants) func takeUntilInclusiveSendsTheMatchingValueThenCompletes(_ v: DeliveryVariant) {
        let r = run(v, [1, 2, 5, 3]) { $0.takeUntil(inclusive: true) { $0 >= 5 } }
        #expect(r.values == [1, 2, 5])
        #expect(r.end == .complete)
        let exclusive = run(v, [1, 2, 5, 3]) { $0.takeUntil(inclusive: false) { $0 >= 5 } }
        #expect(exclusive.values == [1, 2])
        #expect(exclusive.end == .complete)
        let first = run(v, [9, 1]) { $0.takeUntil(inclusive: true) { $0 >= 5 } }
        #expect(first.values == [9])
        #expect(first.end == .complete)
    }

    @Test(arguments: variants) func nothingReachesThePredicateAfterTheEnd(_ v: DeliveryVariant) {
        let seen = Collected<Int>()
        let r = run(v, [1, 5, 6, 7]) { $0.takeWhile(inclusive: true) { seen.append($0); return $0 < 3 } }
        #expect(r.values == [1, 5])
        #expect(seen.all == [1, 5])
    }
}
