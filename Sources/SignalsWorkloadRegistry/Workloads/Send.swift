import Signals

extension WorkloadDeclaration {
    /// send → sink: one node, one handler.
    public static let send = WorkloadDeclaration(
        name: "send",
        bench: Bench(summary: "one thread, input → subscriber",
                     shape: .sequential(Pipeline(stages: .fixed(0)) { signal, _ in signal }),
                     timesSends: true, severalThreads: false),
        benchmarks: [
            PackageBenchmark(name: "send", scale: .perValue) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, signal) = Signal<Int>.create(delivery: variant)
                let out = signal.subscribeValues { sink.sum &+= $0 }
                region.start()
                for i in 0..<iterations { input.send(value: i) }
                region.stop()
                out.cancel()
                return sink.sum
            },
        ])
}
