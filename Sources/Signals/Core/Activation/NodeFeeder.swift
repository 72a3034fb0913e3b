import Synchronization

/// Something that feeds values into a node while the node is active: an upstream pipeline, a
/// `generate` closure, a merged input's source.
@usableFromInline
protocol NodeFeeder: AnyObject, Sendable {
    /// The node this feeder's values come from, for loop detection (nil for sources with no
    /// upstream, such as `generate`).
    var upstreamRoot: NodeBase? { get }
    /// Starts feeding. Called outside every lock; never concurrently with `deactivate`.
    func activate()
    /// Stops feeding. Called outside every lock; never concurrently with `activate`.
    func deactivate()
    /// Called, from any thread, when the node stops wanting this feeder while its `activate()`
    /// is still running (a source behind it sending without end inside the activation, whose
    /// downstream has meanwhile ended): detaches what the activation has attached so far, so
    /// the source's sends are refused and `activate()` returns. `deactivate()` still follows.
    func abandonActivation()
    /// Called by the node's runner before it stops this feeder and others in one pass: makes
    /// the sources behind it refuse sends from now on, running nothing else (see
    /// `ChainAttachment.refuseSendsBeforeDetach()`).
    func refuseSendsBeforeDeactivating()
}

extension NodeFeeder {
    /// Feeders whose activation never runs a source have nothing to abandon.
    @usableFromInline func abandonActivation() {}
    /// Feeders with no source of their own to close.
    @usableFromInline func refuseSendsBeforeDeactivating() {}
}

/// One feeder of a node and whether it is running. `isActive` is touched only by the thread
/// running the node's activation loop (one at a time, see `NodeBase.updateActivation`).
@usableFromInline
final class FeederRecord: @unchecked Sendable {
    @usableFromInline let feeder: any NodeFeeder
    /// Written only by the runner, after the feeder has started or stopped (release), and
    /// read by the next runner (acquire): runners take turns through `activation`'s mutex,
    /// which ThreadSanitizer cannot see on Linux, so this atomic also makes the hand-over of
    /// the feeder's own state visible to it (docs/design/delivery-path.md, "What
    /// ThreadSanitizer cannot see"). Costs nothing on the value path.
    let active = Atomic<Bool>(false)
    var isActive: Bool { active.load(ordering: .acquiring) }
    /// The hold on the source's single output, for a feeder that took it for as long as it is
    /// a feeder (a merged input's source): dropped when the record goes, after the feeder has
    /// stopped (removed, ended, or the node freed), so the source can be added or subscribed
    /// again. Set before the record is shared.
    @usableFromInline var outputHold: OutputHold?
    @usableFromInline init(_ feeder: any NodeFeeder) { self.feeder = feeder }
    deinit {
        // Handed on rather than dropped in place: see `PendingReleases`.
        if let hold = outputHold { PendingReleases.drop(hold) }
    }
}
