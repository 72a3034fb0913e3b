import Signals

extension WorkloadDeclaration {
    /// send → map → sink: the map is fused into the node's handler.
    public static let sendMap = WorkloadDeclaration(
        name: "send-map",
        bench: Bench(summary: "one thread, input → map → subscriber",
                     shape: .sequential(Pipeline(stages: .fixed(1), build: mapStages)),
                     timesSends: true, severalThreads: false),
        instructions: InstructionCount(
            name: "send-map", description: "send → map → sink, per value", iterations: (100_000, 200_000)
        ) { iterations, variant in
            runMapStages(1, iterations: iterations, delivery: variant)
        },
        benchmarks: [
            PackageBenchmark(name: "send-map", scale: .perValue) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, signal) = Signal<Int>.create(delivery: variant)
                let out = signal.map { $0 &* 3 }.subscribeValues { sink.sum &+= $0 }
                region.start()
                for i in 0..<iterations { input.send(value: i) }
                region.stop()
                out.cancel()
                return sink.sum
            },
        ])
}

/// `stages` maps that each add 1 (so a value arrives as the value sent plus `stages`).
@Sendable func mapStages(_ signal: Signal<Int>, _ stages: Int) -> Signal<Int> {
    var s = signal
    for _ in 0..<stages { s = s.map { $0 &+ 1 } }
    return s
}

/// The instruction case of a map chain: send → `stages` fused `.direct` maps → sink, per value.
///
/// Its closures have no twin in this module (the maps are `mapStages`'s, the handler writes a
/// field no other handler writes): LLVM merges identical functions of a module, and a merged
/// closure is reached through a thunk that costs 4 instructions per call, which the counts
/// would measure.
func runMapStages(_ stages: Int, iterations: Int, delivery variant: DeliveryVariant) -> Int {
    let sink = WorkloadSink()
    let (input, signal) = Signal<Int>.create(delivery: variant)
    var outputs: [SignalOutput<Int>] = []
    defer {
        outputs.forEach { $0.cancel() }
        input.cancel()
    }
    outputs.append(mapStages(signal, stages).subscribeValues { sink.mapped &+= $0 })
    for i in 0..<iterations { input.send(value: i) }
    return sink.mapped
}
