import Foundation
import SignalsReports

extension MachineInfo {
    /// Reads the machine's description: cores, CPU model, toolchain, build configuration.
    package static func current(allocator: String, allocationCounting: String? = nil) -> MachineInfo {
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
                           allocationCounting: allocationCounting)
    }

    // No "harness floor" is measured: a loop with no subject, timed once in this process at
    // start-up, is not paired with the cases (other launches, other moments of a machine that
    // drifts 1.5–2×), so it could not be subtracted from or compared with any figure. What the
    // harness adds is the same for every subject of a case, and the paired ratios cancel it
    // only in part (it is added, not multiplied): docs/bench-guide.md says so where it explains
    // the figures.
    /// Median difference between two consecutive reads of the latency clock (`LatencyClock`),
    /// in the parent process; each case's latency carries its own launch's measurement.
    static func timerOverhead() -> Double { LatencyClock.measure(reads: 10_001).costNs }

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
