import Signals

extension WorkloadDeclaration {
    /// send → compactMap → sink: counted only (the fused compactMap stage's cost).
    public static let sendCompactMap = WorkloadDeclaration(
        name: "send-compactmap",
        instructions: InstructionCount(
            name: "send-compactmap", description: "send → compactMap (every other value is nil) → sink, per value sent",
            iterations: (100_000, 200_000)
        ) { iterations, variant in
            // The handler writes a field of its own: see `runMapStages`.
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let out = signal.compactMap { $0 & 1 == 0 ? $0 &+ 1 : nil }.subscribeValues { sink.compacted &+= $0 }
            for i in 0..<iterations { input.send(value: i) }
            out.cancel()
            input.cancel()
            return sink.compacted
        })
}
