import Foundation
import SignalsReports

/// The child side of served rounds: one process holds one subject on one case, calibrated and
/// warm, and runs one timed repetition each time its parent asks. `bench ab` keeps one such
/// process per build alive at once and asks them in turn, so the two builds' repetitions
/// alternate moments apart (as the subjects of `bench run` do inside one process), while each
/// build runs in a process of its own.
///
/// The protocol is one line each way, on standard input and output:
///
///     child  → `ready <operations> <warm-up ns/op>`    after calibration and one warm-up
///     parent → `round <operations>`                    run one repetition of that many operations
///     child  → `ok <ns/op>`  or  `fail <status> <reason>`
///     parent → `quit` (or end of input)                 the child exits 0
///
/// While the parent waits on one child, the other is blocked reading its input: it takes no
/// core from the one being measured.
package enum RoundServer {
    /// The hidden subcommand that serves rounds.
    package static let subcommand = "_serve"

    /// Serves rounds on standard input and output until `quit` or end of input.
    package static func serve(subject: any BenchSubject, spec: CaseSpec, parameters: Parameters) {
        let trial = Trial(subject: subject, spec: spec, parameters: parameters)
        func fail() {
            let reason = (trial.result.reason ?? "").replacingOccurrences(of: "\n", with: " ")
            say("fail \(trial.result.status.rawValue) \(reason)")
        }
        guard trial.calibrate(), let warm = trial.once(trial.n) else { return fail() }
        say("ready \(trial.n) \(warm.nsPerOp)")
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard let command = words.first else { continue }
            switch command {
            case "round":
                let n = words.count > 1 ? Int(words[1]) ?? trial.n : trial.n
                guard let r = trial.once(max(1, n)) else { return fail() }
                say("ok \(r.nsPerOp)")
            case "quit":
                return
            default:
                say("fail failed unknown request '\(line)'")
                return
            }
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// The parent side of served rounds: one live child serving one subject on one case.
package final class ServedChild {
    /// What a request to the child gave.
    package enum Reply: Equatable {
        case ok(Double)
        /// The child reported a failure, or died, or did not answer in time.
        case failed(status: CaseStatus, reason: String)
    }

    let process: Process
    let input: FileHandle
    let outputHandle: FileHandle
    var outputFD: Int32 { outputHandle.fileDescriptor }
    var buffer: [UInt8] = []
    var stopped = false
    /// Operations the child calibrated to, and its warm-up figure.
    package private(set) var operations = 0
    package private(set) var warmUpNsPerOp = 0.0
    /// Seconds a request may take before the child is declared hung.
    let watchdogSeconds: Double

    init(process: Process, input: FileHandle, output: FileHandle, watchdogSeconds: Double) {
        self.process = process
        self.input = input
        outputHandle = output
        self.watchdogSeconds = max(1, watchdogSeconds)
    }

    /// Starts `executable`'s `_serve` for `subject` on `spec` and waits for it to be ready.
    /// Returns the failure when it does not become ready (an older bench without `_serve`
    /// exits at once with a usage error: status `.unsupported`).
    package static func start(executable: String, environment: [String: String], spec: CaseSpec, subject: SubjectID,
                             parameters: Parameters) -> Result<ServedChild, ServedFailure> {
        // A child that died must not take the parent with it when it is written to.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ChildProcess.arguments(spec: spec, subject: subject, parameters: parameters,
                                                   command: RoundServer.subcommand)
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let inPipe = Pipe(), outPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            return .failure(ServedFailure(status: .crashed, reason: "could not start \(executable): \(error)"))
        }
        // Keep only our ends open, so the child's exit is seen as the end of its output.
        try? inPipe.fileHandleForReading.close()
        try? outPipe.fileHandleForWriting.close()
        let child = ServedChild(process: process, input: inPipe.fileHandleForWriting, output: outPipe.fileHandleForReading,
                                watchdogSeconds: Double(parameters.watchdogSeconds))
        return child.waitUntilReady()
    }

    private func waitUntilReady() -> Result<ServedChild, ServedFailure> {
        guard let line = readLine() else {
            let why = exitDescription()
            let unsupported = why == "exit status 2" || why == "exit status 64"
            stop()
            return .failure(ServedFailure(status: unsupported ? .unsupported : .crashed, reason: unsupported
                ? "this bench has no served rounds (\(why))" : "ended before it was ready (\(why))"))
        }
        let words = line.split(separator: " ")
        if words.first == "ready", words.count >= 3, let n = Int(words[1]), let w = Double(words[2]) {
            operations = n
            warmUpNsPerOp = w
            return .success(self)
        }
        stop()
        return .failure(Self.failure(from: line))
    }

    static func failure(from line: String) -> ServedFailure {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        if words.first == "fail", words.count >= 2 {
            return ServedFailure(status: CaseStatus(rawValue: words[1]) ?? .failed, reason: words.count > 2 ? words[2] : "")
        }
        return ServedFailure(status: .crashed, reason: "unexpected reply '\(line.prefix(200))'")
    }

    /// Runs one repetition of `operations` operations.
    package func round(operations: Int) -> Reply {
        send("round \(operations)")
        guard let line = readLine() else {
            return .failed(status: .crashed, reason: "ended during a round (\(exitDescription()))")
        }
        if line.hasPrefix("ok "), let v = Double(line.dropFirst(3)) { return .ok(v) }
        let f = Self.failure(from: line)
        return .failed(status: f.status, reason: f.reason)
    }

    /// Asks the child to exit, and waits for it (killing it if it does not go).
    package func stop() {
        guard !stopped else { return }
        send("quit")
        stopped = true
        try? input.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? outputHandle.close()
    }

    private func send(_ line: String) {
        guard !stopped else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input.fileDescriptor, $0.baseAddress, $0.count) }
    }

    /// The next line of the child's output, or nil at its end or after the watchdog.
    func readLine() -> String? {
        let deadline = Date().addingTimeInterval(watchdogSeconds)
        while true {
            if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                kill(process.processIdentifier, SIGKILL)
                return nil
            }
            var fds = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(outputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// How the child ended ("exit status N", "signal N"), waiting briefly for it to end.
    func exitDescription() -> String {
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        if process.isRunning { return "still running" }
        return process.terminationReason == .uncaughtSignal
            ? "\(ChildProcess.signalName(process.terminationStatus))"
            : "exit status \(process.terminationStatus)"
    }
}

/// Why a served child gave no figure.
package struct ServedFailure: Error, Equatable {
    package var status: CaseStatus
    package var reason: String
}
