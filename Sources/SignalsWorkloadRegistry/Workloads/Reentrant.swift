import Signals

extension WorkloadDeclaration {
    /// A handler that sends again from inside itself.
    public static let reentrant = WorkloadDeclaration(
        name: "reentrant",
        bench: Bench(summary: "a handler re-sending into its own input until depth N, alone and with busy senders",
                     shape: .reentrant, timesSends: false, severalThreads: true),
        // A handler that sends the next value into its own input until `iterations` values
        // have been delivered: the re-entrant send, per value.
        instructions: InstructionCount(
            name: "reentrant", description: "re-entrant send, per value", iterations: (100_000, 200_000)
        ) { iterations, variant in
            let sink = WorkloadSink()
            let (input, signal) = Signal<Int>.create(delivery: variant)
            var outputs: [SignalOutput<Int>] = []
            defer {
                outputs.forEach { $0.cancel() }
                input.cancel()
            }
            outputs.append(signal.subscribeValues { v in
                sink.sum &+= 1
                if v < iterations { input.send(value: v &+ 1) }
            })
            input.send(value: 1)
            return sink.sum
        },
        benchmarks: [
            // Chains of 1,000 re-entrant sends (queued and delivered after the handler
            // returns), 1,000 chains per iteration.
            PackageBenchmark(name: "reentrant", scale: .perStructuralOp) { iterations, variant, region in
                let sink = WorkloadSink()
                let (input, signal) = Signal<Int>.create(delivery: variant)
                let out = signal.subscribeValues { value in
                    sink.count &+= 1
                    if value < 999 { input.send(value: value + 1) }
                }
                region.start()
                for _ in 0..<iterations { input.send(value: 0) }
                region.stop()
                precondition(sink.count == iterations * 1000)
                out.cancel()
                return sink.count
            },
        ])
}
