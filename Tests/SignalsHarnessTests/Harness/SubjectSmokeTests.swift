import SignalsReports
import SignalsWorkloads
import Testing

// Every workload on the real subjects, tiny: the checks must pass on a correct library, and
// unsupported cases must say why.

@Suite("Subjects pass their own checks", .tags(.startsThreads), .serialized)
struct SubjectSmokeTests {
    /// `tinyParameters()`, but waiting up to 5 s (not 0.2 s) for values still in flight: a
    /// correct subject on `.global` can be held up that long by the Dispatch pool while the
    /// stress suites run in the same process (seen once in CI: `hop[global-queue]` on mutex
    /// gave up after 340 of 1,000). A subject that really loses values still fails, later.
    func parameters() -> Parameters {
        var p = tinyParameters()
        p.stallSeconds = 5
        return p
    }

    func cases() -> [CaseSpec] {
        var p = parameters()
        p.threads = [2]
        p.subscribers = 10
        p.stages = 3
        return p.cases()
    }

    func check(_ subject: any BenchSubject) async {
        let runner = Runner(parameters: parameters(), subjects: [subject])
        for spec in cases() {
            // Isolated peer cases crash or hang by design; the CLI runs them in a child process.
            if case .isolated = subject.support(for: spec), subject.id.isLibrary == false { continue }
            let r = await offPool { runner.run(subject, spec) }
            switch r.status {
            case .ok:
                #expect(r.throughput != nil, "\(spec.key) · \(subject.id)")
                #expect((r.throughput?.medianNsPerOp ?? 0) > 0, "\(spec.key) · \(subject.id)")
            case .unsupported:
                #expect(!(r.reason ?? "").isEmpty, "\(spec.key) · \(subject.id)")
            default:
                Issue.record("\(spec.key) · \(subject.id): \(r.status) \(r.reason ?? "")")
            }
        }
    }

    @Test func lockfree() async { await check(SubjectRegistry.subject(.lockfree)!) }
    @Test func mutex() async { await check(SubjectRegistry.subject(.mutex)!) }
    @Test func opencombine() async { await check(OpenCombineSubject()) }
    @Test func asyncstream() async { await check(AsyncStreamSubject()) }
    @Test func asyncchannel() async { await check(AsyncChannelSubject()) }
}
