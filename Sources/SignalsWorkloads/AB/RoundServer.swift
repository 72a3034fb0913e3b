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
///
/// The child runs in a process group of its own (`GroupProcess`): stopping it kills the group,
/// so a build that forks (a wrapper, a helper left holding the output pipe) cannot keep
/// `bench ab` waiting. Every wait for a reply is bounded by the watchdog and by `deadline`.
package final class ServedChild {
    /// What a request to the child gave.
    package enum Reply: Equatable {
        case ok(Double)
        /// The child reported a failure, or died, or did not answer in time.
        case failed(status: CaseStatus, reason: String)
    }

    let process: GroupProcess
    var buffer: [UInt8] = []
    var stopped = false
    /// Why the last `readLine` gave nil because of time ("no answer within 60 s"), else nil.
    var timeoutReason: String?
    /// Operations the child calibrated to, and its warm-up figure.
    package private(set) var operations = 0
    package private(set) var warmUpNsPerOp = 0.0
    /// Seconds a request may take before the child is declared hung.
    let watchdogSeconds: Double
    /// No wait lasts past this moment (`bench ab`: the budget plus `ABRunner.overrunMargin`).
    let deadline: Date?

    init(process: GroupProcess, watchdogSeconds: Double, deadline: Date?) {
        self.process = process
        self.watchdogSeconds = max(1, watchdogSeconds)
        self.deadline = deadline
    }

    deinit { stop() }

    /// Starts `executable`'s `_serve` for `subject` on `spec` and waits for it to be ready.
    /// Returns the failure when it does not become ready (an older bench without `_serve`
    /// exits at once with a usage error: status `.unsupported`). No wait lasts past
    /// `deadline`: then the child's process group is killed and the failure is `.timedOut`.
    package static func start(executable: String, environment: [String: String], spec: CaseSpec, subject: SubjectID,
                             parameters: Parameters, deadline: Date? = nil) -> Result<ServedChild, ServedFailure> {
        // A child that died must not take the parent with it when it is written to.
        signal(SIGPIPE, SIG_IGN)
        if let deadline, deadline.timeIntervalSinceNow <= 0 {
            return .failure(ServedFailure(status: .timedOut, reason: "not started: the time allowed (--budget plus its margin) was spent"))
        }
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (k, v) in environment { env[k] = v }
        let arguments = ChildProcess.arguments(spec: spec, subject: subject, parameters: parameters, command: RoundServer.subcommand)
        switch GroupProcess.spawn(executable: executable, arguments: arguments, environment: env, pipeInput: true, errors: .null) {
        case .failure(let why):
            return .failure(ServedFailure(status: .crashed, reason: why.description))
        case .success(let process):
            let child = ServedChild(process: process, watchdogSeconds: Double(parameters.watchdogSeconds), deadline: deadline)
            return child.waitUntilReady()
        }
    }

    private func waitUntilReady() -> Result<ServedChild, ServedFailure> {
        guard let line = readLine() else {
            if let timeoutReason {
                stop()
                return .failure(ServedFailure(status: .timedOut, reason: "not ready: \(timeoutReason)"))
            }
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
            if let timeoutReason { return .failed(status: .timedOut, reason: "during a round: \(timeoutReason)") }
            return .failed(status: .crashed, reason: "ended during a round (\(exitDescription()))")
        }
        if line.hasPrefix("ok "), let v = Double(line.dropFirst(3)) { return .ok(v) }
        let f = Self.failure(from: line)
        return .failed(status: f.status, reason: f.reason)
    }

    /// Asks the child to exit and waits for it briefly (at most 5 s, and never past the
    /// deadline), then kills its process group: nothing it started outlives it.
    package func stop() {
        guard !stopped else { return }
        send("quit")
        stopped = true
        process.closeInput()
        var until = Date().addingTimeInterval(5)
        if let deadline, deadline < until { until = max(Date(), deadline) }
        process.wait(until: until)
        process.closeStreams()
    }

    private func send(_ line: String) {
        guard !stopped else { return }
        process.send(line)
    }

    /// The next line of the child's output, or nil at its end or at the watchdog or deadline
    /// (then `timeoutReason` says which, and the child's group has been killed).
    func readLine() -> String? {
        timeoutReason = nil
        var until = Date().addingTimeInterval(watchdogSeconds)
        var why = "no answer within the watchdog's \(Int(watchdogSeconds)) s"
        if let deadline, deadline < until {
            until = deadline
            why = "no answer before the time allowed ran out (--budget plus \(Int(ABRunner.overrunMargin)) s)"
        }
        while true {
            if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            // In slices of a second: a child that exited while something it started holds
            // its output open gives no end of file; its group is killed instead of waited on.
            switch process.read(until: min(until, Date().addingTimeInterval(1))) {
            case .data(let d): buffer += d
            case .end: return nil
            case .timedOut:
                if !process.isRunning {
                    process.killGroup()
                    return nil
                }
                if Date() < until { continue }
                process.killGroup()
                timeoutReason = why
                return nil
            }
        }
    }

    /// How the child ended ("exit status N", "signal N"), waiting briefly for it to end.
    func exitDescription() -> String {
        process.wait(until: Date().addingTimeInterval(5))
        return process.exitDescription
    }
}

/// Why a served child gave no figure.
package struct ServedFailure: Error, Equatable {
    package var status: CaseStatus
    package var reason: String
}
