import Signals

extension WorkloadDeclaration {
    /// capture(): activate a continuous branch, take its activation value, release it.
    public static let capture = WorkloadDeclaration(
        name: "capture",
        benchmarks: [
            PackageBenchmark(name: "capture", scale: .perStructuralOp) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, multi) = Signal<Int>.create(delivery: variant) { $0.continuous() }
                let keep = multi.subscribeValues { _ in }
                input.send(value: 7)
                region.start()
                for _ in 0..<iterations {
                    let c = multi.capture()
                    sink.sum &+= c.values.first ?? 0
                    c.cancel()
                }
                region.stop()
                precondition(sink.sum == 7 * iterations)
                keep.cancel()
                return sink.sum
            },
        ])
}
