// Counts and durations at their limits. A count or a duration may come from runtime data, so
// no value of one traps: each operator gives a documented result for zero, negative and huge
// values (docs/operators.md, "Counts and durations at their limits"). The rules:
//
// - where CwlSignal defines a result, that result (`buffer(count: 0)` completes at once);
// - a count that makes no sense otherwise (a `skip` of zero, a period of zero) ends the
//   operator's signal as soon as it is activated, with `SignalArgumentError`;
// - a duration of zero or less counts as zero (a timer fires at once, asynchronously);
// - a duration of `Exec.neverDelay` or more means "never": no timer is scheduled, nothing
//   overflows.

/// A count or duration outside the range an operator accepts. Delivered as the end of the
/// operator's signal (`.other(SignalArgumentError(…))`) as soon as it is activated, instead of
/// trapping: the argument may come from runtime data.
public struct SignalArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operator, as its Swift name (`"buffer(count:skip:)"`).
    public let function: String
    /// The argument's label (`"skip"`).
    public let argument: String
    /// The value passed, as text.
    public let value: String
    /// The values the operator accepts (`"1 or more"`).
    public let allowed: String

    /// Makes an error for `argument` of `function`, passed `value`, which accepts `allowed`.
    public init(function: String, argument: String, value: String, allowed: String) {
        self.function = function
        self.argument = argument
        self.value = value
        self.allowed = allowed
    }

    public var description: String {
        "\(function): \(argument) is \(value); allowed: \(allowed)"
    }
}

extension Exec {
    /// Delays at least this long (100 years) mean "never": `schedule(after:_:)` schedules
    /// nothing, so a timer of any huge duration neither fires nor overflows a clock.
    public static let neverDelay: Duration = .seconds(100 * 365 * 86_400)

    /// `delay` in whole nanoseconds for a dispatch deadline: zero for zero or less; nil for
    /// `neverDelay` or more (the work never runs).
    static func dispatchNanoseconds(_ delay: Duration) -> Int? {
        if delay >= neverDelay { return nil }
        if delay <= .zero { return 0 }
        let (s, a) = delay.components
        return Int(s) * 1_000_000_000 + Int(a / 1_000_000_000)
    }
}

extension Duration {
    /// The largest duration there is: what a sum past the top of the range saturates to.
    @usableFromInline static var saturatedMax: Duration { Duration(_high: .max, low: .max) }
    /// The smallest duration there is.
    @usableFromInline static var saturatedMin: Duration { Duration(_high: .min, low: 0) }

    /// `a + b`, clamped to the range a `Duration` holds instead of trapping: clock readings
    /// and durations may be anything a caller passes (`advance(by: .seconds(.max))` many
    /// times), and no duration traps.
    @inlinable
    static func saturatingSum(_ a: Duration, _ b: Duration) -> Duration {
        // 128-bit addition in two words: `Duration`'s own `+` traps on overflow.
        let (low, carry) = a._low.addingReportingOverflow(b._low)
        let (partial, o1) = a._high.addingReportingOverflow(b._high)
        let (high, o2) = partial.addingReportingOverflow(carry ? 1 : 0)
        // Two wraps cancel out (the first past the bottom, the second back up by the carry).
        if o1 != o2 { return o2 || b._high >= 0 ? saturatedMax : saturatedMin }
        return Duration(_high: high, low: low)
    }

    /// `a - b`, clamped like `saturatingSum`: the time between two clock readings, however
    /// far apart.
    @inlinable
    static func saturatingDifference(_ a: Duration, _ b: Duration) -> Duration {
        let (low, borrow) = a._low.subtractingReportingOverflow(b._low)
        let (partial, o1) = a._high.subtractingReportingOverflow(b._high)
        let (high, o2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
        if o1 != o2 { return o2 || b._high >= 0 ? saturatedMin : saturatedMax }
        return Duration(_high: high, low: low)
    }
}

extension Signal {
    /// Takes this signal's output (like any operator) and ends with `end` as soon as it is
    /// activated; nothing from upstream passes. The result of a count or duration outside an
    /// operator's range.
    func endingOnActivation<U: Sendable>(_ end: SignalEnd) -> Signal<U> {
        stage(initialState: (), eventType: Never.self) {
            (_: inout Void, e: StageEvent<T, Never>, _: StageChannel<Never>, next: SignalNext<U>) in
            if case .activated = e { next.send(end: end) }
        }
    }

    /// `endingOnActivation` with a `SignalArgumentError`.
    func argumentError<U: Sendable>(_ function: String, _ argument: String, _ value: some CustomStringConvertible,
                                    allowed: String) -> Signal<U> {
        endingOnActivation(.other(SignalArgumentError(function: function, argument: argument,
                                                      value: value.description, allowed: allowed)))
    }
}

extension Signal {
    /// `endingOnActivation(.complete)`, callable from inlinable code.
    @usableFromInline
    func completingOnActivation<U: Sendable>() -> Signal<U> {
        endingOnActivation(.complete)
    }
}

extension Signal {
    /// Takes this signal's output for as long as the result lives, without ever connecting
    /// it, and completes as soon as the result is activated, in the activation (`take(0)`,
    /// RxJS's `EMPTY`: this signal is never subscribed). A signal whose output is already
    /// taken gives `SignalBindError.duplicate`, as any operator's result does.
    @usableFromInline
    func completingOnActivationUnconnected<U: Sendable>() -> Signal<U> {
        let node = SignalNode<U>(variant: delivery, newGenerationOnDeactivate: true)
        node.addFeeder(FeederRecord(GenerateFeeder(node: node, context: .direct) { input in input?.complete() }))
        let hold = OutputHold()
        guard takeOutput(by: hold) else { return .duplicate(delivery: delivery, root: node) }
        return Signal<U>(rootedAt: node, upstreamHold: hold)
    }
}

extension Signal {
    /// `elementAt`'s end for a negative index, callable from inlinable code.
    @usableFromInline
    func elementAtArgumentError(_ index: Int) -> Signal<T> {
        argumentError("elementAt(_:context:)", "index", index, allowed: "0 or more")
    }
}
