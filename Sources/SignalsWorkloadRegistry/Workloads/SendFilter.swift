import Signals

extension WorkloadDeclaration {
    /// send → filter → sink: counted only (the fused filter stage's cost beside the map's).
    public static let sendFilter = WorkloadDeclaration(
        name: "send-filter",
        instructions: InstructionCount(
            name: "send-filter", description: "send → filter (every other value passes) → sink, per value sent",
            iterations: (100_000, 200_000)
        ) { iterations, variant in
            // The handler writes a field of its own: see `runMapStages`.
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            let out = signal.filter { $0 & 1 == 0 }.subscribeValues { sink.filtered &+= $0 }
            for i in 0..<iterations { input.send(value: i) }
            out.cancel()
            input.cancel()
            return sink.filtered
        })
}
