import Signals

extension WorkloadDeclaration {
    /// send → N maps → sink: the cost per hop. The instruction case is 10 fused `.direct`
    /// maps (the script derives the cost of one extra stage as (chain − send-map) / 9).
    public static let chain = WorkloadDeclaration(
        name: "chain",
        bench: Bench(summary: "input → N map stages → subscriber (cost per hop)",
                     shape: .sequential(Pipeline(stages: .configured, build: mapStages)),
                     timesSends: true, severalThreads: false),
        instructions: InstructionCount(
            name: "chain", description: "send → 10 maps → sink, per value", iterations: (100_000, 200_000)
        ) { iterations, variant in
            runMapStages(10, iterations: iterations, delivery: variant)
        },
        benchmarks: [
            PackageBenchmark(name: "chain", scale: .perValue) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, signal) = Signal<Int>.create(delivery: variant)
                var s = signal
                for k in 0..<10 { s = s.map { $0 &+ k } }
                let out = s.subscribeValues { sink.sum &+= $0 }
                region.start()
                for i in 0..<iterations { input.send(value: i) }
                region.stop()
                out.cancel()
                return sink.sum
            },
        ])
}
