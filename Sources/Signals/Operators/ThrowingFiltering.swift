// Throwing forms of the filtering operators with a predicate (`first(where:)`,
// `last(where:)`, `single(where:)`, `skipWhile`, `takeWhile`). The convention and the rule
// are at the top of ThrowingTransforms.swift: same names, a `throws` closure; a thrown error
// ends the result with `.other(error)` at once and the stage stops there.
//
// The throwing `first`, `last` and `single` have no default predicate: `first()` without a
// closure stays the non-throwing form.

extension Signal {
    /// `first(context:where:)` with a throwing `predicate`: emits the first value for which it
    /// returns true, then completes; a thrown error ends the result with `.other(error)` at
    /// once, with no value (`tryFirst(where:)` in Combine).
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func first(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) in
            guard try predicate(v) else { return false }
            next.send(value: v)
            next.complete()
            return true
        }
    }

    /// `last(context:where:)` with a throwing `predicate`: emits the last value for which it
    /// returned true when the signal completes; a thrown error ends the result with
    /// `.other(error)` at once, and the candidate is dropped (`tryLast(where:)` in Combine).
    /// Errors from upstream pass through without a value.
    ///
    /// State: the latest matching value, per activation.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func last(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (kept: inout T?, v: T, _: SignalNext<T>) in
                if try predicate(v) { kept = v }
                return false
            },
            end: { (kept: inout T?, e: SignalEnd, next: SignalNext<T>) in
                if case .complete = e, let k = kept { next.send(value: k) }
                next.send(end: e)
            })
    }

    /// `single(context:where:)` with a throwing `predicate`: emits the only value for which it
    /// returns true when the signal completes, fails with
    /// `SignalOperatorError.moreThanOneElement` at a second one and with `.noElements` if
    /// there was none; a thrown error ends the result with `.other(error)` at once, with no
    /// value.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of at most one value.
    @inlinable
    public func single(context: Exec = .direct, where predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(
            initialState: T?.none, context: context,
            value: { (found: inout T?, v: T, next: SignalNext<T>) in
                guard try predicate(v) else { return false }
                if found != nil {
                    next.send(end: .other(SignalOperatorError.moreThanOneElement))
                    return true
                }
                found = v
                return false
            },
            end: { (found: inout T?, e: SignalEnd, next: SignalNext<T>) in
                switch e {
                case .complete:
                    if let f = found {
                        next.send(value: f)
                        next.complete()
                    } else {
                        next.send(end: .other(SignalOperatorError.noElements))
                    }
                default:
                    next.send(end: e)
                }
            })
    }

    /// `skipWhile(context:_:)` with a throwing `predicate`: drops values while it returns
    /// true, then passes everything without calling it again (`tryDrop(while:)` in Combine);
    /// a thrown error ends the result with `.other(error)` at once.
    ///
    /// State: whether the gate has opened, per activation.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against until it first returns false;
    ///     throws to end the result.
    /// - Returns: the signal of the remaining values.
    @inlinable
    public func skipWhile(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(initialState: false, context: context) { (open: inout Bool, v: T, next: SignalNext<T>) in
            if !open, try predicate(v) { return false }
            open = true
            next.send(value: v)
            return false
        }
    }

    /// `takeWhile(context:_:)` with a throwing `predicate`: passes values while it returns
    /// true and completes at the first for which it returns false (`tryPrefix(while:)` in
    /// Combine); a thrown error ends the result with `.other(error)` at once, without that
    /// value.
    ///
    /// - Parameters:
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeWhile(context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) in
            guard try predicate(v) else {
                next.complete()
                return true
            }
            next.send(value: v)
            return false
        }
    }

    /// `takeWhile(inclusive:context:_:)` with a throwing `predicate`: passes values while it
    /// returns true; at the first for which it returns false, sends that value too when
    /// `inclusive` is true, then completes. A thrown error ends the result with
    /// `.other(error)` at once, without that value, and `predicate` is not called again in this
    /// activation.
    ///
    /// - Parameters:
    ///   - inclusive: whether the value that fails `predicate` is sent before the completion.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: the test each value is checked against; throws to end the result.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeWhile(inclusive: Bool, context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        throwingStage(initialState: (), context: context) { (_: inout Void, v: T, next: SignalNext<T>) in
            guard try predicate(v) else {
                if inclusive { next.send(value: v) }
                next.complete()
                return true
            }
            next.send(value: v)
            return false
        }
    }

    /// `takeUntil(inclusive:context:_:)` with a throwing `predicate`: passes values until one
    /// makes it true, sends that one too when `inclusive` is true, then completes. A thrown
    /// error ends the result with `.other(error)` at once, without that value, and `predicate`
    /// is not called again in this activation.
    ///
    /// - Parameters:
    ///   - inclusive: whether the value that makes `predicate` true is sent before the
    ///     completion.
    ///   - context: where the stage runs (`.direct`, the default, runs it inside the
    ///     delivery that reaches it).
    ///   - predicate: true for the value that ends the result; throws to end the result.
    /// - Returns: the signal of the values taken.
    @inlinable
    public func takeUntil(inclusive: Bool, context: Exec = .direct, _ predicate: @escaping @Sendable (T) throws -> Bool) -> Signal<T> {
        takeWhile(inclusive: inclusive, context: context) { (v: T) throws -> Bool in try !predicate(v) }
    }
}
