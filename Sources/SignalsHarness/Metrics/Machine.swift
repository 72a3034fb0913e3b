import Foundation

extension MachineInfo {
    /// Reads the machine's description: cores, CPU model, toolchain, build configuration.
    public static func current(allocator: String, allocationCounting: String? = nil) -> MachineInfo {
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #if DEBUG
        let config = "debug"
        #else
        let config = "release"
        #endif
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return MachineInfo(cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: cpu,
                           toolchain: compilerDescription, buildConfiguration: config, allocator: allocator,
                           os: ProcessInfo.processInfo.operatingSystemVersionString,
                           date: formatter.string(from: Date()), timerOverheadNs: timerOverhead(),
                           harnessFloorNsPerValue: harnessFloor(), allocationCounting: allocationCounting)
    }

    /// ns per value of the harness alone: the generic send loop calling the checker directly,
    /// with no library in between (median of 5 runs of 1M values). What a subject's figure
    /// costs beyond this is the subject's.
    public static func harnessFloor() -> Double {
        struct Direct: ValueSender {
            let checker: DeliveryChecker
            @inline(__always) func send(_ value: Int) { checker.receive(value) }
        }
        var runs: [Double] = []
        for _ in 0..<5 {
            let ctx = RunContext(spec: CaseSpec(workload: .send), operations: 1_000_000)
            let c = ctx.makeChecker(senders: 1)
            ctx.driveSequential(Direct(checker: c), checker: c)
            blackHole(c.received)
            runs.append(Double(ctx.elapsedNs) / 1e6)
        }
        return runs.sorted()[2]
    }

    /// Median difference between two consecutive clock reads.
    static func timerOverhead() -> Double {
        var deltas = [UInt64](repeating: 0, count: 10_001)
        for i in deltas.indices {
            let a = monotonicNanos()
            let b = monotonicNanos()
            deltas[i] = b &- a
        }
        deltas.sort()
        return Double(deltas[deltas.count / 2])
    }

    /// The compiler that built the harness, known at compile time (no subprocess needed).
    static var compilerDescription: String {
        #if compiler(>=6.4)
        return "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        return "Swift 6.3"
        #elseif compiler(>=6.2)
        return "Swift 6.2"
        #elseif compiler(>=6.1)
        return "Swift 6.1"
        #else
        return "Swift 6.0"
        #endif
    }
}
