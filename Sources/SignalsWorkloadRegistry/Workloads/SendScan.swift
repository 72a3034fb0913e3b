import Signals

extension WorkloadDeclaration {
    /// send → scan → sink: counted only (a stateful stage, built on `transform`).
    public static let sendScan = WorkloadDeclaration(
        name: "send-scan",
        instructions: InstructionCount(
            name: "send-scan", description: "send → scan (a running sum) → sink, per value",
            iterations: (100_000, 200_000)
        ) { iterations, variant in
            // The handler writes a field of its own: see `runMapStages`.
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let out = signal.scan(initialValue: 0) { $0 &+ $1 }.subscribeValues { sink.scanned &+= $0 }
            for i in 0..<iterations { input.send(value: i) }
            out.cancel()
            input.cancel()
            return sink.scanned
        })
}
