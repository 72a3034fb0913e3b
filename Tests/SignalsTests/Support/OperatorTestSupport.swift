import Signals
import Synchronization
import Testing

/// The error the operator tests send.
enum TestError: Error, Equatable {
    case boom
    case other
}

/// An end, reduced to something `==` can compare.
enum End: Equatable, CustomStringConvertible {
    case complete, cancelled, error(String)

    init(_ end: SignalEnd) {
        switch end {
        case .complete: self = .complete
        case .cancelled: self = .cancelled
        case .other(let e): self = .error(String(describing: e))
        }
    }

    static let boom = End.error(String(describing: TestError.boom))
    static let timeout = End.error(String(describing: SignalOperatorError.timeout))

    var description: String {
        switch self {
        case .complete: "complete"
        case .cancelled: "cancelled"
        case .error(let s): "error(\(s))"
        }
    }
}

/// Feeds `values` (then `end`, if any) through `op` on a fresh graph of the given variant and
/// returns what came out.
func run<U: Sendable>(
    _ variant: DeliveryVariant,
    _ values: [Int],
    end: SignalEnd? = .complete,
    _ op: (Signal<Int>) -> Signal<U>
) -> (values: [U], end: End?) {
    let (input, signal) = Signal<Int>.create(delivery: variant)
    let recorder = Recorder(op(signal))
    for v in values { input.send(value: v) }
    if let end { input.send(end: end) }
    return (recorder.values, recorder.end)
}

/// Checks that `op`'s state is per activation: runs `first` through the operator, deactivates
/// it (its only subscriber goes away), re-activates it and runs `second`. Returns what each
/// activation saw. The operator stage is the same object both times (it sits behind a
/// `multicast()`), so any state left over from the first activation shows in the second.
func reactivate<U: Sendable>(
    _ variant: DeliveryVariant,
    first: [Int],
    second: [Int],
    endSecond: SignalEnd? = nil,
    _ op: (Signal<Int>) -> Signal<U>
) -> (first: [U], second: [U], firstEnd: End?, secondEnd: End?) {
    let (input, signal) = Signal<Int>.create(delivery: variant)
    let shared = op(signal).multicast()
    let r1 = Recorder(shared)
    for v in first { input.send(value: v) }
    r1.cancel()
    let r2 = Recorder(shared)
    for v in second { input.send(value: v) }
    if let endSecond { input.send(end: endSecond) }
    let result = (r1.values, r2.values, r1.end, r2.end)
    // The second subscriber goes away before the input does, in every build: a release build
    // may otherwise release `input` right after its last send, and its `.cancelled` end would
    // reach the second subscriber (in a debug build both lived to the return).
    r2.cancel()
    withExtendedLifetime(input) {}
    return result
}

/// A two-input graph: returns the inputs and a recorder of `op(first, second)`.
func graph2<A: Sendable, B: Sendable, U: Sendable>(
    _ variant: DeliveryVariant,
    _ a: A.Type, _ b: B.Type,
    _ op: (Signal<A>, Signal<B>) -> Signal<U>
) -> (SignalInput<A>, SignalInput<B>, Recorder<U>) {
    let (ia, sa) = Signal<A>.create(delivery: variant)
    let (ib, sb) = Signal<B>.create(delivery: variant)
    return (ia, ib, Recorder(op(sa, sb)))
}

/// A thread-safe list, for handlers and closures that collect things other than a
/// subscription's results (windows, groups, inputs, log lines, calls): those go to a `Recorder`.
final class Collected<T: Sendable>: Sendable {
    let items = Mutex<[T]>([])
    init() {}
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
}
