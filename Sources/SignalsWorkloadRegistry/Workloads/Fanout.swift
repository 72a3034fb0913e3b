import Signals

extension WorkloadDeclaration {
    /// One send delivered to every subscriber of a multicast.
    public static let fanout = WorkloadDeclaration(
        name: "fanout",
        bench: Bench(summary: "one send delivered to N subscribers of a multicast signal", unit: "delivery",
                     shape: .fanout, timesSends: true, severalThreads: false),
        // One send to a multicast with 100 subscribers, per send (the script divides by 100).
        instructions: InstructionCount(
            name: "fanout", description: "fan-out to 100 subscribers, per delivery", iterations: (10_000, 20_000),
            deliveriesPerIteration: 100
        ) { iterations, variant in
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            var outputs: [SignalOutput<Int>] = []
            defer {
                outputs.forEach { $0.cancel() }
                input.cancel()
            }
            let multi = signal.multicast()
            for _ in 0..<100 { outputs.append(multi.subscribeValues { sink.sum &+= $0 }) }
            for i in 0..<iterations { input.send(value: i) }
            return sink.sum
        },
        benchmarks: [
            // Per iteration: 10,000 sends to 100 subscribers, i.e. 1,000,000 deliveries (the
            // scaling factor counts deliveries).
            PackageBenchmark(name: "fanout", scale: .perValue) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, multi) = Signal<Int>.create(delivery: variant) { $0.multicast() }
                let outs = (0..<100).map { _ in multi.subscribeValues { sink.sum &+= $0 } }
                let sends = iterations / 100
                region.start()
                for i in 0..<sends { input.send(value: i) }
                region.stop()
                outs.forEach { $0.cancel() }
                return sink.sum
            },
        ])
}
