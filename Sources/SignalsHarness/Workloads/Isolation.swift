import Foundation

/// Runs risky cases in a child process: the bench binary itself, re-executed with the hidden
/// `_case` subcommand, which prints the case's `CaseResult` as JSON. A crash (stack overflow,
/// trap) or a hang then ends the child, not the harness, and is reported with its signal.
public enum ChildProcess {
    /// The running executable's path (what `/proc/self/exe` points to).
    public static func executablePath() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 { return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    /// The hidden subcommand's name.
    public static let subcommand = "_case"

    /// Arguments the child gets after the executable path.
    public static func arguments(spec: CaseSpec, subject: SubjectID, parameters: Parameters) -> [String] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let s = String(decoding: (try? e.encode(spec)) ?? Data(), as: UTF8.self)
        let p = String(decoding: (try? e.encode(parameters)) ?? Data(), as: UTF8.self)
        return [subcommand, "--subject", subject.rawValue, "--spec", s, "--parameters", p]
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGTERM: return "SIGTERM"
        case SIGFPE: return "SIGFPE"
        default: return "signal \(s)"
        }
    }

    /// Runs one case in a child, killing it after `parameters.watchdogSeconds`.
    public static func runCase(spec: CaseSpec, subject: SubjectID, parameters: Parameters) -> CaseResult {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("signals-bench-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try? fm.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = fm.createFile(atPath: outURL.path, contents: nil)
        _ = fm.createFile(atPath: errURL.path, contents: nil)

        func failure(_ status: CaseStatus, _ reason: String) -> CaseResult {
            var r = CaseResult(spec: spec, subject: subject, status: status, reason: reason)
            r.isolated = true
            return r
        }
        guard let out = FileHandle(forWritingAtPath: outURL.path), let err = FileHandle(forWritingAtPath: errURL.path) else {
            return failure(.crashed, "could not create the child's output files")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = arguments(spec: spec, subject: subject, parameters: parameters)
        var env = ProcessInfo.processInfo.environment
        // The Swift runtime's backtracer would spend seconds symbolicating a stack overflow.
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return failure(.crashed, "could not start the child process: \(error)")
        }
        let deadline = Date().addingTimeInterval(Double(parameters.watchdogSeconds))
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return failure(.timedOut, "killed by the watchdog after \(parameters.watchdogSeconds) s")
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stderrText = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        let lastLine = stderrText.split(separator: "\n").last.map(String.init) ?? ""
        if process.terminationReason == .uncaughtSignal {
            let sig = process.terminationStatus
            // A SIGSEGV in the re-entrant workload is the recursion running off the stack (the
            // harness's own code there is a loop); elsewhere, say only what the signal was.
            let what = (sig == SIGSEGV || sig == SIGBUS) && spec.workload == .reentrant
                ? "stack overflow (\(signalName(sig)), signal \(sig))" : "\(signalName(sig)) (signal \(sig))"
            return failure(.crashed, what + (lastLine.isEmpty ? "" : ": \(lastLine)"))
        }
        guard let data = fm.contents(atPath: outURL.path), !data.isEmpty,
              let result = try? JSONDecoder().decode(CaseResult.self, from: data) else {
            return failure(.crashed, "exit status \(process.terminationStatus)" + (lastLine.isEmpty ? "" : ": \(lastLine)"))
        }
        return result
    }

    /// Re-executes the current process with jemalloc preloaded (same arguments), so that its
    /// statistics can be read. Returns only on failure.
    public static func reexecWithJemalloc(library: String) -> String {
        var env = ProcessInfo.processInfo.environment
        let existing = env["LD_PRELOAD"].map { ":" + $0 } ?? ""
        env["LD_PRELOAD"] = library + existing
        env["SIGNALS_BENCH_REEXEC"] = "1"
        let path = executablePath()
        let args = [path] + CommandLine.arguments.dropFirst()
        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(path, &cArgs, &cEnv)
        return "execve failed: \(String(cString: strerror(errno)))"
    }
}
