import Signals

extension WorkloadDeclaration {
    /// Subscribing and cancelling a branch of a multicast that has standing subscribers.
    public static let churn = WorkloadDeclaration(
        name: "churn",
        bench: Bench(summary: "subscribe + cancel pairs on a multicast signal with 10 standing subscribers while values flow",
                     unit: "subscribe+cancel", shape: .churn, timesSends: false, severalThreads: true),
        // subscribe + cancel on a multicast with 10 standing subscribers (no values flowing:
        // callgrind runs one thread at a time), per pair.
        instructions: InstructionCount(
            name: "churn", description: "subscribe + cancel, multicast with 10 standing subscribers",
            iterations: (10_000, 20_000)
        ) { iterations, variant in
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            var outputs: [SignalOutput<Int>] = []
            defer {
                outputs.forEach { $0.cancel() }
                input.cancel()
            }
            let multi = signal.multicast()
            for _ in 0..<10 { outputs.append(multi.subscribeValues { sink.sum &+= $0 }) }
            for _ in 0..<iterations { multi.subscribeValues { sink.sum &+= $0 }.cancel() }
            sink.sum &+= iterations
            return sink.sum
        },
        benchmarks: [
            // Subscribe a new branch to a multicast that already has 100 subscribers, then cancel it.
            PackageBenchmark(name: "churn", scale: .perStructuralOp) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
                let outs = (0..<100).map { _ in multi.subscribeValues { sink.sum &+= $0 } }
                region.start()
                for _ in 0..<iterations {
                    let o = multi.subscribeValues { sink.sum &+= $0 }
                    o.cancel()
                }
                region.stop()
                input.send(value: 1)
                outs.forEach { $0.cancel() }
                return sink.sum
            },
        ])
}
