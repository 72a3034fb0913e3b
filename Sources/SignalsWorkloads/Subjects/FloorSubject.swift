import DeliveryFloor
import SignalsReports

/// The machine's floor: the C model of the single-thread delivery path
/// (Sources/DeliveryFloor/include/DeliveryFloor.h says exactly what it models per value and
/// what it leaves out), measured in the same launches and shuffled rounds as the library, so a
/// report's ×floor column says how far each subject is from what the machine allows.
///
/// Its handlers are the harness's (`DeliveryChecker.receive`, `ReentrantHandler.handle`),
/// reached from C through a function pointer and a context, as the library reaches a Swift
/// closure: the checks are the same as every subject's, and the cost of the handler is on
/// both sides of the ratio, which then measures the delivery path alone.
///
/// Only the workloads the model covers: one thread sending (send, send-map, chain), fan-out,
/// and a handler re-sending into its own input with no other sender. A second thread would
/// meet the model's spinning contended path, which is not the library's (it queues).
package struct FloorSubject: BenchSubject {
    package init() {}
    package var id: SubjectID { .floor }

    /// `floor_send` is inline in the header, so the harness's send loop inlines it, as it
    /// inlines the library's `@inlinable` send.
    struct Sender: ValueSender {
        let node: UnsafeMutablePointer<floor_node>
        @inline(__always) func send(_ value: Int) { _ = floor_send(node, value) }
    }

    /// Why the floor has no figure for a workload it does not model.
    static let singleThreadOnly = "not modelled: the floor is the single-thread delivery path (send, send-map, chain, fanout, reentrant alone)"

    package func support(for spec: CaseSpec) -> Support {
        switch spec.workload {
        case .send, .sendMap, .chain, .fanout: return .inProcess
        case .reentrant:
            return spec.threads == 0 ? .inProcess
                : .unsupported("not modelled: a busy sender needs the contended claim and the shared queue, which the floor leaves out")
        default: return .unsupported(Self.singleThreadOnly)
        }
    }

    package func run(_ ctx: RunContext) throws {
        let spec = ctx.spec
        switch spec.workload {
        case .send, .sendMap, .chain:
            let stages = max(0, spec.stages)
            let node = try makeNode(stages: stages, branches: 0)
            defer { floor_node_destroy(node) }
            let target = CheckedTarget(checker: ctx.makeChecker(senders: 1), offset: stages)
            try withExtendedLifetime(target) {
                floor_node_set_handler(node, checkedHandler, Unmanaged.passUnretained(target).toOpaque())
                ctx.driveSequential(Sender(node: node), checker: target.checker)
                try Self.checkUncontended(node)
            }

        case .fanout:
            let node = try makeNode(stages: 0, branches: spec.subscribers)
            defer { floor_node_destroy(node) }
            let targets = (0..<spec.subscribers).map {
                CheckedTarget(checker: ctx.makeChecker(senders: 1, name: "subscriber \($0)", sampled: $0 == 0), offset: 0)
            }
            try withExtendedLifetime(targets) {
                for (i, t) in targets.enumerated() {
                    floor_node_set_branch(node, Int32(i), checkedHandler, Unmanaged.passUnretained(t).toOpaque())
                }
                ctx.driveSequential(Sender(node: node), checker: targets[targets.count - 1].checker)
                ctx.completedOperations = ctx.operations * spec.subscribers
                try Self.checkUncontended(node)
            }

        case .reentrant where spec.threads == 0:
            let node = try makeNode(stages: 0, branches: 0)
            defer { floor_node_destroy(node) }
            let target = ReentrantTarget(handler: ReentrantHandler(checker: ctx.makeChecker(senders: 1), depth: spec.depth),
                                         sender: Sender(node: node))
            try withExtendedLifetime(target) {
                floor_node_set_handler(node, reentrantHandler, Unmanaged.passUnretained(target).toOpaque())
                ctx.driveReentrant(target.handler) { _ in Sender(node: node) }
                try Self.checkUncontended(node)
            }

        default:
            throw SubjectError(Self.singleThreadOnly)
        }
    }

    func makeNode(stages: Int, branches: Int) throws -> UnsafeMutablePointer<floor_node> {
        guard let node = floor_node_create(Int32(stages), floor_add_one, Int32(branches)) else {
            throw SubjectError("floor: could not create a node of \(stages) stages and \(branches) subscribers")
        }
        return node
    }

    /// A send that met another thread's claim took the model's spinning path, which is not the
    /// library's: a figure that includes it is not the floor.
    static func checkUncontended(_ node: UnsafeMutablePointer<floor_node>) throws {
        if node.pointee.contendedSends != 0 {
            throw SubjectError("floor: \(node.pointee.contendedSends) sends met another thread's claim (the model is single-thread)")
        }
    }
}

/// A checked handler's context: its checker, and what the map stages added (taken back off,
/// as the library's subjects do).
final class CheckedTarget: @unchecked Sendable {
    let checker: DeliveryChecker
    let offset: Int
    init(checker: DeliveryChecker, offset: Int) {
        self.checker = checker
        self.offset = offset
    }
}

/// The re-entrant handler's context: the harness's handler and the sender it re-sends through.
final class ReentrantTarget: @unchecked Sendable {
    let handler: ReentrantHandler
    let sender: FloorSubject.Sender
    init(handler: ReentrantHandler, sender: FloorSubject.Sender) {
        self.handler = handler
        self.sender = sender
    }
}

/// Called from C with a `CheckedTarget` (unretained: the subject keeps it alive while the
/// node can deliver).
private let checkedHandler: floor_handler_fn = { context, value in
    Unmanaged<CheckedTarget>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.checker.receive(value &- $0.offset)
    }
}

/// Called from C with a `ReentrantTarget`: the harness's re-entrant handler, re-sending into
/// the node it is called from.
private let reentrantHandler: floor_handler_fn = { context, value in
    Unmanaged<ReentrantTarget>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.handler.handle(value, resend: $0.sender)
    }
}
