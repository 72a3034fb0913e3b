/// The main actor as a place to deliver to: the `on:` argument of the main-actor subscribe
/// overloads (`subscribeValues(on: .main)`, `subscribe(on: .main)`) and `bind(to:_:)`.
///
/// It is a type of its own, not a case of `Exec`, so that the compiler can give those
/// overloads a `@MainActor` handler: code in a `@MainActor` class can write
/// `signal.subscribeValues(on: .main) { self.title = $0 }` in Swift 6 language mode, with no
/// `MainActor.assumeIsolated`.
public enum MainActorContext: Sendable {
    /// The main actor. Values are delivered on the main dispatch queue (`Exec.main`), which is
    /// the main actor's executor. Nothing runs there until the program lets the queue drain:
    /// an app's run loop, an `async` main, or `dispatchMain()` (on Linux the queue is then
    /// drained by a Dispatch thread, not the process's first thread).
    case main
}

extension Signal {
    /// Subscribes a `@MainActor` handler for results (values and the end).
    ///
    /// The handler runs on the main actor, one result at a time, in order; it may touch
    /// main-actor state directly. Keep the returned output: releasing it cancels the
    /// subscription.
    ///
    /// - Parameters:
    ///   - context: where the handler runs; only `.main` exists.
    ///   - handler: receives each value, then the end.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    public func subscribe(
        on context: MainActorContext,
        _ handler: @escaping @MainActor @Sendable (Result<T, SignalEnd>) -> Void
    ) -> SignalOutput<T> {
        subscribe(context: .main) { result in
            // `.main` runs its deliveries on the main queue, the main actor's executor, so
            // this check holds; it traps only if that contract were broken.
            MainActor.assumeIsolated { handler(result) }
        }
    }

    /// Subscribes a `@MainActor` handler for values only; the end is ignored.
    ///
    /// ```swift
    /// @MainActor final class LoginModel {
    ///     var status = ""
    ///     var outputs: [any Lifetime] = []
    ///     func watch(_ statuses: Signal<String>) {
    ///         outputs.append(statuses.subscribeValues(on: .main) { self.status = $0 })
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where the handler runs; only `.main` exists.
    ///   - handler: receives each value on the main actor.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    public func subscribeValues(
        on context: MainActorContext,
        _ handler: @escaping @MainActor @Sendable (T) -> Void
    ) -> SignalOutput<T> {
        subscribeValues(context: .main) { value in
            MainActor.assumeIsolated { handler(value) }
        }
    }

    /// Assigns every value to `keyPath` of a main-actor object, on the main actor.
    ///
    /// The object is held weakly, so keeping the returned output in the object itself makes
    /// no reference cycle; once the object is gone, values are dropped.
    ///
    /// ```swift
    /// model.outputs.append(names.bind(to: model, \.title))
    /// ```
    ///
    /// - Parameters:
    ///   - object: the main-actor object to update.
    ///   - keyPath: the property that receives each value.
    /// - Returns: the output that keeps the binding alive.
    @MainActor
    @discardableResult
    public func bind<Root: AnyObject & Sendable>(
        to object: Root, _ keyPath: ReferenceWritableKeyPath<Root, T>
    ) -> SignalOutput<T> {
        let path = MainActorKeyPath(keyPath)
        return subscribeValues(on: .main) { [weak object] value in
            object?[keyPath: path.keyPath] = value
        }
    }
}

/// A key path formed on the main actor and applied only on the main actor (by `bind(to:_:)`).
/// Key paths are immutable values; Swift 6 does not mark one to a main-actor property
/// `Sendable`, so this box carries it into the `@Sendable` handler.
struct MainActorKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: ReferenceWritableKeyPath<Root, Value>
    init(_ keyPath: ReferenceWritableKeyPath<Root, Value>) { self.keyPath = keyPath }
}

extension SignalCapture {
    /// Subscribes a `@MainActor` handler to the held values and everything after them.
    ///
    /// - Parameters:
    ///   - resend: whether to send the activation values (`values`, `end`) again first.
    ///   - context: where the handler runs; only `.main` exists.
    ///   - handler: receives each value on the main actor.
    /// - Returns: the output that keeps the subscription alive.
    @discardableResult
    public func subscribeValues(
        resend: Bool = false, on context: MainActorContext,
        _ handler: @escaping @MainActor @Sendable (T) -> Void
    ) -> SignalOutput<T> {
        signal(resend: resend).subscribeValues(on: context, handler)
    }
}
