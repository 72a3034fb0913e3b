/// Something that keeps a resource alive until it is cancelled or released.
///
/// `SignalOutput`, `SignalInput`, junction bindings and scheduled timers are lifetimes. Keep
/// them in an array (`var lifetimes: [any Lifetime]`) and let them go to end them together.
public protocol Lifetime: AnyObject, Sendable {
    /// Ends the lifetime now. Calling it again does nothing.
    func cancel()
}

/// Appends a lifetime to an array of lifetimes: `lifetimes += signal.subscribeValues { … }`.
///
/// - Parameters:
///   - lifetimes: the array that keeps the lifetimes.
///   - lifetime: the lifetime to keep.
@inlinable
public func += <L: Lifetime>(lifetimes: inout [any Lifetime], lifetime: L) {
    lifetimes.append(lifetime)
}
