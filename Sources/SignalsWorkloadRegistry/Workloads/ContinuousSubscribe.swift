import Signals

extension WorkloadDeclaration {
    /// Activation of a continuous signal: a new subscriber gets the latest value at once; then
    /// it is cancelled.
    public static let continuousSubscribe = WorkloadDeclaration(
        name: "continuous-subscribe",
        benchmarks: [
            PackageBenchmark(name: "continuous-subscribe", scale: .perStructuralOp) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
                let keep = multi.subscribeValues { _ in }
                input.send(value: 42)
                region.start()
                for _ in 0..<iterations {
                    let o = multi.subscribeValues { sink.sum &+= $0 }
                    o.cancel()
                }
                region.stop()
                precondition(sink.sum == 42 * iterations)
                keep.cancel()
                return sink.sum
            },
        ])
}
