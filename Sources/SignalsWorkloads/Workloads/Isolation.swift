import Foundation
import SignalsReports

/// Runs risky cases in a child process: the bench binary itself, re-executed with the hidden
/// `_case` subcommand, which prints the case's `CaseResult` as JSON. A crash (stack overflow,
/// trap) or a hang then ends the child, not the harness, and is reported with its signal.
package enum ChildProcess {
    /// The running executable's path (what `/proc/self/exe` points to).
    package static func executablePath() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 { return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    /// The hidden subcommand's name.
    package static let subcommand = "_case"

    /// Arguments the child gets after the executable path: `command` (the per-case child by
    /// default, or `RoundServer.subcommand`) and its request.
    package static func arguments(spec: CaseSpec, subject: SubjectID, parameters: Parameters,
                                 command: String = subcommand) -> [String] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let s = String(decoding: (try? e.encode(spec)) ?? Data(), as: UTF8.self)
        let p = String(decoding: (try? e.encode(parameters)) ?? Data(), as: UTF8.self)
        return [command, "--subject", subject.rawValue, "--spec", s, "--parameters", p]
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

    /// What a finished child left: its output, or why there is none.
    package enum Outcome {
        /// Exited (any status) with this standard output and the last line of standard error.
        case exited(status: Int32, stdout: Data, lastErrorLine: String)
        /// Ended by a signal.
        case signalled(Int32, lastErrorLine: String)
        /// Killed by the watchdog.
        case timedOut
        /// Could not be started.
        case notStarted(String)
    }

    /// Runs `executable` with `arguments` (and `environment` added to this process's), killing
    /// it after `watchdogSeconds`.
    package static func launch(executable: String, arguments: [String], environment: [String: String] = [:],
                              watchdogSeconds: Int) -> Outcome {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("signals-bench-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try? fm.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = fm.createFile(atPath: outURL.path, contents: nil)
        _ = fm.createFile(atPath: errURL.path, contents: nil)
        guard let out = FileHandle(forWritingAtPath: outURL.path), let err = FileHandle(forWritingAtPath: errURL.path) else {
            return .notStarted("could not create the child's output files")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // The Swift runtime's backtracer would spend seconds symbolicating a stack overflow.
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return .notStarted("could not start the child process: \(error)")
        }
        let deadline = Date().addingTimeInterval(Double(watchdogSeconds))
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return .timedOut
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stderrText = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        let lastLine = stderrText.split(separator: "\n").last.map(String.init) ?? ""
        if process.terminationReason == .uncaughtSignal {
            return .signalled(process.terminationStatus, lastErrorLine: lastLine)
        }
        return .exited(status: process.terminationStatus, stdout: fm.contents(atPath: outURL.path) ?? Data(), lastErrorLine: lastLine)
    }

    /// Runs one case in a child, killing it after `parameters.watchdogSeconds`. `executable`
    /// may be another build's bench (`bench ab`): every bench since the hidden `_case` command
    /// existed takes these arguments and prints one `CaseResult`.
    package static func runCase(spec: CaseSpec, subject: SubjectID, parameters: Parameters,
                               executable: String? = nil, environment: [String: String] = [:]) -> CaseResult {
        let outcome = launch(executable: executable ?? executablePath(),
                             arguments: arguments(spec: spec, subject: subject, parameters: parameters),
                             environment: environment, watchdogSeconds: parameters.watchdogSeconds)
        switch decode(outcome, spec: spec, as: CaseResult.self) {
        case .success(let r): return r
        case .failure(let f):
            var r = CaseResult(spec: spec, subject: subject, status: f.status, reason: f.reason)
            r.isolated = true
            return r
        }
    }

    /// The hidden subcommand that measures several subjects in paired rounds.
    package static let roundsSubcommand = "_rounds"

    /// One launch of paired rounds in a child: every subject's result, or one failure for all.
    package static func runRounds(spec: CaseSpec, subjects: [SubjectID], parameters: Parameters, seed: UInt64,
                                 environment: [String: String] = [:]) -> [CaseResult] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let s = String(decoding: (try? e.encode(spec)) ?? Data(), as: UTF8.self)
        let p = String(decoding: (try? e.encode(parameters)) ?? Data(), as: UTF8.self)
        let args = [roundsSubcommand, "--subjects", subjects.map(\.rawValue).joined(separator: ","),
                    "--spec", s, "--parameters", p, "--seed", String(seed)]
        let outcome = launch(executable: executablePath(), arguments: args, environment: environment,
                             watchdogSeconds: parameters.watchdogSeconds * max(1, subjects.count))
        switch decode(outcome, spec: spec, as: [CaseResult].self) {
        case .success(let r): return r
        case .failure(let f):
            return subjects.map { CaseResult(spec: spec, subject: $0, status: f.status, reason: f.reason) }
        }
    }

    /// Why a child gave no result.
    package struct ChildFailure: Error {
        package var status: CaseStatus
        package var reason: String
    }

    static func decode<T: Decodable>(_ outcome: Outcome, spec: CaseSpec, as: T.Type) -> Result<T, ChildFailure> {
        switch outcome {
        case .notStarted(let why): return .failure(ChildFailure(status: .crashed, reason: why))
        case .timedOut: return .failure(ChildFailure(status: .timedOut, reason: "killed by the watchdog"))
        case .signalled(let sig, let lastLine):
            // A SIGSEGV in the re-entrant workload is the recursion running off the stack (the
            // harness's own code there is a loop); elsewhere, say only what the signal was.
            let what = (sig == SIGSEGV || sig == SIGBUS) && spec.workload == .reentrant
                ? "stack overflow (\(signalName(sig)), signal \(sig))" : "\(signalName(sig)) (signal \(sig))"
            return .failure(ChildFailure(status: .crashed, reason: what + (lastLine.isEmpty ? "" : ": \(lastLine)")))
        case .exited(let status, let data, let lastLine):
            guard !data.isEmpty, let result = try? JSONDecoder().decode(T.self, from: data) else {
                return .failure(ChildFailure(status: .crashed, reason: "exit status \(status)" + (lastLine.isEmpty ? "" : ": \(lastLine)")))
            }
            return .success(result)
        }
    }

    /// Re-executes the current process with jemalloc preloaded (same arguments), so that its
    /// statistics can be read. Returns only on failure.
    package static func reexecWithJemalloc(library: String) -> String {
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
