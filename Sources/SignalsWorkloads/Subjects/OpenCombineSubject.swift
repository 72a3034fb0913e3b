@preconcurrency import OpenCombine
import SignalsReports

/// OpenCombine 0.14.0's `PassthroughSubject<Int, Never>` with `map` and `sink`.
///
/// `send` takes the subject's lock, copies its subscriber list, and offers the value to each
/// subscription under that subscription's recursive lock: so concurrent senders are serialized,
/// and a handler that sends into its own subject recurses on the stack (hence the isolated
/// re-entrant case).
package struct OpenCombineSubject: BenchSubject {
    package init() {}
    package var id: SubjectID { .opencombine }

    struct Sender: ValueSender {
        let subject: PassthroughSubject<Int, Never>
        @inline(__always) func send(_ value: Int) { subject.send(value) }
    }

    package func support(for spec: CaseSpec) -> Support {
        switch spec.workload {
        case .send, .sendMap, .chain, .fanout, .contended, .churn:
            return .inProcess
        case .reentrant:
            return .isolated("a handler sending into its own subject recurses: expected stack overflow at this depth")
        case .mutation:
            return .unsupported("no junction or merged input to rebind: a subscribed Combine pipeline is fixed")
        case .hop:
            switch spec.hop ?? .direct {
            case .direct: return .inProcess
            case .serialQueue, .globalQueue:
                return .unsupported("receive(on:) needs a Dispatch scheduler; OpenCombineDispatch is not a harness dependency")
            case .task: return .unsupported("not an async API: no consuming task")
            }
        default:
            return .unsupported(Support.notWritten)
        }
    }

    package func run(_ ctx: RunContext) throws {
        let spec = ctx.spec
        let subject = PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        defer { cancellables.forEach { $0.cancel() } }

        switch spec.workload {
        case .send, .hop:
            let c = ctx.makeChecker(senders: 1)
            cancellables.append(subject.sink { c.receive($0) })
            ctx.driveSequential(Sender(subject: subject), checker: c)

        case .sendMap, .chain:
            // Each stage adds 1; the handler takes the stage count back off before checking.
            let stages = max(1, spec.stages)
            let c = ctx.makeChecker(senders: 1)
            if stages == 1 {
                cancellables.append(subject.map { $0 &+ 1 }.sink { c.receive($0 &- 1) })
            } else {
                // A chain of run-time length needs type erasure in Combine: one AnyPublisher per stage.
                var p = subject.map { $0 &+ 1 }.eraseToAnyPublisher()
                for _ in 1..<stages { p = p.map { $0 &+ 1 }.eraseToAnyPublisher() }
                cancellables.append(p.sink { c.receive($0 &- stages) })
            }
            ctx.driveSequential(Sender(subject: subject), checker: c)

        case .fanout:
            let checkers = (0..<spec.subscribers).map { ctx.makeChecker(senders: 1, name: "subscriber \($0)", sampled: $0 == 0) }
            for c in checkers { cancellables.append(subject.sink { c.receive($0) }) }
            ctx.driveSequential(Sender(subject: subject), checker: checkers[checkers.count - 1])
            ctx.completedOperations = ctx.operations * spec.subscribers

        case .contended:
            let c = ctx.makeChecker(senders: spec.threads)
            cancellables.append(subject.sink { c.receive($0) })
            ctx.driveContended(checker: c) { _ in Sender(subject: subject) }

        case .reentrant:
            let c = ctx.makeChecker(senders: spec.threads + 1)
            let h = ReentrantHandler(checker: c, depth: spec.depth)
            let sender = Sender(subject: subject)
            cancellables.append(subject.sink { h.handle($0, resend: sender) })
            ctx.driveReentrant(h) { _ in sender }

        case .churn:
            let standing = (0..<spec.subscribers).map { ctx.makeChecker(senders: 1, name: "standing subscriber \($0)") }
            for c in standing { cancellables.append(subject.sink { c.receive($0) }) }
            ctx.driveChurn(Sender(subject: subject), standing: standing) {
                let s = subject.sink { _ in }
                s.cancel()
            }

        default:
            throw SubjectError("unsupported")
        }
    }
}
