/// The library's one unchecked downcast, so that every place that asserts a type without a
/// check is found by looking for this name: a node's queue (its type follows the node's
/// variant, `SignalNode.withQueue`) and a sink's terminal (set only by `ValueTerminal`).
/// Always inlined: the hot paths compile as if `unsafeDowncast` were written there.
@inlinable @inline(__always)
func uncheckedCast<U: AnyObject>(_ object: AnyObject, to type: U.Type) -> U {
    unsafeDowncast(object, to: type)
}
